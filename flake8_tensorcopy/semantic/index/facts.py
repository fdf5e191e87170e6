"""What the project's own modules define, read with ``ast``: one ``ModuleFacts`` per module
(its top-level classes, functions, imports and simple assignments), ``ClassFacts`` (bases,
methods, what ``self.x`` is bound to, registered buffers, whether it has its own ``data``) and
``FuncFacts`` (what it returns, which parameters it writes into). Everything is worked out
lazily, when the analysis of a linted file asks, in the lattice of ``kinds``; ``evaluate`` does
the expression work, ``resolve`` finds and caches the modules.
"""
from __future__ import annotations

import ast
import os
import weakref
from typing import Dict, List, Optional, Set, Tuple

from ...syntax.prefilter import dotted, statements, walk_nodes
from ...syntax.source import line_numbers, line_starts, occurrences
from .. import torch_api
from ..kinds import (
    PARAMETER_SUBCLASSES, TENSOR, NamedTupleClass, ProjectClass, ProjectFunction, ProjectModule, Qual,
    join_alternatives, join_call_sites,
)
from .evaluate import (
    CALLED_ANY, DEF_BEFORE, TOO_DEEP, CallSites, Evaluator, called, lines_hold,
)


# ---- facts of one module ------------------------------------------------------------------

class _Home:
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

    def __init__(self, module: "ModuleFacts") -> None:
        self.path = module.path
        self.index = module.index
        self._ref = weakref.ref(module)

    def module(self) -> "ModuleFacts":
        found = self._ref()
        if found is None:
            found = self.index.load_path(self.path)
            if found is None:  # gone or unreadable now: a module that defines nothing
                found = ModuleFacts(self.path, ast.Module(body=[], type_ignores=[]), self.index, "")
                self._ref = lambda: found  # noqa: E731 - kept for the definitions that ask
            else:
                self._ref = weakref.ref(found)
        return found


class FuncFacts(ProjectFunction):
    __slots__ = ("name", "_node", "_line", "_home", "_cls", "_ret", "_busy", "_written",
                 "_prop")

    def __init__(self, name: str, node: ast.AST, module: "ModuleFacts",
                 cls: Optional["ClassFacts"] = None) -> None:
        self.name = name
        self._node: Optional[ast.AST] = node
        self._line: int = node.lineno  # type: ignore[attr-defined]
        self._home = module.home
        #: the class (a method's): weak, as the class owns its methods
        self._cls = None if cls is None else weakref.ref(cls)
        self._ret: object = _UNSET
        self._busy = False
        self._written: Optional[frozenset] = None
        self._prop: Optional[bool] = None

    @property
    def node(self) -> ast.AST:
        """The ``def`` (read again when the index let the module's tree go: ``drop_tree``)."""
        node = self._node
        return node if node is not None else self._home.module().node_of(self)

    @property
    def module(self) -> "ModuleFacts":
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
        """Forget the return shape worked out (see ``ModuleFacts.release``)."""
        self._ret = _UNSET

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<func {self._home.path}:{self.name}>"


