"""The items of a tuple or list as a scope's graph facts (``graph.ScopeGraph``) can read them:
what a returned ``LossTuple(*losses)`` holds at each position, where ``losses = [a, b]`` and
``losses = losses + [sum(losses)]`` were bound before, and which of those items are the terms
of a builtin ``sum`` of others. The function summaries of the project index
(``index.summaries``) read returns through these. Also what a list the scope fills holds
(``appended``: ``values = []`` ... ``values.append(out)``) and what an optimizer's
``step(closure)`` gives back (``closure_loss``), asked by the graph of a linted scope too.

A name is followed to its one reaching binding when that binds it whole (``x = [...]``) and
nothing in the scope changes it in place (``x.append(...)``, ``x[0] = ...``): otherwise its
items are unknown. Unknown stays unknown: None.
"""
from __future__ import annotations

import ast
from typing import Callable, List, Optional, Tuple

from .graph_facts import DERIVED, DIFFERENTIATED, FORWARD, GRAD_ON, HOLDS, RETURNED, SIBLING, \
    TERMS, Fact, appends, argument_positions, empty_list, first_fact, strongest
from ..syntax.accumulation_shapes import copied_from
from .graph_terms import computed, dotted, path_root, sole_operand, split_source, \
    values_and_indices

#: list methods that change a list in place: its items are no longer the ones it was bound to
_MUTATING = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort",
                       "reverse", "__setitem__", "__delitem__", "__iadd__"})


def namedtuple_fields(value: ast.expr) -> Optional[Tuple[str, ...]]:
    """The field names of ``namedtuple("T", ["a", "b"])`` (also ``"a b"``, ``"a, b"``) or
    ``NamedTuple("T", [("a", int), ...])``; None when they are not constants."""
    if type(value) is not ast.Call or len(value.args) < 2:
        return None
    spec = value.args[1]
    if type(spec) is ast.Constant and type(spec.value) is str:
        names = spec.value.replace(",", " ").split()
        return tuple(names) if all(n.isidentifier() for n in names) else None
    if type(spec) not in (ast.List, ast.Tuple):
        return None
    out = []
    for e in spec.elts:
        if type(e) is ast.Tuple and e.elts:
            e = e.elts[0]
        if type(e) is not ast.Constant or type(e.value) is not str or \
                not e.value.isidentifier():
            return None
        out.append(e.value)
    return tuple(out)


def elements(g, expr, depth: int = 0) -> Optional[List[ast.AST]]:
    """The item expressions of ``expr`` in order (a tuple or list display, ``*x`` of one, the
    ``+`` of two, a name bound to one, a namedtuple constructed from them), or None."""
    if depth > 8:
        return None
    t = type(expr)
    if t is ast.Tuple or t is ast.List:
        return _displayed(g, expr.elts, depth)
    if t is ast.BinOp and type(expr.op) is ast.Add:
        a = elements(g, expr.left, depth + 1)
        b = elements(g, expr.right, depth + 1) if a is not None else None
        return a + b if b is not None else None
    if t is ast.Name:
        reach = g.uses.get(id(expr))
        if not reach or len(reach) != 1 or _changed(g, expr.id):
            return None
        bd = g.bindings[next(iter(reach))]
        return elements(g, bd.value, depth + 1) if bd.kind == "assign" else None
    if t is ast.Call and not expr.keywords and g.oracle.fields(expr) is not None:
        return _displayed(g, expr.args, depth)
    return None


def _displayed(g, elts, depth: int) -> Optional[List[ast.AST]]:
    out: List[ast.AST] = []
    for e in elts:
        if type(e) is ast.Starred:
            inner = elements(g, e.value, depth + 1)
            if inner is None:
                return None
            out += inner
        else:
            out.append(e)
    return out


def _changed(g, name: str) -> bool:
    """Is ``name`` changed in place in the scope (an item written, a list method called)?"""
    if name in g.path_written:
        return True
    for s in g.expr_stmts:
        call = s.value
        if type(call) is ast.Call and type(call.func) is ast.Attribute and \
                type(call.func.value) is ast.Name and call.func.value.id == name and \
                call.func.attr in _MUTATING:
            return True
    return False


