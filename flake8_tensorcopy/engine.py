"""Parse once with ``ast``, walk once, run every rule in that single batched pass.

source text -> (cheap text pre-check) -> ``ast`` module -> pre-filter plan -> the libcst-shaped
tree of the candidate code (``tree.py``) -> walk: inference state + rule hooks -> Reports ->
positions (``positions.py``, only for reported nodes) -> Diagnostics.
"""
from __future__ import annotations

import ast
import gc
from typing import Dict, List, Optional, Sequence, Tuple

from . import edits
from .flow import FlowWalker, grad_mode, note_shared_writes
from .later import LaterWalker
from .datanotes import DataNotes
from .config import DEFAULT_SETTINGS, Settings
from .diagnostics import NOT_ANALYSED, Diagnostic
from .rules import ALL_RULES
from .rules.base import Report, Rule, hook_tables
from .rules.context import UNASKED, Context
from .semantic import kinds, regions
from .semantic.index.finder import in_project, project_reach
from .semantic.infer import Inference
from .semantic.kinds import Instance
from .syntax import build, nodes
from .syntax.parse import LintError, python_ast
from .syntax.positions import Text
from .syntax.prefilter import SHAPES, plan
from .syntax.source import detect_newline
from .syntax.patterns import compile_pattern

#: below this size skipping candidate-free definitions saves less than it costs
_MASK_MIN_CHARS = 2000
_WS = compile_pattern(r"\s+")


def might_match(source: str) -> bool:
    """Cheap pre-check: False means no rule can fire on this text."""
    return SHAPES.search(source) is not None


