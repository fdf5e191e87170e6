"""What a project module's top-level definitions are: ``FuncFacts`` (what a function returns,
which parameters it writes into, whether it is a property) and ``ClassFacts`` (bases, methods,
what ``self.x`` is bound to, registered buffers, whether it has its own ``data``), each worked
out lazily, when the analysis of a linted file asks, and kept. A definition holds its nodes while
its module holds its tree, and asks its module (``Home``) for them again after the index let the
tree go (``ModuleFacts.drop_tree``). The module itself is in ``facts``.
"""
from __future__ import annotations

import ast
import weakref
from typing import Dict, List, Optional, Set, Tuple

from ...syntax.prefilter import dotted, first_line, statements, walk_nodes
from .. import torch_api
from ..kinds import (
    PARAMETER_SUBCLASSES, TENSOR, NamedTupleClass, ProjectClass, ProjectFunction, ProjectModule,
    Qual, join_alternatives,
)
from .evaluate import TOO_DEEP, Evaluator, lines_hold


class Home:
    """How a definition reaches its module without owning it: a weak reference, and the path
    to read the module again from if the index has let it go.

    The module owns its definitions (``defs``, a class's ``methods``); were the definitions to
    own the module back, every module would be a reference cycle, freed only by the garbage
    collector's full passes, with its whole ``ast`` (the index lets go of a module every few
    files, the linted file's facts after every file; benchmarks/RESULTS.md has the cost). A
    definition outlives its module only when another module's facts still hold it after the
    index let its own go; it then reads the module again, as an import of it would.
    """

    __slots__ = ("path", "index", "_ref")

    def __init__(self, module: ProjectModule) -> None:
        self.path = module.path
        self.index = module.index
        self._ref = weakref.ref(module)

    def module(self) -> ProjectModule:
        found = self._ref()
        if found is None:
            found = self.index.load_path(self.path)
            if found is None:  # gone or unreadable now: a module that defines nothing
                found = self.index.empty_module(self.path)
                self._ref = lambda: found  # noqa: E731 - kept for the definitions that ask
            else:
                self._ref = weakref.ref(found)
        return found


