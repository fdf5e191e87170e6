"""The project index: what the project's own modules define, read with ``ast``.

When a linted file imports from its own project (``from .models import Generator``,
``import utils``, ``from models import *``), the facts that decide whether an expression is a
tensor often sit in that other module: the class bases (``Generator(nn.Module)``), the
``__init__`` bindings (``self.w = nn.Parameter(...)``, ``register_buffer``), what functions and
methods return (``compute_loss`` returns torch ops) and whether a class has its own ``data``.

- Only files under the project root are read (the nearest ancestor of the linted file holding
  ``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git``, plus configured source roots);
  never site-packages. Without such a marker the file's own package tree is the project.
- Modules are read lazily (only what an import reaches, when an expression needs it) with
  ``ast``, and cached per process by (path, mtime_ns, size).
- A module that cannot be found, read or parsed is unknown, never an error.

Shapes (what an expression evaluates to) are small values: ``"T"`` a tensor, ``"L"`` a list of
tensors, ``"O"`` a known non-tensor, ``("seq", (shape, ...))`` a fixed tuple, ``("layer", quals)``
an instance of torch ``nn`` layers, ``"M"`` some ``nn.Module``, ``"OPT"`` an optimizer,
``ClassFacts`` (the class itself), ``("inst", ClassFacts)`` an instance, ``FuncFacts``,
``ModuleFacts``, ``("qual", dotted)`` an outside name (``torch.nn.Linear``), ``None`` unknown.
"""
from __future__ import annotations

import ast
import bisect
import functools
import os
import re
import threading
import time
import weakref
from collections import OrderedDict
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from . import torch_api
from .prefilter import statements
from .source import any_line_within, line_numbers, line_starts, occurrences

__all__ = [
    "find_root", "ProjectIndex", "ModuleFacts", "ClassFacts", "FuncFacts", "index",
    "dependencies",
]

_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
_OUTSIDE = ("site-packages", "dist-packages")
_MAX_FILE = 2_000_000  # bytes: larger modules are not read (generated code)
_TTL = 1.0  # seconds a "module not found" answer is reused (see ``find_module``)
#: modules whose facts one process keeps between linted files (least recently used go first).
#: Small on purpose: their trees are live objects that every full collection of the cyclic garbage
#: collector walks again, in flake8's own work too (dense corpus, flake8 + plugin CPU: 4 modules
#: 9.4-10.5 s, 32 modules 10.4-10.7 s); the language server, which lints the same file and its
#: imports again and again, keeps more (``SERVER_MODULES``)
_MAX_MODULES = 4
SERVER_MODULES = 64


def find_root(path: str) -> Optional[str]:
    """The project root of ``path``: the nearest ancestor holding a project marker; without one,
    the working directory when the file is under it (the linted root: where flake8 and
    ``tensorcopy check`` run), else the outermost directory of the file's package chain (a
    directory of loose scripts: itself)."""
    d = os.path.dirname(os.path.abspath(path))
    probe = d
    while True:
        if any(os.path.exists(os.path.join(probe, m)) for m in _MARKERS):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe or os.path.basename(probe) in _OUTSIDE:
            break
        probe = parent
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = None
    if cwd and cwd != os.path.dirname(cwd) and _within(d + os.sep, cwd) and not any(
            part in _OUTSIDE for part in d[len(cwd):].split(os.sep)):
        return cwd
    top = d
    while os.path.isfile(os.path.join(top, "__init__.py")):
        parent = os.path.dirname(top)
        if parent == top or os.path.basename(parent) in _OUTSIDE:
            break
        if not os.path.isfile(os.path.join(parent, "__init__.py")):
            break
        top = parent
    return top


def _within(path: str, root: str) -> bool:
    root = root.rstrip(os.sep) + os.sep
    return path.startswith(root)


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


class FuncFacts:
    __slots__ = ("name", "node", "_home", "_cls", "_ret", "_busy")

    def __init__(self, name: str, node: ast.AST, module: "ModuleFacts",
                 cls: Optional["ClassFacts"] = None) -> None:
        self.name = name
        self.node = node
        self._home = module.home
        #: the class (a method's): weak, as the class owns its methods
        self._cls = None if cls is None else weakref.ref(cls)
        self._ret: object = _UNSET
        self._busy = False

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
                        d.methods[self.name].node.lineno == self.node.lineno:  # type: ignore[attr-defined]
                    found = d
                    break
            if found is not None:
                self._cls = weakref.ref(found)
        return found

    def written_params(self) -> frozenset:
        """Positions and names of the parameters this function changes in place
        (``t.copy_(...)``, ``t.mul_(...)``, ``t[i] = v``, ``t += v``)."""
        args = self.node.args  # type: ignore[attr-defined]
        pos = [a.arg for a in args.posonlyargs + args.args]
        names = set(pos) | {a.arg for a in args.kwonlyargs}
        written = set()
        rebound = set()
        for node in ast.walk(self.node):
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
            shape = _Evaluator(self.module, self.cls)._annotation(ann)
            if shape is not None:
                self._ret = shape
                return shape
        if self._busy:
            return None  # recursion
        self._busy = True
        try:
            self._ret = _Evaluator(self.module, self.cls).function_return(self.node)
        except RecursionError:
            self._ret = None
        finally:
            self._busy = False
        return self._ret

    def release(self) -> None:
        """Forget the return shape worked out (see ``ModuleFacts.release``)."""
        self._ret = _UNSET

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<func {self._home.path}:{self.name}>"


