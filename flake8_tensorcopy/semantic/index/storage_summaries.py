"""Storage summaries of the project's functions: what a function's returned value (or each item
of a returned tuple) shares storage with, among its parameters, and how (TEN405 asks at a call:
``t = to_tensor(a)`` and ``x, y = cast_inputs(x, y)`` then share memory as
``torch.from_numpy(a)`` would).

A summary is worked out once per function, from its ``ast``, when a rule first asks about a call
of it, and kept with the function's module (``summary``; the pattern of
``statedict_summaries``): a caller's question is a dictionary look-up.

What is read, and only from what the body shows on every path (unknown stays unknown):

- every ``return`` gives a value (no bare ``return``, no falling off the end, no ``yield``), all
  tuples of one length or all single values; an item (``None``: the value) has a fact only when
  every ``return`` gives, at that place, something that shares with the same parameter;
- what shares with a parameter ``p``: ``p`` itself, ``torch.from_numpy(v)`` and ``v.numpy()``
  (the NumPy bridge), ``v.detach()``, the conversions that may return their receiver
  (``v.cpu()``, ``v.float()``..., ``v.contiguous()``: under the condition they carry),
  ``a if c else b`` (both), where ``v`` shares with ``p``; a local name shares with ``p`` when
  each of its bindings in the function does (a plain ``name = value`` each; any other binding
  of it, ``for``, ``with``, a tuple target, ``+=``, ``global``, makes it unknown). A copy or
  anything else on one path: no fact for that item.
"""
from __future__ import annotations

import ast
import weakref
from typing import Dict, FrozenSet, NamedTuple, Optional, Tuple

from ...syntax import nodes
from ...syntax.nodes import dotted_name
from ...syntax.walk import dotted, statements
from ..storage import ALIAS, BRIDGE, CONVERSION, DTYPE_METHODS, Share
from .statedict_summaries import called_function, kept_per_function


class Returned(NamedTuple):
    """An item of what a function returns shares storage with its parameter ``param``
    (position ``index`` counted as in the ``def``, ``self`` included; None: keyword-only)."""
    param: str
    index: Optional[int]
    #: BRIDGE where some path goes through the NumPy bridge, else CONVERSION where some path
    #: goes through a conversion, else ALIAS (the parameter itself or ``.detach()``)
    how: str
    #: the sharing steps of the paths, for messages (``from_numpy()``)
    steps: Tuple[str, ...]
    #: under which it shares on every path (empty: on every run)
    conditions: Tuple[str, ...]
    #: a path through ``from_numpy`` (the parameter an array, the value a tensor) / through
    #: ``.numpy()`` (the value an array)
    base_array: bool
    value_array: bool


class Summary(NamedTuple):
    #: item (None: the returned value; i: item i of a returned tuple) -> its fact
    items: Dict[Optional[int], Returned]


_NOTHING = Summary({})
_BY_MODULE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
#: decorators that keep what the function returns
_KEEPS = frozenset({"staticmethod", "classmethod", "no_grad", "inference_mode", "enable_grad"})
#: a path: (parameter, kind of step, step text, condition, base_array, value_array)
_Path = Tuple[str, str, str, str, bool, bool]


def summary(fn) -> Summary:
    """The storage summary of ``fn`` (a ``FuncFacts``), worked out once."""
    return kept_per_function(fn, _BY_MODULE, summarize_function, _NOTHING, (AttributeError,))


def summarize_function(fn: ast.AST) -> Summary:
    """The summary of one ``def`` (an ``ast`` node), worked out now (``summary`` keeps it)."""
    if type(fn) is not ast.FunctionDef or not fn.body or \
            type(fn.body[-1]) not in (ast.Return, ast.Raise):
        return _NOTHING
    for d in fn.decorator_list:
        name = (dotted(d.func if type(d) is ast.Call else d) or "").rpartition(".")[2]
        if name not in _KEEPS:
            return _NOTHING
    # the statements first (most functions end there: nothing shares through the bridge),
    # then every node, for the bindings and ``yield`` inside expressions
    items = _items(_Body(fn, statements(fn)))
    if not any(fact.how == BRIDGE for fact in items.values()):
        return _NOTHING
    return Summary(_items(_Body(fn)))