class Walker(FlowWalker, LaterWalker, DataNotes):
    """The single pass: keeps inference state in step with source order and calls rule hooks."""

    def __init__(self, ctx: Context, rules: Sequence[Rule]) -> None:
        self.ctx = ctx
        self.inf = ctx.inf
        self.reports: List[Report] = []
        self._with_pending = []
        self.inf.later = self.walk_pending
        #: per node type, the rules that want every node of it; per node type and name, those
        #: that want it; per qualified name of a callee, those that want its calls only
        #: (``rules.base.hook_tables``); ``_with_quals`` caches, per list of rules a call's name
        #: picks and qualified name, that list and those rules in the rules' order
        self.hooks, self.named, self.by_qual, self._qual_lasts = _hook_tables(rules)
        self._with_quals: Dict[Tuple[int, str], List[Rule]] = {}
        self._order = list(rules)
        #: the node types ``dispatch`` has work for (notes on calls, ``.data`` uses, or a rule's
        #: hook); the walk passes every other node (names, constants, operators: most of a
        #: tree) straight to its children
        self.dispatched = frozenset(self.hooks) | {nodes.Call, nodes.Subscript}
        #: the wrappers ``children`` walks straight through: those no rule is dispatched on
        self._through = {t: t._fields[0] for t in _WRAPPERS if t not in self.dispatched}
        #: an attribute's rules, by its name (``_attribute``)
        self._attr_named = self.named.get(nodes.Attribute, {})
        self._attr_every = self.hooks.get(nodes.Attribute)

    # -- generic ---------------------------------------------------------------------------
    def walk(self, node: nodes.CSTNode) -> None:
        t = type(node)
        special = _SPECIAL.get(t)
        if special is not None:
            special(self, node)
            return
        if t in self.dispatched:
            self.dispatch(node)
        self.children(node)

    def dispatch(self, node: nodes.CSTNode) -> None:
        t = type(node)
        ctx = self.ctx
        if t is nodes.Call:
            func = node.func
            ctx._callee = func if type(func) is nodes.Name or type(func) is nodes.Attribute \
                else None
            ctx._callee_qual = UNASKED
            self._note_call(node)
        elif t is nodes.Subscript:
            value = node.value
            if type(value) is nodes.Attribute and value.attr.value == "data":
                sl = node.slice[0].slice if len(node.slice) == 1 else None
                if type(sl) is nodes.Index and type(sl.value) in (
                        nodes.SimpleString, nodes.ConcatenatedString, nodes.FormattedString):
                    ctx.data_use.setdefault(id(value), ("str-subscript", None))
                else:
                    ctx.data_use.setdefault(id(value), ("subscript", None))
        named = self.named.get(t)
        if named is None:
            rules = self.hooks.get(t)
        else:  # a Call (``Rule.hook_names``; an attribute's: ``_attribute``)
            func = node.func
            name = func.attr.value if type(func) is nodes.Attribute else None
            rules = named.get(name) or self.hooks.get(t)
        if t is nodes.Call and self.by_qual and (type(node.func) is not nodes.Attribute or
                                                 node.func.attr.value in self._qual_lasts):
            # (an attribute is spelled as written: one whose name ends no wanted callee's is
            # none of them; a bare name may be an alias of one and is asked)
            q = ctx.qualname(node.func)
            extra = self.by_qual.get(q) if q is not None else None
            if extra:
                key = (id(rules), q)
                picked = self._with_quals.get(key)
                if picked is None:
                    both = list(rules or ()) + extra
                    picked = self._with_quals[key] = [r for r in self._order if r in both]
                rules = picked
        if rules:
            reports = self.reports
            for rule in rules:
                reports.extend(rule.check(node, ctx))
        ctx._callee = None

    def _attribute(self, node: nodes.Attribute) -> None:
        """An attribute (a third of the nodes the rules are asked about), dispatched and walked
        here rather than by ``dispatch`` and ``children``: notes an ``X.data.attr``, calls the
        rules wanting that attribute's name (``Rule.hook_names``), walks what it is read on."""
        value = node.value
        name = node.attr.value
        ctx = self.ctx
        if type(value) is nodes.Attribute and value.attr.value == "data":
            ctx.data_use.setdefault(id(value), ("attr", name))
        rules = self._attr_named.get(name) or self._attr_every
        if rules:
            reports = self.reports
            for rule in rules:
                reports.extend(rule.check(node, ctx))
        ctx._callee = None
        if type(value) not in _NOTHING:
            self.walk(value)

    def children(self, node: nodes.CSTNode) -> None:
        """Walk the nodes under ``node`` (its ``_fields`` hold a node, None or a list of
        nodes). Two shortcuts, the same walk: a node of ``_NOTHING`` (None, names, numbers,
        strings: ``_skip``) is not walked, and a node that only wraps one other (``Arg``,
        ``Element``, ``Index``...: ``_through``, when nothing is dispatched on it) is walked
        as that other node: most of a tree's nodes are one of these."""
        walk, nothing, through = self.walk, _NOTHING, self._through
        for name in node._fields:
            value = getattr(node, name)
            for item in value if type(value) is list or type(value) is tuple else (value,):
                t = type(item)
                field = through.get(t)
                while field is not None:
                    item = getattr(item, field)
                    t = type(item)
                    field = through.get(t)
                if t not in nothing:
                    walk(item)

    def block(self, body) -> None:
        """An IndentedBlock / SimpleStatementSuite / Module body."""
        for stmt in body.body:
            if self.inf.brief_views and type(stmt) is not nodes.SimpleStatementLine and \
                    not regions.enters_without_code(stmt):
                regions.age_brief_views(self.inf, True)  # (a compound statement's test runs)
            self.walk(stmt)

    # -- statements ----------------------------------------------------------------------------
    def _module(self, node: nodes.Module) -> None:
        self.block(node)

    def _simple_line(self, node: nodes.SimpleStatementLine) -> None:
        outer = self.ctx.stmt_line
        self.ctx.stmt_line = node
        for stmt in node.body:
            self.walk(stmt)
            if self.inf.brief_views:
                regions.age_brief_views(self.inf, stmt=stmt)
        self.ctx.stmt_line = outer

    def _suite(self, node: nodes.SimpleStatementSuite) -> None:
        outer = self.ctx.stmt_line
        self.ctx.stmt_line = None  # statements after ``if x:`` on one line cannot be wrapped
        for stmt in node.body:
            self.walk(stmt)
            if self.inf.brief_views:
                regions.age_brief_views(self.inf)
        self.ctx.stmt_line = outer

    def _assign(self, node: nodes.Assign) -> None:
        value_tensor = any(type(t.target) is nodes.Attribute and t.target.attr.value == "data"
                           for t in node.targets) and kinds.is_tensor(self.inf.infer(node.value))
        for t in node.targets:
            self._note_store(t.target, False, value_tensor)
        self.dispatch(node)
        for t in node.targets:
            self._walk_target(t.target)
        self.walk(node.value)
        kind, doubt = self.inf.infer_flow(node.value)
        for t in node.targets:
            self.inf.bind_target(t.target, kind, doubt)
        target = node.targets[0].target
        if len(node.targets) == 1 and type(target) is nodes.Name and (
                type(node.value) is nodes.Subscript or (
                    type(node.value) is nodes.Name and target.value + "[" in self.ctx.source) or (
                    type(node.value) is nodes.Call and type(node.value.func) is nodes.Attribute
                    and node.value.func.attr.value == "narrow")):
            # (``y = x``: a view of all of ``x``, kept only where ``y[`` is written somewhere:
            # once a view is kept, every binding of the file asks which views it ends;
            # ``y = x.narrow(d, s, n)``: the view it selects)
            regions.bind_view(self.inf, target.value, node.value)
        elif type(target) is nodes.Attribute and target.attr.value == "data" and \
                type(target.value) is nodes.Name:  # ``x.data = y``: x has other storage now
            regions.rebound_in_place(self.inf, target.value.value)
        elif len(node.targets) == 1 and type(target) is nodes.Tuple and \
                type(node.value) is nodes.Tuple and \
                len(target.elements) == len(node.value.elements) and \
                _written_view(target, self.ctx.source):
            # ``older, newer = h[:, 1:], h[:, :-1]``: each name the view beside it (where the
            # text writes into one: a view kept makes every later binding ask which it ends)
            for t, v in zip(target.elements, node.value.elements):
                if type(t.value) is nodes.Name and type(v) is nodes.Element and (
                        type(v.value) is nodes.Subscript or _narrowing(v.value)):
                    regions.bind_view(self.inf, t.value.value, v.value)

    def _ann_assign(self, node: nodes.AnnAssign) -> None:
        self._note_store(node.target, False)
        self.dispatch(node)
        self._walk_target(node.target)
        if node.value is not None:
            self.walk(node.value)
        kind = self.inf.kind_of_annotation(node.annotation.annotation)
        doubt = False
        if node.value is not None and (kind is None or kind is kinds.MODULE):
            # ``model: nn.Module = GPT(...)``: the value tells which module (its attributes)
            got, got_doubt = self.inf.infer_flow(node.value)
            if kind is None or kinds.is_module(got):
                kind, doubt = got, got_doubt
        if node.value is not None or kind is not None:
            self.inf.bind_target(node.target, kind, doubt)

    def _aug_assign(self, node: nodes.AugAssign) -> None:
        self._note_store(node.target, True)
        self.dispatch(node)
        self._walk_target(node.target)
        self.walk(node.value)
        if type(node.target) is nodes.Name:
            regions.rebound_in_place(self.inf, node.target.value)
            name = node.target.value
            if kinds.evidence(self.inf.lookup(name)) == kinds.NOT and \
                    kinds.evidence(self.inf.infer(node.value)) != kinds.NOT:
                # ``ent = 0`` ... ``ent += dist.entropy()``: a number no longer, unless what is
                # added is known to be no tensor either (``steps += 1``, ``log += "..."``)
                self.inf.bind_target(node.target, kinds.UNKNOWN)

    def _walk_target(self, target: nodes.BaseExpression) -> None:
        t = type(target)
        if t is nodes.Name:
            return
        if t is nodes.Tuple or t is nodes.List:
            for e in target.elements:
                self._walk_target(e.value)
        elif t is nodes.StarredElement:
            self._walk_target(target.value)
        else:
            self.walk(target)

    def _import(self, node: nodes.Import) -> None:
        self.inf.bind_import(node)

    def _import_from(self, node: nodes.ImportFrom) -> None:
        self.inf.bind_import_from(node)

    def _assert(self, node: nodes.Assert) -> None:
        self.dispatch(node)
        self.walk(node.test)
        yes, _ = self.inf.narrowing(node.test)
        self.inf.apply(yes)

    def _function(self, node: nodes.FunctionDef) -> None:
        inf = self.inf
        no_grad = False
        is_static = False
        for dec in node.decorators:
            self.walk(dec.decorator)
            d = dec.decorator
            target = d.func if type(d) is nodes.Call else d
            q = self.ctx.qualname(target)
            mode = grad_mode(q, d)
            if mode is not None:
                no_grad = mode
            if type(target) is nodes.Name and target.value in ("staticmethod", "classmethod"):
                is_static = True
            if type(target) is nodes.Name and target.value == "property" and node.name.value == "data":
                self.ctx.local_data_attr = True
        params = node.params
        for p in _all_params(params):
            if p.default is not None:
                self.walk(p.default)
            if p.annotation is not None:
                self.walk(p.annotation.annotation)
        inf.set(node.name.value, inf.function_kind(node))
        cls = inf.scope.cls if inf.scope.kind == "class" else None
        if type(node.body) is nodes.LaterBlock:
            if node.body.builder is None:
                return  # no candidate inside (``prefilter.BODYLESS``): only its name counts
            if cls is not None:
                self._later(node, cls, no_grad, is_static)
                return
            build.build_later(node)
        # what every call site passes: asked only for a body that is walked, and only when a
        # parameter with no annotation (the only ones that take it, below) can use it (the call
        # sites' evaluation is the costly part; a body the pre-filter left out never needs it)
        from_calls = (inf.param_kinds(node.name.value)
                      if any(p.annotation is None for p in _all_params(params)) else {})
        self._function_body(node, cls, no_grad, is_static, from_calls)

    def _function_body(self, node: nodes.FunctionDef, cls, no_grad: bool, is_static: bool,
                       from_calls: Dict[str, kinds.Kind]) -> None:
        inf = self.inf
        params = node.params
        inf.push("function", cls=cls, no_grad=no_grad)
        if cls is not None and node.name.value == "__init__":
            inf.attr_bindings.enter_init(node)  # bindings the next one replaces
        outer_scope, self.ctx.scope_node = self.ctx.scope_node, node
        first = True
        for p in _all_params(params):
            kind = None
            if p.annotation is not None:
                # a caller may pass a Tensor subclass with its own ``clone``: an annotation on a
                # parameter is a tensor but no proof of a plain one (issue 21's fix tester)
                kind = kinds.admit_subclasses(inf.kind_of_annotation(p.annotation.annotation))
            if first and cls is not None and not is_static and kind is None:
                kind = Instance(cls)
            if kind is None:
                kind = from_calls.get(p.name.value)
            first = False
            if kind is not None:
                inf.set(p.name.value, kind)
            else:
                inf.scope.names.pop(p.name.value, None)
        # a parameter with no annotation is "nothing known" (None): shadow outer bindings
        for p in _all_params(params):
            inf.scope.names.setdefault(p.name.value, _FREE)
        self.block(node.body)
        self.ctx.scope_node = outer_scope
        inf.pop()

    def _class(self, node: nodes.ClassDef) -> None:
        inf = self.inf
        for dec in node.decorators:
            self.walk(dec.decorator)
        for base in node.bases:
            self.walk(base.value)
        info = inf.new_class(node.name.value, [b.value for b in node.bases])
        inf.push("class", cls=info)
        self.block(node.body)
        inf.pop()
        inf.set(node.name.value, info)

    def _lambda(self, node: nodes.Lambda) -> None:
        for p in _all_params(node.params):
            if p.default is not None:
                self.walk(p.default)
        self.inf.push("lambda")
        for p in _all_params(node.params):
            self.inf.scope.names[p.name.value] = _FREE
        self.walk(node.body)
        self.inf.pop()

    def _comp(self, node) -> None:
        self.dispatch(node)
        # the first iterable is evaluated in the enclosing scope
        comp = node.for_in
        self.walk(comp.iter)
        self.inf.push("comp")
        first = True
        while comp is not None:
            if not first:
                self.walk(comp.iter)
            first = False
            self.inf.bind_target(comp.target, self.inf.element_kind(self.inf.infer(comp.iter)))
            for cond in comp.ifs:
                self.walk(cond.test)
            comp = comp.inner_for_in
        if type(node) is nodes.DictComp:
            self.walk(node.key)
            self.walk(node.value)
        else:
            self.walk(node.elt)
        self.inf.pop()

    def _named_expr(self, node: nodes.NamedExpr) -> None:
        self.dispatch(node)
        self.walk(node.value)
        kind, doubt = self.inf.infer_flow(node.value)
        if type(node.target) is nodes.Name:
            self.inf.bind_walrus(node.target.value, kind, doubt)

    def _fstring_expression(self, node: nodes.FormattedStringExpression) -> None:
        self.ctx.note_fstring_expression(node)
        self.dispatch(node)
        self.children(node)

    def _if_exp(self, node: nodes.IfExp) -> None:
        self.dispatch(node)
        self.walk(node.test)
        yes, no = self.inf.narrowing(node.test)
        undo = self.inf.apply(yes)
        self.walk(node.body)
        self.inf.undo(undo)
        undo = self.inf.apply(no)
        self.walk(node.orelse)
        self.inf.undo(undo)

    def _bool_op(self, node: nodes.BooleanOperation) -> None:
        self.dispatch(node)
        self.walk(node.left)
        yes, no = self.inf.narrowing(node.left)
        undo = self.inf.apply(yes if type(node.operator) is nodes.And else no)
        self.walk(node.right)
        self.inf.undo(undo)

    def _skip(self, node) -> None:
        """Nodes with nothing a rule or the inference needs (tokens, literals, global)."""


