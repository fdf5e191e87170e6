"""Where a value of a scope comes from, for the graph facts (``graph.ScopeGraph``): the
**sources** a value is derived from through operations that keep a graph (arithmetic, indexing,
tensor methods, torch functions, items a summarised call returns), each a pair (origin, region):

- origin ``"f"``: a forward pass in the scope (a module with parameters runs), ``"p<k><path>"``:
  the caller's argument ``k`` (``"p0['likelihoods']['y']"``: that item of it), ``"c<k>"``: a call
  of the caller's argument ``k`` (a forward pass where it is a module), or ``"t<k>:<origin>"``:
  what such a call computes from a value of that origin (where the caller's argument is a loss);
- region: the grad mode the value was computed in, as the scope can name it: ``""`` the mode the
  scope was called in (no ``with`` about grad around it), ``"on"`` (``enable_grad``),
  ``"w<line>"`` a ``with set_grad_enabled(flag)`` of unknown mode, suffixed ``"@<line>:<col>"``
  per call once read through a summary; ``"*"`` none asked (a parameter passed on untouched).
  Under ``no_grad`` nothing is attached: no source.

A value is attached when one of its sources is: its origin attached and its region on. A region
is on when it is ``"on"``, or when a value computed in it was differentiated (backward proves it
had a graph, so grad was on where it was made): an item of the same call, a summary tells where
it was computed (``out = criterion(pred, y); out["loss"].backward()``: the call ran with grad on,
so ``out["y_bpp"]``, derived from ``pred``'s item there, is attached when ``pred`` is a forward
pass of the same region). The function summaries of the project index (``index.summaries``)
keep each returned item's sources and region; a call site reads them. A name reached by several
bindings keeps the sources all of them share; unknown stays unknown: no source.
"""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Optional, Tuple

from .graph_facts import DIFFERENTIATED, FORWARD, GRAD_ON, HOLDS, Fact, appends, \
    argument_positions, bound_value, called_region, empty_list, is_param, number_binding, \
    number_started, summed_from_number, through_argument, through_arguments
from .graph_calls import call_kind, module_attributes_called
from .graph_terms import ARITH, DETACHING, KEEPS_GRAPH, NOT_GRAD_PROOF, NUMBERS, \
    detached_path, dotted, graph_of_gradients, indexes_tensor, output_item, \
    makes_leaf, parameter_taken, parameters_of, path_of, path_root, reduced_values, split_source

Source = Tuple[str, str]
NONE: FrozenSet[Source] = frozenset()
#: the region of a value no operation computed (a parameter passed on)
ANY = "*"
_MAX_DEPTH = 24
#: calls that set grad mode for what follows them
_SWITCHES = frozenset({"set_grad_enabled", "_set_grad_enabled", "set_inference_mode"})
_BUSY = object()


def region(g, stmt) -> Optional[str]:
    """The region ``stmt`` runs in (module docstring); None: grad off there, set by a decorator
    of unknown effect, or anywhere in a scope that sets grad mode by a call of its own
    (``torch.set_grad_enabled(False)`` as a statement: regions no longer tell the mode)."""
    switched = g.memo.get("switched")
    if switched is None:
        switched = g.memo["switched"] = any(
            type(s.value) is ast.Call and
            (dotted(s.value.func) or "").rpartition(".")[2] in _SWITCHES for s in g.expr_stmts)
    if switched:
        return None
    mode = g.grad.get(id(stmt))
    if mode is None:
        return ""
    if mode == "on":
        return "on"
    line = g.regions.get(id(stmt)) if mode == "unknown" else None
    return f"w{line}" if line else None


def _meet(a: str, b: Optional[str]) -> Optional[str]:
    """The one region two conditions (``a`` and ``b`` both on) name, or None: two regions."""
    if b is None:
        return None
    if a == ANY or a == b or a == "on":
        return b
    if b == ANY or b == "on":
        return a
    return None


def within(srcs, r: Optional[str]) -> FrozenSet[Source]:
    """Sources through an operation run in region ``r``."""
    out = set()
    for o, reg in srcs:
        m = _meet(reg, r)
        if m is not None:
            out.add((o, m))
    return frozenset(out)


def shared(sets) -> FrozenSet[Source]:
    out = None
    for s in sets:
        out = s if out is None else out & s
        if not out:
            return NONE
    return out or NONE


