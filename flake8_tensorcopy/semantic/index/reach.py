"""The modules a module's text may import, read without parsing it: for ``ProjectIndex.reaches``,
the pre-filter's question for TEN501 (does project code that a file's imports reach hold one of
``syntax/accumulation_shapes.PROOF_WORDS``? A function summary can say a call returns or
differentiates a graph only where the text of the project's modules holds one of them).

Read from the text alone: every ``import``/``from ... import`` statement
anywhere in a module (in a function too, across continued lines, in parentheses with comments),
and any text that merely looks like one (a string, a comment), gives the modules it names, found
as the index finds an import's module (``ProjectIndex.find_module``, parent packages included).
That is a superset of the modules the index can reach through a file's imports, transitively, so
an answer of "no" holds for everything the analysis could ask of them. The answer changes only
the pre-filter's plan, never what the analysis reports (the plan may leave out only what cannot
be reported), so a results cache needs no file of it beyond its usual dependencies."""
from __future__ import annotations

from typing import Tuple

from ...syntax.source import LazyPattern

Specs = Tuple[Tuple[str, int], ...]

_WS = r"(?:[ \t\f]|\\\r?\n)"  # a blank within a line, or a continued line
#: ``from .pkg.mod import a, b as c`` / ``from . import (a,  # note\n b)`` / continued lines
# (each pattern starts with its literal, a word boundary checked behind it: ``re`` then finds
# candidates by a fast substring scan, where a leading ``\b`` is tried at every position);
# each compiled when first used (the pre-filter asks only for a file whose plan needs it)
_FROM = LazyPattern(r"from(?<!\wfrom)\b((?:[.\w]|" + _WS + r")*?)\bimport\b" + _WS +
                    r"*(\((?:[^)#]|#[^\n]*)*\)|(?:[^\n\\;#]|\\\r?\n)*)")
#: ``import a.b as c, d``
_IMPORT = LazyPattern(r"import(?<![\w.]import)\b((?:[^\n\\;#]|\\\r?\n)*)")
#: the text before an ``import`` word on its line when it is a ``from m import``'s (``_FROM``
#: reads those)
_FROM_BEFORE = LazyPattern(r"\bfrom\b(?:[.\w]|" + _WS + r")*$")
_BLANKS = LazyPattern(_WS)
_NAME = LazyPattern(r"[A-Za-z_]\w*")
_DOTTED = LazyPattern(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def import_specs(text: str) -> Specs:
    """The modules ``text``'s import statements may name, as (dotted, level) pairs: ``from m
    import a`` gives ``m`` and ``m.a`` (``a`` may be a submodule), as the index's own specs do."""
    out = set()
    for m in _FROM.finditer(text):
        where = _BLANKS.sub("", m.group(1))
        mod = where.lstrip(".")
        level = len(where) - len(mod)
        if mod and not _DOTTED.fullmatch(mod):
            continue  # not an import's module: text that looks like one
        out.add((mod, level))
        for name in _NAME.findall(m.group(2)):
            if name != "as":
                out.add((f"{mod}.{name}" if mod else name, level))
    for m in _IMPORT.finditer(text):
        if _FROM_BEFORE.search(text, text.rfind("\n", 0, m.start()) + 1, m.start()):
            continue  # ``from m import a``: ``_FROM`` read it
        for part in _BLANKS.sub(" ", m.group(1)).split(","):
            words = part.split()
            if words and _DOTTED.fullmatch(words[0]):
                out.add((words[0], 0))
    return tuple(sorted(out))
