"""Closed-world evidence (issue 45): which values are plain tensors that nothing outside the
scope reading them can reach around.

A value is ``TENSOR_MADE`` where it is made, in the scope that reads it, by a torch factory
(``torch.zeros(n)``: no tensor goes in) or by a torch operation (a ``torch.*`` function, a
tensor method, an operator, an index) whose every operand is itself made here or a constant: a
``Tensor`` subclass (or any object with ``__torch_function__``) among the operands would make the
result its own type, so an operand nothing is known of (a parameter, a global, an attribute)
makes the result an open-world ``TENSOR``. Names keep the kind they were bound to; a read from
another scope, an attribute's binding and a summary see ``kinds.opened`` (``scope.lookup``).
"""
from __future__ import annotations

from typing import Optional

from ..syntax import nodes
from .kinds import CLOSED, TENSOR, TENSOR_MADE, Alias, Kind, Qual, evidence, opened

#: torch functions no tensor goes into (their arguments are sizes, scalars, dtypes, devices,
#: generators): their result is a plain tensor whatever the arguments are
FACTORIES = frozenset({
    "torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.rand", "torch.randn",
    "torch.randint", "torch.arange", "torch.range", "torch.linspace", "torch.logspace",
    "torch.eye", "torch.randperm", "torch.empty_strided", "torch.tril_indices",
    "torch.triu_indices", "torch.hann_window", "torch.hamming_window", "torch.bartlett_window",
    "torch.blackman_window", "torch.kaiser_window",
})

#: torch's own ``Tensor`` subclass made from a tensor made here: its ``__torch_function__`` is
#: disabled, and its ``clone``/``detach`` are the plain tensor's
_PARAMETERS = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
#: what a constant operand is (it cannot carry ``__torch_function__``)
_CONSTANTS = (nodes.Integer, nodes.Float, nodes.Imaginary, nodes.SimpleString,
              nodes.ConcatenatedString)
_CONSTANT_NAMES = frozenset({"True", "False", "None", "Ellipsis"})
#: what a tensor made here answers that is no tensor and carries no ``__torch_function__``
_METADATA_ATTRS = frozenset({"shape", "dtype", "device", "ndim", "layout", "is_cuda"})
_METADATA_METHODS = frozenset({"size", "dim", "numel", "item", "stride", "element_size",
                               "nelement"})


def made(kind: Optional[Kind]) -> bool:
    """Is ``kind`` a value made here (a tensor, or an alias of one)?"""
    return kind is TENSOR_MADE or (type(kind) is Alias and kind.evidence == CLOSED)


def call_kind(inf, node: nodes.Call, kind: Optional[Kind], qual: Optional[str]) -> Optional[Kind]:
    """The kind of the call ``node`` that inference found to be ``kind`` (its callee's
    qualified name ``qual``), made closed-world where it is: a torch function's or a made
    tensor's method's result whose operands are all made here or constants."""
    if kind is TENSOR:
        if qual is None or not (qual.startswith("torch.") and qual.count(".") == 1 or
                                qual in _PARAMETERS or
                                qual.startswith(("torch.nn.functional.", "torch.linalg.",
                                                 "torch.fft.", "torch.special."))):
            return kind
        if qual in FACTORIES:
            for a in node.args:
                if not (operand(inf, a.value) or not _may_be_tensor(inf, a.value)):
                    return kind
            return TENSOR_MADE
        return TENSOR_MADE if _args_closed(inf, node) else kind
    if made(kind):
        func = node.func
        if type(func) is nodes.Attribute and not made(inf.infer(func.value)):
            return opened(kind)
        return kind if _args_closed(inf, node) else opened(kind)
    return kind


def operands_closed(inf, kind: Optional[Kind], *operands) -> Optional[Kind]:
    """``kind`` (made, from ``tensor_like`` over made tensors) stays made only when every
    other operand is a constant or made too: ``a + y`` with ``y`` unknown may be a subclass."""
    if not made(kind):
        return kind
    for o in operands:
        if o is not None and not operand(inf, o):
            return opened(kind)
    return kind


def subscript_closed(inf, kind: Optional[Kind], node: nodes.Subscript) -> Optional[Kind]:
    """``x[i]`` of a made ``x`` is made when every index is a constant or made."""
    if not made(kind):
        return kind
    for el in node.slice:
        s = el.slice
        parts = (s.value,) if type(s) is nodes.Index else (s.lower, s.upper, s.step)
        for p in parts:
            if p is not None and not operand(inf, p):
                return opened(kind)
    return kind


def operand(inf, node: nodes.BaseExpression) -> bool:
    """An operand that cannot make a torch operation's result another type: a constant, a
    display of constants, a torch name (``torch.float64``), a value made here, or a made
    tensor's metadata (``x.shape``, ``x.size(0)``)."""
    if _constant(inf, node):
        return True
    return made(inf.infer(node))


def _constant(inf, node: nodes.BaseExpression) -> bool:
    t = type(node)
    if t in _CONSTANTS:
        return True
    if t is nodes.Name and node.value in _CONSTANT_NAMES:
        return True
    if t is nodes.UnaryOperation:
        return _constant(inf, node.expression)
    if t is nodes.Tuple or t is nodes.List:
        return all(type(e) is nodes.Element and operand(inf, e.value) for e in node.elements)
    if t is nodes.Attribute or t is nodes.Name:
        if type(inf.infer(node)) is Qual:
            q = inf.qualname(node)
            return q is not None and q.startswith("torch.")
        if t is nodes.Attribute and node.attr.value in _METADATA_ATTRS:
            return made(inf.infer(node.value))
        return False
    if t is nodes.Call and type(node.func) is nodes.Attribute and \
            node.func.attr.value in _METADATA_METHODS:
        return made(inf.infer(node.func.value)) and all(
            _constant(inf, a.value) for a in node.args)
    return False


def _may_be_tensor(inf, node: nodes.BaseExpression) -> bool:
    """A factory's argument that may be a tensor (or carry ``__torch_function__``): anything
    inference knows as a tensor kind; a size or a scalar nothing is known of is taken as one."""
    e = evidence(inf.infer(node))
    return e not in ("open", "not")


def _args_closed(inf, node: nodes.Call) -> bool:
    return all(operand(inf, a.value) for a in node.args)


def fresh(inf, node: nodes.BaseExpression) -> bool:
    """A value no one else holds: a number, or a torch factory's result (a TEN501 accumulator
    that is neither may be a caller's tensor or a view of one)."""
    if type(node) in (nodes.Integer, nodes.Float):
        return True
    return type(node) is nodes.Call and type(node.func) in (nodes.Name, nodes.Attribute) and \
        inf.qualname(node.func) in FACTORIES
