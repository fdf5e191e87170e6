"""flake8-tensorcopy: find, fix and verify the ways PyTorch code copies tensors."""
from __future__ import annotations

from typing import List, Optional, Sequence

from .diagnostics import Diagnostic, Edit, Fix, selected

__version__ = "0.1.0"
__all__ = ["lint_source", "Diagnostic", "Fix", "Edit", "__version__"]


def lint_source(source: str, filename: str = "<string>", *,
                select: Optional[Sequence[str]] = None,
                ignore: Optional[Sequence[str]] = None,
                settings=None) -> List[Diagnostic]:
    """Lint Python source text; returns diagnostics sorted by position.

    A source that Python cannot parse gives an empty list (flake8 reports E999 itself); use
    ``engine.analyze`` to get the parse error instead. Valid Python that cannot be analysed
    (nested too deeply to walk) gives one TEN001 diagnostic at line 1.
    """
    from .engine import DEFAULT_SETTINGS, LintError, analyze

    try:
        diags = analyze(source, settings or DEFAULT_SETTINGS, filename=filename)
    except LintError:
        return []
    return [d for d in diags if selected(d.code, select, ignore)]
