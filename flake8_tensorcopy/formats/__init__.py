"""Output formats of ``tensorcopy check`` (and of every front end that reports FileResults).

One module per format, named after it: ``text`` (text and concise), ``json``, ``github``,
``sarif``. Each exposes ``render(results, **options) -> str`` (the whole report, no trailing
newline). Shared helpers (relative paths, notebook cells) live in ``common``.
"""
from __future__ import annotations

import importlib
from typing import List

#: ``--output-format`` choices, in the order ``--help`` shows them
NAMES = ("text", "concise", "json", "github", "sarif")


def render(name: str, results: List, **options) -> str:
    """The report of ``results`` in format ``name``."""
    if name == "concise":
        name, options = "text", dict(options, concise=True)
    module = importlib.import_module(f"{__name__}.{name}")
    return module.render(results, **options)
