"""Results of ``tensorcopy check`` / ``tensorcopy fix`` kept between runs (as ruff and mypy do).

Where: ``.tensorcopy_cache/`` at the project root (the folder of the pyproject.toml in use, else
the working directory), with a ``.gitignore`` of ``*`` inside. One JSON file per linted path
under a folder named after everything the results depend on besides the file itself:

* the command's mode (``check`` or ``fix``) and settings: select, ignore, per-file ignores,
  tensor names and factories, unsafe fixes;
* this package's version, a fingerprint of its installed source (size and mtime of each module,
  so an edited checkout never serves stale results) and the Python minor version.

An entry holds the path, the SHA-256 of the file's bytes, the project-index dependencies of the
file and the result. A dependency is a project module the analysis read, with the SHA-256 of the
bytes it read (taken when it read them, in the process that analysed the file: a module saved
during the run, or replaced by one with the same mtime and size, is a miss next time), or a file
an import was looked for in and not found (it must still not exist: also the root's ``src/``
where there is none yet), or a path whose existence decided where an importer's project starts
(the project markers looked for, ``.git`` included: ``git init app`` moves ``app/``'s root; it
must still exist, or still not). A hit needs the same path, the same bytes and every dependency
as it was. Settings that change what the index resolves (source roots, the working directory:
a file's root where no marker is) are part of the folder's name; a result with a note (a refused write, a file that
changed on disk) is never stored, so the next run tries again.

Writes go through a temporary file and ``os.replace``, so parallel runs and workers never see a
half-written entry (only the main process reads and writes); a temporary file a killed run left
is removed by the next run that writes (``writes.remove_orphans``). A corrupt entry (bad JSON, or any
field of another shape than the one written: checked field by field) is a miss, with one
warning line, and is rewritten; an
unreadable or unwritable cache turns the cache off for the run with one warning line.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import __version__
from .diagnostics import SAFE, UNSAFE, Diagnostic, Edit, Fix
from .files import PRESENT
from .writes import named_temporary, remove_orphans

DIRNAME = ".tensorcopy_cache"
FORMAT = 3


#: ``path -> [(file, SHA-256 of what was read there, or None: looked for, not found, or
#: files.PRESENT: must exist)]``, the door's ``lint.dependency_states``; replaced in tests;
#: resolved on first use (the project index
#: is not imported for a cache hit)
dependencies: Optional[Callable[[str], List[Tuple[str, Optional[str]]]]] = None


def states_of(path: str) -> Optional[List[List[Any]]]:
    """What the analysis of ``path`` just made depended on, asked in the process that made it,
    right after it (``FileResult.deps``); None when the index cannot tell (then nothing is
    stored for the file)."""
    global dependencies
    if dependencies is None:
        from .lint import dependency_states

        dependencies = dependency_states
    apath = os.path.abspath(path)
    try:
        return sorted([os.path.abspath(d), h] for d, h in dependencies(apath)
                      if os.path.abspath(d) != apath)
    except Exception:  # the project index is best effort here: no entry rather than a wrong one
        return None


def _package_fingerprint() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    h = hashlib.sha256()
    for dirpath, dirnames, files in os.walk(here):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                try:
                    st = os.stat(os.path.join(dirpath, name))
                except OSError:
                    continue
                h.update(f"{os.path.relpath(os.path.join(dirpath, name), here)}:{st.st_size}:"
                         f"{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def _diag_to_json(d: Diagnostic) -> list:
    fix = None
    if d.fix is not None:
        fix = [d.fix.description, d.fix.safety, [[e.start, e.end, e.text] for e in d.fix.edits]]
    return [d.code, d.message, d.line, d.column, d.end_line, d.end_column, fix]


def _diag_from_json(v: Any) -> Diagnostic:
    """A stored diagnostic; ValueError for anything not of the shape ``_diag_to_json`` writes."""
    if not (isinstance(v, list) and len(v) == 7):
        raise ValueError("a diagnostic is not a list of 7")
    code, message, line, column, end_line, end_column, fix = v
    if not (_all(str, code, message) and _all(int, line, column, end_line, end_column)):
        raise ValueError("a diagnostic field has the wrong type")
    f = None
    if fix is not None:
        if not (isinstance(fix, list) and len(fix) == 3 and _all(str, fix[0], fix[1])
                and fix[1] in (SAFE, UNSAFE) and isinstance(fix[2], list)):
            raise ValueError("a fix is malformed")
        edits = []
        for e in fix[2]:
            if not (isinstance(e, list) and len(e) == 3 and _all(int, e[0], e[1])
                    and isinstance(e[2], str)):
                raise ValueError("an edit is malformed")
            edits.append(Edit(e[0], e[1], e[2]))
        f = Fix(fix[0], fix[1], tuple(edits))
    return Diagnostic(code, message, line, column, end_line, end_column, f)


def _all(kind: type, *values: Any) -> bool:
    """Is every value a ``kind`` (an int: not a bool)?"""
    return all(isinstance(v, kind) and not isinstance(v, bool) for v in values)


def _result_from_json(result: Any) -> dict:
    """A stored result (diagnostics, syntax_error, cells), checked field by field: ValueError
    for any other shape (a corrupt entry), never a wrong answer or an exception later."""
    if not isinstance(result, dict) or not isinstance(result.get("diagnostics"), list):
        raise ValueError("no list of diagnostics")
    syntax_error, cells = result.get("syntax_error"), result.get("cells")
    if syntax_error is not None and not isinstance(syntax_error, str):
        raise ValueError("syntax_error is not a string")
    if cells is not None:
        if not (isinstance(cells, list) and all(
                isinstance(c, list) and len(c) == 2 and _all(int, *c) for c in cells)):
            raise ValueError("cells is not a list of [cell, line] pairs")
        cells = [tuple(c) for c in cells]
    return {"diagnostics": [_diag_from_json(d) for d in result["diagnostics"]],
            "syntax_error": syntax_error, "cells": cells or None}


def _deps_ok(deps: Any) -> bool:
    return isinstance(deps, list) and all(
        isinstance(d, list) and len(d) == 2 and isinstance(d[0], str)
        and (d[1] is None or isinstance(d[1], str)) for d in deps)


def _read_file(path: str) -> bytes:
    """The bytes of the regular file ``path``, without ever blocking: OSError for anything
    else (a FIFO or a device put where a file was)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        return fh.read()