def summed_items(g, elts: List[ast.AST], j: int) -> frozenset:
    """The positions of ``elts`` whose items the builtin ``sum`` at position ``j`` adds
    (``[a, b, sum([a, b])]``: 2 -> {0, 1}), each a name bound to a computed value."""
    e = elts[j]
    if type(e) is not ast.Call or type(e.func) is not ast.Name or e.func.id != "sum" or \
            id(e.func) in g.uses or len(e.args) != 1 or e.keywords:
        return frozenset()
    added = elements(g, e.args[0])
    if not added:
        return frozenset()
    return frozenset(i for i, x in enumerate(elts) if i != j and type(x) is ast.Name and
                     any(x is y for y in added) and g.computed_read(x))


def returned_fields(g, value) -> Optional[Tuple[str, ...]]:
    """The namedtuple fields of a returned value: constructed here, or the one value a call of
    a summarised function returned (every reaching binding agreeing)."""
    if type(value) is ast.Call:
        return g.oracle.fields(value)
    got = None
    for b in call_bindings(g, value) or ():
        s = g.summary(g.bindings[b].value)
        fields = s.fields if s is not None else ()
        if not fields or (got is not None and fields != got):
            return None
        got = fields
    return got


def call_bindings(g, name) -> Optional[List[int]]:
    """The bindings reaching the read ``name`` when each binds the value of a call."""
    if type(name) is not ast.Name:
        return None
    reach = g.uses.get(id(name))
    if not reach or any(g.bindings[b].kind != "assign" or
                        type(g.bindings[b].value) is not ast.Call for b in reach):
        return None
    return sorted(reach)


# ---- the terms of a differentiated builtin ``sum`` (``graph.ScopeGraph._mark_expr``) -----------
def summed(g, expr) -> Optional[ast.Name]:
    """The name whose items ``sum(name)`` (the builtin) adds, ``sum(d.values())`` or
    ``sum(v for v in d.values())`` a dict's values, or ``name`` itself."""
    if type(expr) is ast.Name:
        return expr
    if not (type(expr) is ast.Call and type(expr.func) is ast.Name and expr.func.id == "sum"
            and id(expr.func) not in g.uses and expr.func.id not in g.opaque and
            len(expr.args) == 1 and not expr.keywords):
        return None
    arg = expr.args[0]
    keyed = _keyed_sum(arg)
    if keyed is not None:
        return keyed
    if type(arg) is ast.GeneratorExp and len(arg.generators) == 1 and \
            not arg.generators[0].ifs:
        # ``sum(v for v in d.values())``, ``sum(w[k] * v for k, v in d.items())``: each value
        # a term, weighted or not
        gen = arg.generators[0]
        it, tgt = gen.iter, gen.target
        view = it.func.attr if type(it) is ast.Call and type(it.func) is ast.Attribute and \
            not it.args else None
        v = tgt if view == "values" else tgt.elts[1] if view == "items" and \
            type(tgt) is ast.Tuple and len(tgt.elts) == 2 else None
        if type(v) is not ast.Name or not _weighted(
                arg.elt, lambda n, v=v.id: type(n) is ast.Name and n.id == v):
            return None
        arg = it
    if type(arg) is ast.Call and type(arg.func) is ast.Attribute and \
            arg.func.attr in ("values", "items") and not arg.args and \
            type(arg.func.value) is ast.Name and (arg.func.attr == "values" or
                                                   type(expr.args[0]) is ast.GeneratorExp):
        arg = arg.func.value  # ``sum(d.values())``
    return arg if type(arg) is ast.Name else None


def _keyed_sum(arg) -> Optional[ast.Name]:
    """``d`` of ``sum(d[k] * w[k] for k in d.keys() if k in w)`` (DETR's weighted loss): the
    items the loss adds, weighted, some keys perhaps left out (a loop over all of them still
    takes the attached ones); else None."""
    if type(arg) is not ast.GeneratorExp or len(arg.generators) != 1:
        return None
    gen = arg.generators[0]
    it = gen.iter
    if type(it) is ast.Call and type(it.func) is ast.Attribute and it.func.attr == "keys" and \
            not it.args:
        it = it.func.value
    if type(it) is not ast.Name or type(gen.target) is not ast.Name:
        return None
    d, k = it.id, gen.target.id

    def is_item(n) -> bool:  # ``d[k]``
        return type(n) is ast.Subscript and type(n.value) is ast.Name and n.value.id == d and \
            type(n.slice) is ast.Name and n.slice.id == k
    return it if _weighted(arg.elt, is_item) else None


