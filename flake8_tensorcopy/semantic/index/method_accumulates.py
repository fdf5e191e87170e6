"""What a method of a project class adds into ``self`` on each call (``GraphSummary.
accumulates``, made by ``summaries``): the call position of each parameter it keeps, itself or
what it forms from it (``self.sum += val * n``, ``self.vals.append(val)``, ``self.bank =
torch.cat([feats, self.bank])``, ``self.bank[idx] = new``, ``self.bank.index_copy_(0, idx,
new)``), directly or through a method it
calls (``self._add(val)``, ``self.meter.update(val)``)."""
from __future__ import annotations

import ast
from typing import Dict, Optional, Tuple

from .kept_attrs import every_item, joined_with, scaled_attrs, self_attr, tensor_attribute, \
    zipped_items
from .. import graph, graph_sources, kinds
from ..graph_facts import through_arguments
from ..graph_terms import ARITH, KEEPS_GRAPH


def method_accumulates(g: graph.ScopeGraph, fn, offset: int, cls=None,
                       kept_items: Optional[Dict[int, Tuple[str, str]]] = None
                       ) -> Dict[int, str]:
    """Call position of a parameter -> the ``self`` attribute the method adds it into, itself
    or through a method it calls whose summary says so (``self._add(val)``,
    ``self.meter.update(val)`` with ``self.meter`` a project class's instance). Into
    ``kept_items``: call position -> (the key path, the attribute) of a parameter the method
    adds one item of (``self.losses.append(logs["loss"])``: ``['loss']``)."""
    params = {i: name for i, name in enumerate(graph.function_params(fn))}
    targets: Dict[str, int] = {}  # attribute -> how many statements bind it
    found: Dict[int, str] = {}
    items: set = set()  # filled as the walk meets the loops, before their bodies
    names = set(list(params.values())[offset:])
    zipped: Dict[str, int] = {}  # ``for i, l in zip(idx, losses)``: ``l`` -> ``losses``'s position
    positions = {n: i for i, n in params.items()}
    first: set = set()  # ``if self.avg is None: self.avg = v``: filled before the body's turn
    merged: Dict[str, list] = {}  # ``row.update(data)``: ``row`` -> what is merged into it
    rows: list = []  # ``self.history.append(row)``: (statement, attribute, ``row``)
    for stmt in ast.walk(fn):
        t = type(stmt)
        attr, value = None, None
        if t is ast.If:
            first.update(_first_bindings(stmt))
        elif t is ast.For:
            every_item(stmt, items)
            zipped_items(stmt, positions, zipped)
        elif t is ast.AugAssign and type(stmt.op) is ast.Add:
            attr, value = self_attr(stmt.target), stmt.value
        elif t is ast.Assign and len(stmt.targets) == 1:
            attr = self_attr(stmt.targets[0])
            v = stmt.value
            if attr is not None and type(v) is ast.IfExp:  # ``x if self.v is None else ...``
                v = next((b for b in (v.orelse, v.body) if type(b) is ast.BinOp and
                          attr in scaled_attrs(b.left) | scaled_attrs(b.right)), v)
            joined = joined_with(v, attr) if attr is not None else None
            if joined is not None:  # ``self.buf = torch.cat([feats, self.buf])[:k]``
                value = joined
            elif attr is not None and type(v) is ast.BinOp and type(v.op) is ast.Add and \
                    attr in scaled_attrs(v.left) | scaled_attrs(v.right):
                # ``self.sum = self.sum + v``, ``self.avg = b * self.avg + (1 - b) * v``
                value = v.right if attr in scaled_attrs(v.left) else v.left
            elif attr is not None and type(stmt.targets[0]) is ast.Subscript:
                k = zipped.get(v.id, -1) if type(v) is ast.Name else -1
                if k >= offset and g.grad_mode(stmt) not in ("off", "unknown"):
                    found[k - offset] = attr  # each item of a parameter at its own index
                elif tensor_attribute(cls, attr[5:]):  # (``attr``: ``self.bank``)
                    # ``self.bank[idx] = F.normalize(new)``: a write into a tensor keeps its
                    # graph, each call's written on top of the last one's (a chain that grows)
                    _accumulated(g, stmt, attr, v, params, offset, items, found)
                continue  # ``self.d[k] = x``: one item set, the rest kept
            elif attr is not None:
                if id(stmt) not in first:  # (``if self.avg is None: self.avg = v``: the first)
                    targets[attr] = targets.get(attr, 0) + 1  # rebound whole: reset per call
                continue
        elif t is ast.Expr and type(stmt.value) is ast.Call and \
                type(stmt.value.func) is ast.Attribute and stmt.value.func.attr == "append" and \
                len(stmt.value.args) == 1:
            attr, value = self_attr(stmt.value.func.value), stmt.value.args[0]
            if attr is not None and type(value) is ast.Name:
                rows.append((stmt, attr, value.id))
        elif t is ast.Expr and (row := _merge(stmt.value)) is not None:
            merged.setdefault(row.id, []).append(stmt.value.args[0])
            continue
        elif t is ast.Expr and (written := _slot_source(stmt.value)) is not None:
            attr = self_attr(stmt.value.func.value)
            if attr is not None and tensor_attribute(cls, attr[5:]):
                # ``self.memory.index_copy_(0, idx, F.normalize(new))``: as ``self.bank[idx] =``
                _accumulated(g, stmt, attr, written, params, offset, items, found)
            continue
        elif t is ast.Expr and type(stmt.value) is ast.Call and cls is not None and \
                type(stmt.value.func) is ast.Attribute and \
                _on_self(stmt.value.func.value) and \
                any(type(n) is ast.Name and (n.id in names or any(
                    len(x) == 3 and x[0] == n.id for x in items))
                    for a in stmt.value.args for n in ast.walk(a)):
            # ``self.m(x)``, ``self.meter.update(x)`` passing (what is formed from) a parameter
            # (or each value of one: ``for k, v in metrics.items(): self.log(k, v)``)
            for attr, value in _delegated(stmt.value, cls):
                _accumulated(g, stmt, attr, value, params, offset, items, found)
            continue
        if attr is not None and value is not None:
            _accumulated(g, stmt, attr, value, params, offset, items, found)
            if kept_items is not None:
                _kept_item(g, stmt, attr, value, params, offset, kept_items)
    for stmt, attr, name in rows:  # a dict made here into which a parameter is merged
        if name not in names and _made_dict(fn, name):  # (``row = {"step": s}``) holds its
            for value in merged.get(name, ()):  # items (``row.update(data)``): kept with it
                _accumulated(g, stmt, attr, value, params, offset, items, found)

    def keeps(a: str) -> bool:  # (not rebound whole on each call; no backward through it)
        return not targets.get(a) and not (
            cls is not None and _differentiated_elsewhere(cls, fn, a))

    if kept_items:
        for k in [k for k, (_, a) in kept_items.items() if not keeps(a)]:
            del kept_items[k]
    return _spread_starred(fn, offset, {k: a for k, a in found.items() if keeps(a)})


