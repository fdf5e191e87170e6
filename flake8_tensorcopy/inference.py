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

from typing import Dict, Iterable, List, Optional, Tuple

from . import tree as cst

from . import torch_api


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
#: ``[]``: a list nothing has been appended to yet
EMPTY_LIST = Kind("empty-list")


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
    __slots__ = ("cls_name", "is_module", "attrs", "data_property", "facts", "category")

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


class Iter(Kind):
    """An iterable whose elements have a known kind."""

    __slots__ = ("elem",)

    def __init__(self, elem: Optional[Kind]) -> None:
        super().__init__("iter")
        self.elem = elem


def is_tensor(kind: Optional[Kind]) -> bool:
    return kind is TENSOR or type(kind) is Alias


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

MODULE_TYPES = frozenset({"torch.nn.Module", "torch.nn.modules.module.Module"})

_SEQ_GENERICS = frozenset(
    {"list", "List", "Sequence", "Iterable", "Iterator", "Tuple", "tuple", "MutableSequence",
     "Collection", "typing.List", "typing.Sequence", "typing.Iterable", "typing.Iterator",
     "typing.Tuple", "collections.abc.Sequence", "collections.abc.Iterable",
     "collections.abc.Iterator"}
)
_OPTIONAL_GENERICS = frozenset({"Optional", "typing.Optional"})
_UNION_GENERICS = frozenset({"Union", "typing.Union"})


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
                 extra_tensor_factories: Iterable[str] = (), project=None) -> None:
        #: the project index as seen from the linted file (``project.FileContext``) or None
        self.project = project
        self._class_infos: Dict[int, ClassInfo] = {}
        self._globals: Dict[str, Optional[Kind]] = {}
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
        if self.project is not None:
            return self._global(name)
        return None

    def _global(self, name: str) -> Optional[Kind]:
        """A name no scope binds: a later (or blanked) top-level definition of this file, or a
        name from a project module imported with ``*``."""
        if name in self._globals:
            return self._globals[name]
        self._globals[name] = None
        try:
            kind = self.from_shape(self.project.global_name(name))
        except RecursionError:
            kind = None
        self._globals[name] = kind
        return kind

    def param_kinds(self, func: str) -> Dict[str, Kind]:
        """Kinds of the parameters of top-level function ``func`` that every call of it in this
        file agrees on (``train(loader, model, criterion)`` called with modules)."""
        if self.project is None or self.scope is not self.module_scope:
            return {}
        facts = self.project.facts()
        if facts is None:
            return {}
        try:
            shapes = facts.param_shapes(func)
        except RecursionError:
            return {}
        out = {}
        for name, shape in shapes.items():
            kind = self.from_shape(shape)
            if kind is not None and kind is not UNKNOWN and kind is not NOT_TENSOR:
                out[name] = kind
        return out

    def function_kind(self, node: cst.FunctionDef) -> Kind:
        """What a ``def`` binds its name to: a Func when its return annotation is known."""
        if node.returns is not None:
            ret = self.kind_of_annotation(node.returns.annotation)
            if ret is not None:
                return Func(ret)
        return FUNCTION

    def written_params(self, node: cst.Call) -> frozenset:
        """Parameters (positions and names) that the called project function writes into in
        place (``def normal_(t): t.copy_(...)``); empty when unknown."""
        func = node.func
        if self.project is None or type(func) is not cst.Name:
            return frozenset()
        kind = self.lookup(func.value)
        facts = None
        if kind is FUNCTION or type(kind) is Func:
            try:
                return self.project.written_params(func.value)
            except RecursionError:
                return frozenset()
        elif type(kind) is Proj:
            from . import project as _p
            if isinstance(kind.obj, _p.FuncFacts):
                facts = kind.obj
        if facts is None:
            return frozenset()
        try:
            return facts.written_params()
        except RecursionError:
            return frozenset()

    def binding_scope(self, name: str) -> Optional[Scope]:
        scope: Optional[Scope] = self.scope
        first = True
        while scope is not None:
            if (first or scope.kind != "class") and name in scope.names:
                return scope
            first = False
            scope = scope.parent
        return None

    # ---- the project index ------------------------------------------------------------------
    def from_shape(self, shape) -> Optional[Kind]:
        """The Kind of a shape computed by the project index (see ``project``)."""
        if shape is None:
            return None
        if type(shape) is str:
            return _SHAPE_KINDS.get(shape)
        if type(shape) is tuple:
            tag = shape[0]
            if tag == "seq":
                return Seq(tuple(self.from_shape(x) for x in shape[1]))
            if tag == "layer":
                return ModuleOf(tuple(shape[1]))
            if tag == "inst":
                facts = shape[1]
                if facts.category() == "tensor":
                    return TENSOR
                return Instance(self.class_info(facts))
            if tag == "qual":
                return Qual(shape[1])
            if tag == "qual-inst":
                return NOT_TENSOR if torch_api.fields_of(shape[1]) is not None else UNKNOWN
            if tag == "namedtuple":
                return Proj(shape)
            return None
        return Proj(shape)

    def class_info(self, facts) -> ClassInfo:
        info = self._class_infos.get(id(facts))
        if info is None:
            info = ClassInfo(facts.name, False, facts)
            self._class_infos[id(facts)] = info
        return info

    def new_class(self, name: str, bases: List[cst.BaseExpression]) -> ClassInfo:
        """The ClassInfo of a class statement of the linted file, walked now."""
        is_module = False
        for b in bases:
            q = self.qualname(b) if type(b) in (cst.Name, cst.Attribute) else None
            if q is not None and (q in MODULE_TYPES or (
                    q.startswith("torch.nn.") and q.rsplit(".", 1)[1][:1].isupper()
                    and q not in TENSOR_TYPES)):
                is_module = True
            elif type(b) is cst.Name:
                k = self.lookup(b.value)
                if type(k) is ClassInfo and k.is_module:
                    is_module = True
        facts = None
        if self.project is not None and self.scope is self.module_scope:
            try:
                facts = self.project.current_class(name)
            except RecursionError:
                facts = None
        return ClassInfo(name, is_module, facts)

    def _call_shape_of(self, kind: Optional[Kind], node: cst.Call) -> Optional[Kind]:
        """Calling a value of ``kind``: a project class/function, a torch layer or a module."""
        t = type(kind)
        if t is Proj:
            obj = kind.obj
            from . import project as _p
            if isinstance(obj, _p.ClassFacts):
                if obj.category() == "tensor":
                    return TENSOR
                if obj.category() == "record" and type(node) is cst.Call:
                    return Instance(self.class_info(obj))
                return Instance(self.class_info(obj))
            if isinstance(obj, _p.FuncFacts):
                return self.from_shape(obj.returns())
            if type(obj) is tuple and obj[0] == "namedtuple":
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
                    return self.from_shape(fwd.returns()) or MODULE_OUT
                except RecursionError:
                    return MODULE_OUT
            return MODULE_OUT
        if kind is MODULE:
            return MODULE_OUT
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
                self.set(alias.asname.name.value,
                         self._project_module(full) or Qual(full, runtime))
            else:
                top = full.split(".", 1)[0]
                self.set(top, self._project_module(top) or Qual(top, runtime))

    def _project_module(self, dotted: str, level: int = 0) -> Optional[Kind]:
        if self.project is None or (level == 0 and (dotted == "torch" or dotted.startswith("torch."))):
            return None
        if self.project.find(dotted, level) is None:
            return None
        project = self.project
        return Proj(thunk=lambda: project.resolve(("module", dotted, level)))

    def bind_import_from(self, node: cst.ImportFrom) -> None:
        level = len(node.relative)
        mod = dotted_name(node.module) if node.module is not None else ""
        if node.relative:
            base = None
        else:
            base = mod
        if base and (base == "torch" or base.startswith("torch.")):
            self.imports_torch = True
        in_project = False
        if self.project is not None and not (base and (base == "torch" or base.startswith("torch."))):
            in_project = self.project.find(mod or "", level) is not None or (
                level > 0 and not mod)
        if isinstance(node.names, cst.ImportStar):
            if in_project and self.scope is self.module_scope:
                self.project.stars.append((mod or "", level))
                self._globals.clear()
            return
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            bound = alias.asname.name.value if (
                alias.asname is not None and type(alias.asname.name) is cst.Name) else name
            if not bound:
                continue
            kind: Optional[Kind] = None
            if in_project or (self.project is not None and level > 0):
                project, imp = self.project, ("from", mod or "", level, name)
                kind = Proj(thunk=lambda project=project, imp=imp: project.resolve(imp))
            if kind is None:
                # a relative import the index cannot follow still names a module, class or
                # function of some package, never "anything" (``lowering as L``: ``L.permute()``
                # is that module's function, not a tensor method)
                qual = f"{base}.{name}" if base else "." * level + (f"{mod}." if mod else "") + name
                kind = Qual(qual, not self.type_checking)
            self.set(bound, kind)

    # ---- annotations -------------------------------------------------------------------
    def kind_of_annotation(self, ann: cst.BaseExpression) -> Optional[Kind]:
        t = type(ann)
        if t is cst.SimpleString:
            try:
                ann = cst.parse_expression(ann.evaluated_value)  # type: ignore[arg-type]
            except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError, KeyError):
                return None
            t = type(ann)
        if t is cst.Name or t is cst.Attribute:
            q = self.qualname(ann) or dotted_name(ann)
            if q in TENSOR_TYPES or q in self.extra_tensor_types:
                return TENSOR
            if q in MODULE_TYPES:
                return MODULE
            if q and torch_api.is_layer(q):
                return ModuleOf((q,))
            if q and torch_api.fields_of(q) is not None:
                return NOT_TENSOR  # PackedSequence: a named tuple whose ``data`` is a field
            kind = self.lookup(q) if q and "." not in q else self.infer(ann)
            if type(kind) is ClassInfo:
                return Instance(kind)
            if type(kind) is Proj:
                from . import project as _p
                if isinstance(kind.obj, _p.ClassFacts):
                    return TENSOR if kind.obj.category() == "tensor" else Instance(
                        self.class_info(kind.obj))
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
        if t is cst.List and not node.elements:
            return EMPTY_LIST
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
        return self.attribute_of(rk, attr)

    def attribute_of(self, rk: Optional[Kind], attr: str) -> Optional[Kind]:
        """``x.attr`` for ``x`` of kind ``rk`` (not a tensor, not a qualified name)."""
        if type(rk) is Instance:
            cls = rk.cls
            k = cls.attrs.get(attr)
            if k is not None:
                return k
            facts = cls.facts
            if facts is not None:
                try:
                    k = self.from_shape(facts.attr(attr))
                except RecursionError:
                    k = None
                if k is not None:
                    return k
                if facts.method(attr) is not None:
                    return UNKNOWN  # a bound method (or a property)
            if attr == "param_groups" and (cls.category == "optimizer" or cls.category is None):
                return PARAM_GROUPS
            if cls.is_module and attr in ("weight", "bias"):
                return TENSOR
            return UNKNOWN
        if type(rk) is ModuleOf:
            return TENSOR if torch_api.owns_tensor(rk.quals, attr) else UNKNOWN
        if rk is MODULE:
            if torch_api.is_layer_tensor_name(attr):
                return TENSOR
            return UNKNOWN
        if type(rk) is Proj:
            from . import project as _p
            if isinstance(rk.obj, _p.ModuleFacts):
                try:
                    return self.from_shape(rk.obj.member(attr)) or UNKNOWN
                except RecursionError:
                    return UNKNOWN
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
        if rk is TENSORISH and is_index and type(single.value) is cst.Integer:
            return TENSOR
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
                if bound.category == "tensor":
                    return TENSOR
                return Instance(bound)
            called = self._call_shape_of(bound, node)
            if called is not None:
                return called
            if type(bound) is Func:
                return bound.ret
            if bound is FUNCTION and self.project is not None and \
                    self.binding_scope(name) is self.module_scope:
                fn = self.project.current_function(name)
                if fn is not None:
                    return self.from_shape(fn.returns()) or UNKNOWN
            if name == "getattr" and bound is None and len(node.args) >= 2:
                key = node.args[1].value
                if type(key) is cst.SimpleString and isinstance(key.evaluated_value, str):
                    return self._getattr(node.args[0].value, key.evaluated_value)
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
        if ft is cst.Attribute:
            return self._infer_method(func, node)
        return UNKNOWN

    def _getattr(self, obj: cst.BaseExpression, attr: str) -> Optional[Kind]:
        """``getattr(obj, "name")``: the same as ``obj.name``."""
        rk = self.infer(obj)
        if is_tensor(rk):
            return TENSOR if torch_api.property_kind(attr) == "T" and attr != "grad" else UNKNOWN
        return self.attribute_of(rk, attr)

    def _kind_of_qual_call(self, q: str, node: cst.Call) -> Optional[Kind]:
        if q in self.extra_factories:
            return TENSOR
        if q != "torch" and not q.startswith("torch."):
            # ``torchvision``, ``torchtext``, ``torch_geometric``: other packages
            if q.startswith("numpy."):
                return NOT_TENSOR
            return UNKNOWN
        ns, _, last = q.rpartition(".")
        if q in TENSOR_TYPES or q == "torch.nn.Parameter":
            return TENSOR
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
        if q in _NO_GRAD:
            return NOT_TENSOR
        return UNKNOWN

    def _infer_method(self, func: cst.Attribute, node: cst.Call) -> Optional[Kind]:
        m = func.attr.value
        recv = func.value
        rk = self.infer(recv)
        if type(rk) is Instance and rk.cls.facts is not None and m not in rk.cls.attrs:
            meth = rk.cls.facts.method(m)
            if meth is not None:
                try:
                    return self.from_shape(meth.returns()) or UNKNOWN
                except RecursionError:
                    return UNKNOWN
        if type(rk) in (Instance, Proj, ModuleOf) or rk is MODULE:
            # ``self.fc(x)``: calling an attribute that holds a layer runs its forward
            member = self.attribute_of(rk, m)
            called = self._call_shape_of(member, node)
            if called is not None and called is not UNKNOWN:
                return called
        if m == "detach":
            # only tensors answer .detach() in practice; a named receiver makes it an alias
            if type(recv) in (cst.Name, cst.Attribute):
                src = dotted_name(recv)
                if src is not None and not node.args:
                    return Alias(src, "detach", node, recv)
            return TENSOR
        if rk is MODULE_OUT and m not in _NOT_ON_MODULE_OUTPUT and torch_api.is_tensor_method(m):
            rk = TENSOR  # a module's output that answers a tensor method is a tensor
        elif (rk is None or rk is UNKNOWN or rk is FREE) and torch_api.is_tensor_only_method(m):
            rk = TENSOR  # only tensors answer ``unsqueeze``, ``masked_fill``, ``gather``...
        if is_tensor(rk):
            ret = torch_api.method_return(m, *_arg_shape(node))
            if ret is not None:
                return _return_kind(ret)
            if is_value_write(m) or m in NOT_VALUE_WRITES:
                return TENSOR
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

    def note_append(self, node: cst.Call) -> None:
        """``xs = []`` then ``xs.append(t)``: a list of tensors while every append is one."""
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value != "append" or \
                type(func.value) is not cst.Name or len(node.args) != 1:
            return
        name = func.value.value
        scope = self.binding_scope(name)
        if scope is None:
            return
        kind = scope.names.get(name)
        if kind is not EMPTY_LIST and kind is not TENSORS:
            return
        scope.names[name] = TENSORS if is_tensor(self.infer(node.args[0].value)) else UNKNOWN

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
        emptied = _nonempty_test(test)
        if emptied is not None and self.lookup(emptied) is TENSORS:
            # ``if len(keep) > 0: return torch.stack(keep)``: empty afterwards
            return {}, {emptied: EMPTY_LIST}
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
            elif self._object_kind([other]) is not None:
                yes, no = {name: self._object_kind([other])}, {}
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
                obj = self._object_kind(members) if not any(flags) else None
                if obj is not None:
                    return {name: obj}, {}
                if not any(flags):
                    known = all(self._is_known_type(m) for m in members)
                    return ({name: NOT_TENSOR} if known else {}), {}
                return {name: UNKNOWN}, {name: NOT_TENSOR}
        return {}, {}

    def _is_tensor_type(self, node: cst.BaseExpression) -> bool:
        q = self.qualname(node) if type(node) in (cst.Name, cst.Attribute) else None
        return q in TENSOR_TYPES or (q is not None and q in self.extra_tensor_types) or (
            q is None and dotted_name(node) in self.extra_tensor_types)

    def _object_kind(self, members: List[cst.BaseExpression]) -> Optional[Kind]:
        """``isinstance(m, (nn.Conv2d, nn.Linear))``: torch layers; ``isinstance(v, Vector3)``:
        a class of this file or of the project. None when the members are anything else."""
        quals = []
        for node in members:
            q = self.qualname(node) if type(node) in (cst.Name, cst.Attribute) else None
            if q is None or not (torch_api.is_layer(q) or q in MODULE_TYPES):
                break
            quals.append(q)
        else:
            if quals:
                return MODULE if any(q in MODULE_TYPES for q in quals) else ModuleOf(tuple(quals))
        if len(members) == 1 and type(members[0]) in (cst.Name, cst.Attribute):
            k = self.infer(members[0])
            if type(k) is ClassInfo:
                return TENSOR if k.category == "tensor" else Instance(k)
            if type(k) is Proj:
                from . import project as _p
                if isinstance(k.obj, _p.ClassFacts):
                    return TENSOR if k.obj.category() == "tensor" else Instance(
                        self.class_info(k.obj))
        return None

    def _is_known_type(self, node: cst.BaseExpression) -> bool:
        if type(node) is cst.Name and node.value in _BUILTIN_TYPES and self.lookup(node.value) is None:
            return True
        q = self.qualname(node) if type(node) in (cst.Name, cst.Attribute) else None
        return q is not None and (q.startswith("numpy.") or q in _KNOWN_NON_TENSOR_TYPES)

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


