"""Storage regions: which elements of its base tensor a basic-slice view selects, with bounds
that are affine expressions over symbols, and whether two views of one base meet.

A view ``x[a:b, i, ...]`` selects, per dimension, a basic slice (start, stop, step) or one
index. A bound is an ``Affine``: an integer plus multiples of symbols (names, ``self.n``,
``len(x)``, ``x.shape[1]``, ``abs(s)``); one counted from the end (``-k``) is ``n`` plus it.

Two regions of one base are compared as the symbols take large values (a shift ``k`` is at least
one, never 0) and the dimension is long enough for every bound to fall inside it: ``OVERLAP``
(shared elements, not the same view), ``SAME``, ``DISJOINT`` or ``UNKNOWN`` (a rule stays
silent). A write that runs has views of equal length in each dimension (or broadcasts a length
of one): views that start (or, with a unit step, stop) at one bound select the same indices.

A view bound to a name (``tmp = x[:, :-1]``) is a ``View`` in the binding state (under ``name +
"["``) until the name, its base or a name its bounds read is bound again; joins keep it only
where every path holds the same one. A view of such a view is a region of the first one's base
(``compose``). Symbols in index positions (``index_symbols``) must hold integers for the
subscript to be a view: a rule asks ``ints.holds_int`` for that, on evidence.
"""
from __future__ import annotations

from typing import Callable, Dict, FrozenSet, Optional, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..syntax.records import record
from ..syntax.source import LazyPattern
from .kinds import Kind, is_tensor

OVERLAP = "overlap"
SAME = "same"
DISJOINT = "disjoint"
UNKNOWN = "unknown"


@record(frozen=True)
class Affine:
    """``const + sum(coef * symbol)``: ``terms`` is a sorted tuple of (symbol, coef), coef != 0."""

    const: int = 0
    terms: Tuple[Tuple[str, int], ...] = ()

    def __repr__(self) -> str:
        parts = [f"{c}*{s}" if c != 1 else s for s, c in self.terms]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)

    def plus(self, other: "Affine", times: int = 1) -> "Affine":
        coefs: Dict[str, int] = dict(self.terms)
        for s, c in other.terms:
            coefs[s] = coefs.get(s, 0) + times * c
        return Affine(self.const + times * other.const,
                      tuple(sorted((s, c) for s, c in coefs.items() if c)))

    def scaled(self, k: int) -> "Affine":
        if k == 0:
            return ZERO
        return Affine(self.const * k, tuple((s, c * k) for s, c in self.terms))

    def sign(self) -> Optional[int]:
        """The sign the expression takes once its symbols are large (1, 0 or -1), or None
        where it depends on how they compare (``k - j``)."""
        if not self.terms:
            return (self.const > 0) - (self.const < 0)
        first = self.terms[0][1] > 0
        if all((c > 0) == first for _, c in self.terms):
            return 1 if first else -1
        return None


ZERO = Affine()
ONE = Affine(1)

#: a bound: (1 if counted from the end else 0, the affine part): its value is ``k * n + affine``
Bound = Tuple[int, Affine]


@record(frozen=True)
class Dim:
    """One dimension of a view: an index (``stop`` is None) or a slice (start, stop, step)."""

    start: Bound
    stop: Optional[Bound] = None
    step: Affine = ONE

    def __repr__(self) -> str:
        if self.stop is None:
            return f"[{_show(self.start)}]"
        return f"[{_show(self.start)}:{_show(self.stop)}:{self.step!r}]"


def _show(b: Bound) -> str:
    return ("n + " if b[0] else "") + repr(b[1])


FULL = Dim((0, ZERO), (1, ZERO))


@record(frozen=True)
class Region:
    """The dimensions a view selects: ``lead`` from the first on; with an Ellipsis, ``tail``
    holds the dimensions after it, counted from the last (``tail`` None: no Ellipsis, and the
    dimensions after ``lead`` are whole)."""

    lead: Tuple[Dim, ...]
    tail: Optional[Tuple[Dim, ...]] = None

    def __repr__(self) -> str:
        return f"Region({list(self.lead)}, {None if self.tail is None else list(self.tail)})"


# ---- reading regions from the syntax --------------------------------------------------------
#: what the caller says of a name read in an index position (``x[i]``): may it hold an
#: integer? (a tensor or a list there is advanced indexing: a copy, no view)
IndexCheck = Callable[[nodes.BaseExpression], bool]


