"""The package's regular expressions, compiled once per interpreter rather than once per process.

``re.compile`` parses a pattern and turns it into the regular expression engine's code in
Python, tens of microseconds a pattern: an editor's run of flake8 on a training script compiled
36 of this package's patterns, about 3.5 ms of the plugin's 35. That code depends only on the
pattern, its flags and the interpreter, so it is kept the way Python keeps bytecode: in a file
beside this module's own compiled bytecode (``importlib.util.cache_from_source``: the
``__pycache__`` folder, or under ``PYTHONPYCACHEPREFIX``), one file per interpreter build, and a
pattern is made from it by ``_sre.compile``, the call ``re.compile`` itself ends with.

Never a stale or a wrong answer: an entry is stored only after the pattern made from it compared
equal to ``re.compile``'s (``Pattern.__eq__`` compares the pattern, the flags and the code), it
is looked up by the exact pattern and flags, and the file is read only when its header names
this very interpreter (``sys.version``, ``_sre.MAGIC``, ``_sre.CODESIZE``) and its checksum
holds. Anything else (another Python, no ``_sre``, an unreadable, corrupt or unwritable file)
falls back to ``re.compile``, silently. New entries are written when the process exits (not in
the workers flake8 forks, which never run exit handlers), merged with what the file holds then,
through a temporary file in the same folder renamed over it: readers see the old file or the new.

Only fixed patterns belong here (a module's constants, ``LazyPattern``): one built from a name
found in the code being linted would grow the file without end.
"""
from __future__ import annotations

import marshal
import os
import re
import sys
import zlib
from typing import Dict, Optional, Tuple

try:
    import _sre
    try:
        from re import _compiler as _codegen, _parser as _parse  # Python 3.11 and later
    except ImportError:  # pragma: no cover - Python 3.9 and 3.10
        import sre_compile as _codegen  # type: ignore[no-redef]
        import sre_parse as _parse  # type: ignore[no-redef]
except ImportError:  # pragma: no cover - not CPython
    _sre = None  # type: ignore[assignment]

#: the file's layout; a file of another is not read
FORMAT = 1

Key = Tuple[str, int]
#: what ``_sre.compile`` takes after the pattern: flags, code, groups, group index, index group
Entry = Tuple[int, list, int, dict, tuple]

#: the entries read from the file (None: not read yet)
_entries: Optional[Dict[Key, Entry]] = None
#: the entries this process made, to be written at its exit
_made: Dict[Key, Entry] = {}


def compile_pattern(pattern: str, flags: int = 0) -> "re.Pattern[str]":
    """``re.compile(pattern, flags)``, from the kept code where there is one."""
    flags = int(flags)
    entries = _entries if _entries is not None else _load()
    key = (pattern, flags)
    entry = entries.get(key)
    if entry is not None:
        try:
            return _sre.compile(pattern, *entry)
        except Exception:  # noqa: BLE001 - an entry that does not fit: compile it
            entries.pop(key, None)
    compiled = re.compile(pattern, flags)
    entry = _entry(pattern, flags, compiled)
    if entry is not None:
        if not _made:
            import atexit

            atexit.register(save)
        entries[key] = _made[key] = entry
    return compiled


def _entry(pattern: str, flags: int, compiled: "re.Pattern[str]") -> Optional[Entry]:
    """The arguments ``_sre.compile`` makes ``compiled`` from, or None where they cannot be
    told or do not make exactly that pattern."""
    if _sre is None or flags & re.DEBUG:
        return None
    try:
        parsed = _parse.parse(pattern, flags)
        code = [int(op) for op in _codegen._code(parsed, flags)]
        state = parsed.state
        groupindex = dict(state.groupdict)
        indexgroup = [None] * state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        entry = (int(flags | state.flags), code, state.groups - 1, groupindex, tuple(indexgroup))
        made = _sre.compile(pattern, *entry)
    except Exception:  # noqa: BLE001 - another interpreter's internals: compile as re does
        return None
    if made != compiled or made.groupindex != compiled.groupindex or \
            made.groups != compiled.groups:
        return None
    return entry


def _header() -> tuple:
    return (FORMAT, sys.version, sys.hexversion, getattr(_sre, "MAGIC", None),
            getattr(_sre, "CODESIZE", None))


def cache_path() -> Optional[str]:
    """Where this interpreter's entries are kept (None: nowhere, as for bytecode)."""
    try:
        from importlib.util import cache_from_source

        pyc = cache_from_source(__file__)
    except Exception:  # noqa: BLE001 - no cache tag, an odd location
        return None
    return pyc[:-len(".pyc")] + ".re.marshal" if pyc.endswith(".pyc") else None


def _read(path: Optional[str]) -> Dict[Key, Entry]:
    """The entries of the file at ``path``; none when it is missing, of another interpreter or
    not exactly as written."""
    if path is None or _sre is None:
        return {}
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        header, checksum, payload = marshal.loads(data)
        if header != _header() or checksum != zlib.crc32(payload):
            return {}
        entries = marshal.loads(payload)
    except Exception:  # noqa: BLE001 - missing, unreadable or corrupt: compile as re does
        return {}
    return entries if type(entries) is dict else {}


def _load() -> Dict[Key, Entry]:
    global _entries
    _entries = _read(cache_path())
    return _entries


def save() -> None:
    """Write the entries this process made, with those the file holds now (run at exit)."""
    made = dict(_made)
    path = cache_path()
    if not made or path is None:
        return
    entries = _read(path)
    entries.update(made)
    payload = marshal.dumps(entries)
    data = marshal.dumps((_header(), zlib.crc32(payload), payload))
    folder = os.path.dirname(path)
    tmp = None
    try:
        import tempfile

        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".re-", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        tmp = None
        _made.clear()
    except Exception:  # noqa: BLE001 - a read-only install: compile each time, as re does
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