#: types whose instances are never tensors: an ``isinstance`` guard on one of them rules a
#: tensor out even where an annotation said ``Tensor`` (``size: Tensor`` that is a ``torch.Size``)
_KNOWN_NON_TENSOR_TYPES = frozenset(
    {"torch.Size", "numbers.Number", "numbers.Real", "numbers.Integral", "numbers.Complex",
     "collections.abc.Sequence", "collections.abc.Mapping", "collections.abc.Iterable",
     "typing.Sequence", "typing.Mapping", "typing.Iterable", "typing.List", "typing.Tuple",
     "typing.Dict", "torch.nn.utils.rnn.PackedSequence", "torch.dtype", "torch.device"}
)
_SHAPE_KINDS = {"T": TENSOR, "L": TENSORS, "O": NOT_TENSOR, "PG": PARAM_GROUPS,
                "OPT": OPTIMIZER, "M": MODULE, "MO": MODULE_OUT}
#: methods a tuple, a dict or a model-output object may have too
_NOT_ON_MODULE_OUTPUT = frozenset({"values", "keys", "items", "get", "index", "count", "copy",
                                   "pop", "update", "to"})
_RETURN_KINDS = {"T": TENSOR, "L": TENSORS, "O": NOT_TENSOR}
_TABLE_NAMESPACES = frozenset({"torch", "torch.nn.functional", "torch.linalg", "torch.fft",
                               "torch.special", "torch.nn.init", "torch.nn.utils.rnn"})