_FREE = kinds.FREE


def _written_view(target: nodes.Tuple, source: str) -> bool:
    """Does ``source`` write into one of the names of tuple ``target`` (``newer.copy_(``,
    ``newer[``)?"""
    return any(type(e.value) is nodes.Name and (
        e.value.value + "[" in source or e.value.value + ".copy_(" in source)
        for e in target.elements)


def _narrowing(value) -> bool:
    """``x.narrow(d, s, n)``: a view of ``x``."""
    return type(value) is nodes.Call and type(value.func) is nodes.Attribute and \
        value.func.attr.value == "narrow"


def _all_params(params: nodes.Parameters):
    yield from params.posonly_params
    yield from params.params
    if isinstance(params.star_arg, nodes.Param):
        yield params.star_arg
    yield from params.kwonly_params
    if params.star_kwarg is not None:
        yield params.star_kwarg


_SPECIAL = {
    nodes.Module: Walker._module,
    nodes.SimpleStatementLine: Walker._simple_line,
    nodes.SimpleStatementSuite: Walker._suite,
    nodes.IndentedBlock: Walker.block,
    nodes.Assign: Walker._assign,
    nodes.AnnAssign: Walker._ann_assign,
    nodes.AugAssign: Walker._aug_assign,
    nodes.Import: Walker._import,
    nodes.ImportFrom: Walker._import_from,
    nodes.If: Walker._if,
    nodes.Assert: Walker._assert,
    nodes.For: Walker._for,
    nodes.With: Walker._with,
    nodes.While: Walker._while,
    nodes.Match: Walker._match,
    nodes.FormattedStringExpression: Walker._fstring_expression,
    nodes.Try: Walker._try,
    nodes.TryStar: Walker._try,
    nodes.FunctionDef: Walker._function,
    nodes.ClassDef: Walker._class,
    nodes.Lambda: Walker._lambda,
    nodes.ListComp: Walker._comp,
    nodes.SetComp: Walker._comp,
    nodes.GeneratorExp: Walker._comp,
    nodes.DictComp: Walker._comp,
    nodes.NamedExpr: Walker._named_expr,
    nodes.IfExp: Walker._if_exp,
    nodes.BooleanOperation: Walker._bool_op,
    nodes.Attribute: Walker._attribute,
    nodes.Global: Walker._skip,
    nodes.Nonlocal: Walker._skip,
    nodes.Name: Walker._skip,
    nodes.SimpleString: Walker._skip,
    nodes.Integer: Walker._skip,
    nodes.Float: Walker._skip,
    nodes.Pass: Walker._skip,
}

