"""The value a loop's target takes, as a scope's graph facts (``graph.ScopeGraph``) read it: an
item of a dict whose values a differentiated ``sum`` adds (``for k, v in loss_dict.items()``),
of a display the loop spells (``for name, v in {"mse": mse, "l1": l1}.items()``, ``for v in
(a, b)``), of a generator of the project that yields what it differentiated, of an attached
tensor (``for li in per_sample``), or of what a call of the project returned. Unknown stays
unknown: None. Also an operation on a leaf that requires grad (``leaf_fact``: a module's
parameter, an attribute made with ``requires_grad=True``), moved from ``graph_items``.
"""
from __future__ import annotations

import ast
from typing import Optional, Tuple

from .graph_facts import DIFFERENTIATED, HOLDS, RETURNED, Fact, first_fact, strongest
from .graph_items import changed_in_scope, starred_fact, summed_item_fact
from .graph_terms import dotted, parameters_of, path_root


def loop_item_fact(g, bd):
    """The value a loop takes from a dict whose values a differentiated ``sum`` adds (``for k,
    v in loss_dict.items()``, ``for v in loss_dict.values()``): a term of that loss (the
    dict's binding marked ``TERMS`` on every path, its items written nowhere); or from a call
    of a generator that yields what it differentiated (``GraphSummary.yields``); or None."""
    s = bd.stmt
    if bd.kind == "star":
        return starred_fact(g, bd)
    if type(s) not in (ast.For, ast.AsyncFor):
        return None
    it = s.iter
    taken = _loop_source(s.target, it, bd.key)
    if taken is not None and type(taken[0]) is ast.Call:
        # ``for loss in train_gen(model, opt)``, ``for i, (loss, out) in enumerate(gen(...))``
        # of a generator that yields what it differentiated there (``GraphSummary.yields``)
        summary = g.summary(taken[0])
        if taken[1] in getattr(summary, "yields", ()):
            return Fact(RETURNED, it.lineno, detail=summary.name)
        if summary is not None:
            # what it yields there, derived from a forward pass of its own (or an argument)
            # where grad is on: ``yield criterion(model(x), y), n``
            from .graph_sources import call_fact
            from .graph_yields import YIELDED

            got = call_fact(g, taken[0], YIELDED if taken[1] == -1 else
                            f"{YIELDED}[{taken[1]}]", s)
            if got is not None:
                return got
    elif taken is not None and taken[1] == -1:
        # ``for li in per_sample``, ``for t, li in zip(ts, per_sample)`` of an attached tensor:
        # each item is a view of it, in its graph
        got = g.attached(taken[0], s)
        if got is not None and got.why != HOLDS:  # (a dict with an attached item: its keys)
            return got
    tgt = s.target
    if type(it) is ast.Call and type(it.func) is ast.Name and it.func.id == "enumerate" and \
            len(it.args) == 1 and not it.keywords and type(tgt) is ast.Tuple and \
            len(tgt.elts) == 2:
        it, tgt = it.args[0], tgt.elts[1]  # ``for i, (name, l) in enumerate(d.items())``
    shown = _display_taken(it, tgt, bd.key)
    if shown is not None:  # ``for name, v in {"mse": mse, "l1": l1}.items()``, ``for v in (a, b)``:
        return first_fact(g.attached(v, s) for v in shown)  # each value in turn
    if not (type(it) is ast.Call and type(it.func) is ast.Attribute and not it.args and
            type(it.func.value) is ast.Name) or it.func.value.id in g.path_written:
        return None
    m = it.func.attr
    if not ((m == "items" and type(tgt) is ast.Tuple and len(tgt.elts) == 2 and
             type(tgt.elts[1]) is ast.Name and tgt.elts[1].id == bd.key) or
            (m == "values" and type(tgt) is ast.Name and tgt.id == bd.key)):
        return None
    got = summed_item_fact(g, it.func.value)
    if got is not None:
        return got
    reach = g.uses.get(id(it.func.value))
    bound = [g.bindings[b] for b in reach or ()]
    if bound and all(x.kind == "assign" and type(x.value) is ast.Dict for x in bound):
        # ``losses = {"reg": F.mse_loss(...), "cls": ...}`` made here: what the loop takes
        # holds a graph wherever one of the display's values does, on every binding
        facts = [first_fact(g.attached(v, x.stmt) for v in x.value.values) for x in bound]
        return strongest(facts) if all(f is not None for f in facts) else None
    # ``terms["loss"].backward()`` here, then ``for k, v in terms.items()``: on one turn the
    # loop takes the loss this scope differentiated (every binding reaching the dict holds it)
    proven = [next((f for (bb, k), f in g.paths.items() if bb == b and k.startswith("['") and
                    f.why == DIFFERENTIATED), None) for b in reach or ()]
    if proven and all(f is not None for f in proven) and \
            not changed_in_scope(g, it.func.value.id):
        return strongest(proven)
    # a dict a call of the project computed from an attached value (``dices =
    # dice_per_class(logits, mask)``; its summary says where its value comes from): what the
    # loop takes holds that graph wherever one of its values does
    from .graph_sources import call_fact

    if not bound or any(x.kind not in ("assign", "unpack") or type(x.value) is not ast.Call
                        for x in bound):
        return None
    # (``logs = self.train_step(batch)`` returning ``{"loss": loss, "ce": ce}`` after
    # ``loss.backward()``: some of the values the loop takes are what it differentiated)
    summaries = [g.summary(x.value) for x in bound]
    if all(x.kind == "assign" for x in bound) and all(getattr(x, "keys", None) for x in summaries):
        return Fact(RETURNED, it.lineno, detail=summaries[0].name)
    got = [call_fact(g, x.value, "[*]", x.stmt) if x.kind == "assign" else
           _item_values_fact(g, x, s) for x, s in zip(bound, summaries)]
    return strongest(got) if all(f is not None for f in got) else None


