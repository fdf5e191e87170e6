"""Where a project starts and what its files hold: the project root of a file, the homes of a
package imported by absolute name, and the digest of a module's bytes (what a results cache
compares). Plain functions of paths and bytes, for the project index (``resolve``)."""
from __future__ import annotations

import os
from collections import OrderedDict
from typing import Callable, List, Optional, Tuple

from ...files import PRESENT

#: bytes: larger modules are not read (generated code)
MAX_FILE = 2_000_000
#: seconds a "module not found" answer (and every answer kept as it is) is reused: see
#: ``ProjectIndex.find_module``; read at each use, so that a test may set it
TTL = 1.0


_SHA256 = None


def digest(data: bytes) -> str:
    """SHA-256 of ``data`` in hex (what a results cache compares). The implementation is imported
    when the index first reads a module: an editor's run on a file that imports nothing of its
    project never pays for it. CPython's own, without hashlib's OpenSSL (+2.5 ms, +3.7 MB)."""
    global _SHA256
    if _SHA256 is None:
        try:
            from _sha256 import sha256 as impl  # 3.9 - 3.11
        except ImportError:  # pragma: no cover - 3.12+, or a Python without it
            try:
                from _sha2 import sha256 as impl  # type: ignore[no-redef]
            except ImportError:
                from hashlib import sha256 as impl  # type: ignore[no-redef]
        _SHA256 = impl
    return _SHA256(data).hexdigest()


MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
OUTSIDE = ("site-packages", "dist-packages")


def find_root(path: str, listing: Optional[Callable[[str], frozenset]] = None,
              evidence: Optional[List[Tuple[str, Optional[str]]]] = None) -> Optional[str]:
    """The project root of ``path``: the nearest ancestor holding a project marker; without one,
    the working directory when the file is under it (the linted root: where flake8 and
    ``tensorcopy check`` run), else the outermost directory of the file's package chain (a
    directory of loose scripts: itself). ``listing``: the names in a folder, when the caller
    keeps them (the index does): a marker is looked for on disk only where it is listed.
    ``evidence``: gets ``(path, PRESENT or None)`` for each path whose existence decided the
    answer (the markers looked for below the root and the one found there, the package chain's
    ``__init__.py`` files): creating or removing any of them may move the root (``git init``
    in a subfolder). The working directory, which decides it where no marker does, is not in
    it: a results cache keys on it."""
    note = evidence.append if evidence is not None else (lambda _: None)
    d = os.path.dirname(os.path.abspath(path))
    probe = d
    while True:
        # (an empty listing may be a folder that cannot be listed: its markers are stat-ed)
        names = (listing(probe) or None) if listing is not None else None
        for m in MARKERS:
            marker = os.path.join(probe, m)
            if (names is None or m in names) and os.path.exists(marker):
                note((marker, PRESENT))
                return probe
            note((marker, None))
        parent = os.path.dirname(probe)
        if parent == probe or os.path.basename(probe) in OUTSIDE:
            break
        probe = parent
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = None
    if cwd and cwd != os.path.dirname(cwd) and within(d + os.sep, cwd) and not any(
            part in OUTSIDE for part in d[len(cwd):].split(os.sep)):
        return cwd
    top = d
    while True:
        init = os.path.join(top, "__init__.py")
        if not os.path.isfile(init):
            note((init, None))
            break
        note((init, PRESENT))
        parent = os.path.dirname(top)
        if parent == top or os.path.basename(parent) in OUTSIDE:
            break
        if not os.path.isfile(os.path.join(parent, "__init__.py")):
            note((os.path.join(parent, "__init__.py"), None))
            break
        top = parent
    return top


#: how far up from a file an absolute import may find its project's own package
HOME_LEVELS = 4


def package_homes(folder: str, dotted: str,
                  package_init: Callable[[str, str], Optional[str]]) -> List[str]:
    """Ancestors of ``folder`` (the importing file's absolute folder), and their ``src``, that
    hold ``dotted``'s top-level package as a directory with an ``__init__.py``: a project's
    tests or scripts importing the project
    (``tests/geometry/test_boxes.py``: ``from kornia.geometry.boxes import Boxes3D``) when no
    project marker says where the project starts. Never above site-packages.
    ``package_init(base, name)``: ``base/name/__init__.py`` if it is a file
    (``ProjectIndex._package_init``)."""
    top = dotted.split(".", 1)[0]
    homes: List[str] = []
    d = folder
    for _ in range(HOME_LEVELS):
        parent = os.path.dirname(d)
        if parent == d or os.path.basename(d) in OUTSIDE:
            break
        d = parent
        if os.path.basename(d) in OUTSIDE:
            break
        for base in (d, os.path.join(d, "src")):
            if package_init(base, top):
                homes.append(base)
    return homes


def mtime(path: str) -> Optional[int]:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def within(path: str, root: str) -> bool:
    root = root.rstrip(os.sep) + os.sep
    return path.startswith(root)


def watched_folder(folder: str) -> Tuple[str, Optional[int]]:
    """``folder`` and its mtime if it exists, else its nearest existing parent and that one's
    (creating the folder, or a parent of it, changes the mtime of the parent it is created
    in)."""
    path = folder
    while True:
        state = mtime(path)
        parent = os.path.dirname(path)
        if state is not None or parent == path:
            return path, state
        path = parent


def digest_now(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as fh:
            return digest(fh.read())
    except OSError:
        return None


class Kept(OrderedDict):
    """The modules the index keeps, path -> (mtime_ns, size, facts), least recently used
    first, with the sum of their sizes kept up to date (``bytes``): the index trims to a bound
    before and after each file, and summing every entry each time cost 2% of the plugin's own
    time on the dense corpus."""

    def __init__(self) -> None:
        super().__init__()
        self.bytes = 0

    def __setitem__(self, path, entry) -> None:
        old = self.get(path)
        if old is not None:
            self.bytes -= old[1]
        super().__setitem__(path, entry)
        self.bytes += entry[1]

    def __delitem__(self, path) -> None:
        self.bytes -= self[path][1]
        super().__delitem__(path)

    def pop(self, path, *default):
        if path in self:
            self.bytes -= self[path][1]
        return super().pop(path, *default)

    def popitem(self, last: bool = True):
        item = super().popitem(last)
        self.bytes -= item[1][1]
        return item

    def clear(self) -> None:
        super().clear()
        self.bytes = 0