def binding(g, b: int, depth: int = 0) -> FrozenSet[Source]:
    """The sources of the value binding ``b`` binds."""
    memo = g.memo.setdefault("sources", {})
    got = memo.get(b)
    if got is _BUSY or depth > _MAX_DEPTH:
        return NONE  # a loop-carried binding, or a chain too long: unknown
    if got is not None:
        return got
    memo[b] = _BUSY
    bd = g.bindings[b]
    out = NONE
    if bd.kind == "param":
        out = frozenset({(f"p{bd.index}", ANY)})
    elif bd.kind == "other" and parameter_taken(bd) and g.oracle.trains_parameters(
            parameters_of(bd)):
        out = frozenset({("f", ANY)})  # ``for p in model.parameters()``: a leaf (``_leaf``)
    elif bd.kind == "assign" and makes_leaf(bd.value) and g.oracle.trains_parameters():
        out = frozenset({("f", ANY)})  # ``log_vars = nn.Parameter(torch.zeros(3))``: a leaf
    elif bd.kind in ("assign", "aug", "unpack", "nested"):
        r = region(g, bd.stmt)
        if bd.kind == "assign":
            out = sources(g, bd.value, r, depth + 1)
            if not out and empty_list(bd):
                out = _appended(g, bd.key, depth)
            elif not out and type(bd.value) is ast.ListComp:  # as a list it appends to
                out = sources(g, bd.value, r, depth + 1, True)
        elif bd.kind == "aug" and type(bd.value.op) in ARITH:
            out = sources(g, bd.value.value, r, depth + 1) | \
                sources(g, bd.value.target, r, depth + 1)
        elif bd.kind == "unpack" or bd.kind == "nested":
            v = bd.value
            if type(v) is ast.Call and bd.kind == "unpack" and split_source(v) is not None:
                # ``mu, logvar = self.enc(x).chunk(2, -1)``: views of what is split
                out = sources(g, split_source(v), r, depth + 1, True)
            elif type(v) is ast.Call:
                out = call_item(g, v, bd.index if bd.kind == "nested" else f"[{bd.index}]", r,
                                depth + 1) or (_call(g, v, r, depth + 1)  # ``grads, = grad(...)``
                                               if graph_of_gradients(v) is not None else NONE)
            elif bd.kind == "unpack" and type(v) is ast.Name:  # ``a, b = outputs``: an item
                out = _path(g, v, (v.id, f"[{bd.index}]"), r, depth + 1, True)
            elif bound_value(bd) is not None:  # ``a, b = out, []``: an item of a display
                out = sources(g, bound_value(bd), r, depth + 1) or (
                    _appended(g, bd.key, depth) if empty_list(bd) else NONE)
    memo[b] = out
    return out


def _appended(g, key: str, depth: int) -> FrozenSet[Source]:
    """The sources of what the scope appends to ``key`` (``losses.append(crit(model(x), y))``),
    a name every binding of which makes an empty list (``graph_items.appended``, the same
    list's fact): a tensor made of its items (``torch.stack(losses).mean()``) is derived from
    them."""
    if not all(empty_list(o) for o in g.bindings if o.key == key):
        return NONE
    out: set = set()
    for s, m, item in appends(g, key):
        if m == "append":
            out |= sources(g, item, region(g, s), depth + 1)
    return frozenset(out)