def _weighted(elt, is_v: Callable[[ast.AST], bool]) -> bool:
    """Is ``elt`` the value ``is_v`` tells (a name ``v``; ``d[k]``), or it times or over a
    factor that does not read it (``weights[k] * v``, ``v / n``)?"""
    if is_v(elt):
        return True
    if type(elt) is not ast.BinOp or type(elt.op) not in (ast.Mult, ast.Div):
        return False
    sides = ((elt.left, elt.right),) if type(elt.op) is ast.Div else \
        ((elt.left, elt.right), (elt.right, elt.left))
    return any(is_v(a) and not any(is_v(n) for n in ast.walk(b)) for a, b in sides)


def mark_summed(g, expr, terms) -> None:
    """A differentiated ``sum(losses)``, or ``sum(losses) if isinstance(losses, tuple) else
    losses`` (each branch ``losses`` or its sum: whichever ran, it is that value or its
    terms): the computed binding of ``losses`` holds the loss's terms (``terms``: the fact)."""
    if type(expr) is ast.IfExp:
        a, b = summed(g, expr.body), summed(g, expr.orelse)
        if a is None or b is None or a.id != b.id:
            return
        reach = g.uses.get(id(a))
        if not reach or reach != g.uses.get(id(b)):
            return
    else:
        a = summed(g, expr)
    for b in g.uses.get(id(a), ()):
        bd = g.bindings[b]
        v = bd.value
        if bd.kind == "assign" and b not in g.marked and (computed(v) or (
                type(v) is ast.Dict and any(computed(x) for x in v.values)) or (
                type(v) is ast.DictComp and computed(v.value))):
            # (a dict display of computed losses too, or a comprehension computing one per key:
            # ``{k: head_loss(k, out[k], y[k]) for k in heads}``)
            g.marked[b] = terms


def changed_in_scope(g, name: str) -> bool:
    """Does the scope write, delete or change the items of ``name`` (``name[k] = v``, ``del
    name[k]``, a method called on it as a statement: ``name.update(...)``)?"""
    return name in g.path_written or called_on(g, name)


def called_on(g, name: str) -> bool:
    """Does a statement of the scope call a method on ``name`` (``name.update(...)``)?"""
    return any(type(s.value) is ast.Call and type(s.value.func) is ast.Attribute and
               type(s.value.func.value) is ast.Name and s.value.func.value.id == name
               for s in g.expr_stmts)


def item_fact(g, value, got: Optional[Fact], key=None) -> Optional[Fact]:
    """Why ``value[key]`` is attached, ``got`` the fact of ``value`` itself: an item of a
    tensor is in its graph; an item of a container (``got`` a HOLDS fact) or of a dict display
    (whose fact is its first attached value's: ``{"loss": loss, "acc": acc}[k]`` may be
    ``acc``) only as ``displayed_item_fact`` or ``any_item_fact`` proves it."""
    if type(key) is ast.Constant and type(key.value) is str and type(value) is ast.Name:
        shown = displayed_item_fact(g, value, key.value)
        if shown is not None:  # (else as before: a dict of summed terms, one all attached)
            return shown
    if got is None:
        return summed_item_fact(g, value)
    if got.why == HOLDS or (type(value) is ast.Name and any(
            g.bindings[b].kind == "assign" and type(g.bindings[b].value) is ast.Dict
            for b in g.uses.get(id(value)) or ())):
        return any_item_fact(g, value)
    return got


def summed_item_fact(g, value) -> Optional[Fact]:
    """``losses["entropy"]`` of a dict whose values a differentiated ``sum`` adds (its binding
    marked ``TERMS`` on every path: ``mark_summed``), its items written nowhere: a term of that
    loss, as each value a loop over it takes (``graph_loop_items.loop_item_fact``)."""
    reach = g.uses.get(id(value)) if type(value) is ast.Name else None
    if not reach or changed_in_scope(g, value.id):
        return None
    facts = [g.marked.get(b) for b in reach]
    if all(f is not None and f.why == TERMS for f in facts):
        return Fact(SIBLING, facts[0].line, detail=facts[0].detail)
    return None