def _merge(call) -> Optional[ast.AST]:
    """``row.update(data)``, a plain name's ``update`` with one positional argument: the
    name, or None."""
    if type(call) is ast.Call and type(call.func) is ast.Attribute and \
            call.func.attr == "update" and type(call.func.value) is ast.Name and \
            len(call.args) == 1 and not call.keywords and type(call.args[0]) is not ast.Starred:
        return call.func.value
    return None


def _made_dict(fn, name: str) -> bool:
    """Is ``name`` bound in ``fn`` only by assignments of a dict display or ``dict()`` call?"""
    values = [s.value for s in ast.walk(fn) if type(s) is ast.Assign and any(
        type(n) is ast.Name and n.id == name for t in s.targets for n in ast.walk(t))]
    return bool(values) and all(
        type(v) is ast.Dict or type(v) is ast.Call and type(v.func) is ast.Name and
        v.func.id == "dict" for v in values)


#: tensor methods writing the values of one argument into some elements of the tensor, in
#: place: the argument's position and keyword (``t.index_copy_(0, idx, src)``)
_SLOT_WRITES = {"index_copy_": (2, "source"), "index_add_": (2, "source"),
                "index_put_": (1, "values"), "masked_scatter_": (1, "source"),
                "scatter_": (2, "src")}


def _slot_source(call) -> Optional[ast.AST]:
    """The values ``call`` writes into some elements of a tensor in place (``_SLOT_WRITES``),
    or None for any other expression."""
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute:
        return None
    at = _SLOT_WRITES.get(call.func.attr)
    if at is None:
        return None
    if len(call.args) > at[0] and not any(type(a) is ast.Starred for a in call.args):
        return call.args[at[0]]
    return next((k.value for k in call.keywords if k.arg == at[1]), None)


#: the call positions a ``*args`` parameter is taken to cover (``push(s, a, r, s2, q)``)
_STARRED_POSITIONS = 16


