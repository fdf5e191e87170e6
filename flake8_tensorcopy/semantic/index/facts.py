"""What the project's own modules define, read with ``ast``: one ``ModuleFacts`` per module
(its top-level classes, functions, imports and simple assignments); its classes and functions
are ``defs``'s ``ClassFacts`` and ``FuncFacts``. Everything is worked out lazily, when the
analysis of a linted file asks, in the lattice of ``kinds``; ``evaluate`` does the expression
work, ``resolve`` finds and caches the modules.
"""
from __future__ import annotations

import ast
import codecs
import os
from typing import Dict, List, Optional, Tuple

from ...syntax.prefilter import dotted, first_line, statements
from ...syntax.source import LazyPattern, encoding_of, line_numbers, line_starts, \
    occurrences
from ..kinds import NamedTupleClass, ProjectModule, Qual, join_call_sites
from .defs import BUILTIN_BASES, ClassFacts, FuncFacts, Home
from .evaluate import CALLED_ANY, DEF_BEFORE, CallSites, call_starts
from .function_values import LOOP_OVER_NAME, PICKED, handed, handed_at, listed_functions, \
    stand_ins

#: ``for fn in (train_a, train_b):`` (or a list display): the loop's name, the names listed
LOOPED_NAMES = LazyPattern(r"for[ \t]+([^\W\d]\w*)[ \t]+in[ \t]*[(\[]([\w \t,]*)[)\]]")


# ---- facts of one module ------------------------------------------------------------------