def sources(g, expr, r: Optional[str], depth: int = 0, tensor: bool = False) \
        -> FrozenSet[Source]:
    """The sources of ``expr`` read in region ``r``; ``tensor``: the value is used as a tensor
    there (an argument of a torch function, the receiver of a tensor method), so an item of a
    container (``out["y"]``) is a tensor derived from what holds it."""
    if depth > _MAX_DEPTH:
        return NONE
    t = type(expr)
    if t is ast.Name:
        reach = g.uses.get(id(expr))
        if not reach or expr.id in g.opaque:
            return NONE
        # (a number a name starts as, ``total = 0.0``, holds no graph: the bindings that add
        # to it decide, as for the graph facts, ``ScopeGraph._read``)
        kept = [b for b in reach if not number_binding(g.bindings[b])]
        return shared(binding(g, b, depth + 1) for b in kept or reach)
    p = path_of(expr)
    if p is not None and type(path_root(expr)) is ast.Name:
        return _path(g, path_root(expr), p, r, depth, tensor or p[1].endswith("]") and
                     not p[1].endswith("']"))
    if t is ast.Subscript:
        return within(sources(g, expr.value, r, depth + 1, True), r) \
            if indexes_tensor(expr) else NONE
    if t is ast.Attribute:
        # ``out.max(dim=-1).values``: the values a reduction returns beside their indices
        return within(sources(g, expr.value, r, depth + 1, True), r) \
            if reduced_values(expr) else NONE
    if t is ast.BinOp:
        if type(expr.op) not in ARITH:
            return NONE
        return within(sources(g, expr.left, r, depth + 1) |
                       sources(g, expr.right, r, depth + 1), r)
    if t is ast.UnaryOp:  # (``torch.exp(-model.log_vars)``: a tensor's negation is one)
        return within(sources(g, expr.operand, r, depth + 1, tensor), r) \
            if type(expr.op) in (ast.USub, ast.UAdd) else NONE
    if t is ast.IfExp:  # both branches' (``x if c else None``: ``x``'s, None holds no graph)
        a, b = (None if type(e) is ast.Constant and e.value is None else
                sources(g, e, r, depth + 1, tensor) for e in (expr.body, expr.orelse))
        return a & b if a is not None and b is not None else a or b or NONE
    if t is ast.Call:
        return _call(g, expr, r, depth)
    if tensor and (t is ast.List or t is ast.Tuple):  # ``torch.cat([a, b])``: any of them
        return NONE.union(*(sources(g, e, r, depth + 1, True) for e in expr.elts))
    if tensor and (t is ast.ListComp or t is ast.GeneratorExp):  # (``torch.cat([model(x)
        return sources(g, expr.elt, r, depth + 1, True)  # for x in xs])``: every item's)
    return NONE


def _call(g, node: ast.Call, r: Optional[str], depth: int) -> FrozenSet[Source]:
    f = node.func
    if r is None or (type(f) is ast.Name and f.id in NUMBERS) or \
            (type(f) is ast.Attribute and f.attr in DETACHING):
        return NONE
    if type(f) is ast.Name and f.id == "sum" and node.args and \
            type(node.args[0]) in (ast.GeneratorExp, ast.ListComp):
        # ``sum(crit(model(x), y) for x, y in batches)``: every item's
        return within(sources(g, node.args[0].elt, r, depth + 1), r)
    kind = call_kind(g, node)
    if kind == "forward":  # (a frozen module's: what its inputs carry)
        return frozenset({("f", r)}) if not g.oracle.frozen(f) else NONE.union(*(
            sources(g, a, r, depth + 1) for a in (*node.args, *(k.value for k in node.keywords))))
    out = graph_of_gradients(node)  # ``autograd.grad(d, x, create_graph=True)``: of ``d``'s
    if out is not None:
        return within(sources(g, out, r, depth + 1, True), r)
    if kind == "through":
        out = set()
        for a in through_arguments(node):
            out |= sources(g, a, r, depth + 1, True)
        return within(out, r)
    if g.summary(node) is not None:
        return call_item(g, node, "", r, depth + 1)
    if type(f) is ast.Attribute and f.attr in KEEPS_GRAPH:
        return within(sources(g, f.value, r, depth + 1, True), r)
    if type(f) is ast.Name:
        # ``student(x)`` of a parameter the scope cannot tell is a module: a forward pass
        # where the caller's argument is one (``call_item``: origin ``"c<k>"``)
        reach = g.uses.get(id(f))
        if reach and len(reach) == 1:
            bd = g.bindings[next(iter(reach))]
            if bd.kind == "param":
                # and what it computes from its arguments where the caller's argument is a
                # callable that keeps their graph (a loss: origin ``"t<k>:<origin>"``)
                k = bd.index
                inner = NONE.union(*(sources(g, a, r, depth + 1, True)
                                     for a in through_arguments(node)))
                return frozenset({(f"c{k}", r)} | {(f"t{k}:{o}", reg) for o, reg in inner})
    return NONE


def call_fact(g, call: ast.Call, key: str, stmt) -> Optional[Fact]:
    """Item ``key`` (``""``: the value) of what ``call``, made at ``stmt``, returns: attached
    by its sources (``fact``)."""
    s = g.summary(call) if stmt is not None else None
    if s is None:
        return None
    r = region(g, stmt)
    got = fact(g, call_item(g, call, key, r, 0), call.lineno)
    if got is not None or not key.startswith("["):
        return got
    # ``total, losses = compute_losses(...)`` ... ``log.append(losses)``: a dict the callee
    # returns as that item, one of whose values is attached, holds that graph
    for k in s.sources:
        if k.startswith(key + "[") and k.count("[") == key.count("[") + 1:
            item = fact(g, call_item(g, call, k, r, 0), call.lineno)
            if item is not None:
                return Fact(HOLDS, item.line, needs_grad=item.needs_grad)
    return None


