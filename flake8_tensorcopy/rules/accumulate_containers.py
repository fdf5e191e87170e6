"""TEN501's question of an accumulator that stores an item per index or puts into a queue: is it a
container the scope (or its class) makes, which keeps what is stored in it (``preds = {}``,
``torch.zeros(n)``, ``[None] * n``, ``self.cache = {}``, ``queue.Queue()``), not a NumPy array
nor anything else?"""
from __future__ import annotations

import ast
from typing import Set

from ..semantic.graph_facts import bound_value
from ..semantic.graph_terms import dotted, made_container
from ..semantic.index.kept_attrs import tensor_attribute
from ..syntax import nodes
from .accumulate_graph import instance_facts, scope_graph


def stored_per_turn(ctx, bound: Set[str], node, acc) -> bool:
    """``acc[i] = v`` (``node``): does each turn of its loop store at its own index (the index
    reads a name of ``bound``, those the loop binds), into a tensor, a list or a dict the
    scope makes (``made_container`` of every binding reaching ``acc``: ``torch.zeros(n)``,
    ``[None] * n``, ``{}``, ``np.empty(n, dtype=object)``; not a NumPy array of numbers, which
    converts what it is given)?"""
    index = node.targets[0].target.slice
    if not any(type(n) is nodes.Name and n.value in bound for n in nodes.within(index, ())):
        return False
    if type(acc) is nodes.Attribute:
        return _class_container(ctx, acc)
    torch_name = ctx.inf.torch_alias()
    return _made_by(ctx, acc, lambda value: made_container(value, torch_name))


_QUEUES = frozenset({"Queue", "SimpleQueue", "LifoQueue", "PriorityQueue"})


def queue_put(node, ctx):
    """(queue, value, ``"append"``) of ``q.put(v)`` (a statement) into a queue the scope makes
    (``made_queue``), which keeps ``v`` as ``append`` would; else None."""
    call = getattr(node, "value", None)
    if type(node) is not nodes.Expr or type(call) is not nodes.Call or \
            type(call.func) is not nodes.Attribute or call.func.attr.value != "put" or \
            type(call.func.value) is not nodes.Name or len(call.args) != 1 or \
            call.args[0].keyword is not None or call.args[0].star or \
            not made_queue(ctx, call.func.value):
        return None
    return call.func.value, call.args[0].value, "append"


def made_queue(ctx, acc) -> bool:
    """Is every binding reaching the name ``acc`` a queue of the ``queue`` module the scope
    makes (``q = queue.Queue()``; ``Queue()`` where the file imports from ``queue``), which keeps
    what ``q.put(v)`` gives it until taken? (Not a ``multiprocessing`` one: it pickles.)"""
    bare = "from queue import" in ctx.source
    return type(acc) is nodes.Name and _made_by(ctx, acc, lambda v: type(v) is ast.Call and (
        dotted(v.func) in {"queue." + q for q in _QUEUES} or
        bare and type(v.func) is ast.Name and v.func.id in _QUEUES))


def _made_by(ctx, acc, made) -> bool:
    """Is every binding reaching the read ``acc`` (a name) an assignment of a value ``made``
    answers yes for (``d = {}``; an item of a display, ``preds, ys = {}, {}``)?"""
    g = scope_graph(ctx)
    a = getattr(acc, "_a", None)
    if type(a) is not ast.Name:
        return False
    g._need()
    reach = g.uses.get(id(a))
    return bool(reach) and all(made(v) for v in map(bound_value, (g.bindings[b] for b in reach)))


def buffer_slot(ctx, acc) -> bool:
    """``self.slots`` (``acc``) of ``self.slots[i] = z`` in a method of a class whose methods
    bind that attribute only to a tensor (a buffer, ``torch.zeros(k, d)``): each write of an
    attached value makes its history a ``CopySlices`` over its last version, a chain that
    grows with every call, whichever slot is written."""
    if type(acc) is not nodes.Attribute or type(acc.value) is not nodes.Name or \
            acc.value.value != "self":
        return False
    return tensor_attribute(instance_facts(ctx.infer(acc.value)), acc.attr.value)


def _class_container(ctx, acc) -> bool:
    """``miner.cache`` (``acc``) of an instance of a class of the project whose methods bind
    that attribute only to a container they make (``self.cache = {}``): it lives as long as
    the instance."""
    facts = instance_facts(ctx.infer(acc.value))
    if facts is None:
        return False
    try:
        made = facts.attr_exprs.get(acc.attr.value)
    except (OSError, ValueError, RecursionError):
        return False
    torch_name = ctx.inf.torch_alias()
    return bool(made) and all(made_container(value, torch_name) for _, value in made)
