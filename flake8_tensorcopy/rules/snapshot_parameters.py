"""TEN402's single parameters: a name bound to one parameter of a module or to a view of it
(``head_w0 = model[-1].weight.reshape(-1)``, ``w0 = model.fc.weight.detach()``, ``b0 =
torch.as_tensor(net.fc.bias)``), read after a point where the module can change in an
expression that measures it against that same parameter (``(model[-1].weight.reshape(-1) -
head_w0).norm()``, ``torch.equal(model.fc.weight, w0)``). The name holds the parameter's own
storage, so the measure is zero however the module was trained: no correct program means that.
"""
from __future__ import annotations

import re
from typing import Optional, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..semantic.statedicts import storage_root
from ..syntax.snapshot_shapes import PARAMETER_ATTRS

#: where ``storage_root`` may share a module's parameter's storage: on every device, dtype and
#: layout, or on those a parameter has (contiguous, float32 unless the code makes it another)
_ON_EVERY_PARAMETER = frozenset({"", "for contiguous tensors", "for float32 tensors"})
#: calls that measure two tensors against each other, besides ``a - b`` and ``a == b``
_MEASURES = frozenset({"torch.equal", "torch.allclose", "torch.isclose", "torch.dist",
                       "torch.ne", "torch.eq", "torch.sub", "torch.nn.functional.mse_loss",
                       "torch.nn.functional.l1_loss", "torch.nn.functional.cosine_similarity"})


def kept_parameter(value) -> Optional[nodes.Attribute]:
    """The parameter (``X.weight``, ``X.bias``) whose storage ``value`` holds on a module's
    contiguous float32 tensors: the attribute itself, or read through the conversions and views
    of ``statedicts.storage_root`` (``.detach()``, ``.data``, ``.reshape(-1)``, ``.T``,
    ``torch.as_tensor(p)``); None for anything else (``.clone()``, ``.to(torch.float64)``,
    ``.cpu()``: a copy from a GPU)."""
    found = storage_root(value)
    if found is None or found[1] not in _ON_EVERY_PARAMETER:
        return None
    node = found[0]
    return node if type(node) is nodes.Attribute and node.attr.value in PARAMETER_ATTRS and \
        type(node.value) in (nodes.Name, nodes.Attribute, nodes.Subscript) else None


def module_of(param: nodes.Attribute) -> str:
    """The module a parameter belongs to, as the change points read it: ``model`` of
    ``model[-1].weight``, ``self.net.fc`` of ``self.net.fc.weight``."""
    node = param.value
    while type(node) is nodes.Subscript:
        node = node.value
    return dotted_name(node) or ""


def measured_against(ctx, scope, name: str, spelled: str) -> Optional[nodes.CSTNode]:
    """An expression of ``scope`` (not of a nested one) that measures ``name`` against the
    parameter spelled ``spelled`` (``spelled - name``, ``name != spelled.view(-1)``,
    ``torch.equal(spelled, name)``): the operand that reads ``name``, else None."""
    body = getattr(scope, "body", None)
    same = re.compile(r"(?<![\w.])" + re.escape(spelled) + r"(?!\w)")  # not ``weight_orig``
    for n in nodes.within(body, (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)):
        t = type(n)
        if t is nodes.BinaryOperation and type(n.operator) is nodes.Subtract:
            pair = (n.left, n.right)
        elif t is nodes.Comparison and len(n.comparisons) == 1:
            pair = (n.left, n.comparisons[0].comparator)
        elif t is nodes.Call and len(n.args) >= 2 and not any(a.star for a in n.args[:2]) and \
                ctx.inf.qualname(n.func) in _MEASURES:
            pair = (n.args[0].value, n.args[1].value)
        else:
            continue
        for mine, other in (pair, pair[::-1]):
            if type(mine) is nodes.Name and mine.value == name and \
                    same.search(ctx.snippet(other, 10_000)):
                return mine
    return None


def parameter_kept(ctx, bind, name: str, value) -> Optional[Tuple[str, str]]:
    """(the change, the parameter's spelling) where ``name = value`` (``bind``) keeps one of a
    module's parameters that is measured against itself after a point where the module can
    change; else None."""
    from .snapshot_flow import read_after_change

    param = kept_parameter(value)
    if param is None:
        return None
    spelled = ctx.snippet(param, 10_000)
    if measured_against(ctx, ctx.scope_node, name, spelled) is None:
        return None
    found = read_after_change(ctx, bind, name, module_of(param))
    return (found[0], spelled) if found is not None else None
