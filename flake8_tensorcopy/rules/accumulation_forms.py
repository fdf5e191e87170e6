"""The forms of an accumulation TEN501 reads (``accumulation``): ``acc += v``, ``acc = acc + v``
(a running average, a running mean, one branch of a conditional expression), ``d[k] =
d.get(k, 0.0) + v``, an item stored per index, ``acc.append(v)`` and its kin, ``acc =
torch.cat((acc, v))`` (sliced too), ``setattr(obj, n, getattr(obj, n) + v)``; and what a call
statement may hand a keeper (``may_keep``); the syntax of the linted tree, no facts."""
from __future__ import annotations

import builtins
from typing import List

from ..syntax import nodes
from ..semantic import closed, graph
from ..semantic.graph_loop_items import ADDED, LEAF
from ..semantic.graph_items import RECORD, RETURNED_COMPUTED, RETURNED_HOLDING, \
    UNPACKED
from ..syntax.nodes import dotted_name, last_name


CONCAT = frozenset({"cat", "concat", "concatenate", "vstack", "hstack"})
TARGETS = (nodes.Name, nodes.Attribute, nodes.Subscript)


def accumulation(node):
    """(accumulator, accumulated value, form) for ``acc += v``, ``acc = acc + v`` (or
    ``v + acc``, or a running average ``acc = 0.9 * acc + 0.1 * v``; either in one branch of
    ``... if ... else ...``: form ``"ifexp"``), ``acc[i] = v`` (form ``"store"``),
    ``acc.append(v)``,
    ``acc.appendleft(v)``, ``acc.extend([v, ...])`` (an item ``acc.setdefault(k, []).append(v)``
    too), ``acc.add_(v)``, ``acc = torch.cat((acc,
    v))`` (also sliced: ``[-k:]``) and ``acc = torch.add(acc, v)``; None otherwise."""
    t = type(node)
    if t is nodes.AugAssign:
        if type(node.operator) is not nodes.Add or type(node.target) not in TARGETS:
            return None
        return node.target, node.value, "aug"
    if t is nodes.Assign:
        if len(node.targets) != 1:
            return None
        acc = node.targets[0].target
        if type(acc) is nodes.Subscript:
            # ``stats[k] = stats.get(k, 0.0) + loss``: ``stats[k] += loss`` where the key may
            # be missing yet
            other = _added_to_item(acc, node.value)
            if other is not None:
                return acc, other, "add"
        if type(acc) is nodes.Subscript and (type(acc.value) is nodes.Name or (
                type(acc.value) is nodes.Attribute and
                type(acc.value.value) is nodes.Name)) and not _constant_index(acc):
            # ``preds[i] = out``, ``history[epoch] = loss``, ``miner.cache[step] = logits``: an
            # item per index (form ``"store"``; the check asks that the index changes in the
            # loop and that the name holds a tensor, a list or a dict made in the scope, or the
            # attribute one its class makes)
            return acc.value, node.value, "store"
        name = dotted_name(acc)
        if name is None:
            return None
        op = concatenated_call(node.value)
        if type(op) is nodes.Call:
            return concatenation(acc, name, op)
        if type(op) is nodes.IfExp:
            # ``acc = v if acc is None else 0.98 * acc + 0.02 * v``: one branch adds to ``acc``
            # (the other starts it); its fix is not one edit (form ``"ifexp"``: none offered)
            found = [_added(name, b) or _torch_concatenated(acc, name, b)
                     for b in (op.body, op.orelse)]
            added = [f for f in found if f is not None]
            return (acc, added[0], "ifexp") if len(added) == 1 else None
        other = _added(name, op)
        return (acc, other, "add") if other is not None else None
    call = node.value
    if type(call) is nodes.Call and type(call.func) is nodes.Name and \
            call.func.value == "setattr":
        return _set_attr_added(call)
    if type(call) is nodes.Call and pushed(call, GROWING_PUSHES):
        # ``heapq.heappush(heap, item)``: the heap grows by ``item`` as by ``heap.append(item)``
        return (call.args[0].value, call.args[1].value, "append") \
            if type(call.args[0].value) in TARGETS else None
    if type(call) is nodes.Call and type(call.func) is nodes.Attribute and \
            call.func.attr.value == "lerp_" and len(call.args) == 2 and \
            call.args[0].keyword is None and not call.args[0].star and \
            type(call.func.value) in TARGETS:
        # ``ema.lerp_(p, 1 - d)``: ``ema + (1 - d) * (p - ema)``, in place
        return call.func.value, call.args[0].value, "aug"
    if type(call) is not nodes.Call or type(call.func) is not nodes.Attribute or \
            call.func.attr.value not in ("append", "appendleft", "add_", "extend") or \
            not call.args or call.args[0].keyword is not None or call.args[0].star or \
            len(call.args) != 1 and not (call.func.attr.value == "add_" and len(call.args) == 2
                                         and _keyword(call.args[1]) == "alpha"):
        return None  # (``ema.add_(p, alpha=1 - d)``: ``p`` scaled, added in place)
    acc = call.func.value
    while call.func.attr.value == "add_" and type(acc) is nodes.Call and \
            type(acc.func) is nodes.Attribute and acc.func.attr.value in ("mul_", "div_"):
        acc = acc.func.value  # ``ema.mul_(decay).add_(v)``: the same tensor, scaled in place
    if type(acc) is nodes.Call and type(acc.func) is nodes.Attribute and \
            acc.func.attr.value == "setdefault" and acc.args:
        acc = acc.func.value  # ``hist.setdefault(k, []).append(v)``: an item of ``hist``
    if type(acc) not in TARGETS:
        return None
    if call.func.attr.value == "extend":
        # ``acc.extend([loss])``: the items of a list or tuple it spells, of a list the scope
        # fills (``acc.extend(values)``: the graph knows what ``values`` holds), or of what a
        # call gives (``q.squeeze(-1)``: the rows of an attached tensor; ``.tolist()``: none)
        value = call.args[0].value
        return (acc, value, "append") if type(value) in (
            nodes.List, nodes.Tuple, nodes.Name, nodes.Subscript, nodes.Attribute, nodes.Call) \
            else None
    # ``total.add_(loss)``: an in-place sum, recorded by autograd like ``total += loss``
    form = "aug" if call.func.attr.value == "add_" else "append"
    return acc, call.args[0].value, form


