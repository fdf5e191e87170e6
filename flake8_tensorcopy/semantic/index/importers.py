"""Whether any other file of a project may import a module: a function's every caller is visible
in its own file only when none does (TEN501 proves grad mode on inside such a function).

Read from the text, never parsed: the words of every import statement of every project file
(parenthesised and continued imports included, at the start of a line or after ``;``, indented
or not), and whether a file imports by a computed name (``import_module(``, ``__import__(``,
``runpy``, ``exec(``, a loader from a file path), which may import anything. A superset: a docstring showing an import counts too.
An analysis that used the answer depends on the whole project, so a results cache stores nothing
for it (``ProjectIndex.whole_project``); answers are kept ``_TTL`` seconds, as the index keeps
"module not found".
"""
from __future__ import annotations

import os
import re
import time
from typing import Dict, FrozenSet, List, Optional, Tuple

from ...files import iter_files
from ...syntax.patterns import compile_pattern

#: the files of a project past which no answer is attempted (the answer is then "maybe")
MAX_FILES = 5000
_TTL = 1.0
_IMPORT = compile_pattern(
    r"(?:^|;)[ \t]*(?:from[ \t]+[\w.]+[ \t]+import\b|import\b)"
    r"(?:[^\n(\\]|\\\n)*(?:\([^)]*\))?", re.M)
_DYNAMIC = compile_pattern(r"\b(?:(?:import_module|__import__|exec|execfile)\s*\(|runpy\b|run_path\b|"
                      r"SourceFileLoader\b|spec_from_file_location\b)")
_WORD = compile_pattern(r"\w+")
_NOTEBOOK_IMPORT = compile_pattern(r"(?:from|import)\b[^\n]*")

#: root -> (when read, [(path, import words, imports by a computed name)])
_READ: Dict[str, Tuple[float, List[Tuple[str, FrozenSet[str], bool]]]] = {}


def _words(text: str, notebook: bool) -> Tuple[FrozenSet[str], bool]:
    pattern = _NOTEBOOK_IMPORT if notebook else _IMPORT
    words = set()
    for m in pattern.finditer(text):
        words.update(_WORD.findall(m.group()))
    return frozenset(words), _DYNAMIC.search(text) is not None


def import_words(text: str) -> FrozenSet[str]:
    """The words of every import statement of a module's text (``from a.b import C`` gives
    ``from``, ``a``, ``b``, ``import``, ``C``)."""
    return _words(text, False)[0]


def _project(root: str) -> Optional[List[Tuple[str, FrozenSet[str], bool]]]:
    now = time.monotonic()
    hit = _READ.get(root)
    if hit is not None and now - hit[0] < _TTL:
        return hit[1]
    out: List[Tuple[str, FrozenSet[str], bool]] = []
    for path, _ in iter_files([root], suffixes=(".py", ".pyi", ".ipynb")):
        if len(out) >= MAX_FILES:
            return None
        try:
            with open(path, "rb") as fh:
                text = fh.read().decode("utf-8", "replace")
        except OSError:
            continue
        words, dynamic = _words(text, path.endswith(".ipynb"))
        out.append((os.path.abspath(path), words, dynamic))
    _READ[root] = (now, out)
    return out


def imported_elsewhere(path: str, root: Optional[str]) -> bool:
    """May a file of the project under ``root`` (None: ``path``'s folder) other than ``path``
    import ``path``'s module? True when one names it in an import statement, imports by a
    computed name, or the project is too large to read; False only when none can."""
    path = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem in ("__init__", "__main__"):
        return True  # a package's own module, or what ``python -m`` runs: not judged
    files = _project(root or os.path.dirname(path))
    if files is None:
        return True
    named = stem.isidentifier()  # ``train-gan.py`` is imported by a computed name only
    return any(other != path and ((named and stem in words) or dynamic)
               for other, words, dynamic in files)
