"""Which expressions are tensors.

A small abstract interpreter over the libcst-shaped nodes of ``tree``. It never imports torch. The engine walks the tree
once, in source order, and keeps this module's binding state up to date as it goes, so every
lookup sees the *nearest earlier binding* of a name in its scope (flow-sensitive, the way the real
code taught us: ``x = torch.zeros(3); x = x.tolist(); torch.tensor(x)`` is a list).

Kinds are plain singletons or tiny classes. ``None`` means "nothing known"; ``UNKNOWN`` means "bound
to something we could not type". Only a *tensor kind* (``TENSOR`` or an ``Alias``) is ever used as
evidence by a rule.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

from ..syntax import build, nodes
from ..syntax.nodes import dotted_name, root_name
from .narrowing import Narrowing
from .scope import Bindings
from .kinds import (
    NO_GRAD, Kind, TENSOR, NOT_TENSOR, UNKNOWN, TENSORS, NAMED_TENSORS, TENSOR_DICT, PARAM_GROUPS,
    PARAM_GROUP, MODULE, MODULES, NAMED_MODULES, OPTIMIZER, FUNCTION, NONE, FREE,
    MODULE_OUT, TENSORISH, EMPTY_LIST, TENSOR_SIGNAL, TENSOR_SUBCLASS, BATCH, DATA_LOADERS, DictOf,
    loader_batches, container_item, LIST_CONTAINERS, PARAM_CONTAINERS, PARAMETER_SUBCLASSES,
    PRIVATE_RETURNS, Qual, ClassInfo, Func, ModuleOf, Proj,
    Instance, Seq, Iter, NamedTupleClass, ProjectClass,
    ProjectFunction, ProjectModule, is_tensor, is_module, TENSOR_TYPES,
    MODULE_TYPES, TENSOR_ATTRS, NON_TENSOR_ATTRS, NOT_VALUE_WRITES, is_value_write,
    SIGNAL, TENSOR_MADE, evidence, tensor_like,
)

from . import closed, storage, torch_api


_SEQ_GENERICS = frozenset(
    {"list", "List", "Sequence", "Iterable", "Iterator", "Tuple", "tuple", "MutableSequence",
     "Collection", "typing.List", "typing.Sequence", "typing.Iterable", "typing.Iterator",
     "typing.Tuple", "collections.abc.Sequence", "collections.abc.Iterable",
     "collections.abc.Iterator"}
)
_OPTIONAL_GENERICS = frozenset({"Optional", "typing.Optional"})
_UNION_GENERICS = frozenset({"Union", "typing.Union"})

_NOT_TENSOR_BUILTINS = frozenset(
    """len int float str bool range isinstance issubclass repr hash id print open dict set
    frozenset type hasattr getattr callable format ord chr bytes bytearray memoryview""".split()
)
_PASSTHROUGH_BUILTINS = frozenset({"list", "tuple", "sorted", "reversed", "iter", "set"})


class Inference(Narrowing, Bindings):
    """What an expression is (``infer``), over the binding state of ``Bindings``."""

    def function_kind(self, node: nodes.FunctionDef) -> Kind:
        """What a ``def`` binds its name to: a Func when its return annotation is known."""
        if node.returns is not None:
            ret = self.kind_of_annotation(node.returns.annotation)
            if ret is not None:
                return Func(ret)
        return FUNCTION

    def _call_shape_of(self, kind: Optional[Kind]) -> Optional[Kind]:
        """Calling a value of ``kind``: a project class/function, a torch layer or a module."""
        t = type(kind)
        if t is Proj:
            obj = kind.obj
            if isinstance(obj, ProjectClass):
                if obj.category() == "tensor":
                    return TENSOR_SUBCLASS
                return Instance(self.class_info(obj))
            if isinstance(obj, ProjectFunction):
                return self.lift(obj.returns())
            if type(obj) is NamedTupleClass:
                return NOT_TENSOR
            return UNKNOWN
        if t is ModuleOf:
            ret = torch_api.forward_return(kind.quals)
            if ret is None or ret == "?":
                return MODULE_OUT
            return _return_kind(ret)
        if t is Instance and kind.cls.is_module:
            facts = kind.cls.facts
            fwd = facts.method("forward") if facts is not None else None
            if fwd is not None:
                try:
                    return self.lift(fwd.returns()) or MODULE_OUT
                except RecursionError:
                    return MODULE_OUT
            return MODULE_OUT
        if kind is MODULE:
            return MODULE_OUT
        return None

    def kind_of_annotation(self, ann: nodes.BaseExpression) -> Optional[Kind]:
        t = type(ann)
        if t is nodes.SimpleString:
            try:
                ann = build.parse_expression(ann.evaluated_value)  # type: ignore[arg-type]
            except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError, KeyError):
                return None
            t = type(ann)
        if t is nodes.Name or t is nodes.Attribute:
            q = self.qualname(ann) or dotted_name(ann)
            if q in TENSOR_TYPES or q in self.extra_tensor_types:
                return TENSOR
            if q in MODULE_TYPES:
                return MODULE
            if q in DATA_LOADERS:
                return loader_batches(0, (), False)
            if q and torch_api.is_layer(q):
                return ModuleOf((q,))
            if q and torch_api.fields_of(q) is not None:
                return NOT_TENSOR  # PackedSequence: a named tuple whose ``data`` is a field
            kind = self.lookup(q) if q and "." not in q else self.infer(ann)
            if type(kind) is ClassInfo:
                return TENSOR_SUBCLASS if kind.category == "tensor" else Instance(kind)
            if type(kind) is Proj:
                if isinstance(kind.obj, ProjectClass):
                    return TENSOR_SUBCLASS if kind.obj.category() == "tensor" else Instance(
                        self.class_info(kind.obj))
            return None
        if t is nodes.BinaryOperation and type(ann.operator) is nodes.BitOr:
            return self._union([ann.left, ann.right])
        if t is nodes.Subscript:
            head = self.qualname(ann.value) or dotted_name(ann.value)
            elems = [e.slice.value for e in ann.slice if type(e.slice) is nodes.Index]
            if head in _OPTIONAL_GENERICS and len(elems) == 1:
                return self.kind_of_annotation(elems[0])
            if head in _UNION_GENERICS:
                return self._union(elems)
            if head in _SEQ_GENERICS and elems:
                inner = [e for e in elems if not (type(e) is nodes.Ellipsis)]
                if inner and all(is_tensor(self.kind_of_annotation(e)) for e in inner):
                    return TENSORS
        return None

    def _union(self, members: List[nodes.BaseExpression]) -> Optional[Kind]:
        kinds = []
        for m in members:
            if type(m) is nodes.Name and m.value == "None":
                continue
            kinds.append(self.kind_of_annotation(m))
        if kinds and all(is_tensor(k) for k in kinds):
            return TENSOR if all(k is TENSOR for k in kinds) else TENSOR_SUBCLASS
        return None

    # ---- the interpreter ---------------------------------------------------------------
    def infer(self, node: nodes.BaseExpression) -> Optional[Kind]:
        t = type(node)
        if t is nodes.Name:
            if node.value == "None":
                return NONE
            return self.lookup(node.value)
        if t is nodes.Attribute:
            return self._infer_attribute(node)
        if t is nodes.Call:
            kind = self._infer_call(node)
            if kind is TENSOR or closed.made(kind):
                func = node.func
                q = self.qualname(func) if type(func) in (nodes.Name, nodes.Attribute) else None
                return closed.call_kind(self, node, kind, q)
            return kind
        if t is nodes.Subscript:
            return closed.subscript_closed(self, self._infer_subscript(node), node)
        if t is nodes.BinaryOperation:
            left, right = self.infer(node.left), self.infer(node.right)
            if is_tensor(left) or is_tensor(right):
                return closed.operands_closed(self, tensor_like(left, right), node.left,
                                              node.right)
            return UNKNOWN
        if t is nodes.UnaryOperation:
            if type(node.operator) is nodes.Not:
                return NOT_TENSOR
            inner = self.infer(node.expression)
            return tensor_like(inner) if is_tensor(inner) else UNKNOWN
        if t is nodes.Comparison:
            if len(node.comparisons) == 1 and type(node.comparisons[0].operator) in (
                nodes.LessThan, nodes.GreaterThan, nodes.LessThanEqual, nodes.GreaterThanEqual,
                nodes.Equal, nodes.NotEqual,
            ) and is_tensor(self.infer(node.left)):
                return closed.operands_closed(self, tensor_like(self.infer(node.left)),
                                              node.comparisons[0].comparator)
            return NOT_TENSOR
        if t is nodes.IfExp:
            a, b = self.infer(node.body), self.infer(node.orelse)
            if is_tensor(a) and is_tensor(b):
                return tensor_like(a, b)
            return self._default_instance(node)
        if t is nodes.NamedExpr:
            return self.infer(node.value)
        if t is nodes.List and not node.elements:
            return EMPTY_LIST
        if t is nodes.List or t is nodes.Tuple:
            elems = node.elements
            if elems and all(
                type(e) is nodes.Element and is_tensor(self.infer(e.value)) for e in elems
            ):
                return TENSORS
            if t is nodes.Tuple and elems and all(type(e) is nodes.Element for e in elems):
                return Seq(tuple(self.infer(e.value) for e in elems))
            return NOT_TENSOR
        if t is nodes.ListComp or t is nodes.GeneratorExp:
            return TENSORS if is_tensor(self._infer_comp_elt(node)) else NOT_TENSOR
        if t is nodes.DictComp or t is nodes.Dict:
            return self._infer_dict(node)
        if t in _LITERALS:
            return NOT_TENSOR
        if t is nodes.BooleanOperation:
            return self._default_instance(node)
        return UNKNOWN

    def _default_instance(self, node) -> Kind:
        """``history if history is not None else History()``, ``history or History()``: the
        instance made where a name of which nothing is known (a parameter) is not given, the
        class the code expects it to be; else nothing known."""
        got = _defaulted(node)
        if got is None or self.lookup(got[0]) not in (None, UNKNOWN, FREE):
            return UNKNOWN
        kind = self.infer(got[1])
        return kind if type(kind) is Instance else UNKNOWN

    def _infer_comp_elt(self, node) -> Optional[Kind]:
        self.push("comp")
        try:
            self.bind_comp_targets(node.for_in)
            return self.infer(node.elt)
        finally:
            self.pop()

    def _infer_dict(self, node) -> Kind:
        """A dict of DataLoaders (``{x: DataLoader(...) for x in phases}``), of tensors made
        (``{"k": torch.zeros(n)}``: an item read elsewhere is a proof, ``kinds.opened``) or of
        instances of one class (``{k: AverageMeter(k) for k in names}``)."""
        if type(node) is nodes.DictComp:
            self.push("comp")
            try:
                self.bind_comp_targets(node.for_in)
                values = [self.infer(node.value)]
            finally:
                self.pop()
        else:
            values = [self.infer(e.value) for e in node.elements if type(e) is nodes.DictElement]
        if values and all(type(v) is Iter and v.elem is BATCH for v in values):
            return DictOf(values[0])
        if type(node) is nodes.Dict and values and all(v in (TENSOR, TENSOR_MADE) for v in values):
            return DictOf(TENSOR)
        if values and type(values[0]) is Instance and all(
                type(v) is Instance and v.cls is values[0].cls for v in values) and (
                len(values) == len(node.elements) if type(node) is nodes.Dict else True):
            return DictOf(values[0])  # ``{k: AverageMeter(k) for k in names}``
        return NOT_TENSOR

    def bind_comp_targets(self, comp: Optional[nodes.CompFor]) -> None:
        while comp is not None:
            self.bind_target(comp.target, self.element_kind(self.infer(comp.iter)))
            comp = comp.inner_for_in

    def _infer_attribute(self, node: nodes.Attribute) -> Optional[Kind]:
        attr = node.attr.value
        value = node.value
        if type(value) is nodes.Name or type(value) is nodes.Attribute:
            q = self.qualname(value)
            if q is not None:
                return Qual(f"{q}.{attr}")
        rk = self.infer(value)
        if is_tensor(rk):
            if attr == "data":
                alias = storage.data_alias(value, node, evidence(rk))
                return alias if alias is not None else tensor_like(rk)
            if attr in TENSOR_ATTRS:
                return tensor_like(rk)
            if attr in NON_TENSOR_ATTRS:
                return NOT_TENSOR
            return UNKNOWN
        return self.attribute_of(rk, attr)

    def attribute_of(self, rk: Optional[Kind], attr: str) -> Optional[Kind]:
        """``x.attr`` for ``x`` of kind ``rk`` (not a tensor, not a qualified name)."""
        if type(rk) is Instance:
            cls = rk.cls
            if cls.pending:
                self.later(cls, attr)
            k = cls.attrs.get(attr)
            if k is not None:
                return k
            facts = cls.facts
            if facts is not None:
                try:
                    k = self.lift(facts.attr(attr))
                except RecursionError:
                    k = None
                if k is not None:
                    return k
                meth = facts.method(attr)
                if meth is not None:
                    if not meth.is_property():
                        return UNKNOWN  # a bound method
                    try:
                        return self.lift(meth.returns()) or UNKNOWN  # what the property gives
                    except RecursionError:
                        return UNKNOWN
            if attr == "param_groups" and (cls.category == "optimizer" or cls.category is None):
                return PARAM_GROUPS
            if cls.is_module and attr in ("weight", "bias"):
                return TENSOR_SIGNAL  # a module's ``weight`` by its name only
            return UNKNOWN
        if type(rk) is ModuleOf:
            return TENSOR if torch_api.owns_tensor(rk.quals, attr) else UNKNOWN
        if rk is MODULE:
            if torch_api.is_layer_tensor_name(attr):
                return TENSOR
            return UNKNOWN
        if type(rk) is Proj:
            if isinstance(rk.obj, ProjectModule):
                try:
                    return self.lift(rk.obj.member(attr)) or UNKNOWN
                except RecursionError:
                    return UNKNOWN
            return UNKNOWN
        if attr == "param_groups":
            return PARAM_GROUPS
        if type(rk) is Qual or rk is NOT_TENSOR:
            return NOT_TENSOR if rk is NOT_TENSOR else UNKNOWN
        return UNKNOWN

    def _infer_subscript(self, node: nodes.Subscript) -> Optional[Kind]:
        rk = self.infer(node.value)
        if is_tensor(rk):
            return tensor_like(rk)
        single = node.slice[0].slice if len(node.slice) == 1 else None
        is_index = type(single) is nodes.Index
        if rk is TENSORS:
            return TENSOR if is_index else TENSORS
        if rk is TENSORISH and is_index and type(single.value) is nodes.Integer:
            return TENSOR
        if rk is TENSOR_DICT and is_index:
            return TENSOR
        if rk is PARAM_GROUPS:
            return PARAM_GROUP if is_index else PARAM_GROUPS
        if rk is PARAM_GROUP and is_index:
            key = single.value
            if type(key) is nodes.SimpleString and key.evaluated_value == "params":
                return TENSORS
            return UNKNOWN
        if type(rk) is ModuleOf and is_index:
            return container_item(rk.quals)
        if rk is BATCH and is_index:
            return TENSOR  # ``batch[0]``, ``batch["label"]`` of a default-collated batch
        if type(rk) is DictOf and is_index:
            return rk.value
        if type(rk) is Iter and is_index:
            return rk.elem  # ``xs[0]`` of a parameter annotated ``List[Tensor]``
        if type(rk) is Seq and is_index and type(single.value) is nodes.Integer:
            i = int(single.value.value, 0)
            if -len(rk.items) <= i < len(rk.items):
                return rk.items[i]
        return UNKNOWN

    def _instances_by_default(self, node: nodes.Call) -> Kind:
        """``defaultdict(AverageMeter)``: a dict of instances of that class."""
        args = node.args
        if len(args) != 1 or args[0].keyword is not None or args[0].star:
            return UNKNOWN
        cls = self.infer(args[0].value)
        made = Instance(cls) if type(cls) is ClassInfo and cls.category != "tensor" else \
            self._call_shape_of(cls) if type(cls) is Proj else None
        return DictOf(made) if type(made) is Instance else UNKNOWN

    def _infer_call(self, node: nodes.Call) -> Optional[Kind]:
        func = node.func
        ft = type(func)
        if ft is nodes.Name or ft is nodes.Attribute:
            q = self.qualname(func)
            if q is not None:
                return self._kind_of_qual_call(q, node)
        if ft is nodes.Name:
            name = func.value
            bound = self.lookup(name)
            if type(bound) is ClassInfo:
                if bound.category == "tensor":
                    return TENSOR_SUBCLASS
                return Instance(bound)
            called = self._call_shape_of(bound)
            if called is not None:
                return called
            if type(bound) is Func:
                return bound.ret
            if bound is FUNCTION and self.project is not None and \
                    self.binding_scope(name) is self.module_scope:
                fn = self.project.current_function(name)
                if fn is not None:
                    return self.lift(fn.returns()) or UNKNOWN
            if name == "getattr" and bound is None and len(node.args) >= 2:
                key = node.args[1].value
                if type(key) is nodes.SimpleString and isinstance(key.evaluated_value, str):
                    return self._getattr(node.args[0].value, key.evaluated_value)
                return UNKNOWN  # a name known only at run time: anything (not "not a tensor")
            if bound is not None:
                if name in self.extra_factories:
                    return TENSOR
                return UNKNOWN
            if name in self.extra_factories:
                return TENSOR
            if name in _NOT_TENSOR_BUILTINS:
                return NOT_TENSOR
            if name in _PASSTHROUGH_BUILTINS and len(node.args) == 1:
                inner = self.infer(node.args[0].value)
                if inner is TENSORS or inner is NAMED_TENSORS or type(inner) is Iter:
                    return inner
                if inner is TENSOR_DICT:
                    return NOT_TENSOR  # list(state_dict) -> keys
                return NOT_TENSOR if name in ("list", "tuple", "sorted", "set") else UNKNOWN
            if name == "next" and node.args:
                return self.element_kind(self.infer(node.args[0].value))
            if name == "enumerate" and node.args:
                return Iter(Seq((NOT_TENSOR, self.element_kind(self.infer(node.args[0].value)))))
            if name == "zip" and node.args:
                return Iter(Seq(tuple(
                    self.element_kind(self.infer(a.value)) for a in node.args if not a.keyword
                )))
            return None
        if ft is nodes.Attribute:
            return self._infer_method(func, node)
        return UNKNOWN

    def _getattr(self, obj: nodes.BaseExpression, attr: str) -> Optional[Kind]:
        """``getattr(obj, "name")``: the same as ``obj.name``."""
        rk = self.infer(obj)
        if is_tensor(rk):
            return tensor_like(rk) if torch_api.property_kind(attr) == "T" and attr != "grad" \
                else UNKNOWN
        return self.attribute_of(rk, attr)

    def _kind_of_qual_call(self, q: str, node: nodes.Call) -> Optional[Kind]:
        if q in self.extra_factories or q in PARAMETER_SUBCLASSES:
            return TENSOR
        if q == "collections.defaultdict":
            return self._instances_by_default(node)
        if q == "copy.deepcopy" and len(node.args) == 1 and not node.args[0].star:
            k = self.infer(node.args[0].value)  # a module's copy: a module of its class, whose
            if is_module(k):  # parameters require grad as the original's do
                return k
        if q != "torch" and not q.startswith("torch."):
            # ``torchvision``, ``torchtext``, ``torch_geometric``: other packages
            if q.startswith("numpy."):
                return NOT_TENSOR
            return MODULE if torch_api.is_model_builder(q) else UNKNOWN
        ns, _, last = q.rpartition(".")
        if q in TENSOR_TYPES or q == "torch.nn.Parameter":
            return TENSOR
        if q in DATA_LOADERS:
            return loader_batches(*_arg_shape(node), unbatched=_unbatched(node)) or UNKNOWN
        if q in PRIVATE_RETURNS:
            return _return_kind(PRIVATE_RETURNS[q])
        if q == "torch.compile" and node.args and not node.args[0].star:
            k = self.infer(node.args[0].value)  # the wrapper forwards attributes to the module
            if is_module(k):
                return k
        if ns in _TABLE_NAMESPACES:
            return _return_kind(torch_api.function_return(q, *_arg_shape(node)))
        if torch_api.is_layer(q):
            return ModuleOf((q,))
        if ns == "torch.nn" and last[:1].isupper():
            if last in ("ParameterList", "ParameterDict"):
                return UNKNOWN
            return MODULE
        if ns.startswith("torch.optim") and last[:1].isupper() and "lr_scheduler" not in ns:
            return OPTIMIZER
        if q in NO_GRAD:
            return NOT_TENSOR
        return UNKNOWN

    def _infer_method(self, func: nodes.Attribute, node: nodes.Call) -> Optional[Kind]:
        m = func.attr.value
        recv = func.value
        rk = self.infer(recv)
        if type(rk) is Instance and rk.cls.pending:
            self.later(rk.cls, m)
        if type(rk) is Instance and rk.cls.facts is not None and m not in rk.cls.attrs:
            meth = rk.cls.facts.method(m)
            if meth is not None:
                try:
                    return self.lift(meth.returns()) or UNKNOWN
                except RecursionError:
                    return UNKNOWN
        if type(rk) in (Instance, Proj, ModuleOf) or rk is MODULE:
            # ``self.fc(x)``: calling an attribute that holds a layer runs its forward
            member = self.attribute_of(rk, m)
            if type(member) is Qual and member.qual in PRIVATE_RETURNS:
                return self._kind_of_qual_call(member.qual, node)  # ``self.unflatten = ...``
            called = self._call_shape_of(member)
            if called is not None and called is not UNKNOWN:
                return called
        if m == "detach":
            # only tensors answer .detach() in practice; a named receiver makes it an alias
            alias = storage.detach_alias(recv, node, evidence(rk) if is_tensor(rk) else SIGNAL)
            if alias is not None:
                return alias
            return tensor_like(rk) if is_tensor(rk) else TENSOR_SIGNAL
        if rk is MODULE_OUT and m not in _NOT_ON_MODULE_OUTPUT and torch_api.is_tensor_method(m):
            rk = TENSOR_SIGNAL  # a module's output that answers a tensor method is a tensor
        elif (rk is None or rk is UNKNOWN or rk is FREE) and torch_api.is_tensor_only_method(m):
            rk = TENSOR_SIGNAL  # only tensors answer ``unsqueeze``, ``masked_fill``, ``gather``...
        if is_tensor(rk):
            ret = torch_api.method_return(m, *_arg_shape(node))
            if ret is not None:
                got = _return_kind(ret)
                return tensor_like(rk) if got is TENSOR else got
            if is_value_write(m) or m in NOT_VALUE_WRITES:
                return tensor_like(rk)
            return UNKNOWN
        if type(rk) is Proj:
            return UNKNOWN
        if m in ("parameters", "buffers") and not isinstance(rk, Qual):
            return TENSORS
        if m in ("named_parameters", "named_buffers") and not isinstance(rk, Qual):
            return NAMED_TENSORS
        if m == "state_dict" and rk is not OPTIMIZER and not isinstance(rk, Qual):
            name = root_name(recv) or ""
            if "optim" not in name and "sched" not in name:
                return TENSOR_DICT
        if m in ("modules", "children") and is_module(rk):
            return MODULES
        if m in ("named_modules", "named_children") and is_module(rk):
            return NAMED_MODULES
        if type(rk) is ModuleOf and all(q in PARAM_CONTAINERS for q in rk.quals):
            rk = TENSOR_DICT  # ``nn.ParameterDict``: ``.items()``, ``.values()`` of parameters
        if rk is TENSOR_DICT:
            if m == "items":
                return NAMED_TENSORS
            if m == "values":
                return TENSORS
            if m in ("get", "pop"):
                return TENSOR
            return UNKNOWN
        if is_module(rk) and m in ("cuda", "cpu", "to", "float", "half", "double", "train",
                                    "eval", "requires_grad_", "bfloat16", "type"):
            return rk
        return UNKNOWN

    def element_kind(self, kind: Optional[Kind]) -> Optional[Kind]:
        """The kind of one element when iterating over a value of ``kind``."""
        if is_tensor(kind):
            return tensor_like(kind)
        if kind is TENSORS:
            return TENSOR
        if kind is NAMED_TENSORS:
            return Seq((NOT_TENSOR, TENSOR))
        if kind is MODULES:
            return MODULE
        if kind is NAMED_MODULES:
            return Seq((NOT_TENSOR, MODULE))
        if kind is PARAM_GROUPS:
            return PARAM_GROUP
        if type(kind) is Iter:
            return kind.elem
        if kind is TENSOR_DICT:
            return NOT_TENSOR
        if type(kind) is ModuleOf and all(q in LIST_CONTAINERS for q in kind.quals):
            return container_item(kind.quals)
        return UNKNOWN

    # ---- binding -------------------------------------------------------------------------
#: methods a tuple, a dict or a model-output object may have too
_NOT_ON_MODULE_OUTPUT = frozenset({"values", "keys", "items", "get", "index", "count", "copy",
                                   "pop", "update", "to"})
_RETURN_KINDS = {"T": TENSOR, "L": TENSORS, "O": NOT_TENSOR}
_TABLE_NAMESPACES = frozenset({"torch", "torch.nn.functional", "torch.linalg", "torch.fft",
                               "torch.special", "torch.nn.init", "torch.nn.utils.rnn"})


def _defaulted(node) -> Optional[Tuple[str, nodes.BaseExpression]]:
    """(the name, its default) of ``x if x is not None else D``, ``D if x is None else x`` and
    ``x or D``; None for anything else."""
    if type(node) is nodes.BooleanOperation:
        if type(node.operator) is nodes.Or and type(node.left) is nodes.Name:
            return node.left.value, node.right
        return None
    test = node.test
    if type(test) is not nodes.Comparison or type(test.left) is not nodes.Name or \
            len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    op = type(target.operator)
    if type(target.comparator) is not nodes.Name or target.comparator.value != "None" or \
            op not in (nodes.Is, nodes.IsNot):
        return None
    given, default = (node.body, node.orelse) if op is nodes.IsNot else (node.orelse, node.body)
    name = test.left.value
    return (name, default) if type(given) is nodes.Name and given.value == name else None


def _unbatched(node: nodes.Call) -> bool:
    """``DataLoader(ds, batch_size=None)`` (or ``DataLoader(ds, None)``): no collate at all."""
    for i, a in enumerate(node.args):
        if (a.keyword is not None and a.keyword.value == "batch_size") or (
                a.keyword is None and i == 1 and not a.star):
            return type(a.value) is nodes.Name and a.value.value == "None"
    return False


def _return_kind(ret: Optional[str]) -> Optional[Kind]:
    """The Kind of a torch table return class (``T``, ``L``, ``(T,T)``, ``C:...``, ``O``)."""
    if ret is None:
        return UNKNOWN
    kind = _RETURN_KINDS.get(ret)
    if kind is not None:
        return kind
    if ret == "T|(T)":
        return TENSORISH
    if ret.startswith("("):
        return Seq(tuple(TENSOR if k == "T" else UNKNOWN for k in ret[1:-1].split(",")))
    if ret.startswith("C:"):
        return NOT_TENSOR if torch_api.fields_of(ret[2:]) is not None else UNKNOWN
    return UNKNOWN


def _arg_shape(node: nodes.Call) -> Tuple[int, List[str], bool]:
    """(positional count, keyword names, star?) of a call, for choosing torch overloads."""
    npos = 0
    kws: List[str] = []
    star = False
    for a in node.args:
        if a.star:
            star = True
        elif a.keyword is not None:
            kws.append(a.keyword.value)
        else:
            npos += 1
    return npos, kws, star


_LITERALS = (
    nodes.Integer, nodes.Float, nodes.Imaginary, nodes.SimpleString, nodes.ConcatenatedString,
    nodes.FormattedString, nodes.Dict, nodes.DictComp, nodes.Set, nodes.SetComp, nodes.Lambda, nodes.Ellipsis,
)