def _keyword(arg):
    return arg.keyword.value if arg.keyword is not None else None


#: the ``heapq`` functions that put their second argument into the heap that is their first
PUSHES = frozenset({"heappush", "heapreplace", "heappushpop"})
#: ... and of those, the one that grows it (the others pop an item for each one they push)
GROWING_PUSHES = frozenset({"heappush"})


def pushed(call, names=PUSHES) -> bool:
    """``heapq.heappush(heap, item)`` (of ``names``): the item goes into ``heap`` as
    ``heap.append(item)`` would put it."""
    f = call.func
    return type(f) is nodes.Attribute and f.attr.value in names and len(call.args) == 2 and \
        all(a.keyword is None and not a.star for a in call.args)


_CONSTANTS = (nodes.Integer, nodes.SimpleString, nodes.Float, nodes.Ellipsis)


def _constant_index(sub) -> bool:
    """Is the index of ``x[...]`` made of constants only (``x["loss"]``, ``x[0, :]``,
    ``x[-1]``)? Anything else may change from turn to turn."""
    for element in sub.slice:
        s = element.slice
        parts = (s.value,) if type(s) is nodes.Index else (s.lower, s.upper, s.step) \
            if type(s) is nodes.Slice else (s,)
        for p in parts:
            if type(p) is nodes.UnaryOperation:
                p = p.expression
            if p is not None and type(p) not in _CONSTANTS:
                return False
    return True


def _torch_concatenated(acc, name: str, op):
    """The ``v`` of ``torch.cat([acc, v])`` spelled so (a branch of ``... if ... else ...``, where
    the callee is not asked of the inference), or None."""
    if type(op) is not nodes.Call or dotted_name(op.func) not in (
            "torch.cat", "torch.concat", "torch.concatenate", "torch.vstack", "torch.hstack"):
        return None
    found = concatenation(acc, name, op)
    return found[1] if found is not None else None


def _added(name: str, op):
    """The ``v`` of ``acc + v``, ``v + acc``, a running average ``0.9 * acc + 0.1 * v`` or a
    running mean ``(acc * i + v) / (i + 1)`` (``name``: the accumulator's), or None."""
    if type(op) is nodes.BinaryOperation and type(op.operator) is nodes.Divide:
        op = op.left  # ``(acc * i + v) / (i + 1)``: a running mean
    if type(op) is not nodes.BinaryOperation or type(op.operator) is not nodes.Add:
        return None
    for mine, other in ((op.left, op.right), (op.right, op.left)):
        if dotted_name(mine) == name or _scaled(mine, name):
            return other
    return None