def displayed_item_fact(g, value: ast.Name, key: str):
    """``logs["loss"]`` where every binding of ``logs`` reaching it is a dict display with that
    key (``logs = {"loss": loss, "step": step}``) and nothing in the scope changes its items:
    the fact of the value shown there; None otherwise (not attached, or not so shown)."""
    reach = g.uses.get(id(value))
    if not reach or changed_in_scope(g, value.id):
        return None
    facts: List[Optional[Fact]] = []
    for b in reach:
        bd = g.bindings[b]
        d = bd.value
        shown = [v for k, v in zip(d.keys, d.values) if type(k) is ast.Constant and
                 k.value == key] if bd.kind == "assign" and type(d) is ast.Dict and \
            None not in d.keys else []
        if len(shown) != 1:
            return None
        facts.append(None if g.grad_mode(bd.stmt) == "off" else g.attached(shown[0], bd.stmt))
    return None if any(f is None for f in facts) else strongest(facts)


def any_item_fact(g, value) -> Optional[Fact]:
    """``d[k]``, the key unknown, of a dict that holds a differentiated loss: attached where
    every binding of ``d`` reaching it is a dict display all of whose values are attached
    (``terms = {"nce": nt_xent(z1, z2), "var": reg(h)}``, both read in the loss; ``totals[name]
    += terms[name]``), and nothing in the scope writes its items or calls a method on it; else
    None (an unknown item of a container: ``{"loss": loss, "acc": acc}``)."""
    reach = g.uses.get(id(value)) if type(value) is ast.Name else None
    if not reach or changed_in_scope(g, value.id):
        return None
    facts: List[Optional[Fact]] = []
    for b in reach:
        bd = g.bindings[b]
        d = bd.value
        if bd.kind != "assign" or type(d) is not ast.Dict or not d.values or \
                any(k is None for k in d.keys) or g.grad_mode(bd.stmt) == "off":
            return None  # (``**other``: values unknown)
        # each value proven by the differentiating read of its key (``loss = terms["nce"] +
        # w * terms["var"]``), or attached where it is bound
        facts += [(g.path_fact(b, f"[{k.value!r}]") if type(k) is ast.Constant and
                   type(k.value) in (str, int) else None) or g.attached(v, bd.stmt)
                  for k, v in zip(d.keys, d.values)]
    if any(f is None or f.why == HOLDS for f in facts):
        return None
    return strongest(facts)


def returned_fact(g, node: ast.Call, summary, derived, stmt=None) -> Optional[Fact]:
    """What a call of a project function, made at ``stmt``, returns: what it differentiated
    (``returns_item``); or, for a function or method called by name that returns what it
    computes from arguments handed to it whole (its summary's sources: ``rt = t.clone();
    dist.all_reduce(rt); return rt / n``), attached where one of those arguments is
    (``derived(arg)``); or attached by its sources in the caller's terms, as a name bound to
    the call would be (``graph_sources.call_fact``: ``history.append(validate(model, b,
    crit))``); else None."""
    from .graph_sources import call_fact

    if summary.returns_item(None):
        return Fact(RETURNED, node.lineno, detail=summary.name)
    srcs = (getattr(summary, "sources", None) or {}).get("")
    if type(node.func) not in (ast.Name, ast.Attribute) or \
            any(type(a) is ast.Starred for a in node.args):
        return None
    if not srcs:
        # ``return [logits.softmax(-1)]`` (``[*]``: what it holds) of an attached argument
        held = (getattr(summary, "sources", None) or {}).get("[*]")
        got = first_fact(derived(node.args[i]) for i in argument_positions(held, True)
                         if i < len(node.args)) if held else None
        return None if got is None else Fact(HOLDS, node.lineno, needs_grad=got.needs_grad,
                                             detail=RETURNED_COMPUTED + summary.name)
    got = first_fact(derived(node.args[i]) for i in argument_positions(srcs, True)
                     if i < len(node.args))
    if got is not None and got.why in (DIFFERENTIATED, SIBLING, TERMS, DERIVED):
        return Fact(DERIVED, got.line, got.needs_grad)  # (computed from the loss)
    return got or call_fact(g, node, "", stmt)