def _spread_starred(fn, offset: int, kept: Dict[int, str]) -> Dict[int, str]:
    """``def push(self, *transition): self.data.append(transition)``: the ``*args``
    parameter holds every positional argument from its place on, so each of those call
    positions is kept; the keyword-only parameters after it are no call position."""
    a = fn.args
    if a.vararg is None:
        return kept
    v = len(a.posonlyargs) + len(a.args) - offset
    out = {k: attr for k, attr in kept.items() if k < v}
    if v in kept:
        out.update((k, kept[v]) for k in range(v, v + _STARRED_POSITIONS))
    return out


def _first_bindings(branch: ast.If) -> set:
    """The statements binding ``self.X`` in ``branch``'s body when it is ``if self.X is None:``
    (an accumulator's first value, not a reset on every call; met before the body)."""
    test = branch.test
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) is not ast.Is \
            or type(test.comparators[0]) is not ast.Constant or \
            test.comparators[0].value is not None:
        return set()
    attr = self_attr(test.left)
    return {id(s) for s in branch.body if type(s) is ast.Assign and len(s.targets) == 1 and
            attr is not None and self_attr(s.targets[0]) == attr}


_DIFFERENTIATING = frozenset({"backward", "grad"})


def _differentiated_elsewhere(cls, fn, attr: str) -> bool:
    """Does another method of the class read ``self.<attr>`` and differentiate (``backward``,
    ``autograd.grad``)? What is added into it is then kept for that backward (a REINFORCE
    policy's ``put_data`` and ``train_net``), not by mistake. (``attr``: ``self.data``, or
    an attribute of one, ``self.buffer.log_probs``, kept by a method of ``self.buffer``.)"""
    attr = attr if attr.startswith("self.") else "self." + attr
    last = attr.rpartition(".")[2]
    for other in list(getattr(cls, "methods", {}).values()):
        node = getattr(other, "node", None)
        if node is None or node is fn:
            continue
        reads = differentiates = False
        for n in ast.walk(node):
            if type(n) is ast.Attribute and n.attr == last and type(n.ctx) is ast.Load and \
                    graph.dotted(n) == attr:
                reads = True
            elif type(n) is ast.Call and type(n.func) is ast.Attribute and \
                    n.func.attr in _DIFFERENTIATING:
                differentiates = True
        if reads and differentiates:
            return True
    return False


def _on_self(node) -> bool:
    """``self``, ``self.x`` or an item of it (``self.meters[k]``)."""
    if type(node) is ast.Subscript:
        node = node.value
    if type(node) is ast.Attribute:
        node = node.value
    return type(node) is ast.Name and node.id == "self"


def _accumulated(g, stmt, attr, value, params, offset, items, found) -> None:
    """Record the parameters ``value`` is formed from as added into ``attr`` by ``stmt``."""
    if attr is None or value is None or g.grad_mode(stmt) in ("off", "unknown"):
        return
    for name in _operands(value, g, items):
        reach = g.uses.get(id(name))
        if not reach or len(reach) != 1:
            continue
        i = next(iter(reach))
        b = g.bindings[i]
        if b.kind == "param" and b.index >= offset and params.get(b.index) == name.id:
            found[b.index - offset] = attr
        elif b.kind == "assign":  # ``score = -val_loss; self.scores.append(score)``
            for o, _ in graph_sources.binding(g, i):
                k = int(o[1:]) if o[:1] == "p" and o[1:].isdigit() else -1
                if k >= offset and k in params:
                    found[k - offset] = attr


def _kept_item(g, stmt, attr, value, params, offset, out) -> None:
    """Record a parameter's item under a constant key that ``value`` (or an element of the
    tuple it is) is: ``logs["loss"]`` of ``self.losses.append(logs["loss"])``,
    ``(step, logs["loss"])``."""
    if g.grad_mode(stmt) in ("off", "unknown"):
        return
    for v in value.elts if type(value) in (ast.Tuple, ast.List) else (value,):
        if type(v) is not ast.Subscript or type(v.value) is not ast.Name or \
                type(v.slice) is not ast.Constant or type(v.slice.value) is not str:
            continue
        reach = g.uses.get(id(v.value))
        b = g.bindings[next(iter(reach))] if reach and len(reach) == 1 else None
        if b is not None and b.kind == "param" and b.index >= offset and \
                params.get(b.index) == v.value.id:
            out.setdefault(b.index - offset, (f"[{v.slice.value!r}]", attr))


