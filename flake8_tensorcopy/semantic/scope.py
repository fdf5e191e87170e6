"""Bindings and their flow: the scopes of the walked code and what each name may hold at each
point, and the join of two branches' binding states."""
from __future__ import annotations

import ast
from typing import Dict, Iterable, List, Optional, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from . import torch_api
from .names import names_read, rebound_names
from .regions import View, drop_views
from .straight import AttrBindings
from .kinds import (
    BATCH, EMPTY_LIST, FUNCTION, MODULE_TYPES, NONE, NOT_TENSOR, OPAQUE, TENSOR, TENSOR_TYPES, TENSORS,
    UNKNOWN, Alias, ClassInfo, DictOf, ForeignInstance, Func, Instance, Kind, NamedTupleClass, Proj,
    ProjectDef, ProjectFunction, ProjInstance, Qual, Seq, TENSOR_MADE, TENSOR_SUBCLASS,
    is_tensor, opened, tensor_like,
)


class Doubt(Kind):
    """What a name holds where its nearest binding is a tensor but some other binding that can
    reach the same use is not known to be one (a loop's back edge, an exception edge, another
    scope writing the name, a comprehension that may run no time). ``kind`` is the nearest
    binding's kind: it is what inference shows (a diagnostic may rest on it), while
    ``Bindings.doubted`` tells a rule that a SAFE fix cannot (only a binding state holds a
    Doubt; ``lookup`` unwraps it)."""

    __slots__ = ("kind",)

    def __init__(self, kind: Kind) -> None:
        super().__init__("doubt")
        self.kind = kind


def proven(kind: Optional[Kind]) -> bool:
    """Is a binding state's entry a tensor along every path that reaches it?"""
    return is_tensor(kind)


def doubt(kind: Kind) -> Kind:
    """``kind`` with the doubt of another reaching binding (only a tensor needs it)."""
    return Doubt(kind) if is_tensor(kind) else kind


def unwrap(kind: Optional[Kind]) -> Optional[Kind]:
    return kind.kind if type(kind) is Doubt else kind


class Scope:
    __slots__ = ("kind", "names", "parent", "cls", "no_grad", "device")

    def __init__(self, kind: str, parent: Optional["Scope"], cls: Optional[ClassInfo] = None,
                 no_grad: bool = False) -> None:
        self.kind = kind  # module | function | class | comp | lambda
        self.names: Dict[str, Kind] = {}
        self.parent = parent
        self.cls = cls  # for a method's function scope: the class it belongs to
        #: the grad mode the innermost ``with``/decorator of this scope sets (True: no grad)
        self.no_grad = no_grad
        #: inside ``with torch.device(...)``: factories follow that device
        self.device = False


