"""TEN403's reads through calls that return the view they are called on: ``detach()``, a
conversion to the tensor's own dtype or device, ``view_as``, and a conversion that returns the
view itself for a tensor of torch's defaults: ``x[1:] = x[:-1].contiguous()`` (a slice of the
first dimension of a contiguous tensor is contiguous: nothing to copy), ``x[:, 1:] =
x[:, :-1].float()`` (a float32 tensor: nothing to convert). The facts are the semantic core's
(``storage.presumed_self``)."""
from __future__ import annotations

from typing import Optional

from ..semantic import regions, storage, storage_flow
from ..syntax import nodes
from ..syntax.nodes import dotted_name


#: calls that read the very elements of the view they are called on, reshaped: ``view``
#: always (or it raises), ``reshape`` where no copy is needed (``equal_lengths``)
_SAME_ELEMENTS = frozenset({"view", "reshape"})


def reshaped(src) -> bool:
    """Does the read ``src`` go through a ``reshape(...)`` call?"""
    while type(src) is nodes.Call and type(src.func) is nodes.Attribute:
        if src.func.attr.value == "reshape":
            return True
        src = src.func.value
    return False


def equal_lengths(a: regions.Region, b: regions.Region) -> bool:
    """Do two regions of one base select as many elements along each dimension (``[:, 1:]``
    and ``[:, :-1]``)? A source reshaped to broadcast onto the other then keeps its shape but
    for dimensions of one, which ``reshape`` always makes a view of: the same elements."""
    if a.tail is not None or b.tail is not None or len(a.lead) != len(b.lead):
        return False
    for x, y in zip(a.lead, b.lead):
        if (x.stop is None) != (y.stop is None) or x.step != y.step:
            return False
        if x.stop is not None and (x.start[0] != y.start[0] or x.stop[0] != y.stop[0] or
                                   x.stop[1].plus(x.start[1], -1) !=
                                   y.stop[1].plus(y.start[1], -1)):
            return False
    return True


def presumed(ctx, call, view) -> Optional[str]:
    """``storage.presumed_self`` of conversion ``call`` of basic-slice view ``view``."""
    scope = ctx.scope_node
    leading = len(view.slice) == 1 and type(view.slice[0].slice) is nodes.Slice and \
        view.slice[0].slice.step is None
    return storage.presumed_self(call, view.value, leading, ctx.inf,
                                 lambda n: storage_flow.sole_binding(scope, n, call, True))


def conversion_words(ctx, src) -> str:
    """What a read through a conversion rests on (``x[:, :-1].float()``: " when it is already
    float32"); "" for a read that is the view itself on every run."""
    inner = src
    while type(inner) is nodes.Call and type(inner.func) is nodes.Attribute:
        inner = inner.func.value
    call = src
    while type(call) is nodes.Call and type(call.func) is nodes.Attribute and \
            type(inner) is nodes.Subscript:
        words = presumed(ctx, call, inner)
        if words:
            return f" (`.{call.func.attr.value}()` returns it itself {words})"
        call = call.func.value
    return ""


def through_detach(src: nodes.BaseExpression, inference=None,
                    ctx=None) -> nodes.BaseExpression:
    """The view a read goes through: ``x[:, :-1]`` of ``x[:, :-1].detach()`` (a view of the
    same storage and region), of ``x[:, :-1].to(x.dtype)``, ``.to(x.device)`` or
    ``.type_as(x)`` (the tensor itself: nothing to convert), of ``.view_as(x[...])`` (a view of
    the same elements, shaped as another view of ``x``; with ``inference``, the walk's state,
    also of a name bound to a view of ``x``: ``.view_as(dst)`` after ``dst = x[:, 1:]``);
    with ``ctx``, also of a conversion that returns the view itself for a tensor of torch's
    defaults (``x[:-1].contiguous()``, ``x[:, :-1].float()``: ``overlap_conversions``);
    ``src`` itself otherwise."""
    if type(src) is not nodes.Call:
        return src  # (nearly every statement's value)
    calls = []
    inner = src
    while type(inner) is nodes.Call and type(inner.func) is nodes.Attribute:
        calls.append(inner)
        inner = inner.func.value
    base = dotted_name(inner.value) if type(inner) is nodes.Subscript else None
    for call in calls:
        m = call.func.attr.value
        if m == "detach" and not call.args or m in _SAME_ELEMENTS and call.args:
            continue  # (``reshape``: read as the view only where ``equal_lengths`` holds)
        if ctx is not None and base is not None and presumed(ctx, call, inner) is not None:
            continue
        arg = call.args[0] if len(call.args) == 1 and call.args[0].keyword is None and \
            not call.args[0].star else None
        if base is None or arg is None:
            return src
        if m == "to" and type(arg.value) is nodes.Attribute and \
                arg.value.attr.value in ("dtype", "device") and \
                dotted_name(arg.value.value) == base:
            continue
        if m == "type_as" and dotted_name(arg.value) == base:
            continue
        if m == "view_as" and (type(arg.value) is nodes.Subscript and
                               dotted_name(arg.value.value) == base or
                               names_view_of(inference, arg.value, base)):
            continue  # ``x[:, :-1].view_as(x[:, 1:])``: a view of the same elements
        return src
    return inner


def names_view_of(inference, node: nodes.BaseExpression, base: str) -> bool:
    """Is ``node`` a name the walk holds bound to a view of ``base`` (``dst = x[:, 1:]``)?"""
    if inference is None or type(node) is not nodes.Name:
        return False
    view = regions.view_of(inference, node.value)
    return view is not None and view.base == base
