"""What a ``self`` attribute holds for the other methods of its class: the join of every
binding of it in the class, except a binding of ``__init__`` that a later one replaces on every
path before anything could read it.

``self.buf = np.zeros(shape)``, then ``self.buf = torch.from_numpy(self.buf).float()``, then
``self.buf = self.buf.to(device)``: other methods see only the last value (a tensor), though the
class-wide join of the three bindings says "unknown". A binding is replaced (``superseded``) when
it and a later binding of the same attribute are both statements of the top level of
``__init__``'s body (straight-line code: no branch, loop, ``try`` or ``with`` between them) and
nothing between them (the later binding's value included) could run code that reads it: no call
of a method on ``self``, no ``super()``, no ``self`` passed or stored (``f(self)``, ``x = self``),
no ``return``/``raise``/``yield``/``await``, no nested function, class or lambda, no compound
statement. An ``__init__`` that raises in between leaves no constructed object for other methods
to run on (the one assumption). Reads inside ``__init__`` between the two still see the earlier
value, in source order.

The replaced value is a signal, not a proof (``TENSOR_SIGNAL`` where the join would have said
something else): a diagnostic may rest on it, a safe fix may not.
"""
from __future__ import annotations

from typing import Dict, Optional, Tuple

from ..syntax import nodes
from .kinds import (PROOF, TENSOR_SIGNAL, UNKNOWN, ClassInfo, Kind, evidence, is_tensor,
                    tensor_like)

_BARRIERS = (nodes.Return, nodes.Raise, nodes.Yield, nodes.Await, nodes.FunctionDef,
             nodes.ClassDef, nodes.Lambda, nodes.Global, nodes.Nonlocal, nodes.Del)


def join_attr(old: Optional[Kind], kind: Kind) -> Kind:
    """Two bindings of one attribute: one kind where they agree, the weaker tensor where both
    are tensors, else UNKNOWN."""
    if old is None or old is kind:
        return kind
    if not (is_tensor(old) and is_tensor(kind)):
        return UNKNOWN
    if evidence(old) != evidence(kind):
        return tensor_like(old, kind)  # as weakly known as the weaker binding
    return old


def superseded(func: nodes.FunctionDef) -> Dict[int, int]:
    """For ``__init__`` (``func``): ``{id(later target): id(earlier target)}`` for each binding
    ``self.A = ...`` at the top level that replaces the previous one of ``self.A`` with nothing
    between them that could read it (see the module's docstring)."""
    params = func.params.posonly_params or func.params.params
    if not params or type(func.body) is not nodes.IndentedBlock:
        return {}
    me = params[0].name.value
    out: Dict[int, int] = {}
    last: Dict[str, int] = {}
    for stmt in func.body.body:
        target = _self_binding(stmt, me)
        if target is not None and not _barrier(stmt.body[0].value, me):
            attr = target.attr.value
            if attr in last:
                out[id(target)] = last[attr]
            last[attr] = id(target)
            continue
        if type(stmt) is not nodes.SimpleStatementLine or _barrier(stmt, me):
            last.clear()
    return out


def _self_binding(stmt, me: str) -> Optional[nodes.Attribute]:
    """The target of ``self.A = value``, a statement alone on its line, or None."""
    if type(stmt) is not nodes.SimpleStatementLine or len(stmt.body) != 1:
        return None
    a = stmt.body[0]
    if type(a) is not nodes.Assign or len(a.targets) != 1:
        return None
    t = a.targets[0].target
    if type(t) is nodes.Attribute and type(t.value) is nodes.Name and t.value.value == me:
        return t
    return None


def _barrier(node: nodes.CSTNode, me: str) -> bool:
    """Could ``node`` run code that reads an attribute of ``self`` (or leave the method)?"""
    read_through = set()
    for n in nodes.within(node):
        t = type(n)
        if t in _BARRIERS:
            return True
        if t is nodes.Attribute and type(n.value) is nodes.Name and n.value.value == me:
            read_through.add(id(n.value))
        elif t is nodes.Call:
            f = n.func
            if type(f) is nodes.Attribute and type(f.value) is nodes.Name and f.value.value == me:
                return True  # ``self.method(...)``
        elif t is nodes.Name and (n.value == "super" or (n.value == me and
                                                         id(n) not in read_through)):
            return True
    return False


class AttrBindings:
    """Binds ``self`` attributes into ``ClassInfo.attrs``, replacing a superseded binding's
    contribution: for each binding that may be replaced, what the attribute held before the
    chain began and how many bindings of it the class had seen; the replacing one applies only
    where no other binding came in between."""

    def __init__(self) -> None:
        #: id(target) -> id(earlier target) for the ``__init__`` being walked (``superseded``)
        self.replaces: Dict[int, int] = {}
        self._before: Dict[int, Tuple[Optional[Kind], int]] = {}
        self._count: Dict[Tuple[int, str], int] = {}

    def enter_init(self, func: nodes.FunctionDef) -> None:
        found = superseded(func)
        if found:
            self.replaces.update(found)

    def bind(self, info: ClassInfo, attr: str, target: nodes.Attribute, kind: Kind) -> None:
        key = (id(info), attr)
        seen = self._count.get(key, 0)
        self._count[key] = seen + 1
        old = info.attrs.get(attr)
        before = old
        earlier = self.replaces.get(id(target)) if self.replaces else None
        if earlier is not None and earlier in self._before:
            chain_before, at = self._before[earlier]
            if at + 1 == seen:  # nothing bound it between the two
                before = chain_before
        joined = join_attr(before, kind)
        if before is not old and is_tensor(joined) and evidence(joined) == PROOF and \
                join_attr(old, kind) is not joined:
            joined = TENSOR_SIGNAL  # rests on the replacement: a signal
        info.attrs[attr] = joined
        if self.replaces:
            self._before[id(target)] = (before, seen)