class ClassFacts:
    __slots__ = ("name", "node", "_home", "bases", "methods", "_attr_exprs", "_buffers",
                 "fields", "_own_data", "is_dataclass", "_category", "_attrs", "_busy",
                 "__weakref__")

    def __init__(self, name: str, node: ast.ClassDef, module: "ModuleFacts") -> None:
        self.name = name
        self.node = node
        self._home = module.home
        self.bases = list(node.bases)
        self.methods: Dict[str, FuncFacts] = {}
        # method bodies are scanned for ``self.x = ...`` only when an attribute is asked for
        self._attr_exprs: Optional[Dict[str, List[Tuple[str, ast.expr]]]] = None
        self._buffers: Dict[str, Optional[ast.expr]] = {}
        #: names bound in the class body (fields of a NamedTuple/dataclass, class attributes)
        self.fields: Set[str] = set()
        self._own_data = False
        self.is_dataclass = any(
            (_dotted(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] == "dataclass"
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
        return self._own_data or "data" in self.attr_exprs

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
        if spots is not None and not _lines_hold(spots, fn):
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
        for base in self.bases:
            shape = self.module.resolve_expr(base)
            cat = _category_of(shape)
            if cat in ("tensor", "module", "optimizer"):
                return cat
            if cat in ("dataset", "record"):
                result = cat
            elif cat is None:
                result = None if result == "plain" else result
        if not self.bases:
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
        for base in self.bases:
            shape = self.module.resolve_expr(base)
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
            return "T"
        exprs = self.attr_exprs.get(name)
        if exprs:
            shapes = []
            for m, e in exprs:
                cls_method = self.methods.get(m)
                ev = _Evaluator(self.module, self, cls_method.node if cls_method else None)
                shapes.append(ev.eval(e))
            return _merge_all(shapes)
        return self._from_bases(seen, lambda base, seen: base._attr(name, seen))

    def has_own_data(self, _seen: Optional[Set[int]] = None) -> bool:
        if self.own_data:
            return True
        seen = _seen or set()
        if id(self) in seen:
            return False
        seen.add(id(self))
        for base in self.bases:
            shape = self.module.resolve_expr(base)
            if isinstance(shape, ClassFacts) and shape.has_own_data(seen):
                return True
            if _category_of(shape) == "record":
                return True
        return False

    def release(self) -> None:
        """Forget the attribute shapes and return shapes worked out (see
        ``ModuleFacts.release``)."""
        self._attrs = {}
        for f in self.methods.values():
            f.release()

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<class {self._home.path}:{self.name}>"


_UNSET = object()


def _category_of(shape) -> Optional[str]:
    if isinstance(shape, ClassFacts):
        return shape.category()
    if isinstance(shape, tuple) and shape[0] == "qual":
        q = shape[1]
        if q in ("torch.Tensor", "torch.nn.Parameter", "torch.nn.parameter.Parameter"):
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
    if isinstance(shape, tuple) and shape[0] == "namedtuple":
        return "record"
    return None


_BUILTIN_BASES = frozenset({"object", "dict", "list", "tuple", "Exception", "ValueError",
                            "abc.ABC", "ABC", "typing.Generic", "Generic", "enum.Enum", "Enum"})


class ModuleFacts:
    """Top-level definitions and imports of one module (lazily evaluated)."""

    def __init__(self, path: str, tree: ast.Module, index: "ProjectIndex",
                 text: Optional[str] = None) -> None:
        self.path = path
        self.index = index
        #: what its definitions hold to reach it (not the module itself: see ``_Home``)
        self.home = _Home(self)
        #: the module's source text when known: only ever used to skip work (a name that does
        #: not occur in it cannot be called or assigned there), never as evidence
        self.text = text
        self.defs: Dict[str, object] = {}  # name -> ClassFacts | FuncFacts
        self.imports: Dict[str, Tuple] = {}  # name -> ("module", dotted, level) | ("from", module, level, name)
        self.stars: List[Tuple[str, int]] = []
        self.assigns: Dict[str, ast.expr] = {}
        self.tree = tree
        #: function name -> its calls in this module (argument shapes), worked out when asked
        self._call_sites: Dict[str, List[Tuple[List[object], Dict[str, object]]]] = {}
        self._call_lines: Dict[str, Optional[List[int]]] = {}
        self._word_lines: Dict[str, object] = {}
        self._starts: Optional[List[int]] = None
        self._scan(tree.body)

    def _scan(self, body, nested: bool = False) -> None:
        for stmt in body:
            if nested and isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Assign)) and any(
                    n in self.defs for n in _bound_names(stmt)):
                continue  # ``if __name__ == "__main__": from this_module import X``
            if isinstance(stmt, ast.ClassDef):
                self.defs[stmt.name] = ClassFacts(stmt.name, stmt, self)
                self.assigns.pop(stmt.name, None)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.defs[stmt.name] = FuncFacts(stmt.name, stmt, self)
                self.assigns.pop(stmt.name, None)
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
                self.assigns[stmt.targets[0].id] = stmt.value
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
            else:
                got = self._lines_of(
                    m.start() for m in _called(name).finditer(text)
                    # ``def name(``: the definition, not a call
                    if not _DEF_BEFORE.search(text, max(0, m.start() - 16), m.start()))
            self._call_lines[name] = got
        return got  # type: ignore[return-value]

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
        if name in self.assigns:
            value = self.assigns[name]
            if isinstance(value, ast.Call) and _dotted(value.func) in (
                    "namedtuple", "collections.namedtuple", "NamedTuple", "typing.NamedTuple"):
                return ("namedtuple", name)
            if isinstance(value, (ast.Name, ast.Attribute)):
                return self.resolve_expr(value, _depth + 1)
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
        sites = self._call_sites.get(func)
        if sites is None:
            sites = self._call_sites[func] = _collect_call_sites(self, func)
        if not sites:
            return {}
        args = fn.node.args  # type: ignore[attr-defined]
        if args.vararg is not None or args.kwarg is not None:
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
            merged = _merge_params(shapes)
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
                return ("qual", node.id)
            got = self.lookup(node.id, _depth)
            return got
        if isinstance(node, ast.Attribute):
            base = self.resolve_expr(node.value, _depth)
            if isinstance(base, tuple) and base[0] == "qual":
                return ("qual", f"{base[1]}.{node.attr}")
            if isinstance(base, ModuleFacts):
                return base.member(node.attr, _depth + 1)
            return None
        if isinstance(node, ast.Subscript):  # Generic[T], NamedTuple subscripts
            return self.resolve_expr(node.value, _depth)
        return None