def _added_to_item(acc, op):
    """The ``v`` of ``d[k] = d.get(k, <default>) + v`` (or ``v + d.get(...)``, or ``d[k] +
    v``, or a running average ``0.9 * d[k] + 0.1 * v``): ``acc`` is ``d[k]``, of one key ``k``
    spelled the same in both; else None."""
    if type(op) is not nodes.BinaryOperation or type(op.operator) is not nodes.Add or \
            len(acc.slice) != 1 or type(acc.slice[0].slice) is not nodes.Index:
        return None
    d, key = dotted_name(acc.value), acc.slice[0].slice.value
    if d is None:
        return None
    for mine, other in ((op.left, op.right), (op.right, op.left)):
        if type(mine) is nodes.Call and type(mine.func) is nodes.Attribute and \
                mine.func.attr.value == "get" and dotted_name(mine.func.value) == d and \
                1 <= len(mine.args) <= 2 and mine.args[0].keyword is None and \
                _same_key(mine.args[0].value, key):
            return other
        if type(mine) is nodes.BinaryOperation and type(mine.operator) is nodes.Multiply:
            mine = next((a for a, b in ((mine.left, mine.right), (mine.right, mine.left))
                         if _is_scale(b)), None)  # (``decay * d[k]``, ``(1 - tau) * d[k]``)
        if type(mine) is nodes.Subscript and dotted_name(mine.value) == d and \
                len(mine.slice) == 1 and type(mine.slice[0].slice) is nodes.Index and \
                _same_key(mine.slice[0].slice.value, key):
            return other
    return None


def _same_key(a, b) -> bool:
    """Are ``a`` and ``b`` the same name, string or integer key?"""
    t = type(a)
    if t is not type(b):
        return False
    if t is nodes.Name or t is nodes.Integer:
        return a.value == b.value
    return t is nodes.SimpleString and a.evaluated_value == b.evaluated_value


def _scaled(expr, name: str) -> bool:
    """``0.9 * acc``, ``acc * beta``: ``name`` times a number or a setting."""
    if type(expr) is not nodes.BinaryOperation or type(expr.operator) is not nodes.Multiply:
        return False
    return any(dotted_name(a) == name and _is_scale(b)
               for a, b in ((expr.left, expr.right), (expr.right, expr.left)))


def _is_scale(expr) -> bool:
    """What a running average scales its accumulator by: a number or a setting, or arithmetic
    of those (``(1 - self.tau)``, ``-beta``)."""
    t = type(expr)
    if t in _SCALES:
        return True
    if t is nodes.UnaryOperation:
        return _is_scale(expr.expression)
    return t is nodes.BinaryOperation and type(expr.operator) in _SCALE_OPS and \
        _is_scale(expr.left) and _is_scale(expr.right)


#: what a running average scales its accumulator by: a number or a setting
_SCALES = (nodes.Integer, nodes.Float, nodes.Name, nodes.Attribute)
_SCALE_OPS = (nodes.Add, nodes.Subtract, nodes.Multiply, nodes.Divide)


def concatenated_call(value):
    """The call of ``q = torch.cat((q, v))[-k:]`` (a bounded queue: a slice of what is
    concatenated keeps the graph of all that came before it), or ``value`` itself."""
    if type(value) is nodes.Subscript and type(value.value) is nodes.Call and \
            len(value.slice) == 1 and type(value.slice[0].slice) is nodes.Slice:
        return value.value
    return value


def concatenation(acc, name: str, call):
    """``acc = torch.cat((acc, v))`` (``[acc, v]``, ``dim=``; ``v`` first too), ``acc =
    torch.add(acc, v)`` (a torch function: the form ``cat``'s check of the callee holds)."""
    if last_name(call.func) == "add" and len(call.args) == 2 and \
            not any(a.keyword is not None or a.star for a in call.args):
        items = [a.value for a in call.args]
        names = [dotted_name(e) for e in items]
        if names.count(name) == 1:
            return acc, items[1 - names.index(name)], "cat"
        return None
    if last_name(call.func) not in CONCAT or not call.args or call.args[0].keyword is not None \
            or type(call.args[0].value) not in (nodes.Tuple, nodes.List) or \
            any(a.keyword is None for a in call.args[1:]):
        return None
    elements = call.args[0].value.elements
    if len(elements) != 2 or any(type(e) is not nodes.Element for e in elements):
        return None
    items = [e.value for e in elements]
    names = [dotted_name(e) for e in items]
    if names.count(name) != 1:
        return None
    return acc, items[1 - names.index(name)], "cat"