#: what ``children`` does not walk: None and the nodes ``_skip`` passes
_NOTHING = frozenset({type(None)} | {t for t, f in _SPECIAL.items() if f is Walker._skip})
#: nodes that hold one node (or None) in their one field and that neither a method of the
#: walk nor the inference reads: walking one is walking what it holds
_WRAPPERS = (nodes.Arg, nodes.Element, nodes.StarredElement, nodes.SubscriptElement,
             nodes.Index, nodes.ComparisonTarget, nodes.CompIf, nodes.StarredDictElement,
             nodes.Annotation, nodes.Decorator)
assert not set(_WRAPPERS) & set(_SPECIAL) and all(len(t._fields) == 1 for t in _WRAPPERS)


#: ``hook_tables`` and the last names of the callees that pick rules, per list of rules and
#: the hooks they declare (made once, not for each file: the same rules are asked of every
#: one); each entry holds the declarations it was made from, so that their ids in its key
#: stay theirs
_HOOK_TABLES: Dict[tuple, tuple] = {}


def _hook_tables(rules: Sequence[Rule]) -> tuple:
    key = tuple((rule, rule.hooks, id(rule.hook_names), id(rule.hook_quals)) for rule in rules)
    got = _HOOK_TABLES.get(key)
    if got is None:
        hooks, named, by_qual = hook_tables(rules)
        got = _HOOK_TABLES[key] = (hooks, named, by_qual,
                                   frozenset(q.rpartition(".")[2] for q in by_qual),
                                   [(rule.hook_names, rule.hook_quals) for rule in rules])
    return got[:4]