class Cache:
    """The cache of one run; ``warning`` holds the one line to print if it had to turn off."""

    def __init__(self, root: str, mode: str, settings: Dict[str, Any]) -> None:
        key = json.dumps({"format": FORMAT, "mode": mode, "version": __version__,
                          "package": _package_fingerprint(),
                          "python": list(sys.version_info[:2]), "settings": settings},
                         sort_keys=True)
        self.base = os.path.join(os.path.abspath(root), DIRNAME)
        self.dir = os.path.join(self.base, hashlib.sha256(key.encode()).hexdigest()[:20])
        self.enabled = True
        self.warning: Optional[str] = None
        self._ready = False
        self._hashes: Dict[str, str] = {}
        self._there: Dict[str, bool] = {}

    # -- reading --------------------------------------------------------------------------------
    def _entry(self, path: str) -> str:
        return os.path.join(self.dir, hashlib.sha256(path.encode("utf-8", "surrogateescape"))
                            .hexdigest()[:32] + ".json")

    def _hash(self, path: str) -> Optional[str]:
        """The SHA-256 of ``path``'s bytes, once per run (None: it cannot be read)."""
        if path not in self._hashes:
            self._hashes[path] = self._digest(path)  # type: ignore[assignment]
        return self._hashes[path]

    @staticmethod
    def _digest(path: str) -> Optional[str]:
        try:
            return hashlib.sha256(_read_file(path)).hexdigest()
        except (OSError, ValueError):  # ValueError: a stored path with a NUL in it
            return None

    def get(self, path: str) -> Optional[dict]:
        """The stored result for ``path`` if nothing it depends on changed, else None."""
        if not self.enabled or path == "-":
            return None
        apath = os.path.abspath(path)
        digest = self._digest(apath)
        if digest is None:
            return None  # unreadable: the lint step reports it
        self._hashes[apath] = digest
        try:
            entry = json.loads(_read_file(self._entry(apath)))
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            self._off(f"{self.base} is not a directory")
            return None
        except PermissionError as exc:
            self._off(f"cannot read {self.base}: {exc.strerror}")
            return None
        except (OSError, ValueError, RecursionError):  # RecursionError: JSON nested too deep
            self._corrupt(apath)  # a miss; the write after the analysis replaces it
            return None
        if not (isinstance(entry, dict) and isinstance(entry.get("path"), str)
                and isinstance(entry.get("sha256"), str) and _deps_ok(entry.get("deps"))):
            self._corrupt(apath)
            return None
        if entry["path"] != apath or entry["sha256"] != digest:
            return None  # an entry for other content: a plain miss
        try:
            result = _result_from_json(entry.get("result"))
        except ValueError:
            self._corrupt(apath)
            return None
        for dep, state in entry["deps"]:
            if state is None or state == PRESENT:
                if self._exists(dep) != (state == PRESENT):  # created, or gone
                    return None
            elif self._hash(dep) != state:
                return None
        return result

    def _exists(self, path: str) -> bool:
        """Is there anything at ``path`` (a file, a folder, a link), once per run?"""
        got = self._there.get(path)
        if got is None:
            try:
                got = self._there[path] = os.path.lexists(path)
            except ValueError:  # a stored path with a NUL in it
                got = self._there[path] = False
        return got

    # -- writing --------------------------------------------------------------------------------
    def put(self, path: str, result: dict, deps: Optional[List[List[Any]]]) -> None:
        """Store ``result`` (diagnostics, syntax_error, cells) for ``path`` as it was read by
        ``get``, with ``deps`` (``states_of``: what the analysis read, as it read it); nothing if
        the file changed meanwhile, the dependencies are unknown or the cache is off."""
        if not self.enabled or path == "-" or deps is None:
            return
        apath = os.path.abspath(path)
        digest = self._hashes.get(apath)
        if digest is None or self._digest(apath) != digest:
            return
        entry = {"path": apath, "sha256": digest, "deps": deps,
                 "result": dict(result, diagnostics=[_diag_to_json(d) for d in result["diagnostics"]])}
        try:
            self._prepare()
            fd, tmp = named_temporary(self.dir)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump(entry, fh, separators=(",", ":"))
                try:
                    os.replace(tmp, self._entry(apath))
                except IsADirectoryError:  # an (empty) directory where the entry goes
                    os.rmdir(self._entry(apath))
                    os.replace(tmp, self._entry(apath))
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError as exc:
            self._off(f"cannot write {self.base}: {exc.strerror or exc}")

    def _prepare(self) -> None:
        if self._ready:
            return
        os.makedirs(self.dir, exist_ok=True)
        remove_orphans([self.base, self.dir])  # what a run killed while writing left
        ignore = os.path.join(self.base, ".gitignore")
        if not os.path.exists(ignore):
            fd, tmp = named_temporary(self.base)
            with os.fdopen(fd, "w") as fh:
                fh.write("# created by tensorcopy: the cache is not for version control\n*\n")
            os.replace(tmp, ignore)
        self._ready = True

    def _corrupt(self, path: str) -> None:
        if self.warning is None:
            self.warning = (f"tensorcopy: warning: ignored a corrupt cache entry (for {path}) "
                            f"in {self.base}; the files were analysed again")

    def _off(self, why: str) -> None:
        self.enabled = False
        if self.warning is None:
            self.warning = f"tensorcopy: warning: cache disabled for this run: {why}"


def for_run(args, cfg, mode: str, select: Sequence[str], ignore: Sequence[str],
            unsafe: bool) -> Optional[Cache]:
    """The cache for a ``check``/``fix`` run, or None with ``--no-cache``."""
    if getattr(args, "no_cache", False):
        return None
    settings = {"select": sorted(select or []), "ignore": sorted(ignore or []),
                "per_file_ignores": {k: sorted(v) for k, v in cfg.per_file_ignores.items()},
                "tensor_names": sorted(cfg.tensor_names),
                "tensor_factories": sorted(cfg.tensor_factories), "unsafe": bool(unsafe),
                # what the project index resolves imports under
                "source_roots": sorted(os.path.normpath(os.path.join(cfg.root, r))
                                       for r in cfg.source_roots),
                # where no project marker is, the working directory is a file's project root
                "cwd": _cwd()}
    return Cache(cfg.root, mode, settings)


def _cwd() -> Optional[str]:
    try:
        return os.getcwd()
    except OSError:
        return None