def _set_attr_added(call):
    """``setattr(obj, name, getattr(obj, name[, 0.0]) + v)``: ``obj.<name> += v`` spelled
    with a name chosen at run time (obj, v, ``"add"``), else None."""
    args = call.args
    if len(args) != 3 or any(a.keyword is not None or a.star for a in args) or \
            type(args[2].value) is not nodes.BinaryOperation or \
            type(args[2].value.operator) is not nodes.Add:
        return None
    obj, name, total = args[0].value, args[1].value, args[2].value
    if dotted_name(obj) is None or type(name) not in (nodes.Name, nodes.SimpleString):
        return None
    for mine, other in ((total.left, total.right), (total.right, total.left)):
        if type(mine) is nodes.Call and type(mine.func) is nodes.Name and \
                mine.func.value == "getattr" and len(mine.args) in (2, 3) and \
                not any(a.keyword is not None or a.star for a in mine.args) and \
                dotted_name(mine.args[0].value) == dotted_name(obj) and \
                type(mine.args[1].value) is type(name) and \
                mine.args[1].value.value == name.value:
            return obj, other, "add"
    return None


def kept_by_call(node, source: str) -> bool:
    """May statement ``node`` hand a value to a call that keeps it (``method_accumulation``):
    a call as a statement (``meter.update(loss)``), or one whose result is bound where a ``def``
    of the file spells the method's name (``stop = stopper.step(val_loss)``; an object called
    like a function, ``smoothed = smoother(loss)``, where one spells ``__call__``: most bound
    calls compute a value, and finding the method's summary is the costly part)?"""
    if type(node) is nodes.Expr:
        return True
    f = getattr(node.value, "func", None) if type(node) is nodes.Assign else None
    if type(f) is nodes.Name:
        return "def __call__(" in source
    return type(f) is nodes.Attribute and f"def {f.attr.value}(" in source


def operands(value) -> bool:
    """A name, attribute or call in ``value``, through arithmetic, subscripts, containers and
    the items of comprehensions?"""
    t = type(value)
    if t is nodes.Tuple or t is nodes.List:
        return any(operands(e.value) for e in value.elements if type(e) is nodes.Element)
    if t is nodes.Dict:
        return any(operands(e.value) for e in value.elements if type(e) is nodes.DictElement)
    if t is nodes.BinaryOperation:
        return operands(value.left) or operands(value.right)
    if t is nodes.UnaryOperation or t is nodes.Subscript:
        return operands(value.expression if t is nodes.UnaryOperation else value.value)
    if t is nodes.DictComp or t is nodes.ListComp:  # ``{k: v for k, v in losses.items()}``
        return operands(value.value if t is nodes.DictComp else value.elt)
    return t is nodes.Name or t is nodes.Attribute or t is nodes.Call


#: builtins a loop calls with several arguments (``print(epoch, loss)``), none of which keeps
#: one in another: not asked for a project function's summary
_BUILTINS = frozenset(dir(builtins))


def may_keep(call) -> bool:
    """Could ``method_accumulation`` find ``call`` keeping a value ``operands`` accepts? A
    method called on a name, an attribute or an item (``meter.update(...)``,
    ``meters["loss"].update(...)``) with such an argument:
    ``pbar.update(1)`` is not asked for its method's summary."""
    if type(call) is not nodes.Call:
        return False
    if type(call.func) is nodes.Name:  # ``record(hist, loss)``, ``log_step(loss)``: a
        # function that appends to another argument or to a module-level log
        return bool(call.args) and call.func.value not in _BUILTINS and \
            any(not a.star and operands(a.value) for a in call.args)
    if type(call.func) is not nodes.Attribute or \
            type(call.func.value) not in (nodes.Name, nodes.Attribute, nodes.Subscript):
        return False
    # (``logger.update(**loss_dict)``: a dict whose every value a ``**kwargs`` takes)
    return any(a.star != "*" and operands(a.value) for a in call.args)


_FIX_DEFS = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)