def path_source_fact(g, expr, key: str) -> Optional[Fact]:
    """A path of a name (``out.logits``, ``out["pred"]``) attached by its sources
    (``graph_sources.sources``: what the call bound to it returns there), or as a field of a
    forward pass's output another item of which was differentiated (``output_sibling``)."""
    from .graph_sources import fact, sources

    root = path_root(expr)
    if key.startswith("[") and type(root) is ast.Name and called_on(g, root.id):
        return None  # (``out.update(...)``, ``out.pop(k)``: what it holds there is not known)
    return fact(g, sources(g, expr, ""), expr.lineno) or output_sibling(g, root, key) \
        or held_by_methods(g, root, key)


def held_by_methods(g, root, key: str) -> Optional[Fact]:
    """``meter.avg`` (field ``key`` of ``root``) where every binding of ``root`` reaching it is
    a call's value (``meter = AverageMeter()``) and a statement of the scope calls a method of
    it whose summary (``Oracle.method_summary``) says the field holds the graph of an argument
    after the call
    (``meter.update(loss, n)`` adding ``val * n`` into ``self.sum``, ``self.avg = self.sum /
    self.count``: ``GraphSummary.holds``): attached as that argument is there."""
    reach = g.uses.get(id(root)) if type(root) is ast.Name else None
    if not reach or len(reach) != 1 or key.count(".") != 1 or "[" in key or \
            root.id in g.path_written:
        return None
    made = g.bindings[next(iter(reach))]
    if made.kind != "assign" or type(made.value) is not ast.Call:
        return None
    for s in g.expr_stmts:
        c = s.value
        if type(c) is not ast.Call or type(c.func) is not ast.Attribute or \
                type(c.func.value) is not ast.Name or g.uses.get(id(c.func.value)) != reach:
            continue
        summary = g.oracle.method_summary(made.value, c.func.attr)
        held = getattr(summary, "holds", {}).get(key[1:], ())
        for k in sorted(held):
            if k < len(c.args) and not any(type(a) is ast.Starred for a in c.args[:k + 1]):
                got = g.attached(c.args[k], s)
                if got is not None:
                    return Fact(DERIVED, got.line, got.needs_grad)
    return None


#: the fields of a model's output object or dict that hold what its forward pass computed
#: (``output_sibling``; not ``labels``, ``mask``, ``ids``: what it was handed back)
OUTPUT_FIELDS = frozenset({
    "logits", "hidden_states", "last_hidden_state", "pooler_output", "attentions",
    "prediction_logits", "predictions", "preds", "pred", "scores", "embeddings", "features"})


def output_sibling(g, name, key: str) -> Optional[Fact]:
    """``outputs.logits`` (``outputs["logits"]``) where every binding of ``outputs`` reaching it
    is the result of a module's call or of ``self.model(...)`` another item of which the scope
    differentiated (``outputs.loss.backward()``): the forward pass that made both ran with
    grad on, so the field (one of ``OUTPUT_FIELDS``) holds its graph; else None."""
    field = key[1:] if key[:1] == "." else key[2:-2] if key[:2] in ("['", '["') else ""
    if field not in OUTPUT_FIELDS or len(field) + (1 if key[:1] == "." else 4) != len(key):
        return None  # (one step only: ``.logits``, not ``.logits.shape``)
    reach = g.uses.get(id(name)) if type(name) is ast.Name else None
    if not reach or name.id in g.path_written:
        return None
    from .graph_calls import call_kind

    line = None
    for b in reach:
        bd = g.bindings[b]
        v = bd.value
        if bd.kind != "assign" or type(v) is not ast.Call or not (
                (type(v.func) is ast.Attribute and dotted(v.func.value) == "self") or
                call_kind(g, v) == "forward"):
            return None  # (a model the trainer holds, ``self.model(**batch)``, or a module)
        diff = [f.line for (c, k), f in g.paths.items()
                if c == b and k != key and f.why == DIFFERENTIATED]
        if not diff:
            return None
        line = min(diff) if line is None else min(line, *diff)
    return Fact(FORWARD, line) if line is not None else None