def _path(g, root: ast.Name, p, r, depth: int, tensor: bool) -> FrozenSet[Source]:
    """The sources of the item ``p`` (root name, key path) of a name: of a parameter, that item
    of the caller's argument; of a summarised call's value, that item's sources; of any other
    value, its own sources when the item is used as a tensor."""
    own = g.memo.get("keyed")
    if detached_path(p[1]):  # ``out.data``, ``out.grad``: no graph
        return NONE
    if own is not None and own[0] == root.id and p[1] in own[1]:
        value, stmt = own[1][p[1]]  # a key of the dict the function returns, written once
        return sources(g, value, region(g, stmt), depth + 1, tensor)
    reach = g.uses.get(id(root))
    if not reach or root.id in g.path_written or root.id in g.opaque:
        return NONE
    sets = []
    for b in reach:
        bd = g.bindings[b]
        leaf = _leaf(g, reach, bd, p[1])
        if leaf is not None:
            sets.append(frozenset({("f", ANY if leaf else r)}) if leaf or r is not None else NONE)
        elif bd.kind == "param" and (tensor or p[1].endswith((".weight", ".bias"))):
            # (an item of it used as a tensor here; a module's parameter by its name,
            # ``model.fc1.weight``: whether the caller's argument is a module it tells)
            sets.append(frozenset({(f"p{bd.index}{p[1]}", ANY)}))
        elif bd.kind == "assign" and type(bd.value) is ast.Call and \
                g.summary(bd.value) is not None:
            got = call_item(g, bd.value, p[1], region(g, bd.stmt), depth + 1)
            if not got and unfollowed(g.summary(bd.value), p[1]) and \
                    call_kind(g, bd.value) == "forward":
                # of a forward pass's output, as for a module of unknown class below
                got = frozenset(s for s in binding(g, b, depth + 1) if s[0] == "f")
            sets.append(got)
        elif bd.kind == "unpack" and type(bd.value) is ast.Call and \
                g.summary(bd.value) is not None:
            # ``loss, parts = compute_loss(model, x)`` ... ``parts["l1"]``: a key of the dict
            # the callee returns as that tuple item
            item = f"[{bd.index}]"
            got = call_item(g, bd.value, item + p[1], region(g, bd.stmt), depth + 1)
            if not got and output_item(p[1]) and _called_argument(g.summary(bd.value), item, p[1]):
                # ``loss, out = compute_loss(model, x, return_outputs=True)`` ...
                # ``out["logits"]``: an item of the output of the module argument the callee
                # called and returns as that tuple item
                got = frozenset(s for s in call_item(g, bd.value, item, region(g, bd.stmt),
                                                     depth + 1) if s[0] == "f")
            sets.append(got)
        elif tensor or (output_item(p[1]) and bd.kind == "assign" and
                        type(bd.value) is ast.Call and call_kind(g, bd.value) == "forward"):
            # (an item of a tensor, or an item or field of a forward pass's output:
            # ``outputs.logits``, ``out["pred"]``)
            sets.append(frozenset(s for s in binding(g, b, depth + 1) if s[0] == "f"))
        else:
            return NONE
    return shared(sets)


def _called_argument(summary, key: str, path: str) -> bool:
    """Is item ``key`` of what the summarised function returns, on every return, the value of
    a call of one of its arguments (``outputs = model(x)`` ... ``return loss, outputs``), whose
    item ``path`` it does not write (``outputs["parts"] = parts``: what it wrote answers),
    nor any item at a key it cannot name?"""
    got = summary.sources.get(key)
    return bool(got) and all(o[:1] == "c" and "[" not in o and "." not in o
                             for o, _ in got if o[:1] != "t") \
        and not {key + path, key + "[?]"} & (summary.followed or frozenset())


