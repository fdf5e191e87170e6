"""The one lattice of what a value is: every kind the analysis (and the project index) can
give an expression, the names torch uses for tensor and module types, and the joins.

``None`` means "nothing known"; ``UNKNOWN`` means "bound to something we could not type". Only a
*tensor kind* (``TENSOR``, ``TENSOR_SIGNAL``, ``TENSOR_SUBCLASS`` or an ``Alias``) is ever used by
a rule, and the kind also says *how* the value is known to be a tensor (``evidence``): proven (a
torch API result, a ``Tensor`` annotation or ``isinstance`` guard with torch bound, a parameter or
buffer from the torch table, a project-index fact), only signalled (a shape such as
``x.detach()``, a method only tensors have, a module's output), or an instance of a ``Tensor``
subclass (whose own methods may run where torch's ran). A diagnostic may rest on any of them; a
safe fix only on proof (``rules/base.py``: ``applicability``).
"""
from __future__ import annotations

import ast

from typing import Dict, Optional, Tuple

from ..syntax import nodes


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
#: what calling a module whose ``forward`` is not known gives: a tensor, unless it is a tuple, a
#: dict or an output object, none of which has ``.data`` or tensor methods
MODULE_OUT = Kind("module-output")
#: a tensor or a tuple of tensors, depending on the overload (``torch.max(x, 1)``)
TENSORISH = Kind("tensor-or-tuple")
#: a tensor attribute the torch table cannot type (project index only; nothing is known of it)
OPAQUE = Kind("opaque")
#: ``[]``: a list nothing has been appended to yet
EMPTY_LIST = Kind("empty-list")
#: one batch of a ``torch.utils.data.DataLoader`` with the default collate: a tensor, or a
#: list / tuple / dict of tensors (its fields, by index, key or unpacking, are tensors)
BATCH = Kind("batch")
#: a tensor known only by a strong signal (``x.detach()`` of an unknown ``x``, a method only
#: tensors have, a module's output that answers a tensor method): enough for a diagnostic,
#: never for a safe fix
TENSOR_SIGNAL = Kind("tensor-by-signal")
#: an instance of a ``Tensor`` (or ``Parameter``) subclass: a tensor, but its own ``clone``,
#: ``detach``... may run where torch's ran, and a rewrite may keep or drop its type
TENSOR_SUBCLASS = Kind("tensor-subclass")
#: a plain tensor made here, closed-world (issue 45): the result of a torch factory, or of a
#: torch op (a method, an operator, an index) whose every operand is itself one or a constant,
#: bound to a name of the scope that reads it. Nothing outside that scope can rebind it or make
#: it a subclass; it is the only evidence a SAFE fix may rest on (``TENSOR``, what an
#: annotation, an attribute, a parameter or the project index says, is a proof that the
#: program can reach around: enough for a diagnostic and an unsafe fix)
TENSOR_MADE = Kind("tensor-made")

# ---- evidence: how a value is known to be a tensor -----------------------------------------
#: a plain torch tensor made in the scope that uses it, closed-world (``TENSOR_MADE``): the
#: only evidence for a SAFE fix
CLOSED = "closed"
#: a torch tensor of the plain kind by open-world facts (an annotation, an attribute, a module
#: global, a parameter of a torch layer, the project index): a signal for fixes
PROOF = "proof"
#: a tensor by a strong signal only
SIGNAL = "signal"
#: a tensor subclass instance
SUBCLASS = "subclass"
#: nothing known either way (an unannotated parameter, an unknown call)
OPEN = "open"
#: known not to be a plain tensor (a NumPy array, a list, an object of a class, a module)
NOT = "not"

_STRENGTH = {CLOSED: 3, PROOF: 2, SIGNAL: 1, SUBCLASS: 0}
_BY_EVIDENCE = {CLOSED: TENSOR_MADE, PROOF: TENSOR, SIGNAL: TENSOR_SIGNAL,
                SUBCLASS: TENSOR_SUBCLASS}


class Alias(Kind):
    """A tensor that shares memory with another: ``x.detach()`` or ``x.data`` of a named ``x``."""

    __slots__ = ("source", "via", "node", "node_value", "evidence")

    def __init__(self, source: str, via: str, node: Optional[nodes.BaseExpression] = None,
                 node_value: Optional[nodes.BaseExpression] = None,
                 evidence: str = PROOF) -> None:
        super().__init__("alias")
        self.source = source  # the aliased expression's code (``x``, ``self.w``)
        self.via = via  # "detach" or "data"
        self.node = node  # the ``x.detach()`` / ``x.data`` expression
        self.node_value = node_value  # its ``x``
        #: how ``x`` (and so the alias) is known to be a tensor: PROOF, SIGNAL or SUBCLASS
        self.evidence = evidence


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
    __slots__ = ("cls_name", "is_module", "attrs", "data_property", "facts", "category",
                 "pending")

    def __init__(self, cls_name: str, is_module: bool, facts=None) -> None:
        super().__init__("class")
        self.cls_name = cls_name
        self.is_module = is_module
        self.attrs: Dict[str, Kind] = {}
        self.data_property = False
        #: what the project index knows of the class (``project.ClassFacts``), if anything
        self.facts = facts
        self.category = facts.category() if facts is not None else None
        if self.category == "module":
            self.is_module = True
        #: methods of the linted class whose walk waits until ``attrs`` is asked (``later``)
        self.pending: Optional[list] = None


