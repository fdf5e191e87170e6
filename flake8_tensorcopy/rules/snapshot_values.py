"""TEN402: what a bound value holds (``snapshot``): a module's live tensors, as a state dict, a
shallow copy of one, a list or dict of its parameters (also through a name the scope binds to
one), a project function's dict of what it is given; or one parameter a loop binds
(``parameter_item``); the ``self`` handles a method keeps on a module's live parameters and the
one a ``zip`` pairs with a snapshot (``parameter_lists``, ``paired_list``); a list or dict of
the parameters' values that a function pairs with the live parameters one for one
(``paired_with_live``). Split from ``rules/snapshot.py``."""
from __future__ import annotations

import ast
from typing import Optional

from ..semantic.index.statedict_summaries import passed_items_argument
from ..semantic.kinds import TENSOR_DICT
from ..semantic.statedicts import Live, live_state_dict, parameters_receiver, same_storage
from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..syntax.walk import dotted
from .context import statement_list


def snapshot(ctx, node) -> Optional[Live]:
    """``node`` when it holds a module's live tensors (``statedicts.live_state_dict``); a name
    counts as a live state dict where the binding reaching it is one (``TENSOR_DICT``). Also a
    call of a project function that hands back a dict of what it is given
    (``strip_prefix(model.state_dict())``: ``passed_items_argument``), given a live one."""
    holds = lambda name: ctx.inf.lookup(name) is TENSOR_DICT  # noqa: E731
    got = live_state_dict(node, holds, lambda name: _parameters_dict_owner(ctx, name))
    if got is not None or type(node) is not nodes.Call or not node.args:
        return got
    # asked only of a call that hands over a live state dict, a call or a comprehension (the
    # summary's look-up resolves the callee, which most calls never need)
    for a in node.args:
        v = a.value
        if (type(v) is nodes.Call or type(v) is nodes.DictComp) and not a.star and \
                live_state_dict(v, holds) is not None:
            break
    else:
        return None
    arg = passed_items_argument(ctx.inf, node)
    inner = snapshot(ctx, arg) if arg is not None else None
    return None if inner is None else Live(inner.receiver, inner.source, True, inner.where)


_NESTED = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)


def _parameters_dict_owner(ctx, name: str):
    """The module whose parameters the scope's one binding of ``name`` puts in a dict or list
    (``self.params = {n: p for n, p in model.named_parameters() if p.requires_grad}``), or None."""
    bound = [n.value for n in nodes.within(getattr(ctx.scope_node, "body", None), _NESTED)
             if type(n) is nodes.Assign and len(n.targets) == 1 and
             dotted_name(n.targets[0].target) == name]
    got = live_state_dict(bound[0]) if len(bound) == 1 else None
    return got.receiver if got is not None and got.params and not got.where else None


def parameter_item(ctx, value) -> Optional[Live]:
    """``value`` when it is the parameter a loop over ``X.parameters()`` or
    ``X.named_parameters()`` binds this turn, or shares its storage (``param.data``,
    ``param.detach()``): one of ``X``'s live tensors, kept under a snapshot's name."""
    from .accumulate_loops import innermost_loop
    from .parameter_writes import loop_parameters

    loop = innermost_loop(ctx, ctx.stmt_line)
    it = loop.iter if type(loop) is nodes.For else None
    recv = parameters_receiver(it)
    owner = dotted_name(recv) if recv is not None else None
    names = loop_parameters(loop, owner) if owner is not None else ()
    where = same_storage(value, names[0]) if names else None
    return Live(recv, None, True, where, True) if where is not None else None


def parameter_lists(binds, owners) -> frozenset:
    """The ``self.X`` that assignments ``binds`` (one method's) bind to a list of the
    parameters of a module spelled in ``owners``, or of tensors sharing their storage
    (``self.params = list(backbone.parameters())``, ``self.live = [p for p in
    m.parameters()]``, ``self.params = params`` of such a local ``params``): a handle on the
    live parameters, spelled another way than ``<owner>.parameters()``."""
    def live_list(value, local: bool = True) -> bool:
        if type(value) is nodes.Name and local:
            bound = [n.value for n in binds if len(n.targets) == 1 and
                     type(n.targets[0].target) is nodes.Name and
                     n.targets[0].target.value == value.value]
            return len(bound) == 1 and live_list(bound[0], False)
        got = live_state_dict(value) if type(value) in (nodes.Call, nodes.ListComp) else None
        return got is not None and got.params and not got.where and \
            dotted_name(got.receiver) in owners
    return frozenset(dotted_name(t.target) for n in binds for t in n.targets
                     if type(t.target) is nodes.Attribute and
                     (dotted_name(t.target) or "").startswith("self.") and live_list(n.value))