def _items(walk: "_Body") -> Dict[Optional[int], Returned]:
    if walk.yields or not walk.returns:
        return {}
    width = _width(walk.returns)
    if width is False:
        return {}
    items: Dict[Optional[int], Returned] = {}
    for i in ([None] if width is None else range(width)):
        fact = walk.item_fact([r if i is None else r.elts[i] for r in walk.returns], i)
        if fact is not None:
            items[i] = fact
    return items


def _width(returns):
    """None: every return gives one value; n: every return a tuple of n; False: they differ."""
    widths = {len(r.elts) if type(r) is ast.Tuple and not any(
        type(e) is ast.Starred for e in r.elts) else None for r in returns}
    if len(widths) != 1:
        return False
    return widths.pop()


class _Body:
    """One walk of the function's own statements: its returns, its names' bindings."""

    def __init__(self, fn: ast.FunctionDef, only=None) -> None:
        """``only``: the nodes to read (its statements: a first look), else every node."""
        args = fn.args
        self.positional = [a.arg for a in args.posonlyargs + args.args]
        self.params = set(self.positional) | {a.arg for a in args.kwonlyargs}
        self.returns: list = []
        self.yields = False
        #: name -> the values of its ``name = value`` bindings
        self.assigns: Dict[str, list] = {}
        #: names bound in any other way (unknown)
        self.other: set = set()
        if only is not None:
            for n in only:
                if n is not fn:
                    self._read(n)
                    if type(n) is ast.Expr and type(n.value) in (ast.Yield, ast.YieldFrom):
                        self.yields = True
            return
        todo = list(fn.body)
        while todo:
            n = todo.pop()
            if not self._read(n):
                continue
            todo.extend(ast.iter_child_nodes(n))

    def _read(self, n) -> bool:
        """Note what node ``n`` binds or returns; False where its children are another scope."""
        t = type(n)
        if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            self.other.add(n.name)
            return False
        if t is ast.Lambda:
            return False
        if t is ast.Return:
            if n.value is None:
                self.yields = True  # a bare ``return``: None on that path
            else:
                self.returns.append(n.value)
        elif t in (ast.Yield, ast.YieldFrom):
            self.yields = True
        elif t is ast.Assign:
            if len(n.targets) == 1 and type(n.targets[0]) is ast.Name:
                self.assigns.setdefault(n.targets[0].id, []).append(n.value)
            else:
                self._bound(n.targets)
        elif t in (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr):
            self._bound([n.target])
        elif t in (ast.With, ast.AsyncWith):
            self._bound([i.optional_vars for i in n.items if i.optional_vars is not None])
        elif t in (ast.Global, ast.Nonlocal):
            self.other.update(n.names)
        elif t is ast.ExceptHandler and n.name:
            self.other.add(n.name)
        elif t in (ast.Import, ast.ImportFrom):
            self.other.update((a.asname or a.name).partition(".")[0] for a in n.names)
        elif t is ast.Delete:
            self._bound(n.targets)
        elif t is ast.comprehension:
            self._bound([n.target])
        return True

    def _bound(self, targets) -> None:
        for target in targets:
            self.other.update(x.id for x in ast.walk(target) if type(x) is ast.Name)

    def item_fact(self, exprs, i) -> Optional[Returned]:
        paths = []
        for e in exprs:
            got = self._paths(e, frozenset())
            if not got:
                return None
            paths.extend(got)
        params = {p[0] for p in paths}
        if len(params) != 1:
            return None
        param = params.pop()
        kinds = {p[1] for p in paths}
        how = BRIDGE if BRIDGE in kinds else CONVERSION if CONVERSION in kinds else ALIAS
        steps = tuple(dict.fromkeys(p[2] for p in paths if p[2]))
        conditions = tuple(dict.fromkeys(p[3] for p in paths if p[3]))
        index = self.positional.index(param) if param in self.positional else None
        return Returned(param, index, how, steps, conditions, any(p[4] for p in paths),
                        any(p[5] for p in paths))

    def _paths(self, e, seen: FrozenSet[str]) -> Optional[list]:
        """The paths by which ``e`` shares with a parameter; None: not on every path."""
        t = type(e)
        if t is ast.Name:
            name = e.id
            if name in self.other:
                return None
            if name in seen:
                return []  # ``x = x.cpu()``: what ``x`` held before is one of its other values
            out = [(name, ALIAS, "", "", False, False)] if name in self.params else []
            values = self.assigns.get(name, ())
            if not out and not values:
                return None
            for v in values:
                got = self._paths(v, seen | {name})
                if got is None:
                    return None
                out.extend(got)
            return out
        if t is ast.IfExp:
            a, b = self._paths(e.body, seen), self._paths(e.orelse, seen)
            return None if a is None or b is None else a + b
        if t is not ast.Call or e.keywords or any(type(a) is ast.Starred for a in e.args):
            return None
        func = e.func
        if dotted(func) == "torch.from_numpy" and len(e.args) == 1 and "torch" not in self.params \
                and "torch" not in self.assigns:
            inner = self._paths(e.args[0], seen)
            return None if inner is None else [
                (p[0], BRIDGE, "from_numpy()", p[3], True, p[5]) for p in inner]
        if type(func) is not ast.Attribute or e.args:
            return None
        m = func.attr
        inner = self._paths(func.value, seen)
        if inner is None:
            return None
        if m == "numpy":
            return [(p[0], BRIDGE, "numpy()", p[3], p[4], True) for p in inner]
        if m == "detach":
            return inner
        if m == "cpu":
            cond = "when it is already on the CPU"
        elif m in DTYPE_METHODS:
            cond = f"when it is already {DTYPE_METHODS[m]}"
        elif m == "contiguous":
            cond = "when it is already contiguous"
        else:
            return None
        return [(p[0], p[1] if p[1] == BRIDGE else CONVERSION, p[2] or f"{m}()",
                 " and ".join(c for c in (p[3], cond) if c), p[4], p[5]) for p in inner]