def _symbol(node: nodes.BaseExpression) -> Optional[str]:
    """The symbol a leaf expression stands for: ``k``, ``self.n``, ``len(x)``, ``x.shape[1]``
    (also ``x.size(1)``); None for anything else."""
    t = type(node)
    if t is nodes.Name:
        return None if node.value in ("None", "True", "False") else node.value
    if t is nodes.Attribute:
        return dotted_name(node)
    if t is nodes.Call and len(node.args) == 1 and node.args[0].keyword is None and \
            not node.args[0].star:
        arg = node.args[0].value
        func = node.func
        if type(func) is nodes.Name and func.value == "len":
            inner = dotted_name(arg)
            return f"len({inner})" if inner is not None else None
        if type(func) is nodes.Attribute and func.attr.value == "size" and \
                _integer(arg) is not None:
            owner = dotted_name(func.value)
            return f"{owner}.shape[{_integer(arg)}]" if owner is not None else None
    if t is nodes.Call and node.args and all(  # ``abs(s)``, ``int(k)``: one value each
            a.keyword is None and not a.star and type(a.value) in _PLAIN for a in node.args):
        func = dotted_name(node.func)
        if func is not None:
            parts = [dotted_name(a.value) if type(a.value) is not nodes.Integer else
                     str(int(a.value.value, 0)) for a in node.args]
            if None not in parts:
                return f"{func}({', '.join(parts)})"  # type: ignore[arg-type]
    if t is nodes.Subscript and type(node.value) is nodes.Attribute and \
            node.value.attr.value == "shape" and len(node.slice) == 1:
        index = node.slice[0].slice
        owner = dotted_name(node.value.value)
        at = _integer(index.value) if type(index) is nodes.Index else None
        if at is not None and owner:
            return f"{owner}.shape[{at}]"
    return None


def _integer(node: nodes.BaseExpression) -> Optional[int]:
    """An integer literal, or a negated one (``-1``)."""
    a = affine(node) if type(node) in (nodes.Integer, nodes.UnaryOperation) else None
    return a.const if a is not None and not a.terms else None


_PLAIN = (nodes.Name, nodes.Attribute, nodes.Integer)


#: what a caller knows a symbol stands for (``stop`` bound once to ``x.shape[1] - k``), or None
Values = Optional[Callable[[str], Optional[Affine]]]


