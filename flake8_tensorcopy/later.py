"""Methods walked when first needed, as a mixin of the engine's ``Walker``.

A method with no shape in it (``prefilter``) is walked only for what it binds on ``self``
(``self.fc = nn.Linear(...)`` in ``__init__``): a class's attributes, which a rule may never ask
about. The pre-filter marks such a method (``prefilter.DEFER``); ``build`` leaves its body unbuilt
(``nodes.LaterBlock``); the walk notes it on its class (``ClassInfo.pending``) with the binding
state at its ``def``, unless walking it would change more than attributes (``_walk_now``: then it
is walked in its place), and walks it when the inference is about to read one of the attributes
it may bind, or to bind one it may read or bind (``Bindings.later``).

The answers are those of walking every method in source order: the state a method walked late
sees is the one at its ``def`` (every scope's names and flags, the ``TYPE_CHECKING`` depth,
whether torch was imported); a class's methods are walked in order; a method walked late walks
no method that comes after it in the file (``_horizon``); and no attribute is bound before the
methods that come earlier and read it have been walked. Whatever the walk in progress was doing
(the statement, the callee a rule asks about, the doubt of the expression being inferred, the
loops it observes) is put back after. ``tests/test_later.py`` compares both walks on generated
classes.
"""
from __future__ import annotations

import ast
from typing import List, Optional, Tuple

from .semantic.kinds import EMPTY_LIST, TENSORS, ClassInfo
from .semantic.scope import Scope
from .syntax import build, nodes
from .syntax.prefilter import first_line, walk_nodes


_REGISTERS = ("register_buffer", "register_parameter")


def _attributes(fn: ast.AST) -> Tuple[Optional[frozenset], Optional[frozenset]]:
    """(the attributes a walk of ``fn`` may bind on an instance of a class, those it may read or
    bind), None for any: every attribute it assigns on any name (``other = self; other.x = ...``
    binds ``x``), every attribute it reads on any name, and every ``register_buffer``/
    ``register_parameter`` by its literal name (another name: any attribute)."""
    binds, mentions = set(), set()
    for node in walk_nodes(fn):
        t = type(node)
        if t is ast.Attribute:
            mentions.add(node.attr)
            if type(node.ctx) is ast.Store:
                binds.add(node.attr)
        elif t is ast.Call and type(node.func) is ast.Attribute and node.func.attr in _REGISTERS:
            first = node.args[0] if node.args else None
            if type(first) is not ast.Constant or type(first.value) is not str:
                return None, None  # a name the tree does not tell
            binds.add(first.value)
            mentions.add(first.value)
    return frozenset(binds), frozenset(mentions)


class _Later:
    """A method whose walk waits, with the state at its ``def``."""

    __slots__ = ("line", "node", "cls", "no_grad", "is_static", "chain",
                 "type_checking", "imports_torch", "stmt_line", "scope_node", "_attrs")

    def __init__(self, line: int, node: nodes.CSTNode, cls: ClassInfo, no_grad: bool,
                 is_static: bool, chain: Tuple[Tuple[Scope, dict, bool, bool], ...],
                 type_checking: int, imports_torch: bool, stmt_line: Optional[nodes.CSTNode],
                 scope_node: nodes.CSTNode) -> None:
        self.line = line  # the method's first line (its first decorator's)
        self.node, self.cls, self.no_grad, self.is_static = node, cls, no_grad, is_static
        #: every scope from the class's up to the module's: (scope, its names then, no_grad,
        #: device)
        self.chain = chain
        self.type_checking, self.imports_torch = type_checking, imports_torch
        self.stmt_line, self.scope_node = stmt_line, scope_node
        self._attrs: Optional[Tuple[Optional[frozenset], Optional[frozenset]]] = None

    def binds(self, attr: str) -> bool:
        """May the method bind ``attr`` (on an instance of any class)?"""
        if self._attrs is None:
            self._attrs = _attributes(self.node._a)
        got = self._attrs[0]
        return got is None or attr in got

    def mentions(self, attr: str) -> bool:
        """May the method read or bind ``attr`` (on an instance of any class)?"""
        if self._attrs is None:
            self._attrs = _attributes(self.node._a)
        got = self._attrs[1]
        return got is None or attr in got


def _walk_now(fn: ast.AST, chain, imports_torch: bool) -> bool:
    """Would walking ``fn`` now change more than its class's attributes? It would if it may
    import torch (which tells the rules that the file does) while the file has not yet, or append
    to a list that another scope's name holds (``Bindings.note_append`` then changes what that
    name holds): ``xs.append(...)`` with ``xs`` an empty list or a list of tensors in a scope
    the method sees."""
    lists = {name for scope, names, _, _ in chain if scope.kind != "class"
             for name, kind in names.items() if kind is EMPTY_LIST or kind is TENSORS}
    if imports_torch and not lists:
        return False
    for node in walk_nodes(fn):
        t = type(node)
        if t is ast.Import or t is ast.ImportFrom:
            if not imports_torch:
                return True
        elif lists and t is ast.Call:
            func = node.func
            if type(func) is ast.Attribute and func.attr == "append" and \
                    type(func.value) is ast.Name and func.value.id in lists:
                return True
    return False