def _leaf(g, reach, bd, key: str) -> Optional[bool]:
    """True: ``key`` of the name is a tensor that requires grad (``self.log_alpha`` made with
    ``requires_grad=True``: the oracle's ``leaf``; ``model.fc.weight`` of a module whose
    ``parameters()``/``train()`` the scope reads): what an operation computes from it is
    attached where grad is on, the leaf itself is not (region ``ANY``). False: ``self.alpha``,
    a property computing from such a leaf (``return self.log_alpha.exp()``): the value itself is
    attached where it is read with grad on. None: neither."""
    if key.endswith((".weight", ".bias")) and any(
            g.uses.get(id(m)) == reach for m in g.module_reads) and g.oracle.trains_parameters():
        return True  # (also an item's, ``model[0].weight``: a submodule of ``nn.Sequential``)
    if "[" in key:
        return None
    if bd.kind == "param" and bd.index == 0 and key.count(".") == 1:
        if g.oracle.leaf(key[1:]):
            return True
        if g.oracle.leaf_property(key[1:], bd.key):
            return False
    if bd.kind in ("assign", "param") and key.count(".") == 1 and \
            g.oracle.instance_leaf(bd.key, key[1:]) and g.oracle.trains_parameters():
        return True  # ``model.log_vars`` of ``self.log_vars = nn.Parameter(...)``
    return None


def unfollowed(s, key: str) -> bool:
    """Is ``key`` an output item (``output_item``) of a value whose callee's summary follows no
    item of what it returns (``return Output(loss=l, logits=y)``: a record it cannot read)?
    A summary that follows some keys of a returned dict leaves the others out on purpose (a key
    written twice, its last value detached)."""
    return output_item(key) and s.followed is not None and not s.followed


def call_item(g, call: ast.Call, key: str, r: Optional[str], depth: int) -> FrozenSet[Source]:
    """The sources of item ``key`` (``""``: the whole value) of what ``call`` returns, by the
    callee's summary, in the caller's terms (its regions, its arguments' sources)."""
    s = g.summary(call)
    got = s.sources.get(key) if s is not None else None
    if not got or r is None:
        return NONE
    out: set = set()
    for o, reg in got:
        here = called_region(reg, r, call)
        if here is None:
            continue
        if o[:1] == "c" and o[1:].isdigit() and _argument(call, int(o[1:])) is not None and \
                (o, reg) in _differentiated_calls(s):
            out.add(("f", here))  # (``return loss, logits`` of ``logits = model(x)``, the
            continue  # loss differentiated through it: the argument ran a graph-making call)
        out |= _in_caller(g, call, o, reg, here, r, depth)
    return frozenset(out)


def _differentiated_calls(s) -> FrozenSet[Source]:
    """The calls of the callee's arguments (``("c0", region)``) that a value it differentiated
    and returns is computed from: that call's result had a graph there (``step(model, ...)``
    with ``logits = model(x); loss = crit(logits, y); loss.backward(); return loss, logits``)."""
    keys = ([""] if s.returns else []) + [f"[{i}]" for i in s.items] + list(s.keys)
    return frozenset(x for k in keys for x in s.sources.get(k, ()) if x[0][:1] == "c")


def _in_caller(g, call: ast.Call, o: str, reg: str, here: str, r: str,
               depth: int) -> FrozenSet[Source]:
    """Origin ``o`` of a callee's source (computed in its region ``reg``, the caller's ``here``)
    in the caller's terms, at ``call`` made in region ``r``."""
    if o == "f":
        return frozenset({("f", here)})
    k, path = _param_origin(o)
    arg = _argument(call, k)
    if arg is None or depth > _MAX_DEPTH:
        return NONE
    if o[0] == "c":  # a call of the argument: a forward pass where it is a module here
        return frozenset({("f", here)}) if module_argument(g, arg) and \
            g.oracle.trainable(call) else NONE
    if o[0] == "t":  # what a call of the argument computes from ``path[1:]``: a loss's graph
        return _in_caller(g, call, path[1:], reg, here, r, depth + 1) \
            if through_argument(g, arg) else NONE
    if path:  # an item of the argument, which the callee uses as a tensor
        q = path_of(arg) if type(arg) is not ast.Name else (arg.id, "")
        if q is not None:
            inner = _path(g, path_root(arg), (q[0], q[1] + path), r, depth + 1, True)
        else:
            inner = frozenset((o if o == "f" else o + path, reg)
                              for o, reg in sources(g, arg, r, depth + 1, True))
    else:
        inner = sources(g, arg, r, depth + 1)
    return within(inner, here)


def _param_origin(o: str) -> Tuple[int, str]:
    i = 1
    while i < len(o) and o[i].isdigit():
        i += 1
    return int(o[1:i]), o[i:]


def _argument(call: ast.Call, k: int):
    """The expression passed at position ``k`` (positionally, no ``*args`` before it)."""
    for i, a in enumerate(call.args):
        if type(a) is ast.Starred:
            return None
        if i == k:
            return a
    return None