def _delegated(call: ast.Call, cls):
    """(attribute, argument) pairs a call of a method of ``self`` (``self._add(val)``), of an
    attribute of ``self`` holding a project class's instance (``self.meter.update(val)``) or
    of an item of one holding a dict of them (``self.meters[k].update(val)`` with
    ``self.meters = defaultdict(SmoothedValue)``) accumulates, by the called method's
    summary."""
    f = call.func
    if type(f) is not ast.Attribute:
        return ()
    holder = f.value
    item = type(holder) is ast.Subscript
    if item:
        holder = holder.value
    try:
        if type(holder) is ast.Name and holder.id == "self" and not item:
            target, into = cls.method(f.attr), "self."
        else:
            attr = self_attr(holder)
            if attr is None or type(holder) is not ast.Attribute:
                return ()
            shape = cls.attr(holder.attr)
            if item and type(shape) is kinds.DictOf:
                shape = shape.value
            elif item:
                return ()
            if type(shape) is not kinds.ProjInstance:
                return ()
            target, into = shape.facts.method(f.attr), attr + "."
    except (OSError, ValueError, RecursionError):
        return ()
    if target is None or not hasattr(target, "graph_summary"):
        return ()
    args = [a for a in call.args if type(a) is not ast.Starred]
    if len(args) != len(call.args):
        return ()
    acc = target.graph_summary().accumulates
    return [(a.replace("self.", into, 1), args[k]) for k, a in acc.items() if k < len(args)]


#: builtins whose one argument's items the new container holds as they are
_SHALLOW = frozenset({"dict", "list", "tuple"})


def _operands(value, g, items: set):
    """The names that are the value or an operand of what forms it and keeps its graph
    (``val``, ``val * n``, ``val.cpu()``, ``hvd.allreduce(val)``, ``losses[key]`` in a loop
    over every key of ``losses`` (``items``); not ``val.item()``, ``float(val)``)."""
    t = type(value)
    if t is ast.Name:
        each = next((x[2] for x in items if len(x) == 3 and x[0] == value.id), None)
        if each is None:
            return [value]
        # (the loop's item as it is: not ``v = v.item()`` first, where ``v`` is a tensor)
        reach = g.uses.get(id(value))
        return [each] if reach and all(g.bindings[i].kind == "other" for i in reach) else []
    if t is ast.BinOp and type(value.op) in ARITH:  # ``(p - t) ** 2``, ``q @ k``
        return _operands(value.left, g, items) + _operands(value.right, g, items)
    if t is ast.UnaryOp:
        return _operands(value.operand, g, items)
    if t is ast.Attribute and value.attr in ("T", "mT", "H", "mH"):  # ``keys.T``: a view
        return _operands(value.value, g, items)
    if t is ast.IfExp:  # ``td.abs().squeeze(-1) if td.dim() > 1 else td.abs()``: where both
        # keep a graph (not ``v.detach() if torch.is_tensor(v) else v``: a number otherwise)
        body, orelse = _operands(value.body, g, items), _operands(value.orelse, g, items)
        return body + orelse if body and orelse else []
    if t is ast.List or t is ast.Tuple:  # what a concatenation joins (``joined_with``)
        return [n for e in value.elts for n in _operands(e, g, items)]
    if t is ast.Dict:  # ``self.trials.append({"params": p, "value": value})``: its values
        return [n for v in value.values for n in _operands(v, g, items)]
    if t is ast.Subscript:  # each item in turn: what holds one attached item adds it
        v, k = value.value, value.slice
        ok = type(v) is ast.Name and type(k) is ast.Name and (v.id, k.id) in items
        return [v] if ok else []
    if t is ast.Call:
        f = value.func
        if type(f) is ast.Attribute and f.attr in KEEPS_GRAPH:
            return _operands(f.value, g, items)
        if type(f) is ast.Name and f.id in _SHALLOW and len(value.args) == 1 and \
                type(value.args[0]) is not ast.Starred:  # ``dict(row)``: the same tensors
            return _operands(value.args[0], g, items)
        if g.oracle.call(value) == "through":
            return [n for a in through_arguments(value) for n in _operands(a, g, items)]
        if g.oracle.fields(value) is not None:  # ``Transition(*args)``: a record holds them
            return [n for a in value.args for n in _operands(
                a.value if type(a) is ast.Starred else a, g, items)] + \
                [n for k in value.keywords for n in _operands(k.value, g, items)]
    return []