def mark_term(g, b: int, sib: Fact) -> None:
    """Binding ``b``, a term of a differentiated sum, is a sibling of it (``sib``); so is the
    one name its value is a function of (``critic = adv.pow(2).mean()``: ``adv``, where
    ``critic`` has a graph; not the terms of ``adv = returns - values``, one of which may be
    a constant target)."""
    g.marked[b] = sib
    bd = g.bindings[b]
    one = sole_operand(bd.value) if bd.kind == "assign" else None
    if one is not None:
        for other in g.uses.get(id(one), ()):
            if g.bindings[other].kind in ("assign", "unpack"):
                g.marked.setdefault(other, sib)


def record_call(g, node: ast.Call) -> bool:
    """Does ``node`` construct a record class (``Oracle.fields``) by a name the scope binds to
    nothing else than that class's definition?"""
    reach = g.uses.get(id(node.func))
    if reach and not all(type(g.bindings[b].stmt) is ast.ClassDef for b in reach):
        return False
    return bool(g.oracle.fields(node))


def record_fact(node: ast.Call, derive) -> Optional[Fact]:
    """A record class's constructor call (``StepRecord(step, loss.item(), margin)``, its fields
    known: ``Oracle.fields``) keeps what it is given: it holds a graph where an argument has
    one (``RECORD``)."""
    got = first_fact(derive(a.value if type(a) is ast.Starred else a) for a in node.args) or \
        first_fact(derive(k.value) for k in node.keywords)
    return None if got is None else Fact(HOLDS, got.line, needs_grad=got.needs_grad,
                                         detail=RECORD + node.func.id)


def mark_sibling(g, b: int, items, sib: Fact) -> None:
    """Binding ``b`` unpacked beside a differentiated item (``graph.ScopeGraph._mark_unpacked``)
    from a call whose summary says ``items`` are terms of it: an item among them is a term
    (``sib``); a starred list last in the target holds one where one of them is among its
    items (``loss, *parts = criterion(p, y)``)."""
    bd = g.bindings[b]
    if bd.kind == "unpack" and bd.index in items:
        g.marked.setdefault(b, sib)
    elif bd.kind == "star" and any(j >= bd.index for j in items) and _star_last(bd):
        g.marked.setdefault(b, Fact(HOLDS, bd.stmt.lineno, detail=UNPACKED))


def _star_last(bd) -> bool:
    """Is ``bd``'s starred target the last of its statement's target tuple?"""
    return any(type(t) in (ast.Tuple, ast.List) and len(t.elts) == bd.index + 1 and
               type(t.elts[-1]) is ast.Starred for t in getattr(bd.stmt, "targets", ()))


def starred_fact(g, bd) -> Optional[Fact]:
    """The list a starred target takes from what it unpacks (``loss, *parts = criterion(p,
    y)``, items ``bd.index`` on): it holds a graph where one of those items is attached. Only
    with the star last (the items after it are counted from an end the value may not show)."""
    if not _star_last(bd):
        return None
    v = bd.value
    if type(v) in (ast.Tuple, ast.List) and any(type(e) is ast.Starred for e in v.elts):
        return None
    n = len(v.elts) if type(v) in (ast.Tuple, ast.List) else bd.index + 8
    got = first_fact(unpacked_fact(g, v, j, bd.stmt) for j in range(bd.index, n))
    return None if got is None else Fact(HOLDS, bd.stmt.lineno, detail=UNPACKED)


def holds_returned(g, bd, dicts: bool = False) -> Optional[Fact]:
    """``terms = self.training_step(batch)`` of a function whose summary says a key of the dict
    it returns holds the loss it differentiated (``terms["loss"].backward(); return terms``:
    ``GraphSummary.keys``), or an item of the tuple it returns (``GraphSummary.items``): the
    value holds that graph, when nothing here writes its items. With ``dicts``, the dict only."""
    if bd.kind != "assign" or type(bd.value) is not ast.Call or bd.key in g.path_written:
        return None
    return holding_call(bd.value, g.summary(bd.value), dicts)


