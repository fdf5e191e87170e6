"""Bindings and their flow: the scopes of the walked code and what each name may hold at each
point, and the join of two branches' binding states."""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from . import torch_api
from .kinds import (
    BATCH, EMPTY_LIST, FUNCTION, MODULE_TYPES, NONE, NOT_TENSOR, OPAQUE, TENSOR, TENSOR_TYPES, TENSORS,
    UNKNOWN, Alias, ClassInfo, ForeignInstance, Func, Instance, Kind, NamedTupleClass, Proj,
    ProjectDef, ProjectFunction, ProjInstance, Qual, Seq, TENSOR_SUBCLASS, evidence, is_tensor,
    tensor_like,
)


class Scope:
    __slots__ = ("kind", "names", "parent", "cls", "no_grad")

    def __init__(self, kind: str, parent: Optional["Scope"], cls: Optional[ClassInfo] = None,
                 no_grad: bool = False) -> None:
        self.kind = kind  # module | function | class | comp
        self.names: Dict[str, Kind] = {}
        self.parent = parent
        self.cls = cls  # for a method's function scope: the class it belongs to
        self.no_grad = no_grad


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

    def set(self, name: str, kind: Optional[Kind]) -> None:
        self.scope.names[name] = kind if kind is not None else UNKNOWN

    @property
    def in_no_grad(self) -> bool:
        scope: Optional[Scope] = self.scope
        while scope is not None and scope.kind in ("comp",):
            scope = scope.parent
        return bool(scope and scope.no_grad)

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

    def bind_target(self, target: nodes.BaseExpression, kind: Optional[Kind]) -> None:
        t = type(target)
        if t is nodes.Name:
            self.set(target.value, kind)
        elif t is nodes.Tuple or t is nodes.List:
            elems = target.elements
            items = kind.items if type(kind) is Seq else None
            if items is not None and len(items) == len(elems) and all(
                type(e) is nodes.Element for e in elems
            ):
                for e, k in zip(elems, items):
                    self.bind_target(e.value, k)
            else:
                inner = TENSOR if (kind is TENSORS or kind is BATCH) and not any(
                    type(e) is nodes.StarredElement for e in elems) else UNKNOWN
                for e in elems:
                    self.bind_target(e.value, inner if type(e) is nodes.Element else UNKNOWN)
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
        kind = kind if kind is not None else UNKNOWN
        old = info.attrs.get(attr)
        if old is None:
            info.attrs[attr] = kind
        elif old is not kind and not (is_tensor(old) and is_tensor(kind)):
            info.attrs[attr] = UNKNOWN
        elif old is not kind and evidence(old) != evidence(kind):
            info.attrs[attr] = tensor_like(old, kind)  # as weakly known as the weaker binding

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
        if x is y or y is None:
            out[key] = x
        elif x is None or x is NONE:
            out[key] = y
        elif y is NONE:
            out[key] = x
        elif is_tensor(x) and is_tensor(y):
            # an alias on one path stays an alias: ``p32 = p.data`` then ``if half: p32 =
            # p32.float()`` still writes into ``p`` on the float32 path
            alias = [k for k in (x, y) if type(k) is Alias]
            out[key] = alias[0] if len(alias) == 1 else tensor_like(x, y)
        else:
            out[key] = UNKNOWN
    return out