def shifted(srcs: FrozenSet[Source], offset: int, positional: int) -> FrozenSet[Source]:
    """Sources counted as a caller passes arguments: a method's ``self`` (``offset`` 1) is not
    one of them, and what is derived from it is unknown to the caller; nor is a parameter after
    the ``positional`` ones (``*args``, keyword-only: no position of a call's arguments)."""
    out = set()
    for o, reg in srcs:
        if o == "f":
            out.add((o, reg))
            continue
        k, path = _param_origin(o)
        if not offset <= k < positional:
            continue
        if o[0] == "t":  # its inner origin counted the same way
            inner = shifted(frozenset({(path[1:], reg)}), offset, positional)
            out.update((f"t{k - offset}:{i}", reg) for i, _ in inner)
        else:
            out.add((f"{o[0]}{k - offset}{path}", reg))
    return frozenset(out)


def module_argument(g, arg) -> bool:
    """Is ``arg``, passed at a call of the scope, a module as the scope shows it: a name bound
    once that the inference knows is one (``Oracle.module_name``), a parameter whose
    ``parameters()``/``train()``/``eval()`` the scope reads (``call_kind``'s evidence), or an
    attribute chain whose module method the scope calls as a statement
    (``self.student.train()``)?"""
    g._need()
    if type(arg) is ast.Attribute:
        d = dotted(arg)
        root = path_root(arg)
        return d is not None and type(root) is ast.Name and root.id not in g.path_written and \
            d in module_attributes_called(g)
    if type(arg) is not ast.Name:
        return False
    reach = g.uses.get(id(arg))
    if not reach:
        return False
    if len(reach) == 1 and g.bindings[next(iter(reach))].kind == "assign" and \
            sum(1 for b in g.bindings if b.key == arg.id) == 1:
        return g.oracle.module_name(arg.id)  # bound once: what the inference knows of it
    return bool(g.module_reads) and all(g.bindings[b].kind == "param" for b in reach) and any(
        g.uses.get(id(m)) == reach for m in g.module_reads)


def computed_in(g, expr, stmt) -> Optional[str]:
    """The region the value of ``expr`` (read at ``stmt``) was computed in by an operation of
    the scope that records a graph only with grad on there (arithmetic, a forward pass, a torch
    function, a tensor method; bound to it by one binding), or None: a call of anything else
    may turn grad on inside."""
    if type(expr) is ast.Name:
        bd = _assigned(g, expr) or number_started(g, expr)  # (``total = 0.0`` ... a sum)
        if bd is None:
            return None
        expr, stmt = bd.value if bd.kind == "assign" else bd.stmt.value, bd.stmt
    t = type(expr)
    if t is ast.Call:
        f = expr.func
        if type(f) is ast.Name and f.id == "sum" and id(f) not in g.uses:
            return region(g, stmt)  # the builtin adds the items: arithmetic
        if call_kind(g, expr) is None and not (type(f) is ast.Attribute and
                                               f.attr in KEEPS_GRAPH):
            # a project function whose summary says where its value was computed (``def
            # gauss(a, b): return ((a - b) ** 2).mean()``: in the region it was called in)
            s = g.summary(expr)
            reg = s.regions.get("") if s is not None else None
            r = region(g, stmt) if reg is not None else None
            return None if r is None else called_region(reg, r, expr)  # type: ignore[arg-type]
    elif t is not ast.BinOp:
        return None
    return region(g, stmt)


def _assigned(g, name: ast.Name):
    """The one binding that reaches the read ``name``, when it is an assignment; else None."""
    reach = g.uses.get(id(name))
    if not reach or len(reach) != 1:
        return None
    bd = g.bindings[next(iter(reach))]
    return bd if bd.kind == "assign" else None


def displayed_dict(g, e):
    """``e``, or the dict display the name ``e`` is bound to by its one binding (``losses =
    {"seg": ..., "depth": ...}`` ... ``return total, losses``), when nothing writes its items."""
    bd = _assigned(g, e) if type(e) is ast.Name and e.id not in g.path_written else None
    return bd.value if bd is not None and type(bd.value) is ast.Dict else e


