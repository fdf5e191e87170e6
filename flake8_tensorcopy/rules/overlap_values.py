"""TEN403's values of names a bound spells (``rules/overlap.py``): the names the function being
checked, or a script, binds once to a constant or to the arithmetic of a dimension's length,
read as that value where a slice's bound or ``narrow`` spells them."""
from __future__ import annotations

import ast
import collections
from typing import Dict, Optional

from ..semantic import regions
from ..syntax.build import parse_expression
from ..syntax.patterns import compile_pattern
from ..syntax.walk import assigned_pairs


#: a symbol that spells a dimension's length (``x.shape[1]``, ``len(x)``)
_LENGTH = compile_pattern(r"\.shape\[|^len\(")


class LocalValues:
    """The names of the function being checked that it binds once, by an assignment (also
    beside others in a tuple one: ``L, lag = self.buf.shape[1], self.lag``), to a constant or
    to an affine expression holding a dimension's length (``stop = buf.shape[1] - start``,
    ``last = self.obs.shape[1] - 1``) over parameters it never rebinds, attributes and other
    such names: a bound spelled with one is the expression (``buf[:, :stop]`` is ``buf[:,
    :-start]``). Each name is read when first asked (``get``)."""

    def __init__(self, ctx) -> None:
        self.fn = getattr(ctx.scope_node, "_a", None)
        self.known: Dict[str, Optional[regions.Affine]] = {}
        self.bound: Optional[Dict[str, ast.expr]] = None

    def _index(self) -> Dict[str, ast.expr]:
        """name -> the value its one binding (its own statements' assignment) gives it."""
        fn, out = self.fn, {}
        if type(fn) is ast.Module:  # a script's names (``B, FRAME, HOP = 2, 8, 4``), where no
            # function rebinds one (``global``)
            self.stores = collections.Counter(n.id for n in _own_nodes(fn) if type(n) is ast.Name
                                              and type(n.ctx) is not ast.Load)
            self.params = {g for n in ast.walk(fn) if type(n) is ast.Global for g in n.names}
        elif isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.stores = collections.Counter(n.id for n in ast.walk(fn) if type(n) is ast.Name
                                              and type(n.ctx) is not ast.Load)
            self.params = {a.arg for a in ast.walk(fn.args) if type(a) is ast.arg}
        else:
            return out
        todo = list(fn.body)
        while todo:
            n = todo.pop()
            if type(n) is ast.Assign and len(n.targets) == 1:
                out.update((t.id, v) for t, v in assigned_pairs(n.targets[0], n.value)
                           if type(t) is ast.Name and
                           self.stores[t.id] == 1 and t.id not in self.params)
            todo.extend(c for c in ast.iter_child_nodes(n) if isinstance(c, ast.stmt) and not
                        isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
        return out

    def get(self, name: str) -> Optional[regions.Affine]:
        if name in self.known or not name.isidentifier():
            return self.known.get(name)
        if self.bound is None:
            self.bound = self._index()
        self.known[name] = None  # (a name bound from itself: no value)
        value = self.bound.get(name)
        try:
            a = regions.affine(parse_expression(ast.unparse(value)), 0, self.get) \
                if value is not None else None
        except (SyntaxError, ValueError, RecursionError):
            a = None
        if a is not None and all(not sym.isidentifier() or (
                sym in self.params and not self.stores[sym]) for sym, _ in a.terms) and (
                not a.terms or any(_LENGTH.search(sym) for sym, _ in a.terms)):
            self.known[name] = a  # (a constant, or the arithmetic of a dimension's length)
        return self.known[name]


def _own_nodes(module: ast.Module):
    """The nodes of a module outside its definitions."""
    todo = list(module.body)
    while todo:
        n = todo.pop()
        yield n
        todo.extend(c for c in ast.iter_child_nodes(n) if not isinstance(
            c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)))
