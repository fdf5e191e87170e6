"""flake8-tensorcopy: find, fix and verify the ways PyTorch code copies tensors."""
from __future__ import annotations

from typing import List, Optional, Sequence

from .diagnostics import Diagnostic, Edit, Fix

__version__ = "0.2.0"
__all__ = ["lint_source", "Diagnostic", "Fix", "Edit", "__version__"]


def lint_source(source: str, filename: str = "<string>", *,
                select: Optional[Sequence[str]] = None,
                ignore: Optional[Sequence[str]] = None,
                settings=None) -> List[Diagnostic]:
    """Lint Python source text; returns diagnostics sorted by position, ``# noqa`` honoured
    (as by flake8, ``tensorcopy check`` and the editor).

    A source that Python cannot parse gives an empty list (flake8 reports E999 itself); use
    ``lint.diagnose`` to get the parse error instead. Valid Python that cannot be analysed
    (nested too deeply to walk) gives one TEN001 diagnostic at line 1.
    """
    from .config import Config
    from .lint import LintError, diagnose

    config = Config()
    if settings is not None:
        config.tensor_names = list(settings.tensor_names)
        config.tensor_factories = list(settings.tensor_factories)
        config.source_roots = list(settings.source_roots)
    try:
        return diagnose(source, filename, config, select=select, ignore=ignore)
    except LintError:
        return []