def holding_call(call: ast.Call, s, dicts: bool = False) -> Optional[Fact]:
    """What ``call`` returns holds the loss its callee differentiated, where its summary ``s``
    says a key of the dict it returns holds it or (without ``dicts``) an item of the tuple:
    ``holds_returned`` of a name bound to the call, and the call's own value where nothing
    names it (``history.append(train_step(batch))``)."""
    if s is None or not (getattr(s, "keys", None) or getattr(s, "adds_into", False) or
                         not dicts and getattr(s, "items", None)):
        return None  # (``res = train_step(...)`` returning ``StepResult(loss, logits, acc)``)
    return Fact(HOLDS, call.lineno, detail=RETURNED_HOLDING + s.name)


# ---- lists the scope fills, closures an optimizer step runs ----------------------------------
#: the detail of a HOLDS fact of a list the scope appends attached values to (``appended``)
APPENDED = "appended"
#: the start of the detail of a HOLDS fact of what a called function returned (``holds_returned``)
RETURNED_HOLDING = "returned:"
#: ... of a list or dict it returns holding what it computes from an attached argument
RETURNED_COMPUTED = "computed:"
#: the detail of a HOLDS fact of a starred target's list (``starred_fact``)
UNPACKED = "unpacked"
#: the start of the detail of a HOLDS fact of a record made of attached values (``record_fact``)
RECORD = "record:"
_UNSEEN = object()


def appended(g, b: int) -> Optional[Fact]:
    """The value of binding ``b``, an empty list the scope makes (``values = []``, ``a, b =
    [], []``) where every binding of its name makes one, holds what the scope appends to
    it (``values.append(v)``, ``values.extend([v])``): attached where one of those is (the
    first such item's fact, as one the list holds)."""
    bd = g.bindings[b]
    key = bd.key
    if not empty_list(bd) or not all(empty_list(o) for o in g.bindings if o.key == key):
        return None
    for s, m, item in appends(g, key):
        if m == "append" or type(item) in (ast.List, ast.Tuple):
            got = g.attached(item, s)
            if got is not None:
                return Fact(HOLDS, got.line, needs_grad=got.needs_grad, detail=APPENDED)
    return None


def closure_loss(g, name: ast.Name) -> Optional[Fact]:
    """``opt.step(closure)`` returns what ``closure()`` returns (an optimizer's step with a
    closure: claim ``step-closure-returns-the-loss``): where ``name`` is bound only to a
    ``def`` of the scope without parameters whose every ``return`` gives a value it
    differentiated, and which ends with one."""
    g._need()
    reach = g.uses.get(id(name))
    if not reach or len(reach) != 1:
        return None
    bd = g.bindings[next(iter(reach))]
    fn = bd.stmt
    if bd.kind != "other" or type(fn) is not ast.FunctionDef or fn.name != name.id or \
            fn.args.args or fn.args.posonlyargs or fn.args.vararg or fn.args.kwonlyargs or \
            fn.decorator_list or not fn.body or type(fn.body[-1]) is not ast.Return:
        return None
    memo = g.memo.setdefault("closures", {})
    got = memo.get(id(fn), _UNSEEN)
    if got is _UNSEEN:
        got = memo[id(fn)] = None
        inner = g.nested(fn)
        facts = [inner.attached(v, st) if v is not None else None for v, st in inner.returns]
        if facts and all(x is not None and x.why == DIFFERENTIATED for x in facts):
            got = memo[id(fn)] = Fact(RETURNED, name.lineno, detail=fn.name)
    return got


def comprehension_fact(comp, derived) -> Optional[Fact]:
    """Why a list or dict comprehension is attached (``derived(e)``: the fact of ``e`` in the
    scope): one that copies a container's items unfiltered holds them (``{k: v for k, v in
    losses.items()}`` of the loss's terms); a list's items are derived from what each one is
    (``torch.stack([model(a(x)) for a in augs])``; the names the comprehension binds are none
    of the scope's: not known to be attached)."""
    copied = copied_from(comp)
    if copied is not None:
        got = derived(copied)
        return got if got is not None and got.why in (TERMS, HOLDS) else None
    return derived(comp.elt) if type(comp) is ast.ListComp else None