def paired_list(fn, lists: frozenset, name: str) -> Optional[str]:
    """The one of ``lists`` (handles on a module's live parameters) that a ``zip(...)`` of
    ``fn`` pairs with ``name`` (another of its arguments), else None."""
    for n in ast.walk(fn):
        if type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == "zip" and \
                any(dotted(a) == name for a in n.args):
            got = next((dotted(a) for a in n.args if dotted(a) in lists), None)
            if got is not None:
                return got
    return None


def paired_with_live(fn, name: str, owner: str, value) -> bool:
    """Is ``value`` (bound to ``name``) a list or dict of the values of the parameters of the
    module spelled ``owner`` (``[p.data for p in ...]``, ``{n: p.detach() for n, p in ...}``,
    ``[p.view(-1) ...]``,
    the parameters themselves: ``[p for p in ...]``)
    that function ``fn`` pairs with its live parameters one for one (``zip(owner.parameters(),
    name)``, ``name[n]`` in a loop over ``owner.named_parameters()``)? They are the same
    tensors: the two sides of every comparison or restore are equal."""
    t = type(value)
    item = value.elt if t is nodes.ListComp else value.value if t is nodes.DictComp else None
    target = value.for_in.target if item is not None else None
    if type(target) is nodes.Tuple and len(target.elements) == 2:
        target = target.elements[1].value  # ``{n: p.detach() for n, p in ...}``
    # ``p.data``, ``p.detach()``, ``p.reshape(-1)``: the same storage (``same_storage``)
    values = type(item) in (nodes.Attribute, nodes.Call) and type(target) is nodes.Name and \
        same_storage(item, target.value) is not None
    if not values and t is nodes.ListComp and type(item) is nodes.Name:
        # ``[p for p in model.parameters()]``, unfiltered: the parameters themselves (round
        # 11's FedProx client: ``zip(model.parameters(), global_params)``, a zero term)
        comp = value.for_in
        values = type(comp.target) is nodes.Name and comp.target.value == item.value and \
            not comp.ifs and comp.inner_for_in is None
    return values and reads_parameters_of(fn._a, owner, name)


def reads_state_items(fn, owner: str) -> bool:
    """Does ``fn`` (its ``ast``) loop over ``<owner>.state_dict().items()`` (an EMA's ``for k, v
    in model.state_dict().items(): self.shadow[k].mul_(d).add_(v)``)?"""
    return isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        state_items_loop(n, owner) for n in ast.walk(fn))


def state_items_loop(n: ast.AST, owner: str) -> bool:
    """Is ``n`` a loop ``for k, v in <owner>.state_dict().items():``?"""
    return type(n) is ast.For and type(n.iter) is ast.Call and \
        type(n.iter.func) is ast.Attribute and n.iter.func.attr == "items" and \
        type(n.iter.func.value) is ast.Call and \
        type(n.iter.func.value.func) is ast.Attribute and \
        n.iter.func.value.func.attr == "state_dict" and \
        dotted(n.iter.func.value.func.value) == owner


def mixed_on_later_calls(ctx, scope, name: str, owner: str):
    """A running average made on the first call (``if self.avg is None: self.avg =
    dict(model.state_dict())``) and, on later calls, mixed in place with the same tensors of
    ``owner``'s live state dict (``else: for k, v in model.state_dict().items():
    self.avg[k].mul_(a).add_(v)``): the read of ``name`` in that loop, else None."""
    defs = (nodes.FunctionDef, nodes.ClassDef)
    guard = next((n for n in nodes.within(scope.body, defs) if type(n) is nodes.If and
                  any(s is ctx.stmt_line for s in statement_list(n.body)) and
                  _is_none_test(n.test, name)), None)
    if guard is None or guard.orelse is None:
        return None
    for block in (statement_list(guard.orelse.body) if type(guard.orelse) is nodes.Else
                  else (guard.orelse,)):
        a = block._a
        if state_items_loop(a, owner):
            return next((n for n in ast.walk(a) if type(n) is ast.Subscript and
                         dotted(n.value) == name), None)
    return None


