"""TEN501's questions to the graph facts of the scope it checks (``semantic.graph``): the scope's
``ScopeGraph``, made once per scope and file with an oracle that knows what the linted file's
inference knows (which calls run a module, which call a project function and what that
function's summary says), and the accumulations only a summary shows (``meter.update(loss)``
where ``update`` adds its parameter into ``self.sum``)."""
from __future__ import annotations

import ast
import weakref
from typing import Optional

from ..semantic import graph, kinds
from ..semantic.graph_facts import module_call
from ..semantic.index.statedict_summaries import module_function
from ..semantic.graph_terms import keeps_graph_function
from ..syntax import nodes


def callee(ctx, func) -> Optional[object]:
    """The project function (``FuncFacts``) a call of ``func`` runs, as the inference knows it:
    a function of the project by name, a method of a project class's instance, the ``forward``
    of a project module's instance."""
    t = type(func)
    try:
        if t is nodes.Name:
            k = ctx.infer(func)
            if type(k) is kinds.Proj:
                obj = k.obj
                return obj if hasattr(obj, "graph_summary") else None
            if k is kinds.FUNCTION or type(k) is kinds.Func:
                project = ctx.inf.project
                return project.current_function(func.value) if project is not None else None
            if type(k) is kinds.Instance and k.cls.is_module and k.cls.facts is not None:
                fn = k.cls.facts.method("forward")  # calling a project module runs ``forward``
                return fn if hasattr(fn, "graph_summary") else None
            return None
        if t is nodes.Attribute:
            rk = ctx.infer(func.value)
            facts = rk.cls.facts if type(rk) is kinds.Instance else None
            fn = facts.method(func.attr.value) if facts is not None else \
                module_function(ctx.infer, func, rk)  # ``steps.train_step(...)``
            return fn if hasattr(fn, "graph_summary") else None
    except (RecursionError, OSError, ValueError):
        return None
    return None


def summary(ctx, func):
    fn = callee(ctx, func)
    return fn.graph_summary() if fn is not None else None


class LintOracle(graph.Oracle):
    """Calls of the scope as the linted file's inference sees them (at the statement being
    checked: the names of modules and functions a loop calls are bound before it)."""

    def __init__(self, ctx) -> None:
        #: weak: the context keeps the graph that keeps this oracle (no reference cycle)
        self._ctx = weakref.ref(ctx)
        #: id(the ``ast`` function of a call) -> its node in the walk's tree, for the calls the
        #: builder made (``build.Builder.call_funcs``): the graph asks only about calls of the
        #: scope itself (it walks no nested definition or lambda)
        self._funcs = ctx.text.call_funcs

    @property
    def ctx(self):
        return self._ctx()

    def call(self, node: ast.Call) -> Optional[str]:
        n = self._funcs.get(id(node.func))
        ctx = self.ctx
        if n is None or ctx is None:
            return super().call(node)
        m = module_call(ctx.infer(n))
        if m is not None:
            return "forward" if m else "through"
        q = ctx.inf.qualname(n)
        return "through" if q is not None and keeps_graph_function(q) else None

    def summary(self, node: ast.Call, local: bool = False):
        # the inference knows what a name bound in the scope is at the checked statement
        n = self._funcs.get(id(node.func))
        ctx = self.ctx
        return summary(ctx, n) if n is not None and ctx is not None else None


def scope_graph(ctx) -> graph.ScopeGraph:
    """The graph facts of the scope being checked, made once per scope and file."""
    scope = ctx.scope_node
    cache = ctx.__dict__.setdefault("_accumulate_graphs", {})
    hit = cache.get(id(scope))
    if hit is None or hit[0] is not scope:
        made = graph.scope_graph(scope._a, LintOracle(ctx), lazy=True)
        hit = cache[id(scope)] = (scope, made)
    return hit[1]


def method_accumulation(node, ctx):
    """``meter.update(loss)`` where the called method adds its parameter into an attribute of
    ``self`` (``summaries``): (receiver, argument, (method, attribute)), or None."""
    call = node.value
    if type(call) is not nodes.Call or type(call.func) is not nodes.Attribute or \
            type(call.func.value) not in (nodes.Name, nodes.Attribute):
        return None
    if ctx.inf.in_no_grad:
        return None
    fn = callee(ctx, call.func)
    s = fn.graph_summary() if fn is not None else None
    if s is None or not s.accumulates:
        return None
    args = [a for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    # a method's parameters after ``self``, as its summary counts them (``update(val=loss)``)
    names = graph.function_params(fn.node)[1:] if keywords else []
    for k, attr in sorted(s.accumulates.items()):
        if k < len(args):
            return call.func.value, args[k].value, (call.func.attr.value, attr)
        if k < len(names) and names[k] in keywords:
            return call.func.value, keywords[names[k]], (call.func.attr.value, attr)
    return None
