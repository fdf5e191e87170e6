"""Which expressions are tensors.

A small abstract interpreter over libcst nodes. It never imports torch. The engine walks the tree
once, in source order, and keeps this module's binding state up to date as it goes, so every
lookup sees the *nearest earlier binding* of a name in its scope (flow-sensitive, the way the real
code taught us: ``x = torch.zeros(3); x = x.tolist(); torch.tensor(x)`` is a list).

Kinds are plain singletons or tiny classes. ``None`` means "nothing known"; ``UNKNOWN`` means "bound
to something we could not type". Only a *tensor kind* (``TENSOR`` or an ``Alias``) is ever used as
evidence by a rule.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Tuple

import libcst as cst


class Kind:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return self.name


TENSOR = Kind("tensor")
NOT_TENSOR = Kind("not-tensor")
UNKNOWN = Kind("unknown")
TENSORS = Kind("tensors")  # list / iterable of tensors
NAMED_TENSORS = Kind("named-tensors")  # iterable of (name, tensor)
TENSOR_DICT = Kind("tensor-dict")  # state_dict(): name -> tensor
PARAM_GROUPS = Kind("param-groups")
PARAM_GROUP = Kind("param-group")
MODULE = Kind("module")
MODULES = Kind("modules")
NAMED_MODULES = Kind("named-modules")
OPTIMIZER = Kind("optimizer")
FUNCTION = Kind("function")
NONE = Kind("none")  # the ``None`` literal: merged with a tensor, a tensor remains
#: a function parameter with no annotation: shadows outer names, but nothing is known of it
FREE = Kind("free")


class Alias(Kind):
    """A tensor that shares memory with another: ``x.detach()`` or ``x.data`` of a named ``x``."""

    __slots__ = ("source", "via", "node", "node_value")

    def __init__(self, source: str, via: str, node: Optional[cst.BaseExpression] = None,
                 node_value: Optional[cst.BaseExpression] = None) -> None:
        super().__init__("alias")
        self.source = source  # the aliased expression's code (``x``, ``self.w``)
        self.via = via  # "detach" or "data"
        self.node = node  # the ``x.detach()`` / ``x.data`` expression
        self.node_value = node_value  # its ``x``


class Qual(Kind):
    """A module, function or class known by its qualified name (``torch.nn.functional``).

    ``runtime`` is False for a name imported only under ``if TYPE_CHECKING:``: it names the
    thing for annotations but is not bound when the code runs.
    """

    __slots__ = ("qual", "runtime")

    def __init__(self, qual: str, runtime: bool = True) -> None:
        super().__init__("qual")
        self.qual = qual
        self.runtime = runtime


class ClassInfo(Kind):
    __slots__ = ("cls_name", "is_module", "attrs", "data_property")

    def __init__(self, cls_name: str, is_module: bool) -> None:
        super().__init__("class")
        self.cls_name = cls_name
        self.is_module = is_module
        self.attrs: Dict[str, Kind] = {}
        self.data_property = False


class Instance(Kind):
    __slots__ = ("cls",)

    def __init__(self, cls: ClassInfo) -> None:
        super().__init__("instance")
        self.cls = cls


class Seq(Kind):
    """A fixed-shape tuple of kinds (from ``enumerate``/``zip``/``.items()`` elements)."""

    __slots__ = ("items",)

    def __init__(self, items: Tuple[Optional[Kind], ...]) -> None:
        super().__init__("seq")
        self.items = items


class Iter(Kind):
    """An iterable whose elements have a known kind."""

    __slots__ = ("elem",)

    def __init__(self, elem: Optional[Kind]) -> None:
        super().__init__("iter")
        self.elem = elem


def is_tensor(kind: Optional[Kind]) -> bool:
    return kind is TENSOR or type(kind) is Alias


def is_module(kind: Optional[Kind]) -> bool:
    return kind is MODULE or (type(kind) is Instance and kind.cls.is_module)


# --- what torch names mean ---------------------------------------------------------------

TENSOR_TYPES = frozenset(
    {
        "torch.Tensor",
        "torch.nn.Parameter",
        "torch.nn.parameter.Parameter",
        "torch.nn.Buffer",
        "torch.nn.parameter.Buffer",
        "torch.FloatTensor",
        "torch.DoubleTensor",
        "torch.HalfTensor",
        "torch.BFloat16Tensor",
        "torch.LongTensor",
        "torch.IntTensor",
        "torch.ShortTensor",
        "torch.ByteTensor",
        "torch.CharTensor",
        "torch.BoolTensor",
        "torch.cuda.FloatTensor",
        "torch.cuda.DoubleTensor",
        "torch.cuda.HalfTensor",
        "torch.cuda.LongTensor",
        "torch.cuda.IntTensor",
        "torch.cuda.ByteTensor",
        "torch.cuda.BoolTensor",
        "torch.autograd.Variable",
    }
)
#: legacy typed constructors, all of which alias a tensor argument (TEN203)
LEGACY_CONSTRUCTORS = frozenset(q for q in TENSOR_TYPES if q.endswith("Tensor"))

MODULE_TYPES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})

_SEQ_GENERICS = frozenset(
    {"list", "List", "Sequence", "Iterable", "Iterator", "Tuple", "tuple", "MutableSequence",
     "Collection", "typing.List", "typing.Sequence", "typing.Iterable", "typing.Iterator",
     "typing.Tuple", "collections.abc.Sequence", "collections.abc.Iterable",
     "collections.abc.Iterator"}
)
_OPTIONAL_GENERICS = frozenset({"Optional", "typing.Optional"})
_UNION_GENERICS = frozenset({"Union", "typing.Union"})

# torch.* functions that return one tensor (creation, math, reductions without ``dim``-tuples).
_TORCH_TENSOR_FUNCS = frozenset(
    """tensor as_tensor asarray from_numpy zeros ones empty full rand randn randint randperm arange
    range linspace logspace eye zeros_like ones_like empty_like full_like rand_like randn_like
    randint_like empty_strided stack cat concat concatenate hstack vstack dstack column_stack
    matmul mm bmm mv dot einsum exp log log2 log10 log1p expm1 sqrt rsqrt abs sum mean nansum
    nanmean clamp clip sigmoid tanh relu softmax log_softmax where gather index_select
    masked_select masked_fill flatten reshape transpose permute squeeze unsqueeze clone detach
    cumsum cumprod norm dist cdist outer diag diagonal tril triu normal bernoulli multinomial
    tensordot kron roll flip fliplr flipud rot90 repeat_interleave tile bucketize searchsorted
    diff lerp maximum minimum fmax fmin add sub subtract mul multiply div divide true_divide
    floor_divide pow neg negative sign sgn round floor ceil trunc frac fmod remainder logsumexp
    prod std var square erf erfc erfinv sin cos tan asin acos atan atan2 sinh cosh asinh acosh
    atanh addmm addbmm baddbmm addcmul addcdiv bincount argmax argmin argsort count_nonzero isnan
    isinf isfinite isclose logical_and logical_or logical_not logical_xor bitwise_and bitwise_or
    bitwise_xor bitwise_not eq ne lt gt le ge nan_to_num complex real imag view_as_real
    view_as_complex polar broadcast_to narrow select take take_along_dim scatter scatter_add
    scatter_reduce index_add index_copy index_fill index_put cross cholesky inverse det logdet
    pinverse trace t conj resolve_conj resolve_neg sort_ msort heaviside hypot reciprocal
    sigmoid_ softplus celu selu rrelu hardshrink threshold dropout feature_dropout alpha_dropout
    poisson cov corrcoef histc vander block_diag cartesian_prod combinations tril_indices
    triu_indices movedim moveaxis swapaxes swapdims chain_matmul addmv addr ger inner
    nonzero_static flatten_ unflatten ravel""".split()
)
_FUNCTIONAL_TENSOR_FUNCS = frozenset(
    """relu relu6 gelu silu elu selu celu leaky_relu prelu rrelu glu mish hardswish hardsigmoid
    hardtanh softplus softsign softmin softmax log_softmax sigmoid tanh logsigmoid linear bilinear
    conv1d conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d dropout dropout1d
    dropout2d dropout3d alpha_dropout layer_norm batch_norm group_norm instance_norm rms_norm
    local_response_norm normalize pad interpolate upsample embedding embedding_bag one_hot
    mse_loss cross_entropy nll_loss l1_loss smooth_l1_loss huber_loss binary_cross_entropy
    binary_cross_entropy_with_logits kl_div cosine_similarity pairwise_distance pdist avg_pool1d
    avg_pool2d avg_pool3d adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d grid_sample
    affine_grid unfold fold scaled_dot_product_attention gumbel_softmax pixel_shuffle
    pixel_unshuffle cosine_embedding_loss margin_ranking_loss triplet_margin_loss
    poisson_nll_loss gaussian_nll_loss soft_margin_loss multilabel_soft_margin_loss
    hinge_embedding_loss ctc_loss threshold softshrink tanhshrink hardshrink""".split()
)
_TENSOR_NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.fft", "torch.special")

# Tensor members.
TENSOR_ATTRS = frozenset({"data", "grad", "T", "mT", "H", "mH", "real", "imag"})
NON_TENSOR_ATTRS = frozenset(
    """shape dtype device ndim requires_grad is_leaf grad_fn is_cuda is_sparse is_quantized
    is_meta layout names itemsize nbytes _version output_nr""".split()
)
#: methods of a tensor that return a tensor (besides every public in-place ``*_`` method)
TENSOR_METHODS = frozenset(
    """clone detach to cpu cuda float double half bfloat16 long int short bool byte char
    contiguous view view_as reshape reshape_as t transpose permute squeeze unsqueeze flatten
    unflatten expand expand_as repeat repeat_interleave add sub mul div true_divide floor_divide
    pow abs exp log log1p sqrt rsqrt clamp clip sum mean norm std var prod softmax log_softmax
    sigmoid tanh relu matmul mm bmm mv masked_fill index_select gather scatter scatter_add
    type_as new_zeros new_ones new_empty new_full new_tensor narrow select cumsum cumprod flip
    roll neg sign round floor ceil trunc argmax argmin argsort eq ne lt gt le ge logical_not
    logical_and logical_or any all masked_select pin_memory lerp addcmul addcdiv reciprocal
    sin cos tan diff tril triu diag diagonal outer unfold where fmod remainder maximum minimum
    conj resolve_conj resolve_neg nan_to_num square cpu_ sigmoid float_power amax amin logsumexp
    movedim moveaxis swapaxes isnan isinf isfinite nonzero sort_ to_dense to_sparse coalesce
    numpy_ slice_scatter select_scatter index_add index_fill index_copy index_put""".split()
)
NON_TENSOR_METHODS = frozenset(
    """item tolist numpy size dim numel nelement stride data_ptr element_size is_contiguous
    is_floating_point is_complex is_signed equal allclose storage untyped_storage storage_offset
    get_device dim_order __len__ __repr__""".split()
)
#: in-place methods that change a tensor's values (what TEN102/TEN401 look for)
NOT_VALUE_WRITES = frozenset(
    {"requires_grad_", "share_memory_", "detach_", "rename_", "retain_grad", "record_stream",
     "set_", "resize_", "resize_as_", "names_", "pin_memory_", "untyped_storage_"}
)


def is_value_write(method: str) -> bool:
    return (
        len(method) > 1
        and method.endswith("_")
        and not method.startswith("_")
        and method not in NOT_VALUE_WRITES
    )


_NOT_TENSOR_BUILTINS = frozenset(
    """len int float str bool range isinstance issubclass repr hash id print open dict set
    frozenset type hasattr getattr callable format ord chr bytes bytearray memoryview""".split()
)
_PASSTHROUGH_BUILTINS = frozenset({"list", "tuple", "sorted", "reversed", "iter", "set"})
_NO_GRAD = frozenset(
    {"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad",
     "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode"}
)


def dotted_name(node: cst.BaseExpression) -> Optional[str]:
    """``a.b.c`` for a Name/Attribute chain, else None (iterative: chains can be very long)."""
    parts: List[str] = []
    while type(node) is cst.Attribute:
        parts.append(node.attr.value)
        node = node.value
    if type(node) is not cst.Name:
        return None
    parts.append(node.value)
    parts.reverse()
    return ".".join(parts)


def root_name(node: cst.BaseExpression) -> Optional[str]:
    while True:
        t = type(node)
        if t is cst.Attribute or t is cst.Subscript:
            node = node.value
        elif t is cst.Call:
            node = node.func
        elif t is cst.Name:
            return node.value
        else:
            return None


def last_name(node: cst.BaseExpression) -> Optional[str]:
    t = type(node)
    if t is cst.Name:
        return node.value
    if t is cst.Attribute:
        return node.attr.value
    return None


class Scope:
    __slots__ = ("kind", "names", "parent", "cls", "no_grad")

    def __init__(self, kind: str, parent: Optional["Scope"], cls: Optional[ClassInfo] = None,
                 no_grad: bool = False) -> None:
        self.kind = kind  # module | function | class | comp
        self.names: Dict[str, Kind] = {}
        self.parent = parent
        self.cls = cls  # for a method's function scope: the class it belongs to
        self.no_grad = no_grad


class Inference:
    """Binding state plus the ``infer`` function. Driven by the engine's walk."""

    def __init__(self, extra_tensor_names: Iterable[str] = (),
                 extra_tensor_factories: Iterable[str] = ()) -> None:
        self.scope = Scope("module", None)
        self.module_scope = self.scope
        self.imports_torch = False
        #: > 0 while the walk is inside an ``if TYPE_CHECKING:`` body
        self.type_checking = 0
        self.extra_tensor_types = frozenset(extra_tensor_names)
        self.extra_factories = frozenset(extra_tensor_factories)
        self._self_names: Dict[int, Tuple[str, ClassInfo]] = {}

    # ---- scopes ------------------------------------------------------------------------
    def push(self, kind: str, cls: Optional[ClassInfo] = None, no_grad: bool = False) -> None:
        self.scope = Scope(kind, self.scope, cls, no_grad)

    def pop(self) -> None:
        self.scope = self.scope.parent  # type: ignore[assignment]

    def lookup(self, name: str) -> Optional[Kind]:
        scope: Optional[Scope] = self.scope
        first = True
        while scope is not None:
            if first or scope.kind != "class":
                k = scope.names.get(name)
                if k is not None:
                    return k
            first = False
            scope = scope.parent
        return None

    def set(self, name: str, kind: Optional[Kind]) -> None:
        self.scope.names[name] = kind if kind is not None else UNKNOWN

    @property
    def in_no_grad(self) -> bool:
        scope: Optional[Scope] = self.scope
        while scope is not None and scope.kind in ("comp",):
            scope = scope.parent
        return bool(scope and scope.no_grad)

    # ---- names of things ---------------------------------------------------------------
    def qualname(self, node: cst.BaseExpression) -> Optional[str]:
        """Fully qualified name of an imported module/function/class, through import aliases."""
        parts: List[str] = []
        while type(node) is cst.Attribute:
            parts.append(node.attr.value)
            node = node.value
        if type(node) is not cst.Name:
            return None
        kind = self.lookup(node.value)
        if type(kind) is not Qual:
            return None
        parts.append(kind.qual)
        parts.reverse()
        return ".".join(parts)

    def torch_alias(self) -> Optional[str]:
        """The name bound to the ``torch`` package at run time at this point of the walk (``th``
        for ``import torch as th``): visible from the current scope, not shadowed there, and not
        imported only under ``if TYPE_CHECKING:``. None if there is none."""
        best = None
        scope: Optional[Scope] = self.scope
        first = True
        while scope is not None:
            if first or scope.kind != "class":
                for name, kind in scope.names.items():
                    if type(kind) is Qual and kind.qual == "torch" and kind.runtime \
                            and self.lookup(name) is kind:
                        if name == "torch":
                            return name
                        best = best or name
            first = False
            scope = scope.parent
        return best

    # ---- imports -----------------------------------------------------------------------
    def bind_import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = dotted_name(alias.name) or ""
            if full == "torch" or full.startswith("torch."):
                self.imports_torch = True
            runtime = not self.type_checking
            if alias.asname is not None and type(alias.asname.name) is cst.Name:
                self.set(alias.asname.name.value, Qual(full, runtime))
            else:
                top = full.split(".", 1)[0]
                self.set(top, Qual(top, runtime))

    def bind_import_from(self, node: cst.ImportFrom) -> None:
        if node.relative:
            base = None
        else:
            base = dotted_name(node.module) if node.module is not None else None
        if base and (base == "torch" or base.startswith("torch.")):
            self.imports_torch = True
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            bound = alias.asname.name.value if (
                alias.asname is not None and type(alias.asname.name) is cst.Name) else name
            if not bound:
                continue
            self.set(bound, Qual(f"{base}.{name}", not self.type_checking) if base else UNKNOWN)

    # ---- annotations -------------------------------------------------------------------
    def kind_of_annotation(self, ann: cst.BaseExpression) -> Optional[Kind]:
        t = type(ann)
        if t is cst.SimpleString:
            try:
                ann = cst.parse_expression(ann.evaluated_value)  # type: ignore[arg-type]
            except Exception:
                return None
            t = type(ann)
        if t is cst.Name or t is cst.Attribute:
            q = self.qualname(ann) or dotted_name(ann)
            if q in TENSOR_TYPES or q in self.extra_tensor_types:
                return TENSOR
            if q in MODULE_TYPES:
                return MODULE
            kind = self.lookup(q) if q and "." not in q else None
            if type(kind) is ClassInfo:
                return Instance(kind)
            return None
        if t is cst.BinaryOperation and type(ann.operator) is cst.BitOr:
            return self._union([ann.left, ann.right])
        if t is cst.Subscript:
            head = self.qualname(ann.value) or dotted_name(ann.value)
            elems = [e.slice.value for e in ann.slice if type(e.slice) is cst.Index]
            if head in _OPTIONAL_GENERICS and len(elems) == 1:
                return self.kind_of_annotation(elems[0])
            if head in _UNION_GENERICS:
                return self._union(elems)
            if head in _SEQ_GENERICS and elems:
                inner = [e for e in elems if not (type(e) is cst.Ellipsis)]
                if inner and all(is_tensor(self.kind_of_annotation(e)) for e in inner):
                    return TENSORS
        return None

    def _union(self, members: List[cst.BaseExpression]) -> Optional[Kind]:
        kinds = []
        for m in members:
            if type(m) is cst.Name and m.value == "None":
                continue
            kinds.append(self.kind_of_annotation(m))
        if kinds and all(is_tensor(k) for k in kinds):
            return TENSOR
        return None

    # ---- the interpreter ---------------------------------------------------------------
    def infer(self, node: cst.BaseExpression) -> Optional[Kind]:
        t = type(node)
        if t is cst.Name:
            if node.value == "None":
                return NONE
            return self.lookup(node.value)
        if t is cst.Attribute:
            return self._infer_attribute(node)
        if t is cst.Call:
            return self._infer_call(node)
        if t is cst.Subscript:
            return self._infer_subscript(node)
        if t is cst.BinaryOperation:
            if is_tensor(self.infer(node.left)) or is_tensor(self.infer(node.right)):
                return TENSOR
            return UNKNOWN
        if t is cst.UnaryOperation:
            if type(node.operator) is cst.Not:
                return NOT_TENSOR
            return TENSOR if is_tensor(self.infer(node.expression)) else UNKNOWN
        if t is cst.Comparison:
            if len(node.comparisons) == 1 and type(node.comparisons[0].operator) in (
                cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual,
                cst.Equal, cst.NotEqual,
            ) and is_tensor(self.infer(node.left)):
                return TENSOR
            return NOT_TENSOR
        if t is cst.IfExp:
            a, b = self.infer(node.body), self.infer(node.orelse)
            return TENSOR if is_tensor(a) and is_tensor(b) else UNKNOWN
        if t is cst.NamedExpr:
            return self.infer(node.value)
        if t is cst.List or t is cst.Tuple:
            elems = node.elements
            if elems and all(
                type(e) is cst.Element and is_tensor(self.infer(e.value)) for e in elems
            ):
                return TENSORS
            if t is cst.Tuple and elems and all(type(e) is cst.Element for e in elems):
                return Seq(tuple(self.infer(e.value) for e in elems))
            return NOT_TENSOR
        if t is cst.ListComp or t is cst.GeneratorExp:
            return TENSORS if is_tensor(self._infer_comp_elt(node)) else NOT_TENSOR
        if t in _LITERALS:
            return NOT_TENSOR
        return UNKNOWN

    def _infer_comp_elt(self, node) -> Optional[Kind]:
        self.push("comp")
        try:
            self.bind_comp_targets(node.for_in)
            return self.infer(node.elt)
        finally:
            self.pop()

    def bind_comp_targets(self, comp: Optional[cst.CompFor]) -> None:
        while comp is not None:
            self.bind_target(comp.target, self.element_kind(self.infer(comp.iter)))
            comp = comp.inner_for_in

    def _infer_attribute(self, node: cst.Attribute) -> Optional[Kind]:
        attr = node.attr.value
        value = node.value
        if type(value) is cst.Name or type(value) is cst.Attribute:
            q = self.qualname(value)
            if q is not None:
                return Qual(f"{q}.{attr}")
        rk = self.infer(value)
        if is_tensor(rk):
            if attr == "data":
                src = dotted_name(value)
                if type(value) in (cst.Name, cst.Attribute) and src is not None:
                    return Alias(src, "data", node, value)
                return TENSOR
            if attr in TENSOR_ATTRS:
                return TENSOR
            if attr in NON_TENSOR_ATTRS:
                return NOT_TENSOR
            return UNKNOWN
        if type(rk) is Instance:
            k = rk.cls.attrs.get(attr)
            if k is not None:
                return k
            if rk.cls.is_module and attr in ("weight", "bias"):
                return TENSOR
            return UNKNOWN
        if rk is MODULE:
            if attr in ("weight", "bias", "running_mean", "running_var", "in_proj_weight",
                        "in_proj_bias"):
                return TENSOR
            return UNKNOWN
        if attr == "param_groups":
            return PARAM_GROUPS
        if type(rk) is Qual or rk is NOT_TENSOR:
            return NOT_TENSOR if rk is NOT_TENSOR else UNKNOWN
        return UNKNOWN

    def _infer_subscript(self, node: cst.Subscript) -> Optional[Kind]:
        rk = self.infer(node.value)
        if is_tensor(rk):
            return TENSOR
        single = node.slice[0].slice if len(node.slice) == 1 else None
        is_index = type(single) is cst.Index
        if rk is TENSORS:
            return TENSOR if is_index else TENSORS
        if rk is TENSOR_DICT and is_index:
            return TENSOR
        if rk is PARAM_GROUPS:
            return PARAM_GROUP if is_index else PARAM_GROUPS
        if rk is PARAM_GROUP and is_index:
            key = single.value
            if type(key) is cst.SimpleString and key.evaluated_value == "params":
                return TENSORS
            return UNKNOWN
        if type(rk) is Seq and is_index and type(single.value) is cst.Integer:
            i = int(single.value.value, 0)
            if -len(rk.items) <= i < len(rk.items):
                return rk.items[i]
        return UNKNOWN

    def _infer_call(self, node: cst.Call) -> Optional[Kind]:
        func = node.func
        ft = type(func)
        if ft is cst.Name or ft is cst.Attribute:
            q = self.qualname(func)
            if q is not None:
                return self._kind_of_qual_call(q, node)
        if ft is cst.Name:
            name = func.value
            bound = self.lookup(name)
            if type(bound) is ClassInfo:
                return Instance(bound)
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
            if name == "enumerate" and node.args:
                return Iter(Seq((NOT_TENSOR, self.element_kind(self.infer(node.args[0].value)))))
            if name == "zip" and node.args:
                return Iter(Seq(tuple(
                    self.element_kind(self.infer(a.value)) for a in node.args if not a.keyword
                )))
            return None
        if ft is cst.Attribute:
            return self._infer_method(func, node)
        return UNKNOWN

    def _kind_of_qual_call(self, q: str, node: cst.Call) -> Optional[Kind]:
        if q in self.extra_factories:
            return TENSOR
        if not q.startswith("torch"):
            if q.startswith("numpy."):
                return NOT_TENSOR
            return UNKNOWN
        ns, _, last = q.rpartition(".")
        if q in TENSOR_TYPES or q == "torch.nn.Parameter":
            return TENSOR
        if ns in _TENSOR_NAMESPACES and (
            last in _TORCH_TENSOR_FUNCS or (ns == "torch.nn.functional"
                                           and last in _FUNCTIONAL_TENSOR_FUNCS)
            or ns in ("torch.linalg", "torch.fft", "torch.special") and last in _LINALG_SAFE
        ):
            if last in ("where", "nonzero") and (len(node.args) == 1 or any(
                    a.keyword and a.keyword.value == "as_tuple" for a in node.args)):
                return UNKNOWN
            return TENSOR
        if ns == "torch.nn.init":
            return TENSOR
        if ns == "torch.nn" and last[:1].isupper():
            if last in ("ParameterList", "ParameterDict"):
                return UNKNOWN
            return MODULE
        if ns.startswith("torch.optim") and last[:1].isupper() and "lr_scheduler" not in ns:
            return OPTIMIZER
        if q in _NO_GRAD:
            return NOT_TENSOR
        return UNKNOWN

    def _infer_method(self, func: cst.Attribute, node: cst.Call) -> Optional[Kind]:
        m = func.attr.value
        recv = func.value
        rk = self.infer(recv)
        if m == "detach":
            # only tensors answer .detach() in practice; a named receiver makes it an alias
            if type(recv) in (cst.Name, cst.Attribute):
                src = dotted_name(recv)
                if src is not None and not node.args:
                    return Alias(src, "detach", node, recv)
            return TENSOR
        if is_tensor(rk):
            if m in TENSOR_METHODS or is_value_write(m) or m in NOT_VALUE_WRITES:
                if m in ("max", "min", "sort", "topk", "median", "mode", "kthvalue"):
                    return UNKNOWN
                return TENSOR
            if m in NON_TENSOR_METHODS:
                return NOT_TENSOR
            if m in ("chunk", "split", "unbind", "tensor_split"):
                return TENSORS
            if m in ("max", "min", "median", "nanmedian", "mode") and not node.args:
                return TENSOR  # with a ``dim`` these return (values, indices)
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
        if kind is TENSORS or is_tensor(kind):
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
        return UNKNOWN

    # ---- binding -------------------------------------------------------------------------
    def bind_target(self, target: cst.BaseExpression, kind: Optional[Kind]) -> None:
        t = type(target)
        if t is cst.Name:
            self.set(target.value, kind)
        elif t is cst.Tuple or t is cst.List:
            elems = target.elements
            items = kind.items if type(kind) is Seq else None
            if items is not None and len(items) == len(elems) and all(
                type(e) is cst.Element for e in elems
            ):
                for e, k in zip(elems, items):
                    self.bind_target(e.value, k)
            else:
                inner = TENSOR if kind is TENSORS and not any(
                    type(e) is cst.StarredElement for e in elems) else UNKNOWN
                for e in elems:
                    self.bind_target(e.value, inner if type(e) is cst.Element else UNKNOWN)
        elif t is cst.StarredElement:
            self.bind_target(target.value, UNKNOWN)
        elif t is cst.Attribute:
            self._bind_self_attr(target, kind)

    def _bind_self_attr(self, target: cst.Attribute, kind: Optional[Kind]) -> None:
        if type(target.value) is not cst.Name:
            return
        info = self._self_class(target.value.value)
        if info is None:
            return
        attr = target.attr.value
        kind = kind if kind is not None else UNKNOWN
        old = info.attrs.get(attr)
        if old is None:
            info.attrs[attr] = kind
        elif old is not kind and not (is_tensor(old) and is_tensor(kind)):
            info.attrs[attr] = UNKNOWN

    def _self_class(self, name: str) -> Optional[ClassInfo]:
        scope: Optional[Scope] = self.scope
        while scope is not None and scope.kind == "comp":
            scope = scope.parent
        if scope is None or scope.kind != "function" or scope.cls is None:
            return None
        k = scope.names.get(name)
        if type(k) is Instance and k.cls is scope.cls:
            return scope.cls
        return None

    def register_buffer_call(self, node: cst.Call) -> None:
        """``self.register_buffer("name", t)`` / ``register_parameter`` bind ``self.name``."""
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value not in (
            "register_buffer", "register_parameter"
        ) or type(func.value) is not cst.Name or len(node.args) < 2:
            return
        info = self._self_class(func.value.value)
        key = node.args[0].value
        if info is not None and type(key) is cst.SimpleString:
            name = key.evaluated_value
            if isinstance(name, str):
                k = self.infer(node.args[1].value)
                info.attrs[name] = TENSOR if is_tensor(k) else UNKNOWN

    # ---- narrowing ------------------------------------------------------------------------
    def narrowing(self, test: cst.BaseExpression) -> Tuple[Dict[str, Kind], Dict[str, Kind]]:
        """Names narrowed by ``test``: (when true, when false)."""
        t = type(test)
        if t is cst.UnaryOperation and type(test.operator) is cst.Not:
            yes, no = self.narrowing(test.expression)
            return no, yes
        if t is cst.BooleanOperation and type(test.operator) is cst.And:
            ly, _ = self.narrowing(test.left)
            ry, _ = self.narrowing(test.right)
            return {**ly, **ry}, {}
        if t is cst.BooleanOperation and type(test.operator) is cst.Or:
            _, ln = self.narrowing(test.left)
            _, rn = self.narrowing(test.right)
            return {}, {**ln, **rn}
        if (t is cst.Comparison and len(test.comparisons) == 1
                and type(test.comparisons[0].operator) in (cst.Is, cst.Equal, cst.IsNot, cst.NotEqual)
                and type(test.left) is cst.Call and type(test.left.func) is cst.Name
                and test.left.func.value == "type" and len(test.left.args) == 1
                and type(test.left.args[0].value) is cst.Name):
            # ``type(x) is list`` / ``type(x) == torch.Tensor``
            name = test.left.args[0].value.value
            other = test.comparisons[0].comparator
            negated = type(test.comparisons[0].operator) in (cst.IsNot, cst.NotEqual)
            if self._is_tensor_type(other):
                yes, no = {name: TENSOR}, {}
            elif self._is_known_type(other):
                yes, no = {name: NOT_TENSOR}, {}
            else:
                return {}, {}
            return (no, yes) if negated else (yes, no)
        if t is cst.Call and len(test.args) >= 1 and type(test.args[0].value) is cst.Name:
            name = test.args[0].value.value
            q = self.qualname(test.func) if type(test.func) in (cst.Name, cst.Attribute) else None
            if q == "torch.is_tensor" and len(test.args) == 1:
                return {name: TENSOR}, {name: NOT_TENSOR}
            if (type(test.func) is cst.Name and test.func.value == "isinstance"
                    and self.lookup("isinstance") is None and len(test.args) == 2):
                types_expr = test.args[1].value
                members = ([e.value for e in types_expr.elements]
                           if type(types_expr) is cst.Tuple else [types_expr])
                flags = [self._is_tensor_type(m) for m in members]
                if all(flags):
                    return {name: TENSOR}, {name: NOT_TENSOR}
                if not any(flags):
                    known = all(self._is_known_type(m) for m in members)
                    return ({name: NOT_TENSOR} if known else {}), {}
                return {name: UNKNOWN}, {name: NOT_TENSOR}
        return {}, {}

    def _is_tensor_type(self, node: cst.BaseExpression) -> bool:
        q = self.qualname(node) if type(node) in (cst.Name, cst.Attribute) else None
        return q in TENSOR_TYPES or (q is not None and q in self.extra_tensor_types) or (
            q is None and dotted_name(node) in self.extra_tensor_types)

    def _is_known_type(self, node: cst.BaseExpression) -> bool:
        if type(node) is cst.Name and node.value in _BUILTIN_TYPES and self.lookup(node.value) is None:
            return True
        q = self.qualname(node) if type(node) in (cst.Name, cst.Attribute) else None
        return q is not None and (q.startswith("numpy.") or q in ("numpy.ndarray",))

    def apply(self, names: Dict[str, Kind]) -> List[Tuple[str, Optional[Kind], Kind]]:
        """Narrow names in the current scope; returns what ``undo`` needs.

        A narrowing is not a binding: ``undo`` restores the earlier binding unless the narrowed
        branch rebound the name meanwhile.
        """
        undo = []
        for name, kind in names.items():
            old = self.scope.names.get(name)
            current = self.lookup(name)
            new = current if (kind is TENSOR and is_tensor(current)) else kind
            self.scope.names[name] = new
            undo.append((name, old, new))
        return undo

    def undo(self, undo: List[Tuple[str, Optional[Kind], Kind]]) -> None:
        for name, old, new in reversed(undo):
            if self.scope.names.get(name) is new:
                if old is None:
                    del self.scope.names[name]
                else:
                    self.scope.names[name] = old


_BUILTIN_TYPES = frozenset(
    {"list", "tuple", "dict", "set", "str", "int", "float", "bool", "bytes", "complex",
     "frozenset", "type", "range"}
)
_LINALG_SAFE = frozenset(
    """norm vector_norm matrix_norm inv pinv det solve matrix_power matrix_exp cross vecdot
    matmul cholesky diagonal fft ifft rfft irfft fft2 ifft2 rfft2 irfft2 fftn ifftn rfftn irfftn
    fftshift ifftshift erf erfc expit logit softmax log_softmax""".split()
)
_LITERALS = (
    cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString,
    cst.FormattedString, cst.Dict, cst.DictComp, cst.Set, cst.SetComp, cst.Lambda, cst.Ellipsis,
)