def forward_fact(g, node: ast.Call, stmt) -> Optional[Fact]:
    """A forward pass ``node`` of the scope, read in ``stmt`` (None: not known where): nothing
    where that statement runs under a ``with`` that turns grad off (``torch.no_grad()``: the
    value bound there has no graph, wherever it is read later); attached for sure where its
    region is proven on (``proven_regions``) and its parameters may require grad
    (``Oracle.trainable``: a frozen backbone's output has no graph), else attached where the
    scope runs with grad on."""
    if stmt is not None and g.grad_mode(stmt) == "off":
        return None
    if stmt is not None and g.oracle.trainable(node):
        r = region(g, stmt)
        on = proven_regions(g) if r is not None else {}
        if r in on:
            return Fact(GRAD_ON, on[r])
    return Fact(FORWARD, node.lineno, needs_grad=True)


def proving_region(g, value, stmt) -> Optional[str]:
    """The region a differentiated ``value`` made at ``stmt`` proves on, or None: arithmetic, a
    forward pass, a torch function or a loss module, a tensor method that records a graph only
    with grad on (none of ``NOT_GRAD_PROOF``: under ``no_grad`` a view or a conversion of an
    attached tensor still requires grad, so its differentiation proves nothing there)."""
    t = type(value)
    if t is ast.UnaryOp and type(value.op) is ast.USub:
        t, value = type(value.operand), value.operand  # ``-(q * k).sum()``: what is negated
    if t is ast.BinOp:
        if type(value.op) not in ARITH:
            return None
    elif t is ast.Call:
        f = value.func
        last = f.attr if type(f) is ast.Attribute else f.id if type(f) is ast.Name else ""
        if last in NOT_GRAD_PROOF or (computed_in(g, value, stmt) is None and
                                      not _passed_forward(g, value, stmt) and
                                      not _summarised_from_forward(g, value, stmt)):
            return None
    elif t is ast.Attribute or t is ast.Subscript:
        # ``loss = model(**batch).loss; loss.backward()``: the forward pass ran with grad on
        base = value.value
        key = f".{value.attr}" if t is ast.Attribute else (
            f"[{value.slice.value!r}]" if type(value.slice) is ast.Constant and
            type(value.slice.value) is str else None)  # (``graph_terms.path_of``'s spelling)
        if type(base) is not ast.Call or key is None or not output_item(key) or \
                call_kind(g, base) != "forward":
            return None
    else:
        return None
    return region(g, stmt)


def _summarised_from_forward(g, call: ast.Call, stmt) -> bool:
    """Is ``call`` a call by name of a project function whose summary computes its value from
    its arguments only (``info_nce(z1, z2, negs)``), one of them a forward pass made in
    ``stmt``'s region? Differentiated, it proves that region on, as ``_passed_forward``."""
    s = g.summary(call) if type(call.func) is ast.Name else None
    srcs = (getattr(s, "sources", None) or {}).get("") if s is not None else None
    picked = argument_positions(srcs) if srcs else ()
    if not picked or len(picked) != len(srcs) or any(type(a) is ast.Starred for a in call.args):
        return False  # (a source of its own, or an item of an argument: not from them only)
    r = region(g, stmt)
    return any(_forward_arg(g, call.args[i], r) for i in picked if i < len(call.args))


def _passed_forward(g, call: ast.Call, stmt) -> bool:
    """Is ``call`` a call of a parameter of the scope (``criterion(logits, y)``: a loss passed
    in) with an argument that a forward pass made in ``stmt``'s region (``logits = model(x)``;
    or a call of a parameter: ``loss_fn(model(x), y)``)? Differentiated, it proves that region
    on: with grad off there the output holds no graph, and the callable would have to turn grad
    on and bring parameters of its own."""
    if not is_param(g, call.func):
        return False
    r = region(g, stmt)
    return any(_forward_arg(g, a, r) for a in call.args)


def _forward_arg(g, a, r) -> bool:
    """Is argument ``a`` a forward pass (or a call of a parameter) made in region ``r``, itself
    or through the one binding of the name it is?"""
    if type(a) is ast.Name:
        got = g.uses.get(id(a))
        if not got or len(got) != 1:
            return False
        bd = g.bindings[next(iter(got))]
        a = bound_value(bd)  # (``z1, z2 = enc(x1), enc(x2)`` too)
        if a is None or region(g, bd.stmt) != r:
            return False
    return type(a) is ast.Call and (call_kind(g, a) == "forward" or is_param(g, a.func))


