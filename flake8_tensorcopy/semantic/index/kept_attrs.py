"""What a method keeps on ``self``, read from its ``ast`` (``method_accumulates``): the
attribute an expression names (``self_attr``), the attributes a running sum scales
(``scaled_attrs``), what a concatenation joins an attribute with (``joined_with``), and the
names a loop binds to each item of a parameter (``every_item``, ``zipped_items``), the
attributes holding a parameter's graph after a call (``held_attributes``), and those bound only
to a tensor (``tensor_attribute``)."""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Optional

from .. import graph_sources, kinds
from ..graph_terms import dotted


def tensor_attribute(cls, name: str) -> bool:
    """Does the class (its ``ClassFacts``) bind ``self.<name>`` only to a tensor (a buffer,
    ``torch.zeros(k, d)``)? A write into one keeps the graph of what is written, each on top
    of the last."""
    try:
        return cls is not None and cls.attr(name) is kinds.TENSOR
    except (RecursionError, OSError, ValueError):
        return False


def joined_with(value, attr: str) -> Optional[ast.List]:
    """The other items of ``torch.cat([x, self.buf])`` (also ``stack``, sliced after:
    ``torch.cat([feats, self.buf], 0)[:k]``) that joins ``attr`` (``self.buf``), else None."""
    while type(value) is ast.Subscript:
        value = value.value
    if type(value) is not ast.Call or not value.args or \
            (dotted(value.func) or "").rpartition(".")[2] not in ("cat", "concat", "stack"):
        return None
    items = value.args[0]
    if type(items) not in (ast.List, ast.Tuple) or \
            not any(self_attr(e) == attr for e in items.elts):
        return None
    return ast.List(elts=[e for e in items.elts if self_attr(e) != attr], ctx=ast.Load())


def zipped_items(loop: ast.For, positions: Dict[str, int], out: Dict[str, int]) -> None:
    """``for i, p in zip(idx, prios)`` with ``prios`` a parameter: ``p`` -> its position."""
    it, target = loop.iter, loop.target
    if type(it) is ast.Call and type(it.func) is ast.Name and it.func.id == "zip" and \
            type(target) is ast.Tuple and len(target.elts) == len(it.args):
        for a, t in zip(it.args, target.elts):
            if type(a) is ast.Name and a.id in positions and type(t) is ast.Name:
                out[t.id] = positions[a.id]


def scaled_attrs(side) -> set:
    """The ``self`` attributes ``side`` of a sum is, or is a factor of (``self.avg``,
    ``self.beta * self.avg``: both ``self.beta`` and ``self.avg``)."""
    out = {self_attr(side)}
    if type(side) is ast.BinOp and type(side.op) in (ast.Mult, ast.Div):
        out |= {self_attr(side.left), self_attr(side.right)}
    out.discard(None)
    return out


def self_attr(node) -> Optional[str]:
    """``self.sum`` of ``self.sum`` or of an item of it (``self.losses[key]``,
    ``self.data.setdefault(key, [])``)."""
    while type(node) is ast.Subscript or (
            type(node) is ast.Call and type(node.func) is ast.Attribute and
            node.func.attr == "setdefault"):
        node = node.value if type(node) is ast.Subscript else node.func.value
    if type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == "self":
        return "self." + node.attr
    return None


def every_item(loop: ast.For, out: set) -> None:
    """Add (name, key) of a loop over every key of a name (``for key in losses``,
    ``for key in losses.keys()``, ``for key, _ in losses.items()``)."""
    it, key = loop.iter, loop.target
    if type(it) is ast.Call and type(it.func) is ast.Attribute and not it.args and \
            it.func.attr in ("keys", "items"):
        if it.func.attr == "items":
            key = key.elts[0] if type(key) is ast.Tuple and len(key.elts) == 2 else None
        it = it.func.value
    if type(it) is ast.Name and type(key) is ast.Name:
        out.add((it.id, key.id))
    target = loop.target
    if type(it) is ast.Name and loop.iter is not it and loop.iter.func.attr == "items" and \
            type(target) is ast.Tuple and len(target.elts) == 2 and \
            type(target.elts[1]) is ast.Name:
        # ``for k, v in terms.items(): self.hist[k].append(v)``: ``v`` is each item of ``terms``
        out.add((target.elts[1].id, None, it))


def held_attributes(g, fn: ast.AST, offset: int, accumulates: Dict[int, str]
                    ) -> Dict[str, FrozenSet[int]]:
    """Attribute of ``self`` -> the call positions of the parameters whose graph it holds after
    a call of method ``fn`` (``g``: its graph facts), a method that adds some into attributes
    (``accumulates``: ``self.sum += val * n``; asked only of those, a meter's ``update``): those
    attributes, and those it binds whole from such a parameter or attribute through operations
    that keep a graph (``self.val = val``, ``self.avg = self.sum / self.count``); none under a
    grad mode turned off."""
    positional = len(fn.args.posonlyargs) + len(fn.args.args)
    held: Dict[str, set] = {}
    for k, attr in accumulates.items():
        if attr.count(".") == 1:
            held.setdefault(attr[5:], set()).add(k)
    # each ``self.X = v``, with the parameters ``v`` is computed from (read once)
    binds = [(s.targets[0].attr, s.value, {int(o[1:]) for o, _ in graph_sources.shifted(
        graph_sources.sources(g, s.value, graph_sources.region(g, s)), offset, positional)
        if o[0] == "p" and o[1:].isdigit()}) for s in ast.walk(fn)
        if type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Attribute
        and self_attr(s.targets[0]) is not None and g.grad_mode(s) not in ("off", "unknown")]
    for _ in range(2):  # (``self.avg`` from ``self.sum``, bound before or after it)
        for attr, v, params in binds:
            got = set(params)
            for other, ks in list(held.items()):
                if other != attr and g.derived_from(v, "self", "." + other):
                    got |= ks
            if got:
                held.setdefault(attr, set()).update(got)
    return {a: frozenset(ks) for a, ks in held.items()}