# ---- fix safety (TEN501's ``accumulate .detach()``) ----------------------------------------------
def stays_local(ctx, acc, root: str) -> bool:
    """A local name of a function whose every read is ``acc.item()`` (besides the accumulations
    and bindings): it never escapes the function. Not ``float(acc)``: on a tensor that requires
    grad it warns ("Converting a tensor with requires_grad=True to a scalar"), and the fix
    would silence that warning (an error under ``-W error``)."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef or type(acc) is not nodes.Name or \
            "global" in ctx.source or "nonlocal" in ctx.source:
        return False
    ok: List[nodes.CSTNode] = []
    made = False
    todo = [scope.body]
    while todo:
        n = todo.pop()
        t = type(n)
        if t is list:
            todo.extend(n)
            continue
        if t in _FIX_DEFS and _mentions_anywhere(n, root):
            return False  # a closure reads it
        if t in _FIX_DEFS:
            continue
        if t is nodes.Call and not n.args and type(n.func) is nodes.Attribute and \
                n.func.attr.value == "item" and type(n.func.value) is nodes.Name and \
                n.func.value.value == root:
            continue
        if t is nodes.Name and n.value == root:
            ok.append(n)
            continue
        if t in (nodes.Assign, nodes.AugAssign):
            targets = [x.target for x in n.targets] if t is nodes.Assign else [n.target]
            if any(type(x) is nodes.Name and x.value == root for x in targets):
                value = n.value
                found = accumulation(n)
                if found is None and not closed.fresh(ctx.inf, value):
                    return False  # a view of another tensor, a caller's value (issue 45)
                made = made or found is None
                todo.append(found[1] if found is not None else value)
                continue
        todo.extend(c for c in n.children if c is not None)
    # a bare read left: the only allowed ones are the ``acc`` of ``acc = acc + v``; and it
    # must be made here, not be a parameter (a caller's tensor updated in place)
    return not ok and made


def _mentions_anywhere(node, name: str) -> bool:
    todo = [node]
    while todo:
        n = todo.pop()
        if type(n) is nodes.Name and n.value == name:
            return True
        todo.extend(c for c in n.children if c is not None)
    return False


# ---- the message's words --------------------------------------------------------------------
def how_kept(form, fact) -> str:
    """Where the graph is kept and why the value has one, for the message."""
    out = ""
    if type(form) is tuple and len(form) > 2:
        out = f" (its `{form[0]}()` adds its item `{form[2]}` into `{form[1]}`)"
    elif type(form) is tuple:
        out = f" (`{form[0]}()` keeps it there)" if form[1] is None else \
            f" (its `{form[0]}()` adds it into `{form[1]}`)" if form[1].startswith("self.") else \
            f" (`{form[0]}()` keeps it in its class's `{form[1][4:]}`)" \
            if form[1].startswith("cls.") else \
            f" (`{form[0]}()` keeps it in the module-level `{form[1]}`)"
    if fact.why == graph.DIFFERENTIATED and fact.detail:
        return out + f" after `{fact.detail}()` called `backward()` on it"
    if fact.why == graph.DIFFERENTIATED:
        return out + " after its `backward()`"
    if fact.why == graph.SIBLING:
        return out + f" (a term of the loss differentiated on line {fact.line})"
    if fact.why == graph.DERIVED:
        return out + (f" (computed from the loss differentiated on line {fact.line}, or from "
                      "a term of it)")
    if fact.why == graph.HOLDS and fact.detail == graph.APPENDED:
        return out + (" (it holds tensors appended to it that keep their graph, as line "
                      f"{fact.line} shows)")
    if fact.why == graph.HOLDS and fact.detail.startswith(RETURNED_HOLDING):
        return out + (f" (it holds the loss `{fact.detail[len(RETURNED_HOLDING):]}()` "
                      f"differentiated, as its call on line {fact.line} returned it)")
    if fact.why == graph.HOLDS and fact.detail.startswith(RETURNED_COMPUTED):
        return out + (f" (`{fact.detail[len(RETURNED_COMPUTED):]}()` returns it holding what "
                      "it computes from an argument that keeps its graph)")
    if fact.why == graph.HOLDS and fact.detail.startswith(RECORD):
        return out + (f" (the `{fact.detail[len(RECORD):]}` record holds a value that keeps "
                      "its graph)")
    if fact.why == graph.HOLDS and fact.detail == UNPACKED:
        return out + f" (it holds items unpacked into it on line {fact.line} that keep a graph)"
    if fact.why == graph.HOLDS:
        return out + f" (it holds the loss differentiated on line {fact.line})"
    if fact.why == graph.TERMS:
        return out + f" (the loss differentiated on line {fact.line}, or the tuple of its terms)"
    if fact.detail.startswith(ADDED):
        return out + (f" (`{fact.detail[len(ADDED):]}`, a parameter that requires grad, added "
                      "in place with grad on: autograd records the add)")
    if fact.detail.startswith(LEAF):
        return out + (f" (computed, with grad on, from `{fact.detail[len(LEAF):]}`, which "
                      "requires grad)")
    if fact.why == graph.GRAD_ON and fact.detail:
        return out + " (computed from a model output made under `enable_grad()`)"
    if fact.why == graph.GRAD_ON:
        return out + (" (computed from a model's output or parameters with grad on: a value "
                      f"computed in the same grad mode was differentiated on line {fact.line})")
    if fact.why == graph.RETURNED:
        return out + f" (`{fact.detail}()` returns it after `backward()` ran through it)"
    return out
