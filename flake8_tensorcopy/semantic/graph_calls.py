"""Which calls of a scope are forward passes of a module, for the graph facts
(``graph.ScopeGraph``, ``graph_sources``): the oracle's answer (``graph_facts.Oracle.call``), a
call of an attribute or a name the scope reads a module's ``parameters()``/``eval()``... of,
and ``self.model(x)`` of a module the method's class is handed (``Oracle.module_attribute``)."""
from __future__ import annotations

import ast
from typing import FrozenSet, Optional

from .graph_terms import MODULE_ONLY, dotted, path_root


def call_kind(g, node: ast.Call) -> Optional[str]:
    """The oracle's answer for a call (``graph_facts.Oracle.call``), and ``"forward"`` for a call
    of a name whose ``parameters()`` the scope reads where the same bindings reach it (a
    parameter, or ``model = smp.Unet(...)`` of a library class: ``AdamW(model.parameters())``
    ... ``model(x)``; only a module has them)."""
    kind = g.oracle.call(node)
    f = node.func
    if kind is None and type(f) is ast.Attribute:
        # ``self.model(x)`` where the scope calls ``self.model.eval()`` (binding no ``self.X``)
        g._need()
        d = dotted(f)
        root = path_root(f)
        if d is not None and type(root) is ast.Name and root.id not in g.path_written and \
                d in module_attributes_called(g):
            return "forward"
        return "forward" if handed_module_call(g, node) else None
    if kind is None and type(f) is ast.Name:
        g._need()
        if not g.uses.get(id(f)) and f.id not in g.opaque:  # (a global of the module)
            kind = g.oracle.global_call(f.id)
    if kind is None and type(f) is ast.Name and g.module_reads:
        reach = g.uses.get(id(f))
        if reach and any(g.uses.get(id(m)) == reach for m in g.module_reads):
            return "forward"
    return kind


def handed_module_call(g, node: ast.Call) -> bool:
    """``self.model(x)`` in a method, ``self.model`` a module the class is handed
    (``Oracle.module_attribute``) and not bound in the scope: a forward pass of a model of
    unknown class (what its tuple output holds is not known: ``unpacked_fact`` leaves its items
    alone, lengths say)."""
    f = node.func
    root = f.value if type(f) is ast.Attribute else None
    return type(root) is ast.Name and (root.id, None) not in g.paths_written and \
        (root.id, "." + f.attr) not in g.paths_written and \
        g.oracle.module_attribute(root.id, f.attr)


def module_attributes_called(g) -> FrozenSet[str]:
    """The dotted attributes the scope calls a module's method of, as a statement
    (``self.model.eval()``: ``graph_terms.MODULE_ONLY``)."""
    got = g.memo.get("module_attrs")
    if got is None:
        got = g.memo["module_attrs"] = frozenset(
            dotted(s.value.func.value) for s in g.expr_stmts
            if type(s.value) is ast.Call and type(s.value.func) is ast.Attribute and
            s.value.func.attr in MODULE_ONLY and type(s.value.func.value) is ast.Attribute)
    return got