def _is_none_test(test, name: str) -> bool:
    """``name is None`` or ``not name``."""
    if type(test) is nodes.UnaryOperation and type(test.operator) is nodes.Not:
        return dotted_name(test.expression) == name
    return type(test) is nodes.Comparison and len(test.comparisons) == 1 and \
        type(test.comparisons[0].operator) is nodes.Is and \
        dotted_name(test.left) == name and type(test.comparisons[0].comparator) is nodes.Name \
        and test.comparisons[0].comparator.value == "None"


def reads_parameters_of(fn, owner: str, zipped_with: Optional[str] = None) -> bool:
    """Does ``fn`` (its ``ast``) call ``<owner>.parameters()`` or ``.named_parameters()`` (with
    ``zipped_with``: as an argument of a ``zip(...)`` that ``zipped_with`` is one of too, or in
    a loop ``for n, p in <owner>.named_parameters()`` that reads ``zipped_with[n]``: the item
    kept for the same parameter)?"""
    def params(n) -> bool:
        return type(n) is ast.Call and type(n.func) is ast.Attribute and \
            n.func.attr in ("parameters", "named_parameters") and dotted(n.func.value) == owner
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    if zipped_with is None:
        return any(params(n) for n in ast.walk(fn))
    return any(type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == "zip" and
               any(params(a) for a in n.args) and any(dotted(a) == zipped_with for a in n.args)
               for n in ast.walk(fn)) or any(
        params(loop.iter) and type(loop.target) is ast.Tuple and
        len(loop.target.elts) == 2 and type(loop.target.elts[0]) is ast.Name and any(
            type(r) is ast.Subscript and dotted(r.value) == zipped_with and
            type(r.slice) is ast.Name and r.slice.id == loop.target.elts[0].id
            for r in ast.walk(n)) for n in ast.walk(fn) for loop in _loops(n))


def _loops(node: ast.AST) -> tuple:
    """The ``for`` clauses of ``node``: itself for a ``for`` statement, its generators for a
    comprehension (``sum(... self.w0[n] ... for n, p in model.named_parameters())``)."""
    t = type(node)
    if t is ast.For:
        return (node,)
    if t in (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp):
        return tuple(node.generators)
    return ()


def live_items(ctx, value):
    """(the first live item's value, its ``Live``, the keys of the live items) of a dict
    display holding a live state dict under constant string keys (``{"model":
    model.state_dict(), "epoch": epoch}``), or of a tuple or list display holding one (its
    positions: ``(epoch, model.state_dict())``); None where none is, or where a ``**`` or
    starred item, or a key that is no string, may hold one too."""
    first = None
    keys: set = set()
    for i, el in enumerate(value.elements):
        t = type(el)
        if t is not nodes.DictElement and t is not nodes.Element:
            return None
        snap = snapshot(ctx, el.value)
        if snap is None:
            continue
        if t is nodes.DictElement:
            key = el.key
            if type(key) is not nodes.SimpleString or type(key.evaluated_value) is not str:
                return None
            keys.add(key.evaluated_value)
        else:
            keys.add(i)
        if first is None:
            first = (el.value, snap)
    return None if first is None else (first[0], first[1], frozenset(keys))


def kept_each_turn(ctx, node, target, receiver: str) -> bool:
    """``node`` keeps another handle on ``receiver``'s parameters on each turn of the loop
    around it (``history[epoch] = {n: p.detach() for n, p in model.named_parameters()}``,
    ``snaps.append([p.data for p in model.parameters()])``): a keeper the loop does not make,
    grown by an append or under a key the loop's target names, of a module the loop does not
    bind. The same live tensors kept once per turn serve no live use; only a snapshot means it."""
    from .snapshot_flow import LOOPS, is_body, statement_chain

    chain = statement_chain(ctx)
    if chain is None:
        return False
    for depth in range(len(chain) - 1, 0, -1):
        stmts = chain[depth][0]
        loop = chain[depth - 1][0][chain[depth - 1][1]]
        if type(loop) in LOOPS and is_body(loop, stmts):
            break
    else:
        return False
    turn = {n.value for n in nodes.within(loop.target, ())
            if type(n) is nodes.Name} if type(loop) is nodes.For else set()
    if type(node) is nodes.Expr:
        keeper = target
    elif type(target) is nodes.Subscript and turn & {
            n.value for s in target.slice for n in nodes.within(s, ()) if type(n) is nodes.Name}:
        keeper = target.value
    else:
        return False
    kept, root = dotted_name(keeper), receiver.split(".")[0]
    if kept is None or root in turn:
        return False
    for n in nodes.within(loop.body, (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)):
        t = type(n)
        bound = [a.target for a in n.targets] if t is nodes.Assign else \
            [n.target] if t is nodes.For or t is nodes.AnnAssign else ()
        if any(dotted_name(b) in (kept, root) or type(b) is nodes.Tuple and any(
                dotted_name(e.value) == root for e in b.elements) for b in bound):
            return False  # a keeper made again, or another module, on each turn
    return True


