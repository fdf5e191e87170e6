"""Finding the files to lint: ``*.py``/``*.pyi`` under directories, minus excludes and .gitignore."""
from __future__ import annotations

import fnmatch
import functools
import os
import re
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", "env", "__pycache__", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", "build", "dist", "node_modules", "site-packages", ".eggs",
    "*.egg-info", ".ipynb_checkpoints",
)
SOURCE_SUFFIXES = (".py", ".pyi")
#: a path's state among what an analysis depended on (the project index's ``find_root``
#: evidence, the results cache's entries): it exists, whatever it holds (a ``.git`` folder);
#: ``None`` there: it does not exist; any other state is the SHA-256 of the file's bytes
PRESENT = "present"


def _read_gitignore(directory: str) -> List[Tuple[str, bool]]:
    path = os.path.join(directory, ".gitignore")
    patterns: List[Tuple[str, bool]] = []
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for raw in fh:
                line = raw.strip()
                if not line or line.startswith("#") or line.startswith("!"):
                    continue
                dir_only = line.endswith("/")
                patterns.append((line.strip("/"), dir_only))
    except OSError:
        pass
    return patterns


def _anchored(pattern: str) -> str:
    """A pattern written from the top (``./build``, ``/build``) as a path relative to it."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return pattern.lstrip("/")


def _compiled(names: List[str], rels: List[str]) -> Callable[[str, str], bool]:
    """``(name, rel)`` -> does a regex of ``names`` match the entry's name or one of ``rels`` its
    path from the top (no patterns: never)? Case and separators folded where
    ``fnmatch.fnmatch`` folds them."""
    if not names:
        return lambda name, rel: False
    by_name = re.compile("|".join(names)).match
    by_rel = re.compile("|".join(rels)).match
    if os.name == "nt":
        norm = os.path.normcase
        return lambda name, rel: by_name(norm(name)) is not None or by_rel(norm(rel)) is not None
    return lambda name, rel: by_name(name) is not None or by_rel(rel) is not None


@functools.lru_cache(maxsize=64)
def _matcher(patterns: Tuple[str, ...]) -> Callable[[str, str], bool]:
    """One compiled test for many exclude patterns: does a pattern match the entry's ``name``,
    its path ``rel`` from the top, or a directory ``rel`` lies in?"""
    names: List[str] = []
    rels: List[str] = []
    norm = os.path.normcase
    for pat in patterns:
        pat = pat.rstrip("/")
        top = _anchored(pat)
        names.append(fnmatch.translate(norm(pat)))
        rels += [fnmatch.translate(norm(pat)), fnmatch.translate(norm(top + "/*")),
                 re.escape(norm(top)) + r"\Z"]
    return _compiled(names, rels)


@functools.lru_cache(maxsize=64)
def _either(patterns: Tuple[str, ...]) -> Callable[[str, str], bool]:
    """One compiled test for ``.gitignore`` lines: does a pattern match the entry's ``name`` or
    its path ``rel`` from the top?"""
    regexes = [fnmatch.translate(os.path.normcase(p)) for p in patterns]
    return _compiled(regexes, regexes)


def _matches(name: str, rel: str, patterns: Sequence[str]) -> bool:
    return _matcher(tuple(patterns))(name, rel)


def iter_files(paths: Sequence[str], exclude: Sequence[str] = (),
               suffixes: Sequence[str] = SOURCE_SUFFIXES,
               errors: Optional[List[Tuple[str, str]]] = None) -> Iterator[Tuple[str, bool]]:
    """Yield (path, explicit). Explicitly named files are always yielded (and then checked for
    existence by the caller); directories are walked. A directory that cannot be read is
    appended to ``errors`` as (path, reason) instead of being skipped silently."""

    def unreadable(exc: OSError) -> None:
        if errors is not None:
            errors.append((exc.filename or "?", exc.strerror or str(exc)))

    suffixes = tuple(suffixes)
    by_default, by_option = _matcher(DEFAULT_EXCLUDES), _matcher(tuple(exclude))
    for root in paths:
        if root == "-" or not os.path.isdir(root):
            yield root, True
            continue
        base = os.path.abspath(root)
        ignores = _read_gitignore(base)
        ignored = _either(tuple(p for p, _ in ignores))
        ignored_file = _either(tuple(p for p, dir_only in ignores if not dir_only))
        for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable):
            rel_dir = os.path.relpath(os.path.abspath(dirpath), base).replace(os.sep, "/")
            rel_dir = "" if rel_dir == "." else rel_dir + "/"
            keep = []
            for d in sorted(dirnames):
                rel = rel_dir + d
                if by_default(d, rel) or by_option(d, rel) or ignored(d, rel):
                    continue
                if os.path.islink(os.path.join(dirpath, d)):
                    continue
                keep.append(d)
            dirnames[:] = keep
            for f in sorted(filenames):
                if not f.endswith(suffixes):
                    continue
                rel = rel_dir + f
                if by_option(f, rel) or ignored_file(f, rel):
                    continue
                yield os.path.join(dirpath, f), False


def excluded(path: str, root: str, patterns: Sequence[str]) -> bool:
    """Would a directory walk from ``root`` skip ``path`` (by ``patterns`` or the defaults)?
    For front ends handed one file at a time (the language server)."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root)).replace(os.sep, "/")
    if rel.startswith("../"):
        return False
    parts = rel.split("/")
    for i, name in enumerate(parts):
        sub = "/".join(parts[: i + 1])
        if _matches(name, sub, patterns) or (i < len(parts) - 1 and _matches(
                name, sub, DEFAULT_EXCLUDES)):
            return True
    return False