# ---- the questions a rule asks at a call ---------------------------------------------------------

def bridged_items(fn) -> FrozenSet[Optional[int]]:
    """The returned items of ``fn`` (None: its value) that share with a parameter through the
    NumPy bridge (its summary, worked out once)."""
    return frozenset(i for i, fact in summary(fn).items.items() if fact.how == BRIDGE)


def helper_share(inf, call, item: Optional[int], found=None) -> Optional[Share]:
    """The storage fact of ``call`` (item ``item`` of the tuple it returns; None: its value)
    when it runs a project function whose summary says that value shares with one of its
    parameters and the call passes a named value for it: a ``Share`` over that argument, as
    ``storage.share_of`` gives for ``torch.from_numpy(a)``; else None. ``found``: what
    ``called_function`` gave for the call, when the caller asked it already."""
    if type(call) is not nodes.Call:
        return None
    found = found or called_function(inf, call)
    if found is None:
        return None
    fn, bound = found
    fact = summary(fn).items.get(item)
    if fact is None:
        return None
    arg = _argument(call, fact, 1 if bound else 0)
    if arg is None or type(arg) not in (nodes.Name, nodes.Attribute) or dotted_name(arg) is None:
        return None
    steps = (f"{fn.name}(...)",) + tuple(f"{s} inside" for s in fact.steps)
    return Share(call, arg, fact.how, steps, fact.conditions, base_array=fact.base_array,
                 value_array=fact.value_array, call=call)


def _argument(call, fact: Returned, shift: int):
    """What ``call`` passes for the fact's parameter (None: not passed, or not known)."""
    position = 0
    for a in call.args:
        if a.star:
            return None  # positions and names unknown from here on
        if a.keyword is not None:
            if a.keyword.value == fact.param:
                return a.value
            continue
        if fact.index is not None and position + shift == fact.index:
            return a.value
        position += 1
    return None