class FuncFacts(ProjectFunction):
    __slots__ = ("name", "_node", "_line", "_first", "_last", "_home", "_cls", "_ret", "_busy",
                 "_written", "_prop", "_graph")

    def __init__(self, name: str, node: ast.AST, module: ProjectModule,
                 cls: Optional["ClassFacts"] = None) -> None:
        self.name = name
        self._node: Optional[ast.AST] = node
        self._line: int = node.lineno  # type: ignore[attr-defined]
        #: its lines, decorators included: what ``ModuleFacts.node_of`` reads again of it
        #: alone once the tree is let go
        self._first, self._last = first_line(node), node.end_lineno or node.lineno  # type: ignore[attr-defined]
        self._home = module.home
        #: the class (a method's): weak, as the class owns its methods
        self._cls = None if cls is None else weakref.ref(cls)
        self._ret: object = _UNSET
        self._busy = False
        self._written: Optional[frozenset] = None
        self._prop: Optional[bool] = None
        #: what it does to autograd graphs (``summaries.GraphSummary``), made when first asked
        self._graph: object = None

    @property
    def node(self) -> ast.AST:
        """The ``def`` (read again when the index let the module's tree go: ``drop_tree``)."""
        node = self._node
        return node if node is not None else self._home.module().node_of(self)

    @property
    def module(self) -> ProjectModule:
        return self._home.module()

    @property
    def cls(self) -> Optional["ClassFacts"]:
        """The class of a method (None: a function)."""
        ref = self._cls
        if ref is None:
            return None
        found = ref()
        if found is None:
            # the module was let go and read again: its class of that name at that line
            outer = self.module
            for d in outer.defs.values():
                if isinstance(d, ClassFacts) and d.methods.get(self.name) is not None and \
                        d.methods[self.name]._line == self._line:
                    found = d
                    break
            if found is not None:
                self._cls = weakref.ref(found)
        return found

    def written_params(self) -> frozenset:
        """Positions and names of the parameters this function changes in place
        (``t.copy_(...)``, ``t.mul_(...)``, ``t[i] = v``, ``t += v``)."""
        if self._written is None:
            self._written = self._written_params()
        return self._written

    def _written_params(self) -> frozenset:
        args = self.node.args  # type: ignore[attr-defined]
        pos = [a.arg for a in args.posonlyargs + args.args]
        names = set(pos) | {a.arg for a in args.kwonlyargs}
        written = set()
        rebound = set()
        for node in walk_nodes(self.node):  # every call and assignment; the answer is a set
            target = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                m = node.func.attr
                if len(m) > 1 and m.endswith("_") and not m.startswith("_") and \
                        m not in ("requires_grad_", "share_memory_", "detach_", "retain_grad"):
                    target = node.func.value
            elif isinstance(node, (ast.Assign, ast.AugAssign)):
                tgts = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in tgts:
                    if isinstance(t, ast.Subscript):
                        target = t.value
                    elif isinstance(node, ast.AugAssign) and isinstance(t, ast.Name):
                        target = t
                    elif type(node) is ast.Assign and isinstance(t, ast.Name):
                        rebound.add(t.id)
            if isinstance(target, ast.Name) and target.id in names:
                written.add(target.id)
        # a parameter rebound before the write is not the caller's value any more
        written -= rebound
        out = set(written)
        out.update(i for i, n in enumerate(pos) if n in written)
        return frozenset(out)

    def returns(self):
        """The shape every ``return`` of this function agrees on (None: unknown)."""
        if self._ret is not _UNSET:
            return self._ret
        ann = getattr(self.node, "returns", None)
        if ann is not None:
            shape = Evaluator(self.module, self.cls).annotation(ann)
            if shape is not None:
                self._ret = shape
                return shape
        if self._busy:
            return None  # recursion
        self._busy = True
        try:
            self._ret = Evaluator(self.module, self.cls).function_return(self.node)
        except RecursionError:
            self._ret = None
            self._home.index.note(TOO_DEEP)
        finally:
            self._busy = False
        return self._ret

    def graph_summary(self):
        """What this function does to autograd graphs (``summaries.summary_of``: imported for the
        first summary asked, which most files never need)."""
        from .summaries import summary_of

        return summary_of(self)

    def is_property(self) -> bool:
        """Is it read as an attribute (``@property``, ``@functools.cached_property``)?"""
        if self._prop is None:
            self._prop = any((dotted(d) or "").rsplit(".", 1)[-1] in ("property", "cached_property")
                             for d in getattr(self.node, "decorator_list", ()))
        return self._prop

    def drop_nodes(self) -> None:
        """Let go of the tree (``ModuleFacts.drop_tree``); what was worked out stays."""
        self._node = None

    def attach(self, fresh: "FuncFacts") -> None:
        """Take the node of the same function read again (``ModuleFacts.node_of``)."""
        self._node = fresh._node

    def release(self) -> None:
        """Forget the return shape and graph summary worked out (see ``ModuleFacts.release``)."""
        self._ret = _UNSET
        self._graph = None

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<func {self._home.path}:{self.name}>"


