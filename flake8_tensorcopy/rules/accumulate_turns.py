"""TEN501: what one turn of a loop holds where a loop around it binds the accumulator afresh:
MAML's task losses beside the outer loss differentiated once per outer turn
(``kept_for_turn``), a gradient-accumulation loop's micro-batches stepped after it
(``one_update``); and an accumulator emptied on every turn by a call (``cleared_every_turn``).
Split from ``rules/accumulate.py``."""
from __future__ import annotations

import ast

from ..syntax import nodes
from ..syntax.grad_callers import emptied_by_updates
from .accumulate_loops import differentiated, every_turn, innermost_loop, loop_facts, \
    mentions_backward, reset_in, scope_facts
from .context import cached, statement_list
from ..syntax.walk import statements


def kept_for_turn(ctx, loop, acc, acc_code: str, node, name: str) -> bool:
    """Does a loop around ``loop`` (which differentiates nothing) bind ``acc`` afresh on every
    turn and differentiate in it what ``name`` is a term of (MAML's ``task_losses.append(q_loss)``
    beside ``meta_loss = meta_loss + q_loss``, then ``meta_loss.backward()`` once per outer
    turn)? The list then holds one outer turn's graph, which that turn's backward needs."""
    outer = innermost_loop(ctx, loop)
    if outer is None:
        return False
    facts = loop_facts(ctx, outer)
    return facts.any_backward and reset_in(facts, acc, acc_code, node, ctx) and \
        differentiated(scope_facts(ctx), name)


def one_update(ctx, loop, acc, acc_code: str, node) -> bool:
    """Is ``loop`` (which differentiates) one update's micro-batches: no optimizer ``step()`` in
    it, and the loop around it binds ``acc`` afresh on every turn and steps after it
    (``micro_losses = []; for j in range(k): ...; loss.backward(); micro_losses.append(loss)``
    then ``opt.step()``)? The list holds that update's values only. (An epoch's list around a
    loop that steps on every batch holds every step of the epoch: not this.)"""
    outer = innermost_loop(ctx, loop)
    if outer is None or _steps(loop) or not reset_in(loop_facts(ctx, outer), acc, acc_code,
                                                     node, ctx):
        return False
    after = False
    for s in statement_list(outer.body):
        if s is loop:
            after = True
        elif after and _steps(s):
            return True
    return False


def _steps(node) -> bool:
    """Does ``node`` hold an optimizer's ``step()`` call (any ``X.step()``)?"""
    return any(type(n) is nodes.Call and type(n.func) is nodes.Attribute and
               n.func.attr.value == "step" for n in nodes.within(node))


#: methods that empty what they are called on (a list's, a tracker's by convention)
_EMPTYING = frozenset({"clear", "reset", "reset_states"})


def cleared_every_turn(loop, root: str, source: str) -> bool:
    """Is ``root`` (the accumulator's name, or the tracker a method keeps the value in) emptied
    by a call on every turn of ``loop`` (``meter.reset()``, ``recent.clear()``, a statement of
    its body, not a nested loop's or one branch's)? It then holds one turn's value. (The text
    ``source`` says first whether such a call is spelled at all.)"""
    if not any(f"{root}.{m}(" in source for m in _EMPTYING):
        return False
    calls = [s for s in nodes.within(loop.body, (nodes.For, nodes.While, nodes.FunctionDef,
                                                 nodes.ClassDef, nodes.Lambda))
             if type(s) is nodes.SimpleStatementLine and any(
                 type(x) is nodes.Expr and type(x.value) is nodes.Call and not x.value.args and
                 type(x.value.func) is nodes.Attribute and
                 x.value.func.attr.value in _EMPTYING and
                 nodes.dotted_name(x.value.func.value) == root for x in s.body)]
    return bool(calls) and every_turn(loop.body, calls)


def one_rollout(ctx, loop, root: str) -> bool:
    """Is ``loop`` (which differentiates nothing) one turn's rollout: a loop around it empties
    ``root`` on every turn (``buf.clear()``: ``cleared_every_turn``) and, in that turn, calls
    ``backward()`` or hands ``root`` to a call (``learn(model, opt, buf)``)? What it holds is one
    turn's, kept for that turn's update (an episode's log-probabilities). Or is ``root`` an
    attribute list that a function of the file differentiating it empties
    (``grad_callers.emptied_by_updates``: the same, its turns in the caller)?"""
    if "." in root and "backward" in ctx.source and _emptied_by_update(ctx, root):
        return True  # (``del model.saved_actions[:]`` in the function that differentiates them)
    outer = innermost_loop(ctx, loop)
    if outer is None or not cleared_every_turn(outer, root, ctx.source):
        return False
    return loop_facts(ctx, outer).any_backward or any(
        type(n) is nodes.Call and any(nodes.dotted_name(a.value) == root for a in n.args)
        for s in statement_list(outer.body) if s is not loop
        for n in nodes.within(s, (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)))


def _emptied_by_update(ctx, root: str) -> bool:
    attr = root.rpartition(".")[2]
    src = ctx.source
    if f".{attr}[:]" not in src and f".{attr}.clear()" not in src and \
            src.count(f".{attr} = []") < 2:  # (once is its ``__init__``'s, most often)
        return False  # (the text empties no such list: the tree is not walked)
    project = ctx.inf.project
    tree = project.module_tree() if project is not None else getattr(ctx.module, "_a", None)
    return isinstance(tree, ast.Module) and attr in cached(
        ctx, "_emptied_by_updates", tree, lambda: emptied_by_updates(tree))


def unrolled_step(ctx, loop, acc) -> bool:
    """Is ``loop`` (which differentiates nothing) one step's unrolled time steps: a loop of a
    function that adds into a name (``loss += crit(logits, y)``) the function differentiates
    (``loss.backward()``, after the loop: in it nothing is), ``acc`` a list the function binds
    before it (``outputs = []``)? Every turn's graph stays alive for that backward anyway, and
    the list holds that call's values only (a seq2seq decoder's ``outputs.append(logits)``)."""
    fn, a = getattr(ctx.scope_node, "_a", None), getattr(loop, "_a", None)
    if type(fn) is not ast.FunctionDef or type(acc) is not nodes.Name or \
            type(a) not in (ast.For, ast.While) or innermost_loop(ctx, loop) is not None:
        return False  # (a loop in another: the list outlives its turns)
    name = acc.value
    if name in {x.arg for x in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}:
        return False  # (the caller's list)
    if not mentions_backward(ctx):
        return False  # (most functions: the text alone says no)
    scope = scope_facts(ctx)
    added = cached(ctx, "_accumulate_added", loop, lambda: frozenset(
        n.target.id for n in ast.walk(a) if type(n) is ast.AugAssign and
        type(n.op) is ast.Add and type(n.target) is ast.Name))
    if not any(differentiated(scope, n) for n in added):
        return False
    return any(type(s) is ast.Assign and s.lineno < a.lineno and any(
        type(t) is ast.Name and t.id == name for t in s.targets) for s in statements(fn))
