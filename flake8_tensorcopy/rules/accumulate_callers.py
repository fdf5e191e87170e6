"""TEN501's proof that a function runs with grad mode on: every use of its name in its file is a
call made where grad is on, at script level or from a function proven so in turn (the whole
``ast``, masked definitions included). What another file may do is asked of the project index
(``FileContext.imported_elsewhere``); this module reads one file.

A use is a ``Name`` node: a call's function (counted), anything else (passed as a value,
rebound, deleted) spoils the proof, as does a second definition of the name anywhere, an import
binding it, a ``global``/``nonlocal`` naming it, or a decorator on a definition on the way (one
may wrap it in ``no_grad``). A call is made where grad is on when no enclosing ``with`` names
``grad`` or ``inference`` in its items (``torch.no_grad()``, ``torch.set_grad_enabled(flag)``,
``torch.inference_mode()``, an alias of one: anything else leaves grad as it was), inside no
class body and no lambda.
"""
from __future__ import annotations

import ast
from typing import Dict, List, Optional, Set, Tuple

from ..syntax.prefilter import node_fields

#: the owner of code nested in a class, a lambda or a function inside a function: never proven
_NESTED = "<nested>"
_GRAD_WORDS = ("grad", "inference")

#: (owner: None at script level or the top-level function holding the use, grad on, a call)
Use = Tuple[Optional[str], bool, bool]


class Uses:
    """Every use and definition of each name in a module, read in one walk."""

    def __init__(self, tree: ast.Module) -> None:
        self.uses: Dict[str, List[Use]] = {}
        #: name -> how many times something defines or imports it; plain top-level functions
        self.bound: Dict[str, int] = {}
        self.plain: Set[str] = set()
        self._calls: Set[int] = set()
        try:
            for stmt in tree.body:
                self._visit(stmt, None, True, top=True)
        except RecursionError:  # nested too deeply to read: nothing is proven
            self.plain.clear()

    def _bind(self, name: str) -> None:
        self.bound[name] = self.bound.get(name, 0) + 1

    def _visit(self, node: ast.AST, owner: Optional[str], on: bool, top: bool = False) -> None:
        t = type(node)
        if t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.ClassDef:
            self._bind(node.name)
            for d in node.decorator_list:
                self._visit(d, owner, on)
            if t is ast.ClassDef:
                for b in node.bases + [k.value for k in node.keywords]:
                    self._visit(b, owner, on)
                inner: Optional[str] = _NESTED
            else:
                self._visit(node.args, owner, on)
                if node.returns is not None:
                    self._visit(node.returns, owner, on)
                plain = top and t is ast.FunctionDef and not node.decorator_list
                if plain:
                    self.plain.add(node.name)
                inner = node.name if plain else _NESTED
            for stmt in node.body:
                self._visit(stmt, inner, True)
            return
        if t is ast.Lambda:
            self._visit(node.args, owner, on)
            self._visit(node.body, _NESTED, on)
            return
        if t is ast.With or t is ast.AsyncWith:
            changes = False
            for item in node.items:
                self._visit(item, owner, on)
                changes = changes or any(
                    any(w in (getattr(n, "id", None) or getattr(n, "attr", None) or
                              getattr(n, "arg", None) or "")
                        for w in _GRAD_WORDS) for n in ast.walk(item.context_expr))
            for stmt in node.body:
                self._visit(stmt, owner, on and not changes)
            return
        if t is ast.Import or t is ast.ImportFrom:
            for alias in node.names:
                self._bind(alias.asname or alias.name.split(".")[0])
            return
        if t is ast.Global or t is ast.Nonlocal:
            for name in node.names:
                self._bind(name)
            return
        bound = getattr(node, "name", None) if t is ast.ExceptHandler or \
            t.__name__ in ("MatchAs", "MatchStar") else getattr(node, "rest", None) \
            if t.__name__ == "MatchMapping" else None
        if type(bound) is str:
            self._bind(bound)  # ``except E as name``, a ``match`` capture
        if t is ast.Call and type(node.func) is ast.Name:
            self._calls.add(id(node.func))
        elif t is ast.Name:
            self.uses.setdefault(node.id, []).append((owner, on, id(node) in self._calls))
            return
        visit, AST = self._visit, ast.AST  # ``ast.iter_child_nodes``, without its generators
        for name in node_fields(t):  # (names, contexts and operators hold no use)
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, AST):
                        visit(item, owner, on)
            elif isinstance(value, AST):
                visit(value, owner, on)

    def grad_on(self, name: str) -> bool:
        """Is ``name`` a plain top-level function of the module that runs only with grad on?"""
        try:
            return self._grad_on(name, set())
        except RecursionError:  # a chain of callers too long to follow: nothing is proven
            return False

    def _grad_on(self, name: str, seen: Set[str]) -> bool:
        if name in seen or name not in self.plain or self.bound.get(name) != 1:
            return False  # a cycle, or not one plain definition
        seen.add(name)
        called = False
        for owner, on, call in self.uses.get(name, ()):
            if not (on and call) or owner == _NESTED or owner == name:
                return False
            if owner is not None and not self._grad_on(owner, seen):
                return False
            called = True
        return called


def grad_on_function(tree: ast.Module, name: str) -> bool:
    """Is the top-level function ``name`` of ``tree`` only ever called, within the module, where
    grad mode is on (see the module's docstring)? False when the module cannot tell."""
    return Uses(tree).grad_on(name)