class ClassFacts(ProjectClass):
    __slots__ = ("name", "_node", "_line", "_first", "_last", "_home", "_bases", "_nbases",
                 "_base_shapes",
                 "methods", "_attr_exprs", "_attr_where", "_buffers", "fields", "_field_ann",
                 "_own_data",
                 "_data_attr",
                 "is_dataclass", "_category", "_attrs", "_busy", "replaced", "__weakref__")

    def __init__(self, name: str, node: ast.ClassDef, module: ProjectModule) -> None:
        self.name = name
        self._node: Optional[ast.ClassDef] = node
        self._line = node.lineno
        self._first, self._last = first_line(node), node.end_lineno or node.lineno
        self._home = module.home
        self._bases: Optional[List[ast.expr]] = list(node.bases)
        self._nbases = len(node.bases)
        #: base position -> what it resolves to, worked out once (kept without the tree)
        self._base_shapes: Dict[int, object] = {}
        self.methods: Dict[str, FuncFacts] = {}
        # method bodies are scanned for ``self.x = ...`` only when an attribute is asked for
        self._attr_exprs: Optional[Dict[str, List[Tuple[str, ast.expr]]]] = None
        #: once the methods were scanned: attr -> the methods binding it, in the scan's order,
        #: kept when the tree is let go so that an attribute asked later costs the methods
        #: binding it, not every method read again (none at all for one no method binds)
        self._attr_where: Optional[Dict[str, Tuple[str, ...]]] = None
        #: ``register_buffer``/``register_parameter`` names -> the value; without the tree,
        #: None (not a tensor) or True (a tensor)
        self._buffers: Dict[str, object] = {}
        #: names bound in the class body (fields of a NamedTuple/dataclass, class attributes)
        self.fields: Set[str] = set()
        #: the dotted annotation of each field the class body annotates (``obs: torch.Tensor``
        #: in a dataclass): what an instance's attribute is where no method binds it
        self._field_ann: Dict[str, str] = {}
        self._own_data = False
        self._data_attr: Optional[bool] = None
        self.is_dataclass = any(
            (dotted(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] == "dataclass"
            for d in node.decorator_list)
        self._category: object = _UNSET
        self._attrs: Dict[str, object] = {}
        self._busy = False
        #: methods the module replaces after the class is made (``A.make = other``): no
        #: summary of the ``def`` holds for them (issue 45)
        self.replaced: Set[str] = set()
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.methods[stmt.name] = FuncFacts(stmt.name, stmt, module, self)
                if stmt.name == "data":
                    self._own_data = True
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                self.fields.add(stmt.target.id)
                ann = dotted(stmt.annotation)
                if ann is not None:
                    self._field_ann[stmt.target.id] = ann
            elif isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        self.fields.add(t.id)
        if "data" in self.fields:
            self._own_data = True

    @property
    def module(self) -> ProjectModule:
        return self._home.module()

    @property
    def node(self) -> ast.ClassDef:
        """The ``class`` statement (read again when the index let the tree go: ``drop_tree``)."""
        node = self._node
        return node if node is not None else self._home.module().node_of(self)  # type: ignore[return-value]

    def constructor_fields(self) -> Optional[Tuple[str, ...]]:
        """The fields a call of the class fills, in order, when it is a dataclass or a
        ``NamedTuple`` class whose instance keeps what it was given (no ``__init__``,
        ``__post_init__`` or ``__new__`` of its own): its annotated names; else None."""
        if not (self.is_dataclass or any((dotted(b) or "").split(".")[-1] == "NamedTuple"
                                         for b in self.bases)) or \
                {"__init__", "__post_init__", "__new__"} & set(self.methods):
            return None
        return tuple(s.target.id for s in self.node.body
                     if type(s) is ast.AnnAssign and type(s.target) is ast.Name and
                     not (dotted(s.annotation) or "").endswith("ClassVar"))

    @property
    def bases(self) -> List[ast.expr]:
        got = self._bases
        return got if got is not None else list(self.node.bases)

    def base_shape(self, i: int):
        """What base ``i`` resolves to in the module's namespace, worked out once."""
        shapes = self._base_shapes
        if i in shapes:
            return shapes[i]
        got = shapes[i] = self.module.resolve_expr(self.bases[i])
        return got

    def drop_nodes(self) -> None:
        """Let go of the tree (``ModuleFacts.drop_tree``); what was worked out stays: which
        methods bind which attributes and what each buffer is (``_attr_where``)."""
        exprs = self._attr_exprs
        if exprs is not None:
            self._attr_where = {attr: tuple(dict.fromkeys(m for m, _ in found))
                                for attr, found in exprs.items()}
            self._buffers = {name: None if _none_value(value) else True
                             for name, value in self._buffers.items()}
        self._node = self._bases = self._attr_exprs = None
        for f in self.methods.values():
            f.drop_nodes()

    def attach(self, fresh: "ClassFacts") -> None:
        """Take the nodes of the same class read again (``ModuleFacts.node_of``)."""
        self._node, self._bases = fresh._node, fresh._bases
        for name, f in self.methods.items():
            g = fresh.methods.get(name)
            if g is not None:
                f.attach(g)

    @property
    def attr_exprs(self) -> Dict[str, List[Tuple[str, ast.expr]]]:
        """``self.x = <expr>`` in any method: attr -> [(method name, expr)]."""
        if self._attr_exprs is None:
            self._attr_exprs = {}
            self._buffers = {}
            for f in self.methods.values():
                self._scan_method(f.node)
        return self._attr_exprs

    @property
    def buffers(self) -> Dict[str, object]:
        """``register_buffer``/``register_parameter`` names -> the value (None: not a tensor;
        True: a tensor, after the tree was let go)."""
        if self._attr_where is None:
            self.attr_exprs  # noqa: B018 - scans the methods once
        return self._buffers

    def _exprs_of(self, name: str) -> Optional[List[Tuple[str, ast.expr]]]:
        """``attr_exprs.get(name)``; after the tree was let go, from the methods binding
        ``name`` alone (``_attr_where``), read again in the same order."""
        where = self._attr_where
        if self._attr_exprs is not None or where is None:
            return self.attr_exprs.get(name)
        methods = where.get(name)
        if not methods:
            return None
        found: Dict[str, List[Tuple[str, ast.expr]]] = {}
        for m in methods:
            _self_assigns(self.methods[m].node, found, name)
        return found.get(name)

    @property
    def own_data(self) -> bool:
        """Does the class bind its own ``data`` (a method, property, field or attribute)?"""
        if self._own_data:
            return True
        if self._data_attr is None:
            where = self._attr_where
            self._data_attr = "data" in (self.attr_exprs if where is None else where)
        return self._data_attr

    def _scan_method(self, fn: ast.AST) -> None:
        me = _self_assigns(fn, self._attr_exprs)  # type: ignore[arg-type]
        if me is None:
            return
        spots = self.module.word_lines("register_")
        if spots is not None and not lines_hold(spots, fn):
            return
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("register_buffer", "register_parameter") \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == me \
                    and len(node.args) >= 2 and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                self._buffers[node.args[0].value] = node.args[1]

    # -- what the class is -------------------------------------------------------------------
    def category(self) -> Optional[str]:
        """``module``, ``optimizer``, ``tensor``, ``dataset``, ``record`` (NamedTuple/dataclass),
        ``plain`` (only project or builtin bases) or None (an outside base we do not know)."""
        if self._category is not _UNSET:
            return self._category  # type: ignore[return-value]
        if self._busy:
            return None
        self._busy = True
        try:
            self._category = self._compute_category()
        finally:
            self._busy = False
        return self._category  # type: ignore[return-value]

    def _compute_category(self) -> Optional[str]:
        if self.is_dataclass:
            return "record"
        result = "plain"
        for i in range(self._nbases):
            cat = category_of(self.base_shape(i))
            if cat in ("tensor", "module", "optimizer"):
                return cat
            if cat in ("dataset", "record"):
                result = cat
            elif cat is None:
                result = None if result == "plain" else result
        if not self._nbases:
            return "plain"
        return result

    def method(self, name: str, _seen: Optional[Set[int]] = None) -> Optional[FuncFacts]:
        """A method of this class or of a project base class."""
        if name in self.replaced:
            return None
        f = self.methods.get(name)
        if f is not None:
            return f
        return self._from_bases(_seen or set(), lambda base, seen: base.method(name, seen))

    def _from_bases(self, seen: Set[int], get):
        """The first non-None ``get(base, seen)`` over the project base classes, each class
        visited once (``seen``: ids of the classes already asked)."""
        if id(self) in seen:
            return None
        seen.add(id(self))
        for i in range(self._nbases):
            shape = self.base_shape(i)
            if isinstance(shape, ClassFacts):
                got = get(shape, seen)
                if got is not None:
                    return got
        return None

    def attr(self, name: str, _seen: Optional[Set[int]] = None):
        """The shape of ``instance.name`` as the class (or a project base) binds it."""
        if name in self._attrs:
            return self._attrs[name]
        self._attrs[name] = None  # recursion guard
        shape = self._attr(name, _seen or set())
        self._attrs[name] = shape
        return shape

    def _attr(self, name: str, seen: Set[int]):
        buffers = self.buffers
        if name in buffers:
            return None if _none_value(buffers[name]) else TENSOR
        exprs = self._exprs_of(name)
        if exprs:
            shapes = []
            for m, e in exprs:
                cls_method = self.methods.get(m)
                ev = Evaluator(self.module, self, cls_method.node if cls_method else None)
                shapes.append(ev.eval(e))
            return join_alternatives(shapes)
        ann = self._field_ann.get(name)
        if ann is not None:  # a field the class body annotates, which no method binds
            return Evaluator(self.module, self).annotation(ast.parse(ann, mode="eval").body)
        return self._from_bases(seen, lambda base, seen: base._attr(name, seen))

    def has_own_data(self, _seen: Optional[Set[int]] = None) -> bool:
        if self.own_data:
            return True
        seen = _seen or set()
        if id(self) in seen:
            return False
        seen.add(id(self))
        for i in range(self._nbases):
            shape = self.base_shape(i)
            if isinstance(shape, ClassFacts) and shape.has_own_data(seen):
                return True
            if category_of(shape) == "record":
                return True
        return False

    def release(self) -> None:
        """Forget the attribute shapes and return shapes worked out (see
        ``ModuleFacts.release``)."""
        self._attrs = {}
        self._base_shapes = {}
        self._category = _UNSET
        for f in self.methods.values():
            f.release()

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<class {self._home.path}:{self.name}>"


_UNSET = object()


def _self_assigns(fn: ast.AST, into: Dict[str, List[Tuple[str, ast.expr]]],
                  only: Optional[str] = None) -> Optional[str]:
    """Add the ``self.x = <expr>`` of method ``fn`` (only those of attribute ``only`` when
    given) to ``into`` as attr -> [(method name, expr)], in ``ast.walk``'s order; the name of
    its first parameter (None: it has none, nothing is bound)."""
    args = fn.args.posonlyargs + fn.args.args  # type: ignore[attr-defined]
    if not args:
        return None
    me = args[0].arg
    # assignments are statements: walking statements alone finds them all, in ast.walk's order
    for node in statements(fn):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t, v in _paired(targets, node.value):
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
                        and t.value.id == me and v is not None \
                        and (only is None or t.attr == only):
                    into.setdefault(t.attr, []).append((fn.name, v))  # type: ignore[attr-defined]
    return me


def _paired(targets, value):
    """(target, value) of each target of an assignment, and of each item of a tuple target
    given a display of as many items (``self.a, self.b = x, y``; no ``*`` on either side)."""
    for t in targets:
        if isinstance(t, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
                and len(t.elts) == len(value.elts) and not any(
                    isinstance(e, ast.Starred) for e in t.elts + value.elts):
            yield from zip(t.elts, value.elts)
        else:
            yield t, value


def _none_value(value: object) -> bool:
    """A buffer registered with no tensor (``register_buffer("b", None)``)."""
    return value is None or (isinstance(value, ast.Constant) and value.value is None)


def category_of(shape) -> Optional[str]:
    if isinstance(shape, ClassFacts):
        return shape.category()
    if type(shape) is Qual:
        q = shape.qual
        if q in ("torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter") or \
                q in PARAMETER_SUBCLASSES:
            return "tensor"
        if q in ("torch.nn.Module", "torch.nn.modules.module.Module") or torch_api.is_layer(q) or (
                q.startswith("torch.nn.") and q.rsplit(".", 1)[1].lstrip("_")[:1].isupper()
                and q not in ("torch.nn.Parameter", "torch.nn.parameter.Parameter")) or \
                torch_api.is_module_base(q):
            return "module"
        if q.startswith("torch.optim.") and (torch_api.is_optimizer(q) or q.endswith(".Optimizer")):
            return "optimizer"
        if q.startswith("torch.utils.data.") and q.endswith(("Dataset", "Sampler", "DataLoader")):
            return "dataset"
        if q in ("typing.NamedTuple", "NamedTuple", "collections.namedtuple", "typing.TypedDict"):
            return "record"
        if q in BUILTIN_BASES:
            return "plain"
        return None
    if type(shape) is NamedTupleClass:
        return "record"
    return None


BUILTIN_BASES = frozenset({"object", "dict", "list", "tuple", "Exception", "ValueError",
                           "abc.ABC", "ABC", "typing.Generic", "Generic", "enum.Enum", "Enum"})