class ClassFacts(ProjectClass):
    __slots__ = ("name", "_node", "_line", "_home", "_bases", "_nbases", "_base_shapes",
                 "methods", "_attr_exprs", "_buffers", "fields", "_own_data", "_data_attr",
                 "is_dataclass", "_category", "_attrs", "_busy", "__weakref__")

    def __init__(self, name: str, node: ast.ClassDef, module: "ModuleFacts") -> None:
        self.name = name
        self._node: Optional[ast.ClassDef] = node
        self._line = node.lineno
        self._home = module.home
        self._bases: Optional[List[ast.expr]] = list(node.bases)
        self._nbases = len(node.bases)
        #: base position -> what it resolves to, worked out once (kept without the tree)
        self._base_shapes: Dict[int, object] = {}
        self.methods: Dict[str, FuncFacts] = {}
        # method bodies are scanned for ``self.x = ...`` only when an attribute is asked for
        self._attr_exprs: Optional[Dict[str, List[Tuple[str, ast.expr]]]] = None
        self._buffers: Dict[str, Optional[ast.expr]] = {}
        #: names bound in the class body (fields of a NamedTuple/dataclass, class attributes)
        self.fields: Set[str] = set()
        self._own_data = False
        self._data_attr: Optional[bool] = None
        self.is_dataclass = any(
            (dotted(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] == "dataclass"
            for d in node.decorator_list)
        self._category: object = _UNSET
        self._attrs: Dict[str, object] = {}
        self._busy = False
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.methods[stmt.name] = FuncFacts(stmt.name, stmt, module, self)
                if stmt.name == "data":
                    self._own_data = True
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                self.fields.add(stmt.target.id)
            elif isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        self.fields.add(t.id)
        if "data" in self.fields:
            self._own_data = True

    @property
    def module(self) -> "ModuleFacts":
        return self._home.module()

    @property
    def node(self) -> ast.ClassDef:
        """The ``class`` statement (read again when the index let the tree go: ``drop_tree``)."""
        node = self._node
        return node if node is not None else self._home.module().node_of(self)  # type: ignore[return-value]

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
        """Let go of the tree (``ModuleFacts.drop_tree``); what was worked out stays."""
        self._node = self._bases = self._attr_exprs = None
        self._buffers = {}
        for f in self.methods.values():
            f._node = None

    def attach(self, fresh: "ClassFacts") -> None:
        """Take the nodes of the same class read again (``ModuleFacts.node_of``)."""
        self._node, self._bases = fresh._node, fresh._bases
        for name, f in self.methods.items():
            g = fresh.methods.get(name)
            f._node = g._node if g is not None else None

    @property
    def attr_exprs(self) -> Dict[str, List[Tuple[str, ast.expr]]]:
        """``self.x = <expr>`` in any method: attr -> [(method name, expr)]."""
        if self._attr_exprs is None:
            self._attr_exprs = {}
            for f in self.methods.values():
                self._scan_method(f.node)
        return self._attr_exprs

    @property
    def buffers(self) -> Dict[str, Optional[ast.expr]]:
        """``register_buffer``/``register_parameter`` names -> the value (None: not a tensor)."""
        self.attr_exprs  # noqa: B018 - scans the methods once
        return self._buffers

    @property
    def own_data(self) -> bool:
        """Does the class bind its own ``data`` (a method, property, field or attribute)?"""
        if self._own_data:
            return True
        if self._data_attr is None:
            self._data_attr = "data" in self.attr_exprs
        return self._data_attr

    def _scan_method(self, fn: ast.AST) -> None:
        args = fn.args.posonlyargs + fn.args.args  # type: ignore[attr-defined]
        if not args:
            return
        me = args[0].arg
        # assignments are statements: walking statements alone finds them all, in ast.walk's order
        for node in statements(fn):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
                            and t.value.id == me and node.value is not None:
                        self._attr_exprs.setdefault(t.attr, []).append((fn.name, node.value))  # type: ignore[union-attr,attr-defined]
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
            cat = _category_of(self.base_shape(i))
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
        if name in self.buffers:
            value = self.buffers[name]
            if value is None or (isinstance(value, ast.Constant) and value.value is None):
                return None
            return TENSOR
        exprs = self.attr_exprs.get(name)
        if exprs:
            shapes = []
            for m, e in exprs:
                cls_method = self.methods.get(m)
                ev = Evaluator(self.module, self, cls_method.node if cls_method else None)
                shapes.append(ev.eval(e))
            return join_alternatives(shapes)
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
            if _category_of(shape) == "record":
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


def _category_of(shape) -> Optional[str]:
    if isinstance(shape, ClassFacts):
        return shape.category()
    if type(shape) is Qual:
        q = shape.qual
        if q in ("torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter") or \
                q in PARAMETER_SUBCLASSES:
            return "tensor"
        if q in ("torch.nn.Module", "torch.nn.modules.module.Module") or torch_api.is_layer(q) or (
                q.startswith("torch.nn.") and q.rsplit(".", 1)[1].lstrip("_")[:1].isupper()
                and q not in ("torch.nn.Parameter", "torch.nn.parameter.Parameter")):
            return "module"
        if q.startswith("torch.optim.") and (torch_api.is_optimizer(q) or q.endswith(".Optimizer")):
            return "optimizer"
        if q.startswith("torch.utils.data.") and q.endswith(("Dataset", "Sampler", "DataLoader")):
            return "dataset"
        if q in ("typing.NamedTuple", "NamedTuple", "collections.namedtuple", "typing.TypedDict"):
            return "record"
        if q in _BUILTIN_BASES:
            return "plain"
        return None
    if type(shape) is NamedTupleClass:
        return "record"
    return None


_BUILTIN_BASES = frozenset({"object", "dict", "list", "tuple", "Exception", "ValueError",
                            "abc.ABC", "ABC", "typing.Generic", "Generic", "enum.Enum", "Enum"})


class ModuleFacts(ProjectModule):
    """Top-level definitions and imports of one module (lazily evaluated)."""

    #: names whose call lines are searched for one by one before one pass finds every name's
    INDEX_AFTER = 8

    def __init__(self, path: str, tree: ast.Module, index,
                 text: Optional[str] = None, data: Optional[bytes] = None) -> None:
        self.path = path
        #: the bytes the tree was parsed from (None: the linted file's own facts): what the
        #: tree is read again from after ``drop_tree``
        self.data = data
        self.index = index
        #: what its definitions hold to reach it (not the module itself: see ``_Home``)
        self.home = _Home(self)
        #: the module's source text when known: only ever used to skip work (a name that does
        #: not occur in it cannot be called or assigned there), never as evidence
        self.text = text
        self.defs: Dict[str, object] = {}  # name -> ClassFacts | FuncFacts
        self.imports: Dict[str, Tuple] = {}  # name -> ("module", dotted, level) | ("from", module, level, name)
        self.stars: List[Tuple[str, int]] = []
        self._assigns: Optional[Dict[str, ast.expr]] = {}
        self._tree: Optional[ast.Module] = tree
        #: function name -> its calls in this module (argument shapes), worked out when asked
        self._call_sites: Dict[str, List[Tuple[List[object], Dict[str, object]]]] = {}
        self._collector: Optional[CallSites] = None
        self._call_lines: Dict[str, Optional[List[int]]] = {}
        #: every name -> the lines where it may be called, from one pass over the text (made
        #: once more than ``CallSites.BATCH_AFTER`` names were asked about one by one)
        self._call_index: Optional[Dict[str, List[int]]] = None
        self._is_ascii: Optional[bool] = None
        self._word_lines: Dict[str, object] = {}
        self._starts: Optional[List[int]] = None
        self._scan(tree.body)
        #: what a top-level ``name = value`` binds, told from the tree once: ``namedtuple``,
        #: ``name`` (a dotted name, resolved when asked and kept: ``_assign_shapes``) or
        #: ``other``; the tree is let go between files (``drop_tree``), these stay
        self._assign_kinds = {name: _assign_kind(value)
                              for name, value in self._assigns.items()}  # type: ignore[union-attr]
        self._assign_shapes: Dict[Tuple[str, int], object] = {}

    # -- the tree, let go between files and read again when asked ------------------------------
    @property
    def tree(self) -> ast.Module:
        if self._tree is None:
            self._materialize()
        return self._tree  # type: ignore[return-value]

    @property
    def assigns(self) -> Dict[str, ast.expr]:
        if self._assigns is None:
            self._materialize()
        return self._assigns  # type: ignore[return-value]

    def drop_tree(self) -> None:
        """Let go of the tree and every node the facts hold, keeping what was worked out from
        them (names, return shapes, attribute shapes, call sites): a module's tree is tens of
        thousands of objects that the cyclic collector walks for as long as they live, so in
        flake8's process (``ProjectIndex.keep_facts_only``) no tree outlives the analysis that
        read it, while its facts serve the files after it. Only a module read from its bytes."""
        if self.data is None:
            return
        self._tree = self._assigns = None
        self._collector = None
        for d in self.defs.values():
            d.drop_nodes()  # type: ignore[attr-defined]

    def _materialize(self) -> None:
        """Read the tree again from the same bytes and give each definition its nodes back."""
        tree = ast.parse(self.data, filename=self.path)  # type: ignore[arg-type]
        fresh = ModuleFacts(self.path, tree, self.index, self.text)
        self._tree, self._assigns = tree, fresh._assigns
        for name, d in self.defs.items():
            same = fresh.defs.get(name)
            if type(same) is type(d):
                d.attach(same)  # type: ignore[attr-defined]
        self.index.holds_tree(self)

    def node_of(self, d) -> ast.AST:
        """The node of definition ``d`` of this module, its tree read again if let go. A
        definition of an earlier reading of the module (one the index let go) finds its node
        by name and line."""
        if self._tree is None:
            self._materialize()
        node = d._node
        if node is None:
            kinds = (ast.ClassDef,) if isinstance(d, ClassFacts) else (
                ast.FunctionDef, ast.AsyncFunctionDef)
            for stmt in statements(self._tree):
                if isinstance(stmt, kinds) and stmt.name == d.name and stmt.lineno == d._line:
                    return stmt
            # gone from the file: an empty definition of that name
            node = ast.parse(f"class {d.name}: pass" if kinds[0] is ast.ClassDef
                             else f"def {d.name}(): pass").body[0]
        return node

    def _scan(self, body, nested: bool = False) -> None:
        for stmt in body:
            if nested and isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Assign)) and any(
                    n in self.defs for n in _bound_names(stmt)):
                continue  # ``if __name__ == "__main__": from this_module import X``
            if isinstance(stmt, ast.ClassDef):
                self.defs[stmt.name] = ClassFacts(stmt.name, stmt, self)
                self._assigns.pop(stmt.name, None)  # type: ignore[union-attr]
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.defs[stmt.name] = FuncFacts(stmt.name, stmt, self)
                self._assigns.pop(stmt.name, None)  # type: ignore[union-attr]
            elif isinstance(stmt, ast.Import):
                for a in stmt.names:
                    if a.asname:
                        self.imports[a.asname] = ("module", a.name, 0)
                    else:
                        top = a.name.split(".", 1)[0]
                        self.imports[top] = ("module", top, 0)
                    self.defs.pop(a.asname or a.name.split(".", 1)[0], None)
            elif isinstance(stmt, ast.ImportFrom):
                mod = stmt.module or ""
                for a in stmt.names:
                    if a.name == "*":
                        self.stars.append((mod, stmt.level))
                    else:
                        self.imports[a.asname or a.name] = ("from", mod, stmt.level, a.name)
                        self.defs.pop(a.asname or a.name, None)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                    and isinstance(stmt.targets[0], ast.Name):
                self._assigns[stmt.targets[0].id] = stmt.value  # type: ignore[index]
            elif isinstance(stmt, (ast.If, ast.Try)):
                # ``try: from apex import X / except ImportError: X = None``: take the body
                self._scan(stmt.body, nested=True)

    def release(self) -> None:
        """Forget what was worked out lazily, when the index (or the linted file's analysis)
        lets the module go. A shape worked out may point back at what holds it (a class whose
        attribute is an instance of itself, a method that returns one): a cycle that only the
        garbage collector's full passes would free, with the module's whole ``ast``. Whoever
        still holds a definition of it works the shapes out again."""
        self._call_sites = {}
        self._collector = None
        self._assign_shapes = {}
        for d in self.defs.values():
            d.release()  # type: ignore[attr-defined]

    def _lines_of(self, offsets) -> List[int]:
        if self._starts is None:
            self._starts = line_starts(self.text or "")
        return line_numbers(self._starts, offsets)

    def call_lines(self, name: str) -> Optional[List[int]]:
        """The sorted lines where the bare name ``name`` may be called, from the text (a
        superset of the real calls). None when the text is unknown."""
        got = self._call_lines.get(name, _UNSET)
        if got is _UNSET:
            text = self.text
            if text is None:
                got = None
            elif self._call_index is not None or (
                    len(self._call_lines) >= self.INDEX_AFTER and self._ascii()):
                got = self._calls_by_name().get(name, [])
            else:
                got = self._lines_of(
                    m.start() for m in called(name).finditer(text)
                    # ``def name(``: the definition, not a call
                    if not DEF_BEFORE.search(text, max(0, m.start() - 16), m.start()))
            self._call_lines[name] = got
        return got  # type: ignore[return-value]

    def _ascii(self) -> bool:
        """Is the text ASCII? (``CALLED_ANY`` reads names as ``\\w`` runs, which are Python's
        identifiers there)"""
        if self._is_ascii is None:
            self._is_ascii = (self.text or "").isascii()
        return self._is_ascii

    def _calls_by_name(self) -> Dict[str, List[int]]:
        """``call_lines`` of every name, from one pass over the (ASCII) text: a module of many
        functions is not searched once per function."""
        if self._call_index is None:
            text = self.text or ""
            found: Dict[str, List[int]] = {}
            for m in CALLED_ANY.finditer(text):
                if not DEF_BEFORE.search(text, max(0, m.start() - 16), m.start()):
                    found.setdefault(m.group(1), []).append(m.start())
            self._call_index = {name: self._lines_of(offsets) for name, offsets in found.items()}
        return self._call_index

    def all_call_lines(self, names) -> Optional[List[int]]:
        """The sorted lines where any of ``names`` may be called (None: the text is unknown)."""
        if self.text is None or not self._ascii():
            return None  # every statement may call them
        index = self._calls_by_name()
        return sorted({ln for name in names for ln in index.get(name, ())})

    def word_lines(self, word: str) -> Optional[List[int]]:
        """The sorted line numbers where ``word`` occurs in the text (None: text unknown)."""
        got = self._word_lines.get(word, _UNSET)
        if got is _UNSET:
            got = None if self.text is None else self._lines_of(occurrences(self.text, word))
            self._word_lines[word] = got
        return got  # type: ignore[return-value]

    # -- names -------------------------------------------------------------------------------
    def lookup(self, name: str, _depth: int = 0):
        """The shape of the module-level ``name`` (None: unknown or not defined here)."""
        if _depth > 8:
            return None
        d = self.defs.get(name)
        if d is not None:
            return d
        imp = self.imports.get(name)
        if imp is not None:
            return self.index.resolve_import(self.path, imp, _depth)
        what = self._assign_kinds.get(name)
        if what is not None:
            if what == "namedtuple":
                return NamedTupleClass(name)
            if what == "name":
                key = (name, _depth)
                if key in self._assign_shapes:
                    return self._assign_shapes[key]
                got = self._assign_shapes[key] = self.resolve_expr(self.assigns[name], _depth + 1)
                return got
            return None
        for mod, level in self.stars:
            target = self.index.module_of(self.path, mod, level)
            if isinstance(target, ModuleFacts) and target is not self:
                got = target.lookup(name, _depth + 1)
                if got is not None:
                    return got
        return None

    def param_shapes(self, func: str) -> Dict[str, object]:
        """Shapes of the parameters of top-level function ``func`` that every call of it in
        this module agrees on (``train(loader, model, criterion)`` called with an ``nn.Module``
        and a loss module): parameter name -> shape."""
        fn = self.defs.get(func)
        if not isinstance(fn, FuncFacts):
            return {}
        args = fn.node.args  # type: ignore[attr-defined]
        if args.vararg is not None or args.kwarg is not None:
            return {}  # before the call sites: their collection is most of the cost
        sites = self._call_sites.get(func)
        if sites is None:
            if self._collector is None:
                self._collector = CallSites(self)
            sites = self._call_sites[func] = self._collector.of(func)
        if not sites:
            return {}
        pos = [a.arg for a in args.posonlyargs + args.args]
        names = pos + [a.arg for a in args.kwonlyargs]
        out: Dict[str, object] = {}
        for name in names:
            shapes = []
            for positional, keywords in sites:
                i = pos.index(name) if name in pos else -1
                if 0 <= i < len(positional):
                    shapes.append(positional[i])
                elif name in keywords:
                    shapes.append(keywords[name])
                else:
                    shapes.append(None)  # the default
            merged = join_call_sites(shapes)
            if merged is not None:
                out[name] = merged
        return out

    def member(self, name: str, _depth: int = 0):
        """``module.name``: a definition here, or a submodule of a package."""
        got = self.lookup(name, _depth)
        if got is None and os.path.basename(self.path) == "__init__.py":
            sub = self.index.load_path(
                self.index._module_file(os.path.dirname(self.path), name))
            if sub is not None:
                return sub
        return got

    def resolve_expr(self, node: ast.expr, _depth: int = 0):
        """A dotted name (``nn.Module``, ``models.Generator``) in this module's namespace."""
        if isinstance(node, ast.Name):
            if node.id in _BUILTIN_BASES:
                return Qual(node.id)
            got = self.lookup(node.id, _depth)
            return got
        if isinstance(node, ast.Attribute):
            base = self.resolve_expr(node.value, _depth)
            if type(base) is Qual:
                return Qual(f"{base.qual}.{node.attr}")
            if isinstance(base, ModuleFacts):
                return base.member(node.attr, _depth + 1)
            return None
        if isinstance(node, ast.Subscript):  # Generic[T], NamedTuple subscripts
            return self.resolve_expr(node.value, _depth)
        return None


def _assign_kind(value: ast.expr) -> str:
    if isinstance(value, ast.Call) and dotted(value.func) in (
            "namedtuple", "collections.namedtuple", "NamedTuple", "typing.NamedTuple"):
        return "namedtuple"
    return "name" if isinstance(value, (ast.Name, ast.Attribute)) else "other"


def _bound_names(stmt) -> List[str]:
    if isinstance(stmt, ast.Import):
        return [a.asname or a.name.split(".", 1)[0] for a in stmt.names]
    if isinstance(stmt, ast.ImportFrom):
        return [a.asname or a.name for a in stmt.names]
    return [t.id for t in stmt.targets if isinstance(t, ast.Name)]