class Bindings:
    """The binding state of the walk, kept in step with source order by the engine: the scopes,
    what each name holds at this point, imports, ``self`` attributes, and the narrowing of an
    ``if`` applied and undone. ``Inference`` (``infer.py``) adds what an expression is."""

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
        #: set by ``lookup`` when a name it reads is doubted (see ``doubted``)
        self.doubt_seen = False
        #: names another scope writes: declared ``global`` in some function (module scope) or
        #: ``nonlocal`` in some nested function (function scopes); set by the engine
        self.written_elsewhere: Dict[str, frozenset] = {}
        #: the file calls ``torch.set_default_device`` somewhere: factories may follow it
        self.sets_default_device = False
        #: the file's ``ast`` module (set by the engine): which module-level names are bound
        #: more than once is read from it when a rule first asks (``doubted``)
        self.module_tree: Optional[ast.Module] = None
        self._module_rebound: Optional[frozenset] = None
        #: the bindings the walk is observing (a loop's or a ``try``'s body): for each, the scope
        #: and {name: every binding of it there so far was a proven tensor}
        self._observers: List[Tuple[Scope, Dict[str, bool]]] = []
        #: walks the methods of a class that wait (``ClassInfo.pending``; set by the engine):
        #: called with a class and an attribute before that attribute is read, or bound (True)
        self.later = None
        #: some name was bound to an ``Alias`` (``y = x.detach()``): until then none holds one
        self.aliased = False
        #: some name was bound to a view (``regions.View``): until then no binding ends one
        self.viewed = False
        #: the keys of views of attributes, and whether a statement since ended (``regions``)
        self.brief_views: Dict[str, int] = {}
        #: the file rebinds module globals by name (``globals().update(...)``, ``vars()``,
        #: ``exec``, ``setattr`` on ``sys.modules[...]``): no module global is made here
        #: (closed-world, issue 45); set by the engine
        self.module_open = False
        #: the file uses a functorch transform (``vmap``, ``torch.func.grad``...): a function
        #: may run on batched or wrapped tensors, where ``.data`` raises (set by the engine)
        self.transforms = False
        #: how a binding of a ``self`` attribute joins the others (``__init__``'s replaced ones)
        self.attr_bindings = AttrBindings()

    # ---- scopes ------------------------------------------------------------------------

    def push(self, kind: str, cls: Optional[ClassInfo] = None, no_grad: bool = False) -> None:
        self.scope = Scope(kind, self.scope, cls, no_grad)

    def pop(self) -> None:
        self.scope = self.scope.parent  # type: ignore[assignment]

    def lookup(self, name: str) -> Optional[Kind]:
        scope: Optional[Scope] = self.scope
        first = True
        crossed = False
        while scope is not None:
            if first or scope.kind != "class":
                k = scope.names.get(name)
                if k is not None:
                    if type(k) is Doubt:
                        self.doubt_seen = True
                        k = k.kind
                    if (crossed or (scope is self.module_scope and self.module_open)) and \
                            (k is TENSOR_MADE or type(k) is Alias):
                        return opened(k)  # another scope's, or rebound by name (issue 45)
                    return k
            if scope.kind in ("function", "lambda", "class"):
                crossed = True
            first = False
            scope = scope.parent
        if self.project is not None:
            return self._global(name)
        return None

    # ---- flow: what every reaching binding says -----------------------------------------------

    def infer_flow(self, node: nodes.BaseExpression) -> Tuple[Optional[Kind], bool]:
        """(what ``node`` is, whether that rests on a doubted binding)."""
        outer = self.doubt_seen
        self.doubt_seen = False
        try:
            kind = self.infer(node)  # type: ignore[attr-defined]
            return kind, self.doubt_seen
        finally:
            self.doubt_seen = outer or self.doubt_seen

    def doubted(self, node: nodes.BaseExpression) -> bool:
        """Does what ``node`` is rest on a binding that not every path reaching here agrees
        on (a name rebound later in a loop, in a ``try`` that may stop early, by another scope,
        by a comprehension that may not run)? A diagnostic may still rest on it; a SAFE fix may
        not."""
        return self.infer_flow(node)[1] or self._free_and_rebound(node)

    def _free_and_rebound(self, node: nodes.BaseExpression) -> bool:
        """Does ``node`` read, inside a function, a module-level name that the module binds more
        than once? The function runs when called, when any of those bindings may be the one the
        name holds, not only the one before the ``def``."""
        if self.scope is self.module_scope:
            return False
        names = names_read(node)
        if not names:
            return False
        for name in names:
            scope: Optional[Scope] = self.scope
            crossed = False
            first = True
            while scope is not None:
                if (first or scope.kind != "class") and name in scope.names:
                    break
                if scope.kind in ("function", "lambda"):
                    crossed = True
                first = False
                scope = scope.parent
            if crossed and scope is self.module_scope and name in self.module_rebound():
                return True
        return False

    def module_rebound(self) -> frozenset:
        """Names the module's own code (not its functions' or classes') binds more than once,
        or in a loop."""
        if self._module_rebound is None:
            self._module_rebound = frozenset(
                rebound_names(self.module_tree.body) if self.module_tree is not None else ())
        return self._module_rebound

    def observe(self) -> Dict[str, bool]:
        """Start recording the bindings made in the current scope (see ``_observers``)."""
        bound: Dict[str, bool] = {}
        self._observers.append((self.scope, bound))
        return bound

    def unobserve(self) -> None:
        self._observers.pop()

    def _global(self, name: str) -> Optional[Kind]:
        """A name no scope binds: a later (or blanked) top-level definition of this file, or a
        name from a project module imported with ``*``."""
        if name in self._globals:
            return self._globals[name]
        self._globals[name] = None
        try:
            kind = self.lift(self.project.global_name(name))
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
            kind = self.lift(shape)
            if kind is not None and kind is not UNKNOWN and kind is not NOT_TENSOR:
                out[name] = kind
        return out

    def written_params(self, node: nodes.Call) -> frozenset:
        """Parameters (positions and names) that the called project function writes into in
        place (``def normal_(t): t.copy_(...)``); empty when unknown."""
        func = node.func
        if self.project is None or type(func) is not nodes.Name:
            return frozenset()
        kind = self.lookup(func.value)
        facts = None
        if kind is FUNCTION or type(kind) is Func:
            try:
                return self.project.written_params(func.value)
            except RecursionError:
                return frozenset()
        elif type(kind) is Proj:
            if isinstance(kind.obj, ProjectFunction):
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

    def lift(self, kind) -> Optional[Kind]:
        """A kind from the project index as this file's analysis holds it: an instance of a
        project class becomes an ``Instance`` of the class's ``ClassInfo`` (``TENSOR`` for a
        tensor subclass), a project definition a ``Proj``; the rest is the same kind."""
        if kind is None:
            return None
        t = type(kind)
        if t is Seq:
            return Seq(tuple(self.lift(x) for x in kind.items))
        if t is DictOf:  # ``{k: AverageMeter(k) for k in names}``
            value = self.lift(kind.value)
            return DictOf(value) if value is not None else NOT_TENSOR
        if t is ProjInstance:
            facts = kind.facts
            if facts.category() == "tensor":
                return TENSOR_SUBCLASS
            return Instance(self.class_info(facts))
        if t is ForeignInstance:
            return NOT_TENSOR if torch_api.fields_of(kind.qual) is not None else UNKNOWN
        if t is NamedTupleClass or isinstance(kind, ProjectDef):
            return Proj(kind)
        if kind is OPAQUE:
            return None
        return kind

    def class_info(self, facts) -> ClassInfo:
        info = self._class_infos.get(id(facts))
        if info is None:
            info = ClassInfo(facts.name, False, facts)
            self._class_infos[id(facts)] = info
        return info

    def new_class(self, name: str, bases: List[nodes.BaseExpression]) -> ClassInfo:
        """The ClassInfo of a class statement of the linted file, walked now."""
        is_module = False
        for b in bases:
            q = self.qualname(b) if type(b) in (nodes.Name, nodes.Attribute) else None
            if q is not None and (q in MODULE_TYPES or (
                    q.startswith("torch.nn.") and q.rsplit(".", 1)[1][:1].isupper()
                    and q not in TENSOR_TYPES)):
                is_module = True
            elif type(b) is nodes.Name:
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

    def set(self, name: str, kind: Optional[Kind], doubt: bool = False,
            scope: Optional[Scope] = None) -> None:
        """Bind ``name`` in ``scope`` (the current one); ``doubt``: the value rests on a doubted
        binding. A name another scope writes is always doubted."""
        scope = scope if scope is not None else self.scope
        kind = kind if kind is not None else UNKNOWN
        if type(kind) is Doubt:
            kind = kind.kind
            doubt = True
        if type(kind) is Alias:
            self.aliased = True
        if not doubt and self.written_elsewhere:
            doubt = name in self.written_elsewhere.get(scope.kind, ())
        if doubt and is_tensor(kind):
            kind = Doubt(kind)
        scope.names[name] = kind
        if self.viewed:
            drop_views(scope.names, name)
        if self._observers:
            ok = is_tensor(kind)
            for where, bound in self._observers:
                if where is scope:
                    bound[name] = bound.get(name, True) and ok

    def bind_walrus(self, name: str, kind: Optional[Kind], doubt: bool) -> None:
        """``(name := value)``: inside a comprehension it binds in the enclosing scope, and the
        comprehension may run no time, so what the name held before still reaches on."""
        scope = self.scope
        if scope.kind != "comp":
            self.set(name, kind, doubt)
            return
        while scope.kind == "comp":
            scope = scope.parent  # type: ignore[assignment]
        before = scope.names.get(name)
        if before is not None and before is not NONE and not proven(before):
            doubt = True
        self.set(name, kind, doubt, scope)

    @property
    def in_no_grad(self) -> bool:
        scope: Optional[Scope] = self.scope
        while scope is not None and scope.kind in ("comp",):
            scope = scope.parent
        return bool(scope and scope.no_grad)

    @property
    def default_device_may_differ(self) -> bool:
        """Inside ``with torch.device(...)``, or in a file that calls
        ``torch.set_default_device``: a factory's result may land on another device than its
        input's."""
        if self.sets_default_device:
            return True
        scope: Optional[Scope] = self.scope
        while scope is not None:
            if scope.device:
                return True
            if scope.kind in ("function", "lambda"):
                return False  # a body runs when called, not where it is defined
            scope = scope.parent
        return False

    # ---- names of things ---------------------------------------------------------------

    def qualname(self, node: nodes.BaseExpression) -> Optional[str]:
        """Fully qualified name of an imported module/function/class, through import aliases."""
        parts: List[str] = []
        while type(node) is nodes.Attribute:
            parts.append(node.attr.value)
            node = node.value
        if type(node) is not nodes.Name:
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

    def bind_import(self, node: nodes.Import) -> None:
        for alias in node.names:
            full = dotted_name(alias.name) or ""
            if full == "torch" or full.startswith("torch."):
                self.imports_torch = True
            runtime = not self.type_checking
            if alias.asname is not None and type(alias.asname.name) is nodes.Name:
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

    def bind_import_from(self, node: nodes.ImportFrom) -> None:
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
        if isinstance(node.names, nodes.ImportStar):
            if in_project and self.scope is self.module_scope:
                self.project.stars.append((mod or "", level))
                self._globals.clear()
            return
        for alias in node.names:
            name = dotted_name(alias.name) or ""
            bound = alias.asname.name.value if (
                alias.asname is not None and type(alias.asname.name) is nodes.Name) else name
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

    def bind_target(self, target: nodes.BaseExpression, kind: Optional[Kind],
                    doubt: bool = False) -> None:
        t = type(target)
        if t is nodes.Name:
            self.set(target.value, kind, doubt)
        elif t is nodes.Tuple or t is nodes.List:
            elems = target.elements
            items = kind.items if type(kind) is Seq else None
            if items is not None and len(items) == len(elems) and all(
                type(e) is nodes.Element for e in elems
            ):
                for e, k in zip(elems, items):
                    self.bind_target(e.value, k, doubt)
            else:
                inner = TENSOR if (kind is TENSORS or kind is BATCH) and not any(
                    type(e) is nodes.StarredElement for e in elems) else UNKNOWN
                for e in elems:
                    self.bind_target(e.value, inner if type(e) is nodes.Element else UNKNOWN,
                                     doubt)
        elif t is nodes.StarredElement:
            self.bind_target(target.value, UNKNOWN)
        elif t is nodes.Attribute:
            self._bind_self_attr(target, kind)

    def _bind_self_attr(self, target: nodes.Attribute, kind: Optional[Kind]) -> None:
        if type(target.value) is not nodes.Name:
            return
        info = self._self_class(target.value.value)
        if info is None:
            return
        attr = target.attr.value
        # an attribute is written from elsewhere (another method, a subclass, a caller, a
        # ``__setattr__``): what it holds is open-world
        kind = opened(kind) if kind is not None else UNKNOWN
        if self.later is not None:
            self.later(info, attr, True)
        self.attr_bindings.bind(info, attr, target, kind)  # the join (``straight.py``)

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

    def note_append(self, node: nodes.Call) -> None:
        """``xs = []`` then ``xs.append(t)``: a list of tensors while every append is one."""
        func = node.func
        if type(func) is not nodes.Attribute or func.attr.value != "append" or \
                type(func.value) is not nodes.Name or len(node.args) != 1:
            return
        name = func.value.value
        scope = self.binding_scope(name)
        if scope is None:
            return
        kind = scope.names.get(name)
        if kind is not EMPTY_LIST and kind is not TENSORS:
            return
        scope.names[name] = TENSORS if is_tensor(self.infer(node.args[0].value)) else UNKNOWN

    def register_buffer_call(self, node: nodes.Call) -> None:
        """``self.register_buffer("name", t)`` / ``register_parameter`` bind ``self.name``."""
        func = node.func
        if type(func) is not nodes.Attribute or func.attr.value not in (
            "register_buffer", "register_parameter"
        ) or type(func.value) is not nodes.Name or len(node.args) < 2:
            return
        info = self._self_class(func.value.value)
        key = node.args[0].value
        if info is not None and type(key) is nodes.SimpleString:
            name = key.evaluated_value
            if isinstance(name, str):
                k = self.infer(node.args[1].value)
                if self.later is not None:
                    self.later(info, name, True)
                info.attrs[name] = TENSOR if is_tensor(k) else UNKNOWN

    def apply(self, names: Dict[str, Kind]) -> List[Tuple[str, Optional[Kind], Kind]]:
        """Narrow names in the current scope; returns what ``undo`` needs.

        A narrowing is not a binding: ``undo`` restores the earlier binding unless the narrowed
        branch rebound the name meanwhile.
        """
        undo = []
        for name, kind in names.items():
            old = self.scope.names.get(name)
            current = self.lookup(name)
            new = current if ((kind is TENSOR or kind is TENSOR_SUBCLASS)
                              and is_tensor(current)) else kind
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