def unpacked_fact(g, value, i: int, stmt=None) -> Optional[Fact]:
    """Why item ``i`` of what a tuple target unpacks from ``value`` (``a, b = value``), bound at
    ``stmt``, is attached, or None."""
    if type(value) in (ast.Tuple, ast.List) and i < len(value.elts):
        return g.attached(value.elts[i], stmt)
    if values_and_indices(value):  # ``conf, pred = probs.max(-1)``: the values keep it
        return g.attached(value.func.value, stmt) if i == 0 and \
            type(value.func) is ast.Attribute and dotted(value.func) != \
            "torch." + value.func.attr else None
    if type(value) is ast.Name:  # ``out = step(...)`` ... ``a, b = out``: out's item
        return g.attached_path(value, f"[{i}]")
    if split_source(value) is not None:  # ``q, k, v = self.qkv(x).chunk(3, -1)``: views
        return g.attached(split_source(value), stmt)
    if type(value) is not ast.Call:
        return None
    from .graph_calls import call_kind, handed_module_call
    from .graph_sources import call_fact

    summary = g.summary(value)
    if summary is not None and summary.returns_item(i):
        return Fact(RETURNED, value.lineno, detail=summary.name)
    got = call_fact(g, value, f"[{i}]", stmt)
    if got is None and (summary is None or (
            summary.followed is not None and f"[{i}]" not in summary.followed)) and \
            call_kind(g, value) == "forward" and not handed_module_call(g, value):
        # (a summary that follows no tuple item: ``return (h, z) if features else z``)
        # ``seg, depth = model(x)``: the items of a forward pass's output, as the output, in
        # a loop that differentiates or a step method (not a loop over models before the
        # training)
        got = g.attached(value, stmt)
        return got if got is not None and got.why in (FORWARD, GRAD_ON) and \
            _in_loop_with(g, stmt, got.line) else None
    return got


def _in_loop_with(g, stmt, line: int) -> bool:
    """Is line ``line`` within the innermost loop of the scope that holds ``stmt``, or is the
    innermost loop holding ``line`` one around that loop (``for update in ...: for step in
    ...: dist, value = model(s)``, then ``loss.backward()`` once per update; not a loop over
    models before the training, nor one whose ``backward`` runs in a loop of its own), or is
    ``stmt`` in no loop of the scope (a step method: its callers' loop repeats it)?"""
    loops: tuple = ()
    found, todo = False, [(s, ()) for s in g.body]
    while todo:
        node, around = todo.pop()
        if node is stmt:
            loops, found = around, True
            break
        if type(node) in _LOOPS:
            around = around + (node,)
        todo.extend((c, around) for c in _blocks_of(node))
    if not found or not loops or loops[-1].lineno <= line <= loops[-1].end_lineno:
        return found
    inner = None  # the innermost loop holding ``line`` within the outermost one around ``stmt``
    todo = [loops[0]]
    while todo:
        node = todo.pop()
        if type(node) in _LOOPS and node.lineno <= line <= node.end_lineno and (
                inner is None or node.lineno >= inner.lineno):
            inner = node
        todo.extend(_blocks_of(node))
    return any(lp is inner for lp in loops)


_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _blocks_of(node) -> list:
    return [c for field in ("body", "orelse", "finalbody", "handlers")
            for c in getattr(node, field, ()) or ()]


def reduced_fact(g, call, read) -> Optional[Fact]:
    """The ``.values`` of a reduction ``call`` that gives (values, indices) (``out.max(1)``,
    ``logits.topk(2, dim=-1)``, ``torch.sort(x)``: ``values_and_indices``): they keep the graph
    of what was reduced."""
    f = call.func
    reduced = call.args[0] if dotted(f) == "torch." + f.attr and call.args else f.value
    return g._derived(call, read) or g._derived(reduced, read)


def mark_unpacked(g, bd, fact: Fact) -> None:
    """A differentiated item unpacked from a call whose summary says which other items are
    terms of its sum (``loss, c, r = focal(...)``; ``loss.backward()``): those too."""
    summary = g.summary(bd.value) if type(bd.value) is ast.Call else None
    if summary is None:
        return
    sibling_items = summary.terms.get(bd.index, ())
    if not sibling_items:
        return
    sib = Fact(SIBLING, fact.line, detail=fact.detail)
    for b, other in enumerate(g.bindings):
        if other.stmt is bd.stmt and (other.kind == "unpack" or other.kind == "star"):
            mark_sibling(g, b, sibling_items, sib)
