"""Narrowing by a test: what each name holds when an ``if``/``assert``/``while`` test is true
and when it is false (``isinstance(x, torch.Tensor)``, ``type(x) is list``, ``len(keep) > 0``,
``torch.is_tensor(x)``). A part of ``Inference`` (``infer.Inference``), which supplies
``lookup``, ``qualname``, ``infer`` and the configured tensor types."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from . import torch_api
from .kinds import (
    EMPTY_LIST, MODULE, MODULE_TYPES, NOT_TENSOR, TENSOR, TENSOR_SUBCLASS, TENSOR_TYPES, TENSORS,
    UNKNOWN, ClassInfo, Instance, Kind, ModuleOf, Proj, ProjectClass,
)


class Narrowing:
    """The narrowing part of the inference (mixed into ``infer.Inference``)."""

    def narrowing(self, test: nodes.BaseExpression) -> Tuple[Dict[str, Kind], Dict[str, Kind]]:
        """Names narrowed by ``test``: (when true, when false)."""
        t = type(test)
        emptied = _nonempty_test(test)
        if emptied is not None and self.lookup(emptied) is TENSORS:
            # ``if len(keep) > 0: return torch.stack(keep)``: empty afterwards
            return {}, {emptied: EMPTY_LIST}
        if t is nodes.UnaryOperation and type(test.operator) is nodes.Not:
            yes, no = self.narrowing(test.expression)
            return no, yes
        if t is nodes.BooleanOperation and type(test.operator) is nodes.And:
            ly, _ = self.narrowing(test.left)
            ry, _ = self.narrowing(test.right)
            return {**ly, **ry}, {}
        if t is nodes.BooleanOperation and type(test.operator) is nodes.Or:
            _, ln = self.narrowing(test.left)
            _, rn = self.narrowing(test.right)
            return {}, {**ln, **rn}
        if (t is nodes.Comparison and len(test.comparisons) == 1
                and type(test.comparisons[0].operator) in (nodes.Is, nodes.Equal, nodes.IsNot, nodes.NotEqual)
                and type(test.left) is nodes.Call and type(test.left.func) is nodes.Name
                and test.left.func.value == "type" and len(test.left.args) == 1
                and type(test.left.args[0].value) is nodes.Name):
            # ``type(x) is list`` / ``type(x) == torch.Tensor``
            name = test.left.args[0].value.value
            other = test.comparisons[0].comparator
            negated = type(test.comparisons[0].operator) in (nodes.IsNot, nodes.NotEqual)
            if self._is_tensor_type(other):
                yes, no = {name: TENSOR}, {}
            elif self._object_kind([other]) is not None:
                yes, no = {name: self._object_kind([other])}, {}
            elif self._is_known_type(other):
                yes, no = {name: NOT_TENSOR}, {}
            else:
                return {}, {}
            return (no, yes) if negated else (yes, no)
        if t is nodes.Call and len(test.args) >= 1 and type(test.args[0].value) is nodes.Name:
            name = test.args[0].value.value
            q = self.qualname(test.func) if type(test.func) in (nodes.Name, nodes.Attribute) else None
            if q == "torch.is_tensor" and len(test.args) == 1:
                return {name: TENSOR_SUBCLASS}, {name: NOT_TENSOR}
            if (type(test.func) is nodes.Name and test.func.value == "isinstance"
                    and self.lookup("isinstance") is None and len(test.args) == 2):
                types_expr = test.args[1].value
                members = ([e.value for e in types_expr.elements]
                           if type(types_expr) is nodes.Tuple else [types_expr])
                flags = [self._is_tensor_type(m) for m in members]
                if all(flags):  # a subclass instance passes the test too
                    return {name: TENSOR_SUBCLASS}, {name: NOT_TENSOR}
                obj = self._object_kind(members) if not any(flags) else None
                if obj is not None:
                    return {name: obj}, {}
                if not any(flags):
                    known = all(self._is_known_type(m) for m in members)
                    return ({name: NOT_TENSOR} if known else {}), {}
                return {name: UNKNOWN}, {name: NOT_TENSOR}
        return {}, {}

    def _is_tensor_type(self, node: nodes.BaseExpression) -> bool:
        q = self.qualname(node) if type(node) in (nodes.Name, nodes.Attribute) else None
        return q in TENSOR_TYPES or (q is not None and q in self.extra_tensor_types) or (
            q is None and dotted_name(node) in self.extra_tensor_types)

    def _object_kind(self, members: List[nodes.BaseExpression]) -> Optional[Kind]:
        """``isinstance(m, (nn.Conv2d, nn.Linear))``: torch layers; ``isinstance(v, Vector3)``:
        a class of this file or of the project. None when the members are anything else."""
        quals = []
        for node in members:
            q = self.qualname(node) if type(node) in (nodes.Name, nodes.Attribute) else None
            if q is None or not (torch_api.is_layer(q) or q in MODULE_TYPES):
                break
            quals.append(q)
        else:
            if quals:
                return MODULE if any(q in MODULE_TYPES for q in quals) else ModuleOf(tuple(quals))
        if len(members) == 1 and type(members[0]) in (nodes.Name, nodes.Attribute):
            k = self.infer(members[0])
            if type(k) is ClassInfo:
                return TENSOR_SUBCLASS if k.category == "tensor" else Instance(k)
            if type(k) is Proj:
                if isinstance(k.obj, ProjectClass):
                    return TENSOR_SUBCLASS if k.obj.category() == "tensor" else Instance(
                        self.class_info(k.obj))
        return None

    def _is_known_type(self, node: nodes.BaseExpression) -> bool:
        if type(node) is nodes.Name and node.value in _BUILTIN_TYPES and self.lookup(node.value) is None:
            return True
        q = self.qualname(node) if type(node) in (nodes.Name, nodes.Attribute) else None
        return q is not None and (q.startswith("numpy.") or q in _KNOWN_NON_TENSOR_TYPES)


_KNOWN_NON_TENSOR_TYPES = frozenset(
    {"torch.Size", "numbers.Number", "numbers.Real", "numbers.Integral", "numbers.Complex",
     "collections.abc.Sequence", "collections.abc.Mapping", "collections.abc.Iterable",
     "typing.Sequence", "typing.Mapping", "typing.Iterable", "typing.List", "typing.Tuple",
     "typing.Dict", "torch.nn.utils.rnn.PackedSequence", "torch.dtype", "torch.device"}
)

_BUILTIN_TYPES = frozenset(
    {"list", "tuple", "dict", "set", "str", "int", "float", "bool", "bytes", "complex",
     "frozenset", "type", "range"}
)


def _nonempty_test(test: nodes.BaseExpression) -> Optional[str]:
    """``x`` for the tests ``x``, ``len(x)``, ``len(x) > 0``, ``len(x) != 0``, ``len(x) >= 1``."""
    if type(test) is nodes.Name:
        return test.value
    call = test
    if type(test) is nodes.Comparison and len(test.comparisons) == 1:
        comp = test.comparisons[0]
        op = type(comp.operator)
        value = comp.comparator
        if not (type(value) is nodes.Integer and (
                (op in (nodes.GreaterThan, nodes.NotEqual) and value.value == "0")
                or (op is nodes.GreaterThanEqual and value.value == "1"))):
            return None
        call = test.left
    if type(call) is nodes.Call and type(call.func) is nodes.Name and call.func.value == "len" \
            and len(call.args) == 1 and type(call.args[0].value) is nodes.Name:
        return call.args[0].value.value
    return None