class Func(Kind):
    """A function defined in the linted file whose return annotation names a known kind."""

    __slots__ = ("ret",)

    def __init__(self, ret: Kind) -> None:
        super().__init__("function")
        self.ret = ret


class ModuleOf(Kind):
    """An instance of one of these torch ``nn`` layer classes (``torch.nn.Linear``...)."""

    __slots__ = ("quals",)

    def __init__(self, quals: Tuple[str, ...]) -> None:
        super().__init__("layer")
        self.quals = quals


class Proj(Kind):
    """A module, class or function of the project itself, known through the project index
    (``project.ModuleFacts``/``ClassFacts``/``FuncFacts``)."""

    __slots__ = ("_obj", "_thunk")

    def __init__(self, obj=None, thunk=None) -> None:
        super().__init__("project")
        self._obj = obj
        #: imports are bound lazily: the module is read when the name is first used
        self._thunk = thunk

    @property
    def obj(self):
        if self._thunk is not None:
            thunk, self._thunk = self._thunk, None
            try:
                self._obj = thunk()
            except (RecursionError, OSError, ValueError):
                self._obj = None
        return self._obj


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


class DictOf(Kind):
    """A dict whose values have a known kind (``{phase: DataLoader(...) for phase in ...}``)."""

    __slots__ = ("value",)

    def __init__(self, value: Kind) -> None:
        super().__init__("dict-of")
        self.value = value


class Iter(Kind):
    """An iterable whose elements have a known kind."""

    __slots__ = ("elem",)

    def __init__(self, elem: Optional[Kind]) -> None:
        super().__init__("iter")
        self.elem = elem


def is_tensor(kind: Optional[Kind]) -> bool:
    """A tensor kind, however it is known (proof, signal or subclass)."""
    return kind is TENSOR or kind is TENSOR_MADE or type(kind) is Alias or \
        kind is TENSOR_SIGNAL or kind is TENSOR_SUBCLASS


def opened(kind: Optional[Kind]) -> Optional[Kind]:
    """``kind`` as seen from where the program can reach around it (another scope, an
    attribute, a summary): a value made here is an open-world proof there."""
    if kind is TENSOR_MADE:
        return TENSOR
    if type(kind) is Alias and kind.evidence == CLOSED:
        return Alias(kind.source, kind.via, kind.node, kind.node_value, PROOF)
    return kind



def admit_subclasses(kind: Optional[Kind]) -> Optional[Kind]:
    """``kind`` as a value whose origin is not seen may hold it: a parameter annotated
    ``torch.Tensor`` (or ``List[Tensor]``), or a name that passed ``isinstance(x, torch.Tensor)``,
    may be a Tensor subclass with its own ``clone``/``detach``. A tensor still, so diagnostics
    stand, but no proof of a plain one (issue 21's fix tester: 50 of 10,000 programs)."""
    if kind is TENSOR or kind is TENSOR_MADE:
        return TENSOR_SUBCLASS
    if kind is TENSORS:
        return Iter(TENSOR_SUBCLASS)
    return kind


def evidence(kind: Optional[Kind]) -> str:
    """How a value of ``kind`` is known to be a tensor: PROOF, SIGNAL, SUBCLASS, OPEN (nothing
    is known: no binding, an unannotated parameter, an unknown call) or NOT (known to be
    something else)."""
    if kind is TENSOR:
        return PROOF
    if kind is TENSOR_MADE:
        return CLOSED
    t = type(kind)
    if t is Alias:
        return kind.evidence
    if kind is TENSOR_SIGNAL or kind is MODULE_OUT:
        return SIGNAL
    if kind is TENSOR_SUBCLASS:
        return SUBCLASS
    if kind is None or kind is UNKNOWN or kind is FREE or kind is TENSORISH or kind is NONE:
        return OPEN
    return NOT


def signalled(e: str) -> str:
    """``e`` where the flagged shape itself is a strong signal that the value is a tensor
    (``x.clone().detach()``, ``torch.empty_like(x)``, ``x.new_tensor(...)``): nothing known
    becomes a signal; what is known stays as it is."""
    return SIGNAL if e == OPEN else e