def _bound_names(stmt) -> List[str]:
    if isinstance(stmt, ast.Import):
        return [a.asname or a.name.split(".", 1)[0] for a in stmt.names]
    if isinstance(stmt, ast.ImportFrom):
        return [a.asname or a.name for a in stmt.names]
    return [t.id for t in stmt.targets if isinstance(t, ast.Name)]


def _merge_params(shapes: List[object]):
    """One shape for a parameter from the shapes of its call sites (None: they disagree)."""
    if not shapes or any(s is None for s in shapes):
        return None
    first = shapes[0]
    if all(s == first for s in shapes):
        return first
    if all(_is_module_shape(s) for s in shapes):
        return "M"
    if all(s == "T" for s in shapes):
        return "T"
    return None


def _collect_call_sites(module: ModuleFacts, target: str) -> List[Tuple[List[object], Dict[str, object]]]:
    """Calls of the module's top-level function ``target``, with the shapes of their arguments
    as the calling code has them at that point (module level and inside top-level functions)."""
    sink: Dict[str, List[Tuple[List[object], Dict[str, object]]]] = {}
    targets = {target}
    callers = set()
    top_level_calls = False
    #: sorted lines where the target may be called (None: the text is unknown)
    spots = module.call_lines(target)
    if spots is not None:
        # from the text: a function is a caller when one of the lines lies in its body's lines
        spans = []
        for stmt in module.tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                spans.append((stmt.lineno, stmt.end_lineno or stmt.lineno, stmt))
        for ln in spots:
            i = bisect.bisect_right(spans, (ln, float("inf"))) - 1
            if i >= 0 and spans[i][0] <= ln <= spans[i][1]:
                node = spans[i][2]
                d = module.defs.get(node.name)
                if isinstance(d, FuncFacts) and d.node is node:
                    callers.add(id(d))
            else:
                top_level_calls = True
    else:
        # evaluate only the bodies that call the target (a cheap ast scan first)
        for d in module.defs.values():
            if isinstance(d, FuncFacts) and _calls_any(d.node, targets):
                callers.add(id(d))
        top_level_calls = any(
            _calls_any(stmt, targets) for stmt in module.tree.body
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    if not callers and not top_level_calls:
        return []
    if top_level_calls:
        ev = _Evaluator(module)
        ev.collect = (targets, sink)
        ev.spots, ev.last = spots, (spots[-1] if spots else None)
        try:
            ev._block(module.tree.body, [])
        except _PastLastCall:
            pass
    for d in list(module.defs.values()):
        if isinstance(d, FuncFacts) and id(d) in callers:
            sub = _Evaluator(module, None, d.node)
            sub.collect = (targets, sink)
            sub.spots = spots
            if spots:  # the last spot in its own lines
                sub.last = spots[bisect.bisect_right(spots, d.node.end_lineno or d.node.lineno) - 1]  # type: ignore[attr-defined]
            try:
                sub._block(d.node.body, [])  # type: ignore[attr-defined]
            except (RecursionError, _PastLastCall):
                pass
    return sink.get(target, [])


@functools.lru_cache(maxsize=1024)
def _called(name: str) -> "re.Pattern[str]":
    """Where the bare name ``name`` may be called: followed by ``(`` (after blanks, closing
    parentheses as in ``(name)(x)``, line continuations or comments), never after a dot. The
    separators are matched once, inside a lookahead (atomic in Python's ``re``; possessive
    quantifiers need 3.11): they are told apart by their first character, so giving any back
    could never find a ``(``, and a run of comment lines cannot make the search backtrack
    exponentially."""
    return re.compile(r"(?<![\w.])" + re.escape(name) + r"(?=((?:[\s)]|\\\n|#[^\n]*)*))\1\(")


class _PastLastCall(Exception):
    """A collecting walk has passed the last line that may call a target."""


_DEF_BEFORE = re.compile(r"(?<!\w)def[ \t]+\Z")


def _lines_hold(lines: List[int], node: ast.AST) -> bool:
    """Does one of the sorted ``lines`` lie within the lines of ``node``?"""
    first = node.lineno  # type: ignore[attr-defined]
    return any_line_within(lines, first, getattr(node, "end_lineno", None) or first)


def _calls_any(node, names: Set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in names:
            return True
    return False


def _dotted(node) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _merge_all(shapes):
    if not shapes:
        return None
    first = shapes[0]
    for s in shapes[1:]:
        if s != first and not (s == "T" and first == "T"):
            if _is_tensor_shape(s) and _is_tensor_shape(first):
                first = "T"
                continue
            if _is_module_shape(s) and _is_module_shape(first):
                first = "M"
                continue
            return None
    return first


def _is_tensor_shape(s) -> bool:
    return s == "T"


def _is_module_shape(s) -> bool:
    return s == "M" or (isinstance(s, tuple) and s[0] == "layer") or (
        isinstance(s, tuple) and s[0] == "inst" and s[1].category() == "module")


# ---- a small evaluator over ast expressions -------------------------------------------------

_NOT_TENSOR_BUILTINS = frozenset(
    "len int float str bool range isinstance repr hash id dict set frozenset list tuple sorted "
    "format ord chr bytes".split())
#: methods a tuple, a dict or a model-output object may have too
_NOT_ON_MODULE_OUTPUT = frozenset({"values", "keys", "items", "get", "index", "count", "copy",
                                   "pop", "update", "to"})
_MODULE_METHODS_SELF = frozenset(
    {"cuda", "cpu", "to", "float", "half", "double", "train", "eval", "requires_grad_", "bfloat16"})


class _Evaluator:
    """Shapes of expressions inside one function (or at module level) of a project module.

    Flow: statements are taken in source order and the latest assignment of a local name wins
    (branches are not merged); good enough for what ``return`` gives back.
    """

    def __init__(self, module: ModuleFacts, cls: Optional[ClassFacts] = None,
                 fn: Optional[ast.AST] = None) -> None:
        self.module = module
        self.cls = cls
        self.env: Dict[str, object] = {}
        self.me: Optional[str] = None
        #: (names of top-level functions, sink): record their calls met while walking
        self.collect: Optional[Tuple[Set[str], Dict]] = None
        #: sorted lines where the text may call a target (None: unknown): statements whose lines
        #: hold none of them make no call to record
        self.spots: Optional[List[int]] = None
        #: collecting only: the last of ``spots``. Statements are taken in source order, so
        #: none after it can record a call or change one already recorded: the walk stops there
        self.last: Optional[int] = None
        if fn is not None:
            self._bind_params(fn)

    def _bind_params(self, fn) -> None:
        args = fn.args
        allargs = args.posonlyargs + args.args + args.kwonlyargs
        for a in allargs:
            self.env[a.arg] = self._annotation(a.annotation) if a.annotation is not None else None
        for a in (args.vararg, args.kwarg):
            if a is not None:
                self.env[a.arg] = None
        first = (args.posonlyargs + args.args)[:1]
        decorators = {(_dotted(d) or "") for d in fn.decorator_list}
        if self.cls is not None and first and "staticmethod" not in decorators:
            self.me = first[0].arg
            self.env[self.me] = ("inst", self.cls) if "classmethod" not in decorators else self.cls

    def _annotation(self, ann):
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                return None
        shape = self.module.resolve_expr(ann) if isinstance(ann, (ast.Name, ast.Attribute)) else None
        return _instance_of(shape)

    def function_return(self, fn) -> object:
        self._bind_params(fn)
        rets: List[object] = []
        self._block(fn.body, rets)
        if not rets:
            return None
        return _merge_returns(rets)

    def _record_calls(self, stmt) -> None:
        targets, sink = self.collect  # type: ignore[misc]
        todo = [stmt]
        while todo:
            node = todo.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                      ast.Lambda)):
                    continue
                if isinstance(child, ast.stmt):
                    continue  # nested blocks are walked in their turn
                todo.append(child)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in targets and node.func.id not in self.env:
                if any(isinstance(a, ast.Starred) for a in node.args) or any(
                        k.arg is None for k in node.keywords):
                    sink.setdefault(node.func.id, []).append(([None] * 64, {}))
                    continue
                sink.setdefault(node.func.id, []).append(
                    ([self.eval(a) for a in node.args],
                     {k.arg: self.eval(k.value) for k in node.keywords}))

    def _block(self, body, rets: List[object]) -> None:
        last = self.last
        for stmt in body:
            if last is not None and stmt.lineno > last:
                raise _PastLastCall
            t = type(stmt)
            if self.collect is not None and not isinstance(
                    stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and (
                    self.spots is None or _lines_hold(self.spots, stmt)):
                self._record_calls(stmt)
            if t is ast.Return:
                rets.append(self.eval(stmt.value) if stmt.value is not None else "O")
            elif t is ast.Assign:
                shape = self.eval(stmt.value)
                for target in stmt.targets:
                    self._bind(target, shape)
            elif t is ast.AnnAssign and stmt.value is not None:
                self._bind(stmt.target, self.eval(stmt.value))
            elif t is ast.AugAssign and isinstance(stmt.target, ast.Name):
                cur = self.env.get(stmt.target.id)
                if cur != "T" and self.eval(stmt.value) != "T":
                    self.env[stmt.target.id] = None
            elif t in (ast.If, ast.While):
                self._block(stmt.body, rets)
                self._block(stmt.orelse, rets)
            elif t in (ast.For, ast.AsyncFor):
                self._bind(stmt.target, None)
                self._block(stmt.body, rets)
                self._block(stmt.orelse, rets)
            elif t in (ast.With, ast.AsyncWith):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, None)
                self._block(stmt.body, rets)
            elif t is ast.Try or t.__name__ == "TryStar":
                self._block(stmt.body, rets)
                for h in stmt.handlers:
                    self._block(h.body, rets)
                self._block(stmt.orelse, rets)
                self._block(stmt.finalbody, rets)
            elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                self.env[stmt.name] = None
            elif t is ast.Expr and isinstance(stmt.value, (ast.Yield, ast.YieldFrom)):
                rets.append(None)  # a generator

    def _bind(self, target, shape) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = shape
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = shape[1] if isinstance(shape, tuple) and shape[0] == "seq" else None
            for i, e in enumerate(target.elts):
                sub = items[i] if items is not None and len(items) == len(target.elts) else (
                    "T" if shape == "L" else None)
                self._bind(e.value if isinstance(e, ast.Starred) else e,
                           None if isinstance(e, ast.Starred) else sub)

    def eval(self, node) -> object:
        t = type(node)
        if t is ast.Name:
            if node.id in self.env:
                return self.env[node.id]
            return self.module.lookup(node.id)
        if t is ast.Attribute:
            return self._attribute(node)
        if t is ast.Call:
            return self._call(node)
        if t is ast.Subscript:
            base = self.eval(node.value)
            if base == "T":
                return "T"
            if base == "L" and not isinstance(node.slice, ast.Slice):
                return "T"
            if isinstance(base, tuple) and base[0] == "seq" and isinstance(node.slice, ast.Constant) \
                    and isinstance(node.slice.value, int) and -len(base[1]) <= node.slice.value < len(base[1]):
                return base[1][node.slice.value]
            return None
        if t is ast.BinOp:
            if self.eval(node.left) == "T" or self.eval(node.right) == "T":
                return "T"
            return None
        if t is ast.UnaryOp:
            if isinstance(node.op, ast.Not):
                return "O"
            return "T" if self.eval(node.operand) == "T" else None
        if t is ast.Tuple:
            return ("seq", tuple(self.eval(e) for e in node.elts)) if node.elts and not any(
                isinstance(e, ast.Starred) for e in node.elts) else None
        if t is ast.List:
            if node.elts and all(self.eval(e) == "T" for e in node.elts):
                return "L"
            return "O"
        if t is ast.IfExp:
            a, b = self.eval(node.body), self.eval(node.orelse)
            return a if a == b else None
        if t in (ast.Constant, ast.Dict, ast.Set, ast.JoinedStr, ast.DictComp, ast.SetComp,
                 ast.Compare, ast.Lambda):
            return "O"
        return None

    def _attribute(self, node: ast.Attribute):
        base = self.eval(node.value)
        attr = node.attr
        if isinstance(base, tuple):
            kind = base[0]
            if kind == "qual":
                return ("qual", f"{base[1]}.{attr}")
            if kind == "inst":
                cls = base[1]
                got = cls.attr(attr)
                if got is not None:
                    return got
                if attr == "param_groups" and cls.category() == "optimizer":
                    return "PG"
                return None
            if kind == "layer":
                return "T" if torch_api.owns_tensor(base[1], attr) else None
        if isinstance(base, ModuleFacts):
            return base.member(attr)
        if base == "T":
            return torch_api.property_kind(attr) if attr != "grad" else None
        if base == "M" and attr in ("weight", "bias"):
            return "T"
        return None

    def _call(self, node: ast.Call):
        func = node.func
        star = any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords)
        npos = len(node.args)
        kws = [k.arg for k in node.keywords if k.arg]
        if isinstance(func, ast.Attribute):
            recv = self.eval(func.value)
            m = func.attr
            if recv in (None, "MO") and torch_api.is_tensor_only_method(m):
                recv = "T"  # only tensors answer ``unsqueeze``, ``masked_fill``, ``gather``...
            if recv == "MO" and m not in _NOT_ON_MODULE_OUTPUT and torch_api.is_tensor_method(m):
                recv = "T"
            if recv == "T":
                if m == "detach":
                    return "T"
                ret = torch_api.method_return(m, npos, kws, star)
                return _from_class(ret)
            if isinstance(recv, tuple) and recv[0] == "qual":
                return _qual_call(f"{recv[1]}.{m}", npos, kws, star)
            if isinstance(recv, tuple) and recv[0] == "inst":
                cls = recv[1]
                meth = cls.method(m)
                if meth is not None:
                    return meth.returns()
                if cls.category() == "module" and m in _MODULE_METHODS_SELF:
                    return recv
                attr = cls.attr(m)
                if attr is not None:
                    return _call_instance(attr)
                return None
            if isinstance(recv, ModuleFacts):
                return _call_shape(recv.member(m))
            if isinstance(recv, tuple) and recv[0] == "layer" or recv == "M":
                return recv if m in _MODULE_METHODS_SELF else None
            return None
        if isinstance(func, ast.Name):
            if func.id in self.env:
                return _call_instance(self.env[func.id])
            shape = self.module.lookup(func.id)
            if shape is None:
                if func.id in _NOT_TENSOR_BUILTINS:
                    return "O"
                if func.id == "getattr" and len(node.args) >= 2 and isinstance(
                        node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                    return self._attribute(ast.Attribute(value=node.args[0], attr=node.args[1].value))
                return None
            if isinstance(shape, tuple) and shape[0] == "qual":
                return _qual_call(shape[1], npos, kws, star)
            return _call_shape(shape)
        return None


def _from_class(ret: Optional[str]):
    if ret is None:
        return None
    if ret == "T":
        return "T"
    if ret == "L":
        return "L"
    if ret == "T|(T)":
        return None
    if ret.startswith("("):
        return ("seq", tuple("T" for _ in ret.strip("()").split(",")))
    if ret.startswith("C:"):
        return ("qual-inst", ret[2:])
    return "O"


def _qual_call(q: str, npos: int, kws, star: bool):
    if q != "torch" and not q.startswith("torch."):
        return None
    if q in ("torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.Tensor",
             "torch.nn.Buffer"):
        return "T"
    if torch_api.is_layer(q):
        return ("layer", (q,))
    if q.startswith("torch.optim.") and torch_api.is_optimizer(q):
        return "OPT"
    return _from_class(torch_api.function_return(q, npos, kws, star))


def _call_shape(shape):
    """The shape of calling ``shape`` (a class, a function, a module instance)."""
    if isinstance(shape, ClassFacts):
        if shape.category() == "tensor":
            return "T"
        return ("inst", shape)
    if isinstance(shape, FuncFacts):
        return shape.returns()
    return _call_instance(shape)


def _call_instance(shape):
    """Calling an instance: a torch layer or a project ``nn.Module`` runs ``forward``. A module
    whose forward is not known gives ``"MO"``: a module's output (a tensor if it has ``.data``
    or tensor methods; a tuple or a dict has neither)."""
    if shape == "M":
        return "MO"
    if isinstance(shape, tuple):
        if shape[0] == "layer":
            ret = torch_api.forward_return(shape[1])
            return _from_class(ret) if ret not in (None, "?") else "MO"
        if shape[0] == "inst" and shape[1].category() == "module":
            fwd = shape[1].method("forward")
            ret = fwd.returns() if fwd is not None else None
            return ret if ret is not None else "MO"
    if isinstance(shape, (ClassFacts, FuncFacts)):
        return _call_shape(shape)
    return None


def _instance_of(shape):
    """An annotation's shape: the instance of the class it names."""
    if isinstance(shape, ClassFacts):
        return "T" if shape.category() == "tensor" else ("inst", shape)
    if isinstance(shape, tuple) and shape[0] == "qual":
        q = shape[1]
        if q in ("torch.Tensor", "torch.nn.Parameter"):
            return "T"
        if torch_api.is_layer(q):
            return ("layer", (q,))
        if q == "torch.nn.Module":
            return "M"
    return None


def _merge_returns(rets: List[object]):
    first = rets[0]
    for r in rets[1:]:
        if r == first:
            continue
        if isinstance(r, tuple) and isinstance(first, tuple) and r[0] == first[0] == "seq" \
                and len(r[1]) == len(first[1]):
            first = ("seq", tuple(a if a == b else None for a, b in zip(first[1], r[1])))
            continue
        return None
    return first


# ---- the index -----------------------------------------------------------------------------

class ProjectIndex:
    """Per-process cache of module facts, keyed by (path, mtime_ns, size)."""

    def __init__(self) -> None:
        #: least recently used first; trimmed to ``max_modules`` between linted files (never
        #: while one file is analysed, so one file's analysis sees one object per module)
        self._modules: "OrderedDict[str, Tuple[int, int, Optional[ModuleFacts]]]" = OrderedDict()
        self._roots: Dict[str, Optional[str]] = {}
        self._cwd: Optional[str] = None
        self._resolve_cache: Dict[Tuple, Tuple[Optional[str], float]] = {}
        self.source_roots: Tuple[str, ...] = ()
        self.lock = threading.RLock()
        self.max_modules = _MAX_MODULES
        #: path -> (mtime_ns, size, top-level import specs, nested import specs)
        self._specs: Dict[str, Tuple] = {}
        self._recent: Optional[Tuple[str, str, ast.Module]] = None

    # -- roots and files ---------------------------------------------------------------------
    def root_of(self, path: str) -> Optional[str]:
        d = os.path.dirname(os.path.abspath(path))
        if d not in self._roots or not self._roots_cwd_ok():
            self._roots[d] = find_root(path)
        return self._roots[d]

    def _roots_cwd_ok(self) -> bool:
        """Roots found through the working directory hold while it does not change."""
        try:
            cwd = os.getcwd()
        except OSError:
            cwd = None
        if cwd != self._cwd:
            self._cwd = cwd
            self._roots.clear()
            self._resolve_cache.clear()
            return False
        return True

    def _allowed(self, candidate: str, importer: str) -> bool:
        real = os.path.abspath(candidate)
        root = self.root_of(importer)
        if root and _within(real, root):
            return True
        return any(_within(real, os.path.abspath(r)) for r in self.source_roots)

    @staticmethod
    def _module_file(base: str, dotted: str) -> Optional[str]:
        rel = dotted.replace(".", os.sep)
        for cand in (os.path.join(base, rel + ".py"), os.path.join(base, rel, "__init__.py")):
            if os.path.isfile(cand):
                return cand
        return None

    def find_module(self, importer: str, dotted: str, level: int = 0,
                    recent: bool = False) -> Optional[str]:
        """The project file of module ``dotted`` imported from ``importer`` (``level`` dots).

        Answers are kept: "not found" for a second (a long-running process, an editor, sees
        modules created meanwhile), a file found while it is still there. With ``recent`` a
        file found less than a second ago is given without looking whether it is still there
        (for a caller that reads it next: ``load_path`` finds no facts in a file that is gone).
        """
        key = (os.path.dirname(importer), dotted, level)
        hit = self._resolve_cache.get(key)
        now = time.monotonic()
        if hit is not None:
            found, when = hit
            fresh = now - when < _TTL
            if found is None:
                if fresh:
                    return None
            elif (recent and fresh) or os.path.isfile(found):
                return found
        found = self._find_module(importer, dotted, level)
        self._resolve_cache[key] = (found, now)
        return found

    def _find_module(self, importer: str, dotted: str, level: int) -> Optional[str]:
        if level:
            base = os.path.dirname(os.path.abspath(importer))
            for _ in range(level - 1):
                base = os.path.dirname(base)
            if not dotted:
                cand = os.path.join(base, "__init__.py")
                return cand if os.path.isfile(cand) and self._allowed(cand, importer) else None
            cand = self._module_file(base, dotted)
            return cand if cand and self._allowed(cand, importer) else None
        if not dotted or dotted == "torch" or dotted.startswith("torch."):
            return None
        bases: List[str] = [os.path.dirname(os.path.abspath(importer))]
        root = self.root_of(importer)
        if root:
            bases.append(root)
            if os.path.basename(root) == dotted.split(".", 1)[0]:
                bases.append(os.path.dirname(root))  # a package without a project marker
            src = os.path.join(root, "src")
            if os.path.isdir(src):
                bases.append(src)
        bases.extend(os.path.abspath(r) for r in self.source_roots)
        for base in bases:
            cand = self._module_file(base, dotted)
            if cand and self._allowed(cand, importer):
                return cand
        return None

    def load_path(self, path: Optional[str]) -> Optional[ModuleFacts]:
        """Facts of the module at ``path`` (None: unreadable, too large or not Python)."""
        if path is None:
            return None
        path = os.path.abspath(path)
        try:
            st = os.stat(path)
        except OSError:
            return None
        with self.lock:
            hit = self._modules.get(path)
            if hit is not None and hit[0] == st.st_mtime_ns and hit[1] == st.st_size:
                self._modules.move_to_end(path)
                return hit[2]
            facts = None
            if st.st_size <= _MAX_FILE:
                try:
                    with open(path, "rb") as fh:
                        data = fh.read()
                    tree = ast.parse(data, filename=path)
                    try:
                        text: Optional[str] = data.decode("utf-8")
                    except UnicodeDecodeError:
                        text = None  # another encoding: no text shortcuts for this module
                    facts = ModuleFacts(path, tree, self, text)
                except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                    facts = None
            if hit is not None and hit[2] is not None:
                hit[2].release()  # the file changed: its old facts are let go
            self._modules[path] = (st.st_mtime_ns, st.st_size, facts)
            return facts

    def trim(self) -> None:
        """Forget the least recently used modules beyond ``max_modules``: memory stays bounded
        over a long run (flake8 over a big tree, an editor session)."""
        with self.lock:
            while len(self._modules) > self.max_modules:
                facts = self._modules.popitem(last=False)[1][2]
                if facts is not None:
                    facts.release()

    def module_of(self, importer: str, dotted: str, level: int = 0) -> Optional[ModuleFacts]:
        return self.load_path(self.find_module(importer, dotted, level, recent=True))

    def resolve_import(self, importer: str, imp: Tuple, depth: int = 0):
        """The shape an import statement binds: a project module/class/function, or a qual."""
        if imp[0] == "module":
            _, dotted, level = imp
            mod = self.module_of(importer, dotted, level)
            return mod if mod is not None else ("qual", dotted)
        _, mod_name, level, name = imp
        mod = self.module_of(importer, mod_name, level)
        if mod is not None:
            got = mod.member(name, depth + 1)
            if got is not None:
                return got
            return None
        if level == 0 and mod_name:
            # ``from pkg import submodule`` where pkg has no __init__ in the project
            sub = self.module_of(importer, f"{mod_name}.{name}", 0)
            if sub is not None:
                return sub
            return ("qual", f"{mod_name}.{name}")
        if level:
            sub = self.module_of(importer, f"{mod_name}.{name}" if mod_name else name, level)
            return sub
        return None

    def facts_for_source(self, path: str, tree: ast.Module,
                         text: Optional[str] = None) -> ModuleFacts:
        """Facts of the file being linted, from its own (possibly unsaved) text."""
        return ModuleFacts(os.path.abspath(path), tree, self, text)

    def dependencies(self, path: str) -> List[str]:
        """Absolute paths of the project files whose contents can change the analysis of
        ``path``: its in-project imports, transitively (star imports and base classes
        included); ``path`` itself is not listed."""
        start = os.path.abspath(path)
        seen: Set[str] = {start}
        order: List[str] = []
        todo = [start]
        while todo:
            cur = todo.pop()
            top, nested = self._import_specs(cur)
            targets = list(self._resolve_specs(cur, top))
            if cur == start:
                targets.extend(self._resolve_specs(cur, nested, parents=False))
            for target in targets:
                if target not in seen:
                    seen.add(target)
                    order.append(target)
                    todo.append(target)
        return sorted(order)

    def note_source(self, path: str, source: Optional[str], tree: Optional[ast.Module]) -> None:
        """The text and tree of the file being linted: ``dependencies`` of that file (asked right
        after, for the results cache) reads its imports from them instead of parsing it again,
        when the file on disk still holds that text."""
        self._recent = (os.path.abspath(path), source, tree) if source is not None and \
            isinstance(tree, ast.Module) else None

    def _import_specs(self, path: str) -> Tuple[Tuple[Tuple[str, int], ...], Tuple[Tuple[str, int], ...]]:
        """The imports of ``path`` as (dotted, level) pairs: those its module facts bind (top
        level, star imports included) and those inside its functions and classes. Kept per
        (path, mtime_ns, size) for the process; small (strings), so not bounded."""
        try:
            st = os.stat(path)
        except OSError:
            return (), ()
        with self.lock:
            hit = self._specs.get(path)
            if hit is not None and hit[0] == st.st_mtime_ns and hit[1] == st.st_size:
                return hit[2], hit[3]
            cached = self._modules.get(path)
        top: List[Tuple[str, int]] = []
        nested: List[Tuple[str, int]] = []
        facts = None
        if cached is not None and cached[0] == st.st_mtime_ns and cached[1] == st.st_size:
            facts = cached[2]
        tree = facts.tree if facts is not None else None
        if tree is None and st.st_size <= _MAX_FILE:
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
                recent = self._recent
                if recent is not None and recent[0] == path and recent[1].encode("utf-8") == data:
                    tree = recent[2]
                else:
                    tree = ast.parse(data, filename=path)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError,
                    UnicodeError):
                tree = None
        if tree is not None:
            if facts is None:
                facts = ModuleFacts(path, tree, self)  # what the facts bind; not kept
            for imp in facts.imports.values():
                top.append((imp[1], imp[2]))
                if imp[0] != "module":
                    top.append((f"{imp[1]}.{imp[3]}" if imp[1] else imp[3], imp[2]))
            top.extend(facts.stars)
            for node in statements(tree):
                if isinstance(node, ast.Import):
                    nested.extend((a.name, 0) for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    mod = node.module or ""
                    nested.append((mod, node.level))
                    nested.extend((f"{mod}.{a.name}" if mod else a.name, node.level)
                                  for a in node.names if a.name != "*")
        result = (tuple(top), tuple(nested))
        with self.lock:
            self._specs[path] = (st.st_mtime_ns, st.st_size) + result
        return result

    def _resolve_specs(self, importer: str, specs, parents: bool = True) -> Iterable[str]:
        for dotted, level in specs:
            found = self.find_module(importer, dotted, level)
            if found:
                yield os.path.abspath(found)
            # parent packages' __init__ run on import and may define names
            if parents and level == 0 and "." in dotted:
                parts = dotted.split(".")
                for i in range(1, len(parts)):
                    pkg = self.find_module(importer, ".".join(parts[:i]), 0)
                    if pkg:
                        yield os.path.abspath(pkg)


_INDEX = ProjectIndex()


def index() -> ProjectIndex:
    """The per-process project index (shared by the plugin, the CLI, the fixer and the server)."""
    return _INDEX


def dependencies(path: str) -> List[str]:
    """The project files (absolute paths, sorted) whose contents can influence the diagnostics
    of ``path``: the transitive in-project imports the index consults. For result caches: a
    cached result for ``path`` is valid while ``path`` and every listed file are unchanged."""
    try:
        return _INDEX.dependencies(path)
    except (OSError, RecursionError, ValueError):
        return []


class FileContext:
    """What the inference of one linted file asks the index: its imports, its own top-level
    definitions (from its ``ast``, which sees definitions the libcst walk has not reached or
    that were blanked), and the modules it star-imports."""

    def __init__(self, path: str, tree: Optional[ast.Module] = None, source: Optional[str] = None,
                 source_roots: Sequence[str] = ()) -> None:
        self.path = os.path.abspath(path)
        self.index = _INDEX
        self.index.trim()
        self.index.note_source(self.path, source, tree)
        if tuple(source_roots) != self.index.source_roots:
            with self.index.lock:
                self.index.source_roots = tuple(source_roots)
                self.index._resolve_cache.clear()
        self._tree = tree
        self._source = source
        self._facts: Optional[ModuleFacts] = None
        self._defs_by_name: Optional[Dict[str, list]] = None
        self.stars: List[Tuple[str, int]] = []

    def facts(self) -> Optional[ModuleFacts]:
        if self._facts is None:
            tree = self._tree
            if tree is None and self._source is not None:
                try:
                    tree = ast.parse(self._source)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    tree = None
            if not isinstance(tree, ast.Module):
                return None
            self._facts = self.index.facts_for_source(self.path, tree, self._source)
        return self._facts

    def release(self) -> None:
        """The file's analysis is over: its own facts are let go (``ModuleFacts.release``)."""
        if self._facts is not None:
            self._facts.release()

    def find(self, dotted: str, level: int) -> Optional[str]:
        try:
            return self.index.find_module(self.path, dotted, level)
        except (OSError, ValueError):
            return None

    def resolve(self, imp: Tuple):
        try:
            return self.index.resolve_import(self.path, imp)
        except (OSError, ValueError, RecursionError):
            return None

    def global_name(self, name: str):
        """A top-level name the walk has not bound: a definition of this file, or one that a
        ``from <project module> import *`` brings."""
        facts = self.facts()
        if facts is not None:
            d = facts.defs.get(name)
            if d is not None:
                return d
        for mod, level in self.stars:
            target = self.index.module_of(self.path, mod, level)
            if target is not None:
                got = target.lookup(name)
                if got is not None:
                    return got
        return None

    def current_class(self, name: str) -> Optional[ClassFacts]:
        facts = self.facts()
        d = facts.defs.get(name) if facts is not None else None
        return d if isinstance(d, ClassFacts) else None

    def written_params(self, name: str) -> frozenset:
        """What every ``def name`` of this file (nested ones too) writes into in place."""
        facts = self.facts()
        if facts is None:
            return frozenset()
        if self._defs_by_name is None:
            self._defs_by_name = {}
            for node in statements(facts.tree):  # a definition is a statement
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._defs_by_name.setdefault(node.name, []).append(node)
        nodes = self._defs_by_name.get(name, [])
        found = {FuncFacts(name, n, facts).written_params() for n in nodes}
        return found.pop() if len(found) == 1 else frozenset()

    def current_function(self, name: str) -> Optional[FuncFacts]:
        facts = self.facts()
        d = facts.defs.get(name) if facts is not None else None
        return d if isinstance(d, FuncFacts) else None