class LaterWalker:
    """The engine's ``Walker`` supplies ``inf``, ``ctx`` and ``_function_body``."""

    #: while a method is walked late: its first line (None: the walk in source order)
    _horizon: Optional[int] = None
    #: the classes with methods waiting (set by the engine's ``Walker``)
    _with_pending: List[ClassInfo]

    def _later(self, node: nodes.FunctionDef, cls: ClassInfo, no_grad: bool,
               is_static: bool) -> None:
        """Note method ``node`` of ``cls`` (its body a ``LaterBlock``) to walk when asked."""
        inf, ctx = self.inf, self.ctx  # type: ignore[attr-defined]
        chain = []
        scope: Optional[Scope] = inf.scope
        while scope is not None:
            chain.append((scope, dict(scope.names), scope.no_grad, scope.device))
            scope = scope.parent
        a = node._a
        if _walk_now(a, chain, inf.imports_torch):
            build.build_later(node)
            self._function_body(node, cls, no_grad, is_static, {})  # type: ignore[attr-defined]
            return
        line = first_line(a)
        if cls.pending is None:
            cls.pending = []
            self._with_pending.append(cls)
        cls.pending.append(_Later(line, node, cls, no_grad, is_static, tuple(chain),
                                  inf.type_checking, inf.imports_torch, ctx.stmt_line,
                                  ctx.scope_node))

    def walk_pending(self, cls: ClassInfo, attr: str, write: bool = False) -> None:
        """Before ``cls``'s attribute ``attr`` is read (``write`` False) or bound
        (``Bindings.later``), walk the methods waiting whose walk in source order came first:
        for a read, those of ``cls`` that may bind it; for a binding, those of any class that
        may read or bind it (walked after it, one that reads it would see a value bound after
        it). Only methods before the one being walked late are walked (all from the walk in
        source order), each class's in order, up to the last that needs it: what waits is
        always the end of a class's list, so each method walked has seen every method before it
        walked."""
        if not write:
            self._walk_up_to(cls, attr, _Later.binds)
            return
        for other in list(self._with_pending):
            if other.pending:
                self._walk_up_to(other, attr, _Later.mentions)

    def _walk_up_to(self, cls: ClassInfo, attr: str, needs) -> None:
        pending = cls.pending
        horizon = self._horizon
        target = None
        for entry in pending:  # type: ignore[union-attr]
            if horizon is not None and entry.line >= horizon:
                break
            if needs(entry, attr):
                target = entry
        while target is not None and pending and target in pending:
            self._walk_later(pending.pop(0))  # type: ignore[union-attr]

    def _walk_later(self, entry: _Later) -> None:
        inf, ctx = self.inf, self.ctx  # type: ignore[attr-defined]
        build.build_later(entry.node)
        now = [(s, s.names, s.no_grad, s.device) for s, _, _, _ in entry.chain]
        saved = (inf.scope, inf.type_checking, inf.imports_torch, inf.doubt_seen,
                 inf._observers, ctx.stmt_line, ctx.scope_node, ctx._callee, ctx._callee_qual,
                 self._horizon)
        try:
            for s, names, no_grad, device in entry.chain:
                s.names, s.no_grad, s.device = names, no_grad, device
            inf.scope, inf.type_checking, inf.imports_torch = (
                entry.chain[0][0], entry.type_checking, entry.imports_torch)
            inf.doubt_seen, inf._observers = False, []
            ctx.stmt_line, ctx.scope_node = entry.stmt_line, entry.scope_node
            self._horizon = entry.line
            self._function_body(entry.node, entry.cls, entry.no_grad,  # type: ignore[attr-defined]
                                entry.is_static, {})
        finally:
            for s, names, no_grad, device in now:
                s.names, s.no_grad, s.device = names, no_grad, device
            (inf.scope, inf.type_checking, inf.imports_torch, inf.doubt_seen, inf._observers,
             ctx.stmt_line, ctx.scope_node, ctx._callee, ctx._callee_qual,
             self._horizon) = saved

    def drop_pending(self) -> None:
        """The walk is over: methods never asked for are let go (their state holds the
        classes that hold them), and the inference lets go of the walk: no cycle outlives the
        analysis."""
        for cls in self._with_pending:
            cls.pending = None
        self._with_pending = []
        self.inf.later = None  # type: ignore[attr-defined]