_UNSET = object()


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
        self.home = Home(self)
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
        self._looped_names: Optional[Dict[str, List[str]]] = None  # ``_looped``
        #: each top-level function -> its parameters standing for the functions its calls
        #: hand it (``_handed_params``), worked out once
        self._handed: Optional[Dict[str, Dict[str, Tuple[str, ...]]]] = None
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
        #: module-level displays of plain names, one of them a function of the module
        #: (``AUGMENTS = [a, b]``): a loop over one may call each (``function_values
        #: .loop_names``); names only, kept with the facts
        self.listed = {k: v for k, v in listed_functions(
            self._assigns).items()  # type: ignore[arg-type]
            if any(isinstance(self.defs.get(n), FuncFacts) for n in v)}

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

    def _materialize(self, tree: Optional[ast.Module] = None) -> None:
        """Read the tree again from the same bytes (or take ``tree``, parsed from them) and
        give each definition its nodes back."""
        if tree is None:
            tree = ast.parse(self.data, filename=self.path)  # type: ignore[arg-type]
        fresh = ModuleFacts(self.path, tree, self.index, self.text)
        self._tree, self._assigns = tree, fresh._assigns
        for name, d in self.defs.items():
            same = fresh.defs.get(name)
            if type(same) is type(d):
                d.attach(same)  # type: ignore[attr-defined]
        self.index.holds_tree(self)

    def adopt(self, tree: ast.Module) -> None:
        """``tree`` was parsed from this module's text (the file being linted): it stands for
        the tree let go, which is not read again."""
        if self._tree is None:
            self._materialize(tree)

    def node_of(self, d) -> ast.AST:
        """The node of definition ``d`` of this module, read again if the tree was let go: its
        own lines alone when it is one of this reading's definitions (``_read_alone``), else
        the whole tree. A definition of an earlier reading of the module (one the index let go)
        finds its node by name and line."""
        if self._tree is None:
            node = self._read_alone(d)
            if node is not None:
                return node
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

    def _read_alone(self, d) -> Optional[ast.AST]:
        """``d``'s node parsed from its own lines of the text (None: not one of this reading's
        definitions, or the text cannot stand for the bytes): a function asked for its return
        shape, a class for its bases, costs its own lines, not the whole module's again.

        The lines are the same characters at the same lines and columns (blank lines before
        them, and ``if 1:`` before an indented one), so the node is the one the whole tree
        holds; it is checked to be (kind, name, first, own and last line), else None."""
        text = self.text
        if text is None or self.data is None or not self._owns(d) or \
                not _read_as_utf8(self.data):
            return None
        if self._starts is None:
            self._starts = line_starts(text)
        starts = self._starts
        first, last = d._first, d._last
        if not 1 <= first <= last <= len(starts):
            return None
        begin = starts[first - 1]
        segment = text[begin:starts[last] if last < len(starts) else len(text)]
        # a form feed sets the tokenizer's column back to 0: the indentation is what follows
        # the last one before the statement
        lead = segment[:len(segment) - len(segment.lstrip(" \t\f"))]
        indented = bool(lead.rpartition("\f")[2])
        if indented and first < 2:
            return None
        source = "\n" * (first - 2) + "if 1:\n" + segment if indented else \
            "\n" * (first - 1) + segment
        try:
            body = ast.parse(source, filename=self.path).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        if indented and len(body) == 1:
            body = getattr(body[0], "body", ())
        node = body[0] if len(body) == 1 else None
        is_class = isinstance(d, ClassFacts)
        if not isinstance(node, (ast.ClassDef,) if is_class else (
                ast.FunctionDef, ast.AsyncFunctionDef)) or node.name != d.name or \
                node.lineno != d._line or (node.end_lineno or node.lineno) != last or \
                first_line(node) != first:
            return None
        d.attach(ClassFacts(d.name, node, self) if is_class else FuncFacts(d.name, node, self))
        self.index.holds_tree(self)
        return node

    def _owns(self, d) -> bool:
        """Is ``d`` one of this reading's definitions (a top-level one or a method of one)?"""
        ref = getattr(d, "_cls", None)
        if ref is None:
            return self.defs.get(d.name) is d
        cls = ref()
        return cls is not None and self.defs.get(cls.name) is cls and cls.methods.get(d.name) is d

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
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None and \
                    isinstance(stmt.target, ast.Name):  # ``LOSSES: List = []``
                self._assigns[stmt.target.id] = stmt.value  # type: ignore[index]
            elif isinstance(stmt, (ast.If, ast.Try)):
                # ``try: from apex import X / except ImportError: X = None``: take the body
                self._scan(stmt.body, nested=True)
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
                self._replaced_methods(stmt)

    def _replaced_methods(self, stmt) -> None:
        """``A.make = other`` or ``setattr(A, "make", other)`` at the top of the module: the
        class's ``make`` is not the ``def`` any more (issue 45)."""
        if isinstance(stmt, ast.Expr):
            call = stmt.value
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and
                    call.func.id == "setattr" and len(call.args) == 3 and
                    isinstance(call.args[0], ast.Name) and
                    isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str)):
                return
            pairs = [(call.args[0].id, call.args[1].value)]
        else:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            pairs = [(t.value.id, t.attr) for t in targets
                     if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)]
        for owner, attr in pairs:
            cls = self.defs.get(owner)
            if isinstance(cls, ClassFacts):
                cls.replaced.add(attr)

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
        superset of the real calls), also through a loop over a display listing it
        (``for fn in (name, other): fn(x)``: ``_looped``). None when the text is unknown."""
        got = self._call_lines.get(name, _UNSET)
        if got is _UNSET:
            got = self._direct_call_lines(name)
            via = self._looped().get(name) if got is not None else None
            if via:
                got = sorted(set(got).union(*(self._direct_call_lines(v) or () for v in via)))
            self._call_lines[name] = got
        return got  # type: ignore[return-value]

    def _direct_call_lines(self, name: str) -> Optional[List[int]]:
        text = self.text
        if text is None:
            return None
        if self._call_index is not None or (
                len(self._call_lines) >= self.INDEX_AFTER and self._ascii()):
            return self._calls_by_name().get(name, [])
        return self._lines_of(
            i for i in call_starts(name, text)
            # ``def name(``: the definition, not a call
            if not DEF_BEFORE.search(text, max(0, i - 16), i))

    def _looped(self) -> Dict[str, List[str]]:
        """Each name a ``for v in (f, g):`` header of the text lists (a tuple or list display of
        plain names), or a module-level display that a ``for v in NAME:`` header names (its
        ``.items()`` or ``.values()`` for a dict) holds -> the loop names ``v`` that stand for it
        in the loop's body (a call of ``v`` there calls each of them: ``Evaluator.looped``),
        from one pass over the text; and each function handed to another -> the parameters
        that stand for it there (``stand_ins``)."""
        if self._looped_names is None:
            found: Dict[str, List[str]] = {}
            text = self.text or ""
            for m in LOOPED_NAMES.finditer(text):
                for item in m.group(2).split(","):
                    item = item.strip()
                    if item.isidentifier() and item != m.group(1):
                        found.setdefault(item, []).append(m.group(1))
            if self.listed:
                for pattern in (LOOP_OVER_NAME, PICKED):  # ``for fn in NAME``, ``fn = NAME[k]``
                    for m in pattern.finditer(text):
                        for item in self.listed.get(m.group(2), ()):
                            found.setdefault(item, []).append(m.group(1))
            for fn, params in self._handed_params().items():
                for param, names in params.items():
                    for item in names:
                        found.setdefault(item, []).append(param)
            self._looped_names = found
        return self._looped_names

    def _handed_params(self) -> Dict[str, Dict[str, Tuple[str, ...]]]:
        """Each top-level function -> its parameters that stand for functions its calls hand
        it (``function_values.stand_ins``): read from the tree only where the text hands one
        of the module's functions (or a loop's name) as an argument."""
        if self._handed is None:
            functions = {n for n, d in self.defs.items() if isinstance(d, FuncFacts)}
            text = self.text
            # the names a call may hand that stand for functions: the functions, and the loop
            # names over displays holding one
            names = functions | {m.group(1) for m in LOOPED_NAMES.finditer(text or "") if any(
                item.strip() in functions for item in m.group(2).split(","))} | {
                m.group(1) for m in LOOP_OVER_NAME.finditer(text or "")
                if m.group(2) in self.listed}
            spots = None if text is None else self._lines_of(sorted(
                i for name in names for i in handed_at(text, name)))
            given = handed(self.tree, functions, self.listed, spots) if spots is None or \
                spots else {}
            self._handed = {name: got for name, of in given.items()
                            for got in (stand_ins(self.defs[name].node, of),) if got}
        return self._handed

    def stand_ins(self, name: str) -> Dict[str, Tuple[str, ...]]:
        """The parameters of top-level function ``name`` that stand for functions its calls
        hand it (a call of one there calls each: ``Evaluator.looped``)."""
        return self._handed_params().get(name, {}) if name in self.defs else {}

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
        index, looped = self._calls_by_name(), self._looped()
        names = set(names).union(*(looped.get(name, ()) for name in names))
        return sorted({ln for name in names for ln in index.get(name, ())})

    def word_lines(self, word: str) -> Optional[List[int]]:
        """The sorted line numbers where ``word`` occurs in the text (None: text unknown)."""
        got = self._word_lines.get(word, _UNSET)
        if got is _UNSET:
            got = None if self.text is None else self._lines_of(occurrences(self.text, word))
            self._word_lines[word] = got
        return got  # type: ignore[return-value]

    # -- names -------------------------------------------------------------------------------
    def top_level_kind(self, name: str) -> Optional[str]:
        """What a top-level ``name = value`` of this module binds: ``"container"`` (a list or
        dict display, ``list()``, ``deque()``...), ``"number"`` (an int or float constant),
        ``"namedtuple"``, ``"name"`` or ``"other"``; None where no such statement binds it."""
        return self._assign_kinds.get(name)

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
            if node.id in BUILTIN_BASES:
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


def _read_as_utf8(data: bytes) -> bool:
    """Does ``ast`` read ``data`` as UTF-8 with no BOM (no coding cookie naming another
    encoding), so as the text the index decoded it into? (``_read_alone``: else the module is
    read whole)"""
    try:
        return codecs.lookup(encoding_of(data)).name == "utf-8"  # "utf-8-sig": a BOM
    except (SyntaxError, LookupError):
        return False


_GROWING = frozenset({"list", "dict", "deque", "collections.deque", "defaultdict",
                      "collections.defaultdict"})


def _assign_kind(value: ast.expr) -> str:
    if isinstance(value, ast.Call) and dotted(value.func) in (
            "namedtuple", "collections.namedtuple", "NamedTuple", "typing.NamedTuple"):
        return "namedtuple"
    if isinstance(value, (ast.List, ast.Dict)) or (
            isinstance(value, ast.Call) and dotted(value.func) in _GROWING):
        return "container"  # ``LOG = []``, ``deque(maxlen=k)``: what may grow
    if isinstance(value, ast.Constant) and type(value.value) in (int, float):
        return "number"  # ``TOTAL = 0.0``
    return "name" if isinstance(value, (ast.Name, ast.Attribute)) else "other"


def _bound_names(stmt) -> List[str]:
    if isinstance(stmt, ast.Import):
        return [a.asname or a.name.split(".", 1)[0] for a in stmt.names]
    if isinstance(stmt, ast.ImportFrom):
        return [a.asname or a.name for a in stmt.names]
    return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