def retaken_in_loop(ctx, name: str, receiver: str) -> bool:
    """Is the snapshot bound to ``name`` here a placeholder: a loop that follows in the same
    block reads ``name`` only to bind it again to a state dict of the same module, under a test
    its first turn passes (``best = model.state_dict()``, ``best_acc = -1.0``, then ``if acc >
    best_acc: best = model.state_dict()``: an accuracy beats -1, a loss beats ``inf``)? The
    binding in the loop keeps the weights, and is reported there."""
    from .snapshot_flow import statement_chain

    chain = statement_chain(ctx)
    if chain is None:
        return False
    stmts, i = chain[-1]
    sentinels: dict = {}
    for k, later in enumerate(stmts):
        t = type(later)
        if t is nodes.SimpleStatementLine:
            for small in later.body:
                if type(small) is nodes.Assign and len(small.targets) == 1 and \
                        type(small.targets[0].target) is nodes.Name:
                    sentinels[small.targets[0].target.value] = _sentinel(small.value)
            continue
        if k < i:
            continue
        if t not in (nodes.For, nodes.While):
            return False
        for n in nodes.within(later.body, (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)):
            if type(n) is nodes.If and _first_turn_passes(n.test, sentinels) and any(
                    type(a) is nodes.Assign and len(a.targets) == 1 and
                    dotted_name(a.targets[0].target) == name and any(
                        type(c) is nodes.Call and type(c.func) is nodes.Attribute and
                        c.func.attr.value == "state_dict" and
                        dotted_name(c.func.value) == receiver for c in nodes.within(a.value, ()))
                    for a in nodes.within(n.body, ())):
                bound = {id(a.targets[0].target) for a in nodes.within(later, ())
                         if type(a) is nodes.Assign and len(a.targets) == 1}
                return not any(type(r) is nodes.Name and r.value == name and id(r) not in bound
                               for r in nodes.within(later, ()))  # bound there, never read
        return False
    return False


def _sentinel(value) -> int:
    """1 for ``float("inf")`` / ``math.inf``, -1 for a negative number or minus those; else 0."""
    neg = type(value) is nodes.UnaryOperation and type(value.operator) is nodes.Minus
    inner = value.expression if neg else value
    if type(inner) in (nodes.Integer, nodes.Float):
        return -1 if neg and inner.value.strip("0.") else 0
    inf = dotted_name(inner) in ("math.inf", "np.inf", "numpy.inf", "torch.inf") or (
        type(inner) is nodes.Call and dotted_name(inner.func) == "float" and
        len(inner.args) == 1 and type(inner.args[0].value) is nodes.SimpleString and
        inner.args[0].value.evaluated_value.strip("+").lower() in ("inf", "infinity"))
    return (-1 if neg else 1) if inf else 0


def _first_turn_passes(test, sentinels) -> bool:
    """``x > s`` (``s < x``) with ``s`` a negative sentinel, ``x < s`` with ``s`` infinity."""
    if type(test) is not nodes.Comparison or len(test.comparisons) != 1:
        return False
    op = type(test.comparisons[0].operator)
    left, right = test.left, test.comparisons[0].comparator
    for big, small, sign in ((left, right, -1), (right, left, 1)):
        if op in ((nodes.GreaterThan, nodes.GreaterThanEqual) if sign < 0 else
                  (nodes.LessThan, nodes.LessThanEqual)) and type(small) is nodes.Name and \
                sentinels.get(small.value) == -1:
            return True  # ``acc > best_acc`` from -1 (``best_acc < acc``)
        if op in ((nodes.LessThan, nodes.LessThanEqual) if sign < 0 else
                  (nodes.GreaterThan, nodes.GreaterThanEqual)) and type(small) is nodes.Name \
                and sentinels.get(small.value) == 1:
            return True  # ``loss < best`` from infinity (``best > loss``)
    return False
