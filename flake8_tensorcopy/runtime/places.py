"""Where the watched program's code lives, told apart from torch's, the libraries' and this
package's own (imports no torch: the runner and the line tracer need these before the program
imports torch)."""
from __future__ import annotations

import importlib.util
import linecache
import os
import sys
import sysconfig
from typing import Dict, Tuple

from ..noqa import noqa_lines

OWN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def torch_dir() -> str:
    """torch's package folder, found without importing torch ('' when it is not installed)."""
    mod = sys.modules.get("torch")
    origin = getattr(mod, "__file__", None)
    if origin is None:
        try:
            spec = importlib.util.find_spec("torch")
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
    return os.path.dirname(os.path.abspath(origin)) + os.sep if origin else ""


def library_dirs() -> Tuple[str, ...]:
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(os.path.abspath(p) + os.sep)
    for p in sys.path:
        if p and os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages"):
            dirs.add(os.path.abspath(p) + os.sep)
    return tuple(sorted(dirs))


class NoqaText:
    """The text flake8 searches for a ``# noqa`` of a diagnostic on a line: the line widened to
    its whole token run (a backslash continuation, a string over several lines), read with
    ``noqa.noqa_lines``, the one parser every front end uses; one tokenization per file."""

    def __init__(self) -> None:
        self._files: Dict[str, Dict[int, str]] = {}

    def __call__(self, filename: str, line: int) -> str:
        searched = self._files.get(filename)
        if searched is None:
            source = "".join(linecache.getlines(filename))
            searched = noqa_lines(source) if "noqa" in source.lower() else {}
            self._files[filename] = searched
        return searched.get(line) or linecache.getline(filename, line)