def affine(node: Optional[nodes.BaseExpression], depth: int = 0,
           values: Values = None) -> Optional[Affine]:
    """The affine expression ``node`` spells (integer literals, symbols, ``+``, ``-``, a
    multiple by an integer literal), or None; a symbol ``values`` knows stands for its value."""
    if node is None or depth > 20:
        return None
    t = type(node)
    if t is nodes.Integer:
        try:
            return Affine(int(node.value, 0))
        except ValueError:
            return None
    if t is nodes.UnaryOperation:
        inner, op = affine(node.expression, depth + 1, values), type(node.operator)
        if inner is None or op not in (nodes.Minus, nodes.Plus):
            return None
        return inner.scaled(-1) if op is nodes.Minus else inner
    if t is nodes.BinaryOperation:
        op = type(node.operator)
        if op is nodes.Add or op is nodes.Subtract:
            left, right = affine(node.left, depth + 1, values), \
                affine(node.right, depth + 1, values)
            if left is None or right is None:
                return None
            return left.plus(right, 1 if op is nodes.Add else -1)
        if op is nodes.Multiply:
            left, right = affine(node.left, depth + 1, values), \
                affine(node.right, depth + 1, values)
            if left is None or right is None:
                return None
            if not left.terms:
                return right.scaled(left.const)
            if not right.terms:
                return left.scaled(right.const)
        if op is nodes.FloorDivide:  # ``HOP // 2``: the quotient; ``C // 2``: a symbol, large
            left, right = affine(node.left, depth + 1, values), \
                affine(node.right, depth + 1, values)  # as ``C`` is, one wherever spelled
            if left is None or right is None or right.terms or right.const <= 0:
                return None
            if not left.terms or left.const == 0 and left.terms[0][1] == 1 == len(left.terms):
                return Affine(left.const // right.const) if not left.terms else \
                    Affine(0, ((f"{left.terms[0][0]} // {right.const}", 1),))
        return None
    sym = _symbol(node)
    known = values(sym) if values is not None and sym is not None else None
    if known is not None:
        return known
    return Affine(0, ((sym, 1),)) if sym is not None else None


def _bound(node: Optional[nodes.BaseExpression], default: Bound,
           lengths: FrozenSet[str] = frozenset(), values: Values = None) -> Optional[Bound]:
    """A slice's bound; ``lengths``: the symbols that spell this dimension's length
    (``x.shape[1]``, ``x.size(1)``, ``len(x)`` in ``x[:, :x.shape[1] - k]``): ``n`` itself."""
    if node is None or (type(node) is nodes.Name and node.value == "None"):
        return default
    a = affine(node, 0, values)
    return None if a is None else _bound_of(a, lengths)


def _bound_of(a: Affine, lengths: FrozenSet[str]) -> Optional[Bound]:
    """The bound affine value ``a`` is, read as an index: counted from the end where it holds
    the dimension's length once (``x.shape[1] - k``) or is negative (``-k``), from the start
    where it holds minus that length (``-(n - 1)`` is index 1) or is not negative."""
    if lengths and any(sym in lengths for sym, _ in a.terms):
        times = sum(c for sym, c in a.terms if sym in lengths)
        rest = Affine(a.const, tuple((sym, c) for sym, c in a.terms if sym not in lengths))
        if times == 1:
            return (1, rest)  # ``x.shape[1] - k``: counted from the end
        if times == -1 and rest.sign() in (0, 1):
            return (0, rest)  # ``-last`` of ``last = x.shape[1] - 1``: index 1
        if times != 0:
            return None
        a = rest
    sign = a.sign()
    if sign is None:
        return None  # from the start or from the end: depends on the symbols
    return (1, a) if sign < 0 else (0, a)


def _dim(el: nodes.BaseExpression, index_ok: Optional[IndexCheck],
         lengths: FrozenSet[str] = frozenset(), values: Values = None) -> Optional[Dim]:
    if type(el) is nodes.Slice:
        start = _bound(el.lower, (0, ZERO), lengths, values)
        stop = _bound(el.upper, (1, ZERO), lengths, values)
        step = ONE if el.step is None or (type(el.step) is nodes.Name and el.step.value == "None") \
            else affine(el.step)
        if start is None or stop is None or step is None or step.sign() != 1:
            return None
        return Dim(start, stop, step)
    value = el.value
    a = affine(value)
    if a is None:
        return None
    if index_ok is not None and any(type(n) in (nodes.Name, nodes.Attribute) and not index_ok(n)
                                    for n in _leaves(value)):
        return None
    sign = a.sign()
    if sign is None:
        return None
    return Dim((1, a) if sign < 0 else (0, a))


def _leaves(node: nodes.BaseExpression):
    t = type(node)
    if t is nodes.BinaryOperation:
        yield from _leaves(node.left)
        yield from _leaves(node.right)
    elif t is nodes.UnaryOperation:
        yield from _leaves(node.expression)
    else:
        yield node


def region(sub: nodes.Subscript, index_ok: Optional[IndexCheck] = None,
           new_axes: bool = False, values: Values = None) -> Optional[Region]:
    """The region of its base that the basic-slice subscript ``sub`` selects, or None (advanced
    indexing, a computed bound, two Ellipses, a step that is not a positive expression).
    ``None`` (a new axis of size 1) selects no dimension of the base: with ``new_axes`` it is
    passed over (``x[:, None, 1:]`` selects the elements ``x[:, 1:]`` does), else the region is
    unknown (a view bound to a name: its own dimensions would not be the base's)."""
    lead: list = []
    tail: Optional[list] = None
    for element in sub.slice:
        s = element.slice
        out = tail if tail is not None else lead
        if type(s) is nodes.Index and type(s.value) is nodes.Name and s.value.value == "None":
            if not new_axes:
                return None
            continue
        if type(s) is nodes.Index and type(s.value) is nodes.Ellipsis:
            if tail is not None:
                return None
            tail = []
            continue
        out.append(s)
    base = dotted_name(sub.value)
    dims = []
    for i, s in enumerate(lead + (tail or [])):
        # the symbols for this dimension's length: ``x.shape[i]`` counted from the first (or,
        # after an Ellipsis, from the last) dimension of the base
        at = i if i < len(lead) else i - len(lead) - len(tail)  # type: ignore[arg-type]
        lengths = frozenset({f"{base}.shape[{at}]"} | ({f"len({base})"} if at == 0 else set())) \
            if base is not None else frozenset()
        d = _dim(s, index_ok, lengths, values)
        if d is None:
            return None
        dims.append(d)
    return Region(tuple(dims[:len(lead)]), tuple(dims[len(lead):]) if tail is not None else None)


def narrowed(call: nodes.Call, index_ok: Optional[IndexCheck] = None,
             values: Values = None) -> Optional[Region]:
    """The region of its base that ``base.narrow(dim, start, length)`` selects (a view:
    ``base[..., start:start + length]`` on dimension ``dim``, an integer literal: counted from
    the last where negative, ``narrow(-1, ...)`` as ``base[..., start:start + length]``), or
    None: not such a call, or a bound that is no affine expression counted from the start."""
    f = call.func
    if type(f) is not nodes.Attribute or f.attr.value != "narrow" or len(call.args) != 3 or \
            any(a.star for a in call.args):
        return None
    given = dict(zip(("dim", "start", "length"), [a.value for a in call.args
                                                   if a.keyword is None]))
    given.update((a.keyword.value, a.value) for a in call.args if a.keyword is not None)
    if set(given) != {"dim", "start", "length"}:
        return None  # (``narrow(dim=1, start=0, length=n)`` too)
    d = affine(given["dim"])
    if d is None or d.terms or not -8 <= d.const <= 8:
        return None
    dim = d.const
    base = dotted_name(f.value)
    lengths = frozenset({f"{base}.shape[{dim}]"} | ({f"len({base})"} if dim == 0 else set())) \
        if base is not None else frozenset()
    start = _bound(given["start"], (0, ZERO), lengths, values)
    length = affine(given["length"], 0, values)
    if start is None or length is None:
        return None
    times = sum(c for sym, c in length.terms if sym in lengths)
    if times not in (0, 1) or (times == 0 and length.sign() != 1) or (times and start[0]):
        return None  # (a length of ``n - k``, the dimension's: positive on a long one)
    if index_ok is not None and any(
            type(n) in (nodes.Name, nodes.Attribute) and not index_ok(n)
            for key in ("start", "length") for n in _leaves(given[key])):
        return None
    stop = (start[0], start[1].plus(length)) if start[0] else \
        _bound_of(start[1].plus(length), lengths)
    if stop is None:
        return None
    whole = Dim((0, ZERO), (1, ZERO), ONE)
    picked = Dim(start, stop, ONE)
    if dim < 0:
        return Region((), (picked,) + (whole,) * (-dim - 1))
    return Region((whole,) * dim + (picked,))


def symbols(r: Region) -> FrozenSet[str]:
    """The symbols a region's bounds read."""
    out = set()
    for d in r.lead + (r.tail or ()):
        for part in (d.start[1], d.stop[1] if d.stop else ZERO, d.step):
            out.update(s for s, _ in part.terms)
    return frozenset(out)


def _within(outer: Dim, b: Bound) -> Bound:
    """A bound of a slice of the view dimension ``outer`` (unit step), on the base: counted
    from the view's end it is ``outer.stop`` plus it, else ``outer.start`` plus it."""
    at = outer.stop if b[0] else outer.start
    return (at[0], at[1].plus(b[1]))  # type: ignore[index]


def compose(outer: Region, inner: Region) -> Optional[Region]:
    """The region of the base that ``inner``, a region of the view ``outer``, selects (a view
    of a view: ``v = x[:, 1:]`` then ``v[:, :-1]``), or None where it cannot be said (an
    Ellipsis, a stepped dimension of ``outer`` sliced again)."""
    if outer.tail is not None or inner.tail is not None:
        return None
    dims = list(outer.lead)
    out: list = []
    i = 0
    for d in inner.lead:
        while i < len(dims) and dims[i].stop is None:
            out.append(dims[i])  # an index of ``outer``: no dimension of the view
            i += 1
        o = dims[i] if i < len(dims) else FULL
        i += 1
        if o == FULL:
            out.append(d)
            continue
        if o.step != ONE:
            return None
        if d.stop is None:
            out.append(Dim(_within(o, d.start)))
        else:
            out.append(Dim(_within(o, d.start), _within(o, d.stop), d.step))
    return Region(tuple(out) + tuple(dims[i:]), None)


def index_symbols(r: Region) -> FrozenSet[str]:
    """The symbols read in index positions (``x[i, 1:]``): each must hold an integer for the
    subscript to be a view (a tensor or a list there is advanced indexing, a copy)."""
    return frozenset(s for d in r.lead + (r.tail or ()) if d.stop is None
                     for s, _ in d.start[1].terms)


_LEN = LazyPattern(r"len\(\w+\)")
_SHAPE = LazyPattern(r"\w+\.shape\[-?\d+\]")


def _root(symbol: str) -> str:
    head = symbol[4:-1] if symbol.startswith("len(") else symbol
    return head.split(".", 1)[0].split("[", 1)[0]


# ---- views bound to names -------------------------------------------------------------------
class View(Kind):
    """What a name bound to a basic-slice view holds besides its tensor kind: the base (a
    plain name, or an attribute chain for one statement: ``brief``), the region, and the names
    whose rebinding ends it."""

    __slots__ = ("base", "region", "needs", "brief")

    def __init__(self, base: str, region: Region, needs: FrozenSet[str],
                 brief: bool = False) -> None:
        super().__init__("view")
        self.base = base
        self.region = region
        self.needs = needs
        #: of an attribute chain (``self.taps``): ends after the next statement that may run
        #: code (an ``if`` or ``try`` entered without a call runs none: ``enters_without_code``)
        self.brief = brief


#: the region of a tensor's own name (``y = x``: all of ``x``)
WHOLE = Region((), None)


def key(name: str) -> str:
    """Where the binding state keeps the view a name holds."""
    return name + "["


def view_for(name: str, value: nodes.BaseExpression, inference) -> Optional[View]:
    """The view ``name = value`` binds, or None: ``value`` is a basic-slice subscript of a plain
    name (or of an attribute chain: a ``brief`` view; or its ``narrow(d, start, length)``) known
    to be a tensor, whose bounds read
    only plain names, none of them (nor the base) ``name`` itself or written by another scope;
    or that name itself (``y = x``: ``WHOLE``)."""
    brief = False
    if type(value) is nodes.Name:  # ``y = x``: the whole of ``x`` under another name
        base = value.value
        r: Optional[Region] = WHOLE
    elif type(value) is nodes.Call and type(value.func) is nodes.Attribute and \
            type(value.func.value) is nodes.Name and value.func.attr.value == "narrow":
        # ``tail = x.narrow(1, 0, n - 1)``: the view ``x[:, :n - 1]``
        base = value.func.value.value
        r = narrowed(value, lambda n: not is_tensor(inference.infer(n)))
        if r is None:
            return None
    elif type(value) is not nodes.Subscript:
        return None
    elif type(value.value) is not nodes.Name:
        # ``older = self.taps[..., :-1]``: a view of an attribute, which any call may rebind,
        # kept for the next statement only (``age_brief_views``)
        base = dotted_name(value.value) if type(value.value) is nodes.Attribute else None
        if base is None or not is_tensor(inference.infer(value.value)):
            return None
        brief, r = True, None
    else:
        base = value.value.value
        r = None
    if base == name or not (brief or is_tensor(inference.lookup(base))):
        return None
    if r is None:
        r = region(value, lambda n: not is_tensor(inference.infer(n)))
    if r is None:
        return None
    outer = view_of(inference, base)
    if outer is not None:  # a view of a view: of the first one's base
        r = compose(outer.region, r)
        if r is None:
            return None
        base = outer.base
        if base == name:
            return None
        syms = symbols(r) | symbols(outer.region)
    else:
        syms = symbols(r)
    read = [s for s in syms if not (s.isidentifier() or _LEN.fullmatch(s) or _SHAPE.fullmatch(s))]
    if not all(all(part.isidentifier() for part in s.split(".")) for s in read):
        return None  # a call: what it gives is not seen here
    # an attribute: what changes it is not seen here; but a brief view lasts only while nothing
    # runs that could rebind one (``src = self.obs[1:self.size]``, ``tail = x[:, self.h:]``)
    brief = brief or bool(read)
    needs = frozenset({base, _root(base)} | {_root(s) for s in syms})
    if name in needs:
        return None
    shared = inference.written_elsewhere
    if shared and any(n in names for names in shared.values() for n in needs | {name}):
        return None  # another scope's ``global``/``nonlocal`` may bind one of them
    return View(base, r, needs, brief)


def drop_views(names: Dict[str, Kind], name: str) -> None:
    """``name`` is bound again: the views that read it (or that it holds) end."""
    stale = [k for k, v in names.items() if type(v) is View and (name in v.needs or k == key(name))]
    for k in stale:
        del names[k]


def bind_view(inference, name: str, value: nodes.BaseExpression) -> None:
    """``name = value`` was bound: keep the view it holds, if it is one."""
    view = view_for(name, value, inference)
    if view is not None:
        inference.scope.names[key(name)] = view
        inference.viewed = True
        if view.brief:
            inference.brief_views[key(name)] = 0


def age_brief_views(inference, ended: bool = False, stmt=None) -> None:
    """A statement was walked (``ended``: or a compound one begins): the views of attributes
    bound before the statement just walked end (a call anywhere since may have rebound the
    attribute; between two simple statements in a row nothing else runs), unless that statement
    ``stmt`` only binds plain names to what it reads without a call (``src = self.state[...,
    t:]`` after ``dst = self.state[..., :-t]``: nothing ran that could rebind the attribute), or
    writes into an item of a tensor so (``self.rewards[:-1] = self.rewards[1:]``: a tensor's
    item assignment runs no code of the program's)."""
    harmless = stmt is not None and not ended and _binds_without_calls(stmt, inference)
    brief, names = inference.brief_views, inference.scope.names
    for k, age in list(brief.items()):
        if age and harmless:
            continue
        if ended or age:
            del brief[k]
            if type(names.get(k)) is View and names[k].brief:
                del names[k]
        else:
            brief[k] = 1


#: what may run code of anyone's choosing within an expression (beyond reading attributes and
#: items, which the views of attributes take as they read them)
_RUNS_CODE = (nodes.Call, nodes.Lambda, nodes.NamedExpr, nodes.Await, nodes.Yield, nodes.CompFor)


def _binds_without_calls(stmt, inference) -> bool:
    """``a = <expression without a call>``, ``t[<index>] = <expression>`` of a tensor ``t``,
    each without a call (plain names or items of tensors as targets only)."""
    if type(stmt) is not nodes.Assign:
        return False
    todo = [stmt.value]
    for t in stmt.targets:
        target = t.target
        if type(target) is nodes.Subscript and is_tensor(inference.infer(target.value)):
            todo.append(target)
        elif type(target) is not nodes.Name:
            return False
    return _runs_no_code(todo)


def _runs_no_code(todo: list) -> bool:
    """Do the expressions in ``todo`` (emptied) read names, attributes and items only?"""
    while todo:
        n = todo.pop()
        if type(n) in _RUNS_CODE:
            return False
        todo.extend(c for c in n.children if c is not None)
    return True


def enters_without_code(stmt) -> bool:
    """Does compound statement ``stmt`` begin its block without running any code of the
    program's: an ``if`` whose test (and each ``elif``'s) holds no call, a ``try`` whose handlers
    name their exceptions without one? The views of attributes bound just before it then live
    into its blocks (``age_brief_views``; a block that a call on another path ended is seen by
    ``view_of``)."""
    t = type(stmt)
    if t is nodes.Try or t is nodes.TryStar:
        return _runs_no_code([h.type for h in stmt.handlers if h.type is not None])
    if t is not nodes.If:
        return False
    tests = []
    while type(stmt) is nodes.If:
        tests.append(stmt.test)
        stmt = stmt.orelse
    return _runs_no_code(tests)


def view_of(inference, name: str) -> Optional[View]:
    """The view the name holds at this point of the walk, on every path that reaches it."""
    if not inference.viewed:
        return None
    names = inference.scope.names
    k = key(name)
    v = names.get(k)
    if type(v) is not View or v.brief and k not in inference.brief_views:
        return None  # (a view of an attribute that a call on a branch walked before ended)
    # the name itself a tensor on every path here (a doubted one is not: a loop's back edge
    # may bring another value)
    return v if is_tensor(names.get(name)) else None


def rebound_in_place(inference, name: str) -> None:
    """``name += ...`` (a symbol's value changes; a tensor's storage would not, but which it is
    need not be known to end the views that read it) or ``name.data = ...`` (other storage)."""
    if inference.viewed:
        drop_views(inference.scope.names, name)