def _nonempty_test(test: cst.BaseExpression) -> Optional[str]:
    """``x`` for the tests ``x``, ``len(x)``, ``len(x) > 0``, ``len(x) != 0``, ``len(x) >= 1``."""
    if type(test) is cst.Name:
        return test.value
    call = test
    if type(test) is cst.Comparison and len(test.comparisons) == 1:
        comp = test.comparisons[0]
        op = type(comp.operator)
        value = comp.comparator
        if not (type(value) is cst.Integer and (
                (op in (cst.GreaterThan, cst.NotEqual) and value.value == "0")
                or (op is cst.GreaterThanEqual and value.value == "1"))):
            return None
        call = test.left
    if type(call) is cst.Call and type(call.func) is cst.Name and call.func.value == "len" \
            and len(call.args) == 1 and type(call.args[0].value) is cst.Name:
        return call.args[0].value.value
    return None


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


def _arg_shape(node: cst.Call) -> Tuple[int, List[str], bool]:
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


_BUILTIN_TYPES = frozenset(
    {"list", "tuple", "dict", "set", "str", "int", "float", "bool", "bytes", "complex",
     "frozenset", "type", "range"}
)
_LITERALS = (
    cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString,
    cst.FormattedString, cst.Dict, cst.DictComp, cst.Set, cst.SetComp, cst.Lambda, cst.Ellipsis,
)