def join_branches(a: Dict[str, Kind], a_ends: bool, b: Dict[str, Kind],
           b_ends: bool) -> Dict[str, Kind]:
    """Binding state after two branches: a branch that left (return/raise) does not count."""
    if a_ends and not b_ends:
        return b
    if b_ends and not a_ends:
        return a
    out = {}
    for key in a.keys() | b.keys():
        x, y = a.get(key), b.get(key)
        if type(x) is View or type(y) is View:
            if x is y:  # a view only where every path holds it
                out[key] = x
            continue
        if x is not y and (type(x) is Doubt or type(y) is Doubt):
            # joined as what they show; a doubt on either path stays
            x, y = unwrap(x), unwrap(y)
            joined = join_branches({key: x} if x is not None else {}, False,
                                   {key: y} if y is not None else {}, False).get(key)
            out[key] = doubt(joined) if joined is not None else UNKNOWN
            continue
        if x is y or y is None:
            out[key] = x
        elif x is None or x is NONE:
            out[key] = y
        elif y is NONE:
            out[key] = x
        elif (x is EMPTY_LIST and y is TENSORS) or (x is TENSORS and y is EMPTY_LIST):
            # ``if p.grad is not None: params.append(p)``: still empty, or tensors only
            out[key] = TENSORS
        elif is_tensor(x) and is_tensor(y):
            # an alias on one path stays an alias: ``p32 = p.data`` then ``if half: p32 =
            # p32.float()`` still writes into ``p`` on the float32 path
            alias = [k for k in (x, y) if type(k) is Alias]
            out[key] = alias[0] if len(alias) == 1 else tensor_like(x, y)
        elif (type(x) is Alias and y is UNKNOWN) or (type(y) is Alias and x is UNKNOWN):
            # ``grad = p.grad.data`` then ``if sgd: grad = buf``: still the alias on one path (a
            # write through it may reach ``p.grad``), not proven one on the other
            out[key] = doubt(x if type(x) is Alias else y)
        else:
            out[key] = UNKNOWN
    return out
