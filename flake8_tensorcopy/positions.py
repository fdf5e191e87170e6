"""Positions of reported nodes without regenerating the whole module.

libcst's ``PositionProvider`` regenerates the code of the entire module to learn where each node
is; on a file with one diagnostic that is most of the analysis time. Here only the statement that
holds a reported node is regenerated: ``ast`` already knows the line where each statement's first
token is, the walker records the chain of enclosing statements of every report, and libcst's own
position-recording code generator runs over that one statement starting at that line. Every
regenerated statement is checked against the parsed text at the computed offset; any mismatch
falls back to a shallower statement and finally to ``PositionProvider`` over the whole module, so
positions are always the ones ``PositionProvider`` gives (tests/test_positions.py compares them).

Lines refer to the parsed text (which may have blanked definitions); ``line_map`` translates them
back to the original source, as for ``PositionProvider``'s positions.
"""
from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata.position_provider import PositionProvidingCodegenState

#: how often a lookup had to regenerate the whole module (read by tests)
FALLBACKS = 0
#: tests set this to get every position from ``PositionProvider`` over the whole module
REFERENCE = False

_ORELSE = (cst.If, cst.For, cst.While, cst.Try, cst.TryStar)


class MappedRange:
    """A CodeRange whose lines are translated from the parsed (blanked) text to the original."""

    __slots__ = ("start", "end")

    def __init__(self, rng, line_map: List[int]) -> None:
        self.start = _MappedPos(line_map[rng.start.line - 1], rng.start.column)
        self.end = _MappedPos(line_map[rng.end.line - 1], rng.end.column)


class _MappedPos:
    __slots__ = ("line", "column")

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column


class _Provider:
    """What the position-recording code generator writes into."""

    __slots__ = ("_computed",)

    def __init__(self) -> None:
        self._computed: Dict[cst.CSTNode, object] = {}


def _blocks(node: cst.CSTNode, tree: Optional[ast.AST]) -> Iterator[Tuple[cst.IndentedBlock, Optional[list]]]:
    """Each indented block of compound statement ``node`` with the matching ``ast`` body list."""
    t = type(node)
    get = (lambda name: getattr(tree, name, None)) if tree is not None else (lambda name: None)
    body = getattr(node, "body", None)
    if t in (cst.If, cst.For, cst.While, cst.With, cst.FunctionDef, cst.ClassDef, cst.Try,
             cst.TryStar):
        yield body, get("body")
    if t is cst.Try or t is cst.TryStar:
        handlers = get("handlers") or []
        for i, h in enumerate(node.handlers):
            yield h.body, handlers[i].body if i < len(handlers) else None
        if node.finalbody is not None:
            yield node.finalbody.body, get("finalbody")
    if t is cst.Match:
        cases = get("cases") or []
        for i, c in enumerate(node.cases):
            yield c.body, cases[i].body if i < len(cases) else None
    if t in _ORELSE:
        orelse = node.orelse
        if type(orelse) is cst.If:  # elif: the ast has it as the only statement of orelse
            inner = get("orelse")
            yield from _blocks(orelse, inner[0] if inner and len(inner) == 1 else None)
        elif orelse is not None:
            yield orelse.body, get("orelse")


def _first_line(stmt: ast.stmt) -> int:
    line = stmt.lineno
    for d in getattr(stmt, "decorator_list", ()):
        line = min(line, d.lineno)
    return line


def _pair(stmts: Sequence[cst.CSTNode], target: cst.CSTNode, tree_stmts: Optional[list]) -> Optional[ast.stmt]:
    """The ``ast`` statement that begins ``target`` (one of ``stmts``): a simple statement line
    holds as many ``ast`` statements as it has small statements, a compound statement one."""
    if tree_stmts is None:
        return None
    i = 0
    for s in stmts:
        if i >= len(tree_stmts):
            return None
        if s is target:
            return tree_stmts[i]
        i += len(s.body) if type(s) is cst.SimpleStatementLine else 1
    return None