def _item_values_fact(g, bd, summary) -> Optional[Fact]:
    """``total, terms = criterion(out, y)`` returning ``loss, {"cls": l_cls, "reg": l_reg}``:
    the first attached value of the dict display the call returns as the item that ``bd``
    unpacks (its keys one level below ``[i]`` in the summary's sources), or None."""
    from .graph_sources import call_fact

    prefix = f"[{bd.index}]["
    keys = sorted(k for k in getattr(summary, "sources", ()) if k.startswith(prefix) and
                  k.count("[") == 2)
    return first_fact(call_fact(g, bd.value, k, bd.stmt) for k in keys)


def _display_taken(it, target, key: str):
    """The values a loop's ``key`` takes from a display it spells (``for k, key in {...}.items()``,
    ``for key in {...}.values()``, ``for key in (a, b)``; no ``**``/``*`` in it), or None."""
    if type(it) in (ast.Tuple, ast.List) and type(target) is ast.Name and target.id == key:
        return None if any(type(e) is ast.Starred for e in it.elts) else it.elts
    if not (type(it) is ast.Call and type(it.func) is ast.Attribute and not it.args and
            type(it.func.value) is ast.Dict) or None in it.func.value.keys:
        return None
    m = it.func.attr
    if (m == "items" and type(target) is ast.Tuple and len(target.elts) == 2 and
            type(target.elts[1]) is ast.Name and target.elts[1].id == key) or \
            (m == "values" and type(target) is ast.Name and target.id == key):
        return it.func.value.values
    return None


def _loop_source(target, it, key: str) -> Optional[Tuple[ast.AST, int]]:
    """What a loop takes ``key``'s values from, and which item of each value ``key`` is (``-1``:
    the whole): ``for key in x`` (``x``, -1), ``for a, key in gen(...)`` (the call, 1), through
    ``enumerate`` (``for i, (key, out) in enumerate(gen(...))``: the call, 0; ``for i, key in
    enumerate(x)``: ``x``, -1) or ``zip`` of names (``for a, key in zip(t, x)``: ``x``, -1);
    else None."""
    if type(it) is ast.Call and type(it.func) is ast.Name and not it.keywords and \
            type(target) is ast.Tuple and \
            not any(type(e) is ast.Starred for e in target.elts + it.args):
        if it.func.id == "enumerate" and len(it.args) == 1 and len(target.elts) == 2:
            target, it = target.elts[1], it.args[0]
        elif it.func.id == "zip" and len(it.args) == len(target.elts):
            found = [a for e, a in zip(target.elts, it.args)
                     if type(e) is ast.Name and e.id == key]
            return (found[0], -1) if found and type(found[0]) is ast.Name else None
    if type(target) is ast.Name:
        return (it, -1) if target.id == key and type(it) in (ast.Name, ast.Call) else None
    if type(target) is ast.Tuple and type(it) is ast.Call:
        for i, e in enumerate(target.elts):
            if type(e) is ast.Name and e.id == key:
                return it, i
    return None


#: the detail of ``added_in_place``'s fact: a leaf added in place
ADDED = "added:"


def added_in_place(g, name: ast.Name, stmt) -> Optional[Fact]:
    """``ema_p.add_(p)``, ``total += p`` at ``stmt`` (``name``: ``p``, a module's parameter
    taken by a loop, ``for p in model.parameters()``): the add in place is an operation on that
    leaf, attached where the statement's region is on (``graph_items.leaf_fact``; the leaf
    alone is not), or None."""
    from .graph_sources import fact, region, sources, within

    g._need()
    reach = g.uses.get(id(name))
    if not reach or any(parameters_of(g.bindings[b]) is None for b in reach):
        return None  # (asked of every name added in place: the loop's target first)
    r = region(g, stmt) if stmt is not None else ""
    got = fact(g, within(sources(g, name, r), r), name.lineno)
    return None if got is None else Fact(got.why, got.line, got.needs_grad, ADDED + name.id)


#: the detail of the fact of an operation on a tensor that requires grad (``leaf_fact``)
LEAF = "leaf:"


def leaf_fact(g, expr, operand, stmt) -> Optional[Fact]:
    """``self.log_alpha.exp()``, ``self.scale * 2``, ``model.fc.weight.norm()`` (``expr``, at
    ``stmt``): an operation on a tensor that requires grad (``operand``: an attribute its class
    makes with ``requires_grad=True``, a module's parameter; ``graph_sources._leaf``), or
    ``self.alpha`` (``expr`` and ``operand``), a property making one, attached where the
    statement's region is on. The leaf alone is not."""
    from .graph_sources import fact, region, sources

    if not _nameable(operand):
        return None  # (a name: ``p`` of ``for p in model.parameters()``)
    r = region(g, stmt) if stmt is not None else ""
    got = fact(g, sources(g, expr, r), expr.lineno)
    if got is None:
        return None
    if type(expr) is ast.BinOp and not sources(g, operand, r):
        # ``self.tau * p``: the leaf is the other operand, where it is one (the message names it)
        other = expr.right if operand is expr.left else expr.left
        operand = other if _nameable(other) and sources(g, other, r) else operand
    return Fact(got.why, got.line, got.needs_grad,
                LEAF + (dotted(operand) or ast.unparse(operand)))


def _nameable(operand) -> bool:
    """A name or an attribute or item path of one (``p``, ``model.fc.weight``)."""
    return type(operand) is ast.Name or (type(operand) is ast.Attribute and
                                         type(path_root(operand)) is ast.Name)