def proven_regions(g) -> Dict[str, int]:
    """The regions a differentiated value proves on (-> the line of its differentiation): the
    value or an item of a summarised call whose summary says where it was computed
    (``out["loss"].backward()``, ``loss, *_ = step(x); loss.backward()``, ``loss = crit(out, y);
    loss.backward()``), or a value the scope computed by an operation that records a graph only
    with grad on (``proving_region``: ``loss = F.mse_loss(out, y); loss.backward()`` proves the
    region of ``out = model(x)`` on). A differentiation reached by items of calls made in
    different regions proves none of them (which one ran is unknown)."""
    got = g.memo.get("proven")
    if got is not None:
        return got
    by_line: Dict[int, set] = {}
    items = [((b, k), f) for (b, k), f in g.paths.items()]
    items += [((b, f"[{g.bindings[b].index}]" if g.bindings[b].kind == "unpack" else ""), f)
              for b, f in g.marked.items() if g.bindings[b].kind in ("unpack", "assign", "aug")]
    for (b, key), fact in items:
        bd = g.bindings[b]
        if fact.why != DIFFERENTIATED:
            continue
        s = g.summary(bd.value) if type(bd.value) is ast.Call else None
        if s is not None and (unfollowed(s, key) or output_item(key) and key not in s.regions) \
                and bd.kind == "assign" and call_kind(g, bd.value) == "forward":
            s = None  # as a forward pass's output's (below; a summary not saying where it was)
        if s is None:
            v = bd.value
            if key == "" and bd.kind == "assign" and type(v) is ast.Call and \
                    type(v.func) is ast.Attribute and v.func.attr == "scale" and \
                    len(v.args) == 1 and not v.keywords:
                continue  # ``scaled = scaler.scale(loss)``: ``loss``, marked too, proves it
            if key == "" and (bd.kind == "assign" or summed_from_number(g, bd)):
                # ``loss = crit(out, y)`` (or ``rec + kl``; ``loss += w * crit(o, y)``) made here
                by_line.setdefault(fact.line, set()).add(proving_region(
                    g, bd.value if bd.kind == "assign" else bd.stmt.value, bd.stmt))
            elif bd.kind == "assign" and type(bd.value) is ast.Call and \
                    call_kind(g, bd.value) == "forward" and output_item(key):
                # ``outputs = model(**batch); outputs.loss.backward()``: the forward pass ran
                # with grad on
                by_line.setdefault(fact.line, set()).add(region(g, bd.stmt))
            elif type(bd.value) is ast.Call:
                by_line.setdefault(fact.line, set()).add(None)
            continue
        reg = s.regions.get(key)
        r = region(g, bd.stmt)
        if reg is not None and r is not None:
            here = called_region(reg, r, bd.value)
            by_line.setdefault(fact.line, set()).add(here)
        else:
            by_line.setdefault(fact.line, set()).add(None)
    # ``loss, out = step(model, batch)``, ``train_epoch(model, loader)`` of a function that
    # differentiates on every call (``GraphSummary.proves_on``): grad was on where the call ran
    calls = [(bd.value, bd.stmt) for bd in g.bindings if bd.kind in ("assign", "unpack")]
    for v, stmt in calls + [(s.value, s) for s in g.expr_stmts]:
        if type(v) is ast.Call and getattr(g.summary(v), "proves_on", False):
            by_line.setdefault(v.lineno, set()).add(region(g, stmt))
    # ``(losses.mean() + aux).backward()``: arithmetic differentiated where it is made proves
    # that region on, as ``loss = a + b; loss.backward()`` does (``proving_region``)
    for expr, stmt in g.differentiated:
        if type(expr) is ast.BinOp or type(expr) is ast.UnaryOp:
            by_line.setdefault(stmt.lineno, set()).add(proving_region(g, expr, stmt))
    out: Dict[str, int] = {}
    for line, regs in sorted(by_line.items()):
        if len(regs) == 1 and None not in regs and ANY not in regs:
            out.setdefault(next(iter(regs)), line)
    g.memo["proven"] = out
    return out


def fact(g, srcs: FrozenSet[Source], line: int) -> Optional[Fact]:
    """Why a value with sources ``srcs`` (in this scope: the scope's own parameters are
    unknown) is attached: a forward pass of a region that is on (proven), or of the region the
    scope was called in (attached when grad is on there: the caller asks)."""
    forward = [reg for o, reg in srcs if o == "f"]
    if not forward:
        return None
    if "on" in forward:
        return Fact(GRAD_ON, line, detail="enable_grad")
    on = proven_regions(g)
    for reg in forward:
        if reg in on:
            return Fact(GRAD_ON, on[reg])
    if "" in forward:
        return Fact(FORWARD, line, needs_grad=True)
    return None