class Locator:
    """``locator[node]`` is the CodeRange ``PositionProvider`` would give ``node`` (lines of the
    parsed text mapped through ``line_map``), computed by regenerating as little as possible."""

    def __init__(self, module: cst.Module, parsed: str, starts: Optional[List[int]],
                 tree: Optional[ast.Module], line_map: Optional[List[int]],
                 tree_is_original: bool) -> None:
        self.module = module
        self.parsed = parsed
        self.starts = starts  # line start offsets of ``parsed``
        self.tree = tree  # ``ast`` of the original source, or of ``parsed``
        self.line_map = line_map  # parsed line - 1 -> original line (None: no lines dropped)
        # original line -> parsed line, when the tree's lines are the original's
        self.inverse: Optional[Dict[int, int]] = (
            {orig: i + 1 for i, orig in enumerate(line_map)}
            if line_map is not None and tree_is_original else None)
        self.computed: Dict[cst.CSTNode, object] = {}
        self.done: set = set()  # ids of statements already regenerated
        self.whole = False

    # -- public ---------------------------------------------------------------------------------
    def add(self, path: Sequence[cst.CSTNode]) -> None:
        """Regenerate the innermost statement of ``path`` (enclosing statements, outermost first)
        that can be placed; nothing if it was done already."""
        if REFERENCE:
            self._whole_module()
            return
        for stmt, line, indents, _, _ in reversed(list(self._place(path))):
            if self._regenerate(stmt, line, indents):
                return

    def get(self, node: cst.CSTNode, path: Sequence[cst.CSTNode] = ()):
        rng = self.computed.get(node)
        if rng is None:
            rng = self._search(node, path)
        if self.line_map is not None:
            return MappedRange(rng, self.line_map)
        return rng

    def statement_start(self, stmt: cst.CSTNode):
        """Start of a top-level statement (for the ``import torch`` insertion point)."""
        return self.get(stmt, (stmt,)).start

    # -- internals ------------------------------------------------------------------------------
    def _search(self, node: cst.CSTNode, path: Sequence[cst.CSTNode]):
        """A node outside the report's innermost statement (an edit at an earlier binding):
        widen level by level: the statement itself, then its earlier siblings nearest first,
        then the enclosing statement... and only then the whole module."""
        computed = self.computed
        for stmt, line, indents, stmts, tree_stmts in reversed(list(self._place(path))):
            self._regenerate(stmt, line, indents)
            if node in computed:
                return computed[node]
            i = next(j for j, s in enumerate(stmts) if s is stmt)
            for sibling in reversed(stmts[:i]):
                a = _pair(stmts, sibling, tree_stmts)
                line = self._line(a) if a is not None else 0
                if line:
                    self._regenerate(sibling, line, indents)
                    if node in computed:
                        return computed[node]
        self._whole_module()
        return computed[node]

    def _line(self, a: ast.stmt) -> int:
        line = _first_line(a)
        if self.inverse is not None:
            return self.inverse.get(line, 0)
        return line

    def _place(self, path: Sequence[cst.CSTNode]):
        """(statement, line of its first token in the parsed text, indents, the statements of its
        block, their ``ast`` statements) for each statement of ``path`` that can be placed,
        outermost first."""
        if self.tree is None:
            return
        default = self.module.default_indent
        stmts: Sequence[cst.CSTNode] = self.module.body
        tree_stmts: Optional[list] = self.tree.body
        indents: Tuple[str, ...] = ()
        for k, stmt in enumerate(path):
            a = _pair(stmts, stmt, tree_stmts)
            if a is None:
                return
            line = self._line(a)
            if not line:
                return
            yield stmt, line, indents, stmts, tree_stmts
            if k + 1 == len(path):
                return
            nxt = path[k + 1]
            for block, body in _blocks(stmt, a):
                if type(block) is not cst.IndentedBlock:
                    continue
                if any(s is nxt for s in block.body):
                    stmts, tree_stmts = block.body, body
                    if type(stmt) is cst.Match:  # cases are indented by the match statement
                        indents = indents + (default if stmt.indent is None else stmt.indent,)
                    indents = indents + (default if block.indent is None else block.indent,)
                    break
            else:
                return

    def _regenerate(self, stmt: cst.CSTNode, line: int, indents: Tuple[str, ...]) -> bool:
        if id(stmt) in self.done:
            return True
        start_line = line - len(stmt.leading_lines)
        if start_line < 1 or start_line > len(self.starts):
            return False
        provider = _Provider()
        module = self.module
        state = PositionProvidingCodegenState(
            default_indent=module.default_indent, default_newline=module.default_newline,
            provider=provider)
        state.indent_tokens = list(indents)
        state.line = start_line
        state.column = 0
        try:
            stmt._codegen(state)
        except Exception:  # pragma: no cover - a node libcst cannot print alone
            return False
        code = "".join(state.tokens)
        offset = self.starts[start_line - 1]
        text = self.parsed
        if not text.startswith(code, offset):
            # the module's last statement may lack the newline its code generator adds
            rest = text[offset:]
            if not (code.startswith(rest) and code[len(rest):] in ("\n", "\r\n", "\r")
                    and not module.has_trailing_newline):
                return False
        self.computed.update(provider._computed)
        self.done.add(id(stmt))
        return True

    def _whole_module(self) -> None:
        global FALLBACKS
        if self.whole:
            return
        from libcst.metadata import MetadataWrapper, PositionProvider

        FALLBACKS += not REFERENCE
        wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
        self.computed.update(wrapper.resolve(PositionProvider))
        self.whole = True