def is_proven_tensor(kind: Optional[Kind]) -> bool:
    return evidence(kind) in (PROOF, CLOSED)


def tensor_like(*kinds: Optional[Kind]) -> Kind:
    """The tensor kind for a value computed from tensors of these kinds (``a + b``, ``a.sum()``,
    ``a[i]``): as weakly known as the weakest tensor among them (a subclass stays a subclass
    under ``__torch_function__``); non-tensor kinds among them do not count."""
    weakest = CLOSED
    for k in kinds:
        if is_tensor(k):
            e = evidence(k)
            if _STRENGTH[e] < _STRENGTH[weakest]:
                weakest = e
    return _BY_EVIDENCE[weakest]


def lazy_module(kind: Optional[Kind]) -> bool:
    """An instance of a torch lazy layer (``nn.LazyLinear``, ``nn.LazyConv2d``,
    ``nn.LazyBatchNorm1d``...): until its first forward its parameters and buffers are
    ``UninitializedParameter``/``UninitializedBuffer``s, on which almost every tensor operation
    (``detach()``, ``fill_``, ``nn.init.*_``, even ``.shape``) raises, while the same through
    ``.data`` runs on an empty tensor."""
    return type(kind) is ModuleOf and any(
        q.startswith("torch.nn.") and q.rsplit(".", 1)[1].startswith("Lazy")
        for q in kind.quals)  # type: ignore[attr-defined]


def is_module(kind: Optional[Kind]) -> bool:
    return kind is MODULE or type(kind) is ModuleOf or (
        type(kind) is Instance and kind.cls.is_module)


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
#: ``nn.Parameter`` subclasses of torch and of the libraries LLM training code uses: FSDP's
#: flat parameter, lazy modules' uninitialized parameter, bitsandbytes' quantized parameters
PARAMETER_SUBCLASSES = frozenset(
    {"torch.distributed.fsdp._flat_param.FlatParameter",
     "torch.distributed.fsdp.flat_param.FlatParameter",
     "torch.nn.parameter.UninitializedParameter", "torch.nn.UninitializedParameter",
     "bitsandbytes.nn.Params4bit", "bitsandbytes.nn.Int8Params",
     "bitsandbytes.nn.modules.Params4bit", "bitsandbytes.nn.modules.Int8Params"})
TENSOR_TYPES = TENSOR_TYPES | PARAMETER_SUBCLASSES

MODULE_TYPES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})

#: ``torch.nn`` containers: what an item (``c[k]``, an element of ``for x in c``) is
PARAM_CONTAINERS = frozenset({"torch.nn.ParameterDict", "torch.nn.ParameterList",
                               "torch.nn.modules.container.ParameterDict",
                               "torch.nn.modules.container.ParameterList"})
MODULE_CONTAINERS = frozenset({"torch.nn.ModuleDict", "torch.nn.ModuleList", "torch.nn.Sequential",
                                "torch.nn.modules.container.ModuleDict",
                                "torch.nn.modules.container.ModuleList",
                                "torch.nn.modules.container.Sequential"})
LIST_CONTAINERS = frozenset(q for q in PARAM_CONTAINERS | MODULE_CONTAINERS if "Dict" not in q)


def container_item(quals) -> Optional[Kind]:
    """An item of an ``nn.ParameterDict``/``ParameterList`` (a parameter) or of an
    ``nn.ModuleDict``/``ModuleList``/``Sequential`` (a module); else nothing known."""
    if all(q in PARAM_CONTAINERS for q in quals):
        return TENSOR
    if all(q in MODULE_CONTAINERS for q in quals):
        return MODULE
    return UNKNOWN


#: torch's private helpers that fp16/ZeRO optimizers (DeepSpeed, apex, fairseq) call: what they
#: return, in the torch table's spelling (``T`` a tensor, ``L`` tensors); unannotated in torch
PRIVATE_RETURNS = {"torch._utils._flatten_dense_tensors": "T",
                   "torch._utils._unflatten_dense_tensors": "L"}

DATA_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
#: ``DataLoader``'s positional parameters up to ``collate_fn`` (the 7th)
_LOADER_COLLATE_POS = 6


def loader_batches(npos: int, kws, star: bool, unbatched: bool = False) -> Optional[Kind]:
    """What iterating ``torch.utils.data.DataLoader(...)`` called with this argument shape
    gives: default-collated batches (``Iter(BATCH)``), or None when a ``collate_fn`` (or a
    ``**kwargs`` that may hold one, or ``batch_size=None``: no collate at all) decides."""
    if star or unbatched or "collate_fn" in kws or npos > _LOADER_COLLATE_POS:
        return None
    return Iter(BATCH)



