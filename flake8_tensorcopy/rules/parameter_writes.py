"""Where code writes a module's parameters in place, for TEN402's change points
(``snapshot_flow.change_point``): an in-place method of one of its parameters, of the name a
loop over its parameters binds (``loop_parameters``), an ``nn.init`` function of one, its
``reset_parameters()``. Split from ``rules/snapshot_flow.py``."""
from __future__ import annotations

from typing import Optional, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name


#: in-place methods that change no value (``requires_grad_``, ``share_memory_``...)
_NOT_WRITES = frozenset({"requires_grad_", "share_memory_", "retain_grad", "zero_grad",
                         "register_hook", "pin_memory"})


def writes_parameter(call, receiver: str, loop) -> Optional[str]:
    """Does ``call`` write a parameter of the module ``receiver`` in place: an in-place tensor
    method (``mul_``, ``copy_``...) of ``receiver.fc.weight`` (``.data`` too) or of the loop's
    target over ``receiver.parameters()`` / ``named_parameters()``, an ``nn.init`` function of
    one, or ``receiver.reset_parameters()``? Why, else None."""
    if not receiver:
        return None
    func = call.func
    if type(func) is not nodes.Attribute:
        return None
    m = func.attr.value
    if m == "reset_parameters" and _part_of(func.value, receiver) and not call.args:
        return f"it re-initialises `{receiver}`'s parameters"
    if m.endswith("_") and not m.startswith("_") and m not in _NOT_WRITES:
        if _part_of(func.value, receiver) or any(
                _part_of(func.value, m) for m in loop_modules(loop, receiver)) or \
                dotted_name(func.value) in loop_parameters(loop, receiver) or (
                    type(func.value) is nodes.Attribute and func.value.attr.value == "data" and
                    dotted_name(func.value.value) in loop_parameters(loop, receiver)):
            return f"it writes `{receiver}`'s parameters in place"
        first = call.args[0].value if call.args and call.args[0].keyword is None else None
        if (dotted_name(func.value) or "").endswith("init") and first is not None and \
                _part_of(first, receiver):
            return f"it writes `{receiver}`'s parameters in place"  # ``nn.init.zeros_(m.w)``
    return None


def _part_of(node, receiver: str) -> bool:
    """Is ``node`` an attribute or item of the module named ``receiver`` (``model.fc.weight``,
    ``model[-1]``, ``model.fc.weight.data``), not ``receiver`` itself?"""
    if type(node) not in (nodes.Attribute, nodes.Subscript):
        return False
    while type(node) in (nodes.Attribute, nodes.Subscript):
        node = node.value
    return type(node) is nodes.Name and node.value == receiver


def loop_parameters(loop, receiver: str) -> Tuple[str, ...]:
    """The names ``for p in receiver.parameters():`` (``for n, p in ...named_parameters()``,
    ``for p, g in zip(receiver.parameters(), grads)``) binds to each parameter, for the loop
    the scan is in."""
    if type(loop) is not nodes.For or type(loop.iter) is not nodes.Call:
        return ()
    it, target = loop.iter, loop.target
    if dotted_name(it.func) == "zip" and type(target) is nodes.Tuple and \
            len(target.elements) == len(it.args):
        return tuple(name for a, e in zip(it.args, target.elements) if not a.star
                     for name in _parameter_target(a.value, e.value, receiver))
    return _parameter_target(it, target, receiver)


def _parameter_target(it, target, receiver: str) -> Tuple[str, ...]:
    if type(it) is not nodes.Call or type(it.func) is not nodes.Attribute or \
            dotted_name(it.func.value) != receiver or \
            it.func.attr.value not in ("parameters", "named_parameters"):
        return ()
    if it.func.attr.value == "named_parameters":
        if type(target) is not nodes.Tuple or len(target.elements) != 2:
            return ()
        target = target.elements[1].value
    return (target.value,) if type(target) is nodes.Name else ()


#: a module's calls that iterate its submodules (``for m in model.modules():``)
_SUBMODULES = frozenset({"modules", "children", "named_modules", "named_children"})


def loop_modules(loop, receiver: str) -> Tuple[str, ...]:
    """The name ``for m in receiver:`` (``receiver.modules()``, ``for n, m in
    receiver.named_modules()``) binds to each submodule, for the loop the scan is in: an
    in-place write of ``m.weight`` writes ``receiver``'s parameters."""
    if type(loop) is not nodes.For:
        return ()
    it, target = loop.iter, loop.target
    if type(it) is nodes.Call and type(it.func) is nodes.Attribute and not it.args and \
            it.func.attr.value in _SUBMODULES and dotted_name(it.func.value) == receiver:
        if it.func.attr.value.startswith("named_"):
            if type(target) is not nodes.Tuple or len(target.elements) != 2:
                return ()
            target = target.elements[1].value
    elif dotted_name(it) != receiver:
        return ()
    return (target.value,) if type(target) is nodes.Name else ()
