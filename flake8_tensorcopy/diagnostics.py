"""The objects every stage shares: a Diagnostic, its optional Fix, and the Fix's text Edits.

Data flows one way: the engine produces Diagnostics; the flake8 plugin, the CLI reports and the
fixer only read them.
"""
from __future__ import annotations

from .syntax.records import field, record, replaced  # noqa: F401 (replaced: for the front ends)
from typing import Optional, Sequence, Tuple

SAFE = "safe"

#: not a rule: Python parses the file, but it could not be analysed (it is nested too deeply to
#: walk); reported at line 1 so that no such file ever looks clean
NOT_ANALYSED = "TEN001"
UNSAFE = "unsafe"


@record(frozen=True, order=True)
class Edit:
    """Replace ``source[start:end]`` (character offsets into the decoded text) with ``text``.

    A zero-width edit (``start == end``) is an insertion.
    """

    start: int
    end: int
    text: str


@record(frozen=True)
class Fix:
    description: str
    safety: str  # SAFE or UNSAFE
    edits: Tuple[Edit, ...] = field(default_factory=tuple)

    @property
    def is_safe(self) -> bool:
        return self.safety == SAFE


@record(frozen=True)
class Diagnostic:
    code: str
    message: str
    line: int  # 1-based
    column: int  # 0-based, in characters (flake8 adds 1 when printing)
    end_line: int
    end_column: int
    fix: Optional[Fix] = None

    @property
    def text(self) -> str:
        """The message as flake8 prints it: code first."""
        return f"{self.code} {self.message}"

    @property
    def fix_description(self) -> str:
        return self.fix.description if self.fix else ""

    def sort_key(self):
        return (self.line, self.column, self.code)


def selected(code: str, select: Optional[Sequence[str]] = None,
             ignore: Optional[Sequence[str]] = None) -> bool:
    """Does ``code`` start with a selected prefix (default ``TEN``) and with no ignored one?"""
    if not code.startswith(tuple(select) if select else ("TEN",)):
        return False
    return not (ignore and code.startswith(tuple(ignore)))