def not_analysed(reason: str) -> Diagnostic:
    """TEN001 at 1:1: Python parses the file but it could not be analysed (no rule was run)."""
    return Diagnostic(NOT_ANALYSED,
                      f"file could not be analysed, no TEN rule was checked: {reason}", 1, 0, 1, 0)


def analyze(source: str, settings: Settings = DEFAULT_SETTINGS,
            rules: Optional[Sequence[Rule]] = None, tree: Optional[ast.AST] = None,
            prefilter: bool = True, mask: bool = True,
            filename: Optional[str] = None,
            planned: Optional[Tuple[bool, list]] = None) -> List[Diagnostic]:
    """All diagnostics for ``source``; raises LintError when it cannot be parsed.

    ``tree`` is the ``ast`` module if the caller has one (flake8 does); the cheap pre-filters
    run on it (or on a fresh ``ast.parse``), and with ``mask`` the definitions that hold no
    candidate are not built at all (they stand as ``pass``). Positions and fix offsets refer to
    ``source``. With ``filename`` (a real path), the project index reads what the file imports
    from its own project (see ``project``). ``planned`` is ``prefilter.plan(tree, source)`` if
    the caller already ran it (the flake8 plugin does, before it imports this module).
    """
    skip: Optional[Dict[int, str]] = None
    if not isinstance(tree, ast.Module):
        tree = python_ast(source)  # a file Python cannot parse is reported, never called clean
    if prefilter:
        if planned is None and not might_match(source):
            return []
        found, spans = planned if planned is not None else plan(
            tree, source, lambda holds: project_reach(
                filename, source, getattr(settings, "source_roots", ()), holds))
        if not found:
            return []
        if mask and spans and len(source) > _MASK_MIN_CHARS:
            skip = {start: stand_in for start, end, stand_in in spans if start <= end}
    # the walk allocates many small acyclic objects per file; the cyclic collector would
    # traverse them (and every live object) again and again for nothing. Paused for this file
    # only, restored as it was (benchmarks/RESULTS.md has the measurement).
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _analyze_tree(source, tree, skip, settings, rules, filename)
    except LintError as exc:
        # valid Python that cannot be walked: say so (TEN001), never look clean
        return [not_analysed(str(exc))]
    finally:
        if paused:
            gc.enable()


