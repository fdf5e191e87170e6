"""``[tool.tensorcopy]`` in pyproject.toml, found by walking up from the linted paths."""
from __future__ import annotations

import fnmatch
import os
from .syntax.records import field, record
from typing import Dict, Iterable, List, Optional, Sequence


def _toml_reader():
    """``tomllib`` (``tomli`` before 3.11), imported when a file is read: the flake8 plugin
    imports this module on every run and never reads one."""
    try:  # Python 3.11+
        import tomllib
        return tomllib
    except ModuleNotFoundError:  # pragma: no cover - older Pythons
        try:
            import tomli  # type: ignore[import-not-found]
            return tomli
        except ModuleNotFoundError:
            return None


class Settings:
    """Project settings the engine needs (from ``[tool.tensorcopy]`` or flake8 options)."""

    def __init__(self, tensor_names: Iterable[str] = (), tensor_factories: Iterable[str] = (),
                 source_roots: Iterable[str] = ()):
        self.tensor_names = tuple(tensor_names)
        self.tensor_factories = tuple(tensor_factories)
        #: extra directories absolute project imports resolve under (``[tool.tensorcopy]``)
        self.source_roots = tuple(source_roots)


DEFAULT_SETTINGS = Settings()


class ConfigError(Exception):
    """A configuration file is malformed; the message names the file and the key."""


_LIST_KEYS = ("select", "ignore", "exclude", "extend-exclude", "tensor-names", "tensor-factories",
              "source-roots")
_KNOWN = set(_LIST_KEYS) | {"per-file-ignores", "unsafe-fixes"}


@record
class Config:
    path: Optional[str] = None
    select: List[str] = field(default_factory=lambda: ["TEN"])
    ignore: List[str] = field(default_factory=list)
    exclude: List[str] = field(default_factory=list)
    per_file_ignores: Dict[str, List[str]] = field(default_factory=dict)
    unsafe_fixes: bool = False
    tensor_names: List[str] = field(default_factory=list)
    tensor_factories: List[str] = field(default_factory=list)
    source_roots: List[str] = field(default_factory=list)

    @property
    def root(self) -> str:
        return os.path.dirname(self.path) if self.path else os.getcwd()

    def settings(self) -> "Settings":
        return Settings(self.tensor_names, self.tensor_factories,
                        [os.path.join(self.root, r) for r in self.source_roots])

    def ignored_for(self, filename: str) -> List[str]:
        rel = os.path.relpath(os.path.abspath(filename), self.root).replace(os.sep, "/")
        out: List[str] = []
        for pattern, codes in self.per_file_ignores.items():
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(os.path.basename(rel), pattern):
                out.extend(codes)
        return out


def find_pyproject(start: str) -> Optional[str]:
    d = os.path.abspath(start)
    if not os.path.isdir(d):
        d = os.path.dirname(d)
    while True:
        candidate = os.path.join(d, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _codes(value, path: str, key: str) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: [tool.tensorcopy] {key} must be a list of strings")
    return list(value)


def load(path: str) -> Config:
    """Read ``[tool.tensorcopy]`` from ``path``; a file without the table gives the defaults."""
    _toml = _toml_reader()
    if _toml is None:  # pragma: no cover
        return Config(path=None)
    try:
        with open(path, "rb") as fh:
            data = _toml.load(fh)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except Exception as exc:  # tomllib.TOMLDecodeError
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    table = data.get("tool", {}).get("tensorcopy") if isinstance(data.get("tool"), dict) else None
    if table is None:
        return Config(path=path)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.tensorcopy] must be a table")
    unknown = sorted(set(table) - _KNOWN)
    if unknown:
        raise ConfigError(
            f"{path}: [tool.tensorcopy] unknown key {unknown[0]!r} (known: {', '.join(sorted(_KNOWN))})")
    cfg = Config(path=path)
    if "select" in table:
        cfg.select = _codes(table["select"], path, "select")
    if "ignore" in table:
        cfg.ignore = _codes(table["ignore"], path, "ignore")
    cfg.exclude = _codes(table.get("exclude", []), path, "exclude") + _codes(
        table.get("extend-exclude", []), path, "extend-exclude")
    cfg.tensor_names = _codes(table.get("tensor-names", []), path, "tensor-names")
    cfg.tensor_factories = _codes(table.get("tensor-factories", []), path, "tensor-factories")
    cfg.source_roots = _codes(table.get("source-roots", []), path, "source-roots")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError(f"{path}: [tool.tensorcopy] per-file-ignores must be a table")
    for pattern, codes in pfi.items():
        cfg.per_file_ignores[pattern] = _codes(codes, path, f"per-file-ignores.{pattern!r}")
    unsafe = table.get("unsafe-fixes", False)
    if not isinstance(unsafe, bool):
        raise ConfigError(f"{path}: [tool.tensorcopy] unsafe-fixes must be true or false")
    cfg.unsafe_fixes = unsafe
    for code in cfg.select + cfg.ignore:
        if not code.startswith("TEN"):
            raise ConfigError(f"{path}: [tool.tensorcopy] code {code!r} does not start with TEN")
    return cfg


def discover(paths: Sequence[str], explicit: Optional[str] = None) -> Config:
    if explicit:
        return load(explicit)
    start = next((p for p in paths if p != "-"), os.getcwd())
    found = find_pyproject(start)
    return load(found) if found else Config()