# Tensor members.
TENSOR_ATTRS = frozenset({"data", "grad", "T", "mT", "H", "mH", "real", "imag"})
NON_TENSOR_ATTRS = frozenset(
    """shape dtype device ndim requires_grad is_leaf grad_fn is_cuda is_sparse is_quantized
    is_meta layout names itemsize nbytes _version output_nr""".split()
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


#: contexts and decorators that turn grad mode off
NO_GRAD = frozenset(
    {"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad",
     "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode"}
)


# ---- what the project index knows (``index/``): its definitions are kinds too ----------------

class ProjectDef:
    """A definition of the project itself, known through the project index: a module, a class
    or a function (``index.facts.ModuleFacts``/``ClassFacts``/``FuncFacts`` are these)."""

    __slots__ = ()


class ProjectModule(ProjectDef):
    __slots__ = ()


class ProjectClass(ProjectDef):
    __slots__ = ()


class ProjectFunction(ProjectDef):
    __slots__ = ()


class ProjInstance(Kind):
    """An instance of a project class (``facts``: its ``ProjectClass``), as the index sees it;
    the analysis of a file turns it into an ``Instance`` (or ``TENSOR`` for a tensor subclass)."""

    __slots__ = ("facts",)

    def __init__(self, facts) -> None:
        super().__init__("project-instance")
        self.facts = facts


class ForeignInstance(Kind):
    """An instance of a class outside the project known by its qualified name (a torch function
    that returns ``torch.return_types.max``, say)."""

    __slots__ = ("qual",)

    def __init__(self, qual: str) -> None:
        super().__init__("foreign-instance")
        self.qual = qual


class NamedTupleClass(Kind):
    """A class made by ``namedtuple(...)``/``NamedTuple(...)`` at a project module's top level."""

    __slots__ = ("cls_name",)

    def __init__(self, cls_name: str) -> None:
        super().__init__("namedtuple")
        self.cls_name = cls_name


# ---- joins ------------------------------------------------------------------------------------

def same(a, b) -> bool:
    """Do two kinds say the same thing (the singletons by identity, the others by content)?"""
    if a is b:
        return True
    t = type(a)
    if t is not type(b):
        return False
    if t is Seq:
        return len(a.items) == len(b.items) and all(same(x, y) for x, y in zip(a.items, b.items))
    if t is ModuleOf:
        return a.quals == b.quals
    if t is Qual or t is ForeignInstance:
        return a.qual == b.qual
    if t is ProjInstance:
        return a.facts is b.facts
    if t is NamedTupleClass:
        return a.cls_name == b.cls_name
    if t is Iter:
        return same(a.elem, b.elem)
    if t is DictOf:
        return same(a.value, b.value)
    return False


def _module_like(k) -> bool:
    return k is MODULE or type(k) is ModuleOf or (
        type(k) is ProjInstance and k.facts.category() == "module")


def join_alternatives(kinds) -> Optional[Kind]:
    """One kind for what several bindings give (an attribute each method of a class may bind):
    their common kind, ``MODULE`` for modules of different classes, else None."""
    if not kinds:
        return None
    first = kinds[0]
    for k in kinds[1:]:
        if not same(k, first):
            if _module_like(k) and _module_like(first):
                first = MODULE
                continue
            return None
    return first


def join_call_sites(kinds) -> Optional[Kind]:
    """One kind for a parameter from what each call site passes (None: one passes nothing
    known, or they disagree)."""
    if not kinds or any(k is None for k in kinds):
        return None
    first = kinds[0]
    if all(same(k, first) for k in kinds):
        return first
    if all(_module_like(k) for k in kinds):
        return MODULE
    return None


def join_returns(kinds) -> Optional[Kind]:
    """One kind for what a function's ``return`` statements give: their common kind; tuples of
    the same length keep the positions they agree on; else None."""
    first = kinds[0]
    for r in kinds[1:]:
        if same(r, first):
            continue
        if type(r) is Seq and type(first) is Seq and len(r.items) == len(first.items):
            first = Seq(tuple(a if same(a, b) else None for a, b in zip(first.items, r.items)))
            continue
        return None
    return first


def dict_of_instances(node, value_kind):
    """The kind of a dict display or comprehension: a dict of instances of one project class
    (``{k: AverageMeter(k) for k in names}``, ``{"loss": Meter(), "acc": Meter()}``: every value
    a call, ``value_kind`` of each the same ``ProjInstance``), else not a tensor."""
    values = [node.value] if type(node) is ast.DictComp else \
        [v for k, v in zip(node.keys, node.values) if k is not None]
    if not values or len(values) != len(node.values if type(node) is ast.Dict else values) or \
            any(type(v) is not ast.Call for v in values):
        return NOT_TENSOR
    first = value_kind(values[0])
    if type(first) is not ProjInstance or not all(same(value_kind(v), first)
                                                 for v in values[1:]):
        return NOT_TENSOR
    return DictOf(first)