def _analyze_tree(source: str, tree: ast.Module, skip: Optional[Dict[int, str]],
                  settings: Settings, rules: Optional[Sequence[Rule]],
                  filename: Optional[str]) -> List[Diagnostic]:
    text = Text(source)
    try:
        module = build.build(tree, source, text, skip)
    except RecursionError:
        raise LintError("source is nested too deeply to analyse") from None
    project = _project_context(filename, tree, source, settings)
    try:
        inference = Inference(settings.tensor_names, settings.tensor_factories, project)
        note_shared_writes(inference, tree, source)
        ctx = Context(module, inference, source, text)
        walker = Walker(ctx, rules if rules is not None else ALL_RULES)
        try:
            walker.walk(module)
        except RecursionError:
            raise LintError("source is nested too deeply to analyse") from None
        finally:
            walker.drop_pending()
        if not walker.reports:
            return []
        return _resolve(module, source, ctx, walker.reports)
    finally:
        if project is not None:
            project.release()


def _project_context(filename: Optional[str], tree, source: str, settings: Settings):
    """The project index as seen from ``filename``; None for text without a real path."""
    if not in_project(filename):
        return None
    from .semantic.index import FileContext

    return FileContext(filename, tree if isinstance(tree, ast.Module) else None, source,
                       getattr(settings, "source_roots", ()))


def _resolve(module: nodes.Module, source: str, ctx: Context,
             reports: List[Report]) -> List[Diagnostic]:
    text = ctx.text
    newline = detect_newline(source)
    seen = set()
    out: List[Diagnostic] = []
    comments: List[Tuple[int, str]] = []  # filled on first need
    for rep in reports:
        rng = text.range(rep.node)
        key = (rep.code, rng.start.line, rng.start.column, rng.end.line, rng.end.column)
        if key in seen:
            continue
        seen.add(key)
        fix = None
        message = rep.message
        if rep.fix is not None:
            fix = edits.plan_to_fix(rep.fix, module, source, text, newline)
            if fix is not None and edits.drops_comment(fix, source, comments):
                fix = None
                message += " (fix withheld: it would drop a comment)"
            elif fix is not None and ctx.printed_spans and any(
                    ctx.in_printed_text(e.start, e.end) for e in fix.edits):
                fix = None
                message += " (fix withheld: an f-string's `=` prints this text)"
        out.append(Diagnostic(rep.code, message, rng.start.line, rng.start.column,
                              rng.end.line, rng.end.column, fix))
    out.sort(key=Diagnostic.sort_key)
    return out


