"""Parse once with ``ast``, walk once, run every rule in that single batched pass.

source text -> (cheap text pre-check) -> ``ast`` module -> pre-filter plan -> the libcst-shaped
tree of the candidate code (``tree.py``) -> walk: inference state + rule hooks -> Reports ->
positions (``positions.py``, only for reported nodes) -> Diagnostics.
"""
from __future__ import annotations

import ast
import gc
import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from . import inference as inf_mod
from . import torch_api
from . import tree as cst
from .diagnostics import NOT_ANALYSED, Diagnostic, Edit, Fix
from .inference import Inference, Instance, dotted_name, is_tensor
from .positions import Text, Tok
from .prefilter import SHAPES, plan
from .rules import ALL_RULES
from .rules.base import FixPlan, NodeEdit, Report, Rule, Src
from .source import MAX_NESTING, detect_newline, nesting_depth, split_lines

#: below this size skipping candidate-free definitions saves less than it costs
_MASK_MIN_CHARS = 2000
_WS = re.compile(r"\s+")


class Settings:
    """Project settings the engine needs (from ``[tool.tensorcopy]`` or flake8 options)."""

    def __init__(self, tensor_names: Iterable[str] = (), tensor_factories: Iterable[str] = (),
                 source_roots: Iterable[str] = ()):
        self.tensor_names = tuple(tensor_names)
        self.tensor_factories = tuple(tensor_factories)
        #: extra directories absolute project imports resolve under (``[tool.tensorcopy]``)
        self.source_roots = tuple(source_roots)


DEFAULT_SETTINGS = Settings()


def might_match(source: str) -> bool:
    """Cheap pre-check: False means no rule can fire on this text."""
    return SHAPES.search(source) is not None


class Context:
    """What a rule sees while the walk is at a node."""

    def __init__(self, module: cst.Module, inference: Inference, source: str,
                 text: Optional[Text] = None) -> None:
        self.module = module
        self.inf = inference
        self.source = source
        #: offsets, spans and parentheses in ``source``
        self.text = text if text is not None else Text(source)
        #: how each ``X.data`` node is used, keyed by id(node): (use, detail)
        self.data_use: Dict[int, Tuple[str, Optional[str]]] = {}
        #: the statement (SimpleStatementLine) being walked and whether it is a lone statement
        self.stmt_line: Optional[cst.SimpleStatementLine] = None
        #: the function (or the module) whose body is being walked
        self.scope_node: cst.CSTNode = module
        # a file that defines its own ``data`` property/attribute makes unknown ``x.data`` ambiguous
        self.local_data_attr = "def data(" in source
        #: while the walk is at a call: its callee and the callee's qualified name (the walk
        #: and several rules ask for it; nothing is bound while one node is being checked)
        self._callee: Optional[cst.CSTNode] = None
        self._callee_qual: Optional[str] = None

    # helpers used by rules
    def code(self, node: cst.CSTNode) -> str:
        """The node's source text with its own parentheses (libcst's ``code_for_node``)."""
        s, e, _ = self.text.outer(node)
        code = self.source[s:e]
        if "\n" in code or "\r" in code:
            return _dedent(self.module._a, self.text, s, code)
        return code

    def parenthesized(self, node: cst.CSTNode) -> bool:
        """Does the node have parentheses of its own (libcst's ``node.lpar``)?"""
        return self.text.outer(node)[2] > 0

    def comma(self, arg: cst.Arg) -> Optional[Tok]:
        """The comma after an argument (libcst's ``arg.comma``), or None."""
        return self.text.comma_after(arg)

    def simple_whitespace_after(self, node: cst.CSTNode) -> bool:
        """No comment or line break between ``node`` (an argument or a comma) and the next
        token: libcst's ``SimpleWhitespace`` in ``whitespace_after_arg``/``whitespace_after``."""
        return self.text.simple_whitespace_after(self.text.span(node)[1])

    def snippet(self, node: cst.CSTNode, limit: int = 40) -> str:
        text = _WS.sub(" ", self.code(node)).strip()
        return text if len(text) <= limit else text[: limit - 3] + "..."

    def operand(self, node: cst.BaseExpression) -> str:
        """Code for ``node`` usable as the receiver of ``.method()`` (parenthesized if needed)."""
        text = self.code(node)
        if self.text.outer(node)[2] or type(node) in _ATOMS:
            return text
        return f"({text})"

    def operand_parts(self, node: cst.BaseExpression) -> tuple:
        """``operand`` as edit pieces: the node's own source text, parenthesized if needed."""
        s, e, parens = self.text.outer(node)
        if parens:
            return (Src(Tok(s, s + 1), end=Tok(e - 1, e)),)
        if type(node) in _ATOMS:
            return (Src(node),)
        return ("(", Src(node), ")")

    def infer(self, node: cst.BaseExpression):
        return self.inf.infer(node)

    def is_tensor(self, node: cst.BaseExpression) -> bool:
        return is_tensor(self.inf.infer(node))

    def qualname(self, node: cst.BaseExpression) -> Optional[str]:
        if node is self._callee:
            return self._callee_qual
        if type(node) is cst.Name or type(node) is cst.Attribute:
            return self.inf.qualname(node)
        return None

    def torch_ref(self, edits: List[NodeEdit]) -> Optional[str]:
        """The name to spell ``torch`` with at this point when the code runs; adds an ``import
        torch`` edit where no such name is bound (none at all, a star import, or only under
        ``if TYPE_CHECKING:``). None where ``torch`` names something else here (a parameter or
        local called ``torch``): no fix can spell it."""
        alias = self.inf.torch_alias()
        if alias is not None:
            return alias
        bound = self.inf.lookup("torch")
        if bound is not None and not (type(bound) is inf_mod.Qual and bound.qual == "torch"):
            return None
        edits.append(NodeEdit("import_torch", None))
        return "torch"

    def lone_statement(self) -> Optional[cst.SimpleStatementLine]:
        line = self.stmt_line
        if line is not None and len(line.body) == 1:
            return line
        return None


def _dedent(tree: ast.Module, text: Text, start: int, code: str) -> str:
    """``code`` (a node's text, over several lines) as libcst's ``code_for_node`` prints it:
    lines that continue it inside brackets lose the indentation of the block that holds the
    node (libcst keeps them relative to it); lines inside a string or after a backslash stay."""
    first = text.position(start).line
    # the innermost statement holding the node's first line sets the block's indentation
    stmt = None
    body = tree.body
    while body:
        for a in body:
            lo = min([a.lineno] + [d.lineno for d in getattr(a, "decorator_list", ())])
            if lo <= first <= a.end_lineno:
                stmt = a
                body = [s for f in ("body", "orelse", "finalbody") for s in getattr(a, f, ())
                        if isinstance(s, ast.stmt)]
                body += [s for h in getattr(a, "handlers", ()) for s in h.body]
                body += [s for c in getattr(a, "cases", ()) for s in c.body]
                break
        else:
            break
    if stmt is None:
        return code
    line = text.source[text.starts[stmt.lineno - 1]:]
    indent = line[:len(line) - len(line.lstrip(" \t\f"))]
    if not indent:
        return code
    keep = set()  # lines inside a string token that spans lines
    for a in ast.walk(stmt):
        if type(a) in (ast.Constant, ast.JoinedStr) and a.end_lineno > a.lineno:
            s, e = text.ast_span(a)
            for m in cst._ONE_STRING.finditer(text.source, s, e):
                if "\n" in m.group() or "\r" in m.group():
                    lo = text.position(m.start()).line
                    keep.update(range(lo + 1, text.position(m.end()).line + 1))
    lines = split_lines(code, True)
    out = [lines[0]]
    for i, piece in enumerate(lines[1:], 1):
        if first + i not in keep and piece.startswith(indent) and \
                not lines[i - 1].rstrip("\r\n").endswith("\\"):
            piece = piece[len(indent):]
        out.append(piece)
    return "".join(out)


_ATOMS = (
    cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.List, cst.Dict, cst.Set,
    cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.SimpleString,
    cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float, cst.Imaginary,
)

#: torch functions that accept any data: an argument passed to them is no evidence of a tensor
_CONVERTERS = frozenset(
    {"torch.tensor", "torch.as_tensor", "torch.asarray", "torch.from_numpy", "torch.save",
     "torch.is_tensor", "torch.numel", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor",
     "torch.utils.data.DataLoader", "torch.utils.data.TensorDataset"}
) | inf_mod.LEGACY_CONSTRUCTORS


def _initializer(func: cst.BaseExpression) -> bool:
    """A callee named like an in-place initializer (``weight_init``, ``init_fn``): what it is
    given first is written into."""
    name = inf_mod.last_name(func) or ""
    return "init" in name.lower() and not name.startswith("__") and name != "init_hidden"


def _is_init(q: str) -> bool:
    """``torch.nn.init.normal_`` and its deprecated in-place alias ``torch.nn.init.normal``."""
    if not q.startswith("torch.nn.init."):
        return False
    return q.endswith("_") or torch_api.function_return(q + "_") is not None


def _takes_data(q: str, i: int, arg: cst.Arg) -> bool:
    """Does torch function ``q`` take any data (a list, an array) where ``arg`` goes? Then the
    argument is no evidence of a tensor (``torch.sparse_csr_tensor(a.indptr, a.indices, a.data)``
    with SciPy's ``a``)."""
    positions = torch_api.data_arg_positions(q)
    if positions is None:
        return False
    return arg.keyword is not None or i in positions


class Walker:
    """The single pass: keeps inference state in step with source order and calls rule hooks."""

    def __init__(self, ctx: Context, rules: Sequence[Rule]) -> None:
        self.ctx = ctx
        self.inf = ctx.inf
        self.reports: List[Report] = []
        self.hooks: Dict[type, List[Rule]] = {}
        for rule in rules:
            for t in rule.hooks:
                self.hooks.setdefault(t, []).append(rule)

    # -- generic ---------------------------------------------------------------------------
    def walk(self, node: cst.CSTNode) -> None:
        t = type(node)
        special = _SPECIAL.get(t)
        if special is not None:
            special(self, node)
            return
        self.dispatch(node)
        self.children(node)

    def dispatch(self, node: cst.CSTNode) -> None:
        t = type(node)
        ctx = self.ctx
        if t is cst.Call:
            ctx._callee = None
            ctx._callee_qual = ctx.qualname(node.func)
            ctx._callee = node.func
            self._note_call(node)
        elif t is cst.Attribute:
            value = node.value
            if type(value) is cst.Attribute and value.attr.value == "data":
                ctx.data_use.setdefault(id(value), ("attr", node.attr.value))
        elif t is cst.Subscript:
            value = node.value
            if type(value) is cst.Attribute and value.attr.value == "data":
                sl = node.slice[0].slice if len(node.slice) == 1 else None
                if type(sl) is cst.Index and type(sl.value) in (
                        cst.SimpleString, cst.ConcatenatedString, cst.FormattedString):
                    ctx.data_use.setdefault(id(value), ("str-subscript", None))
                else:
                    ctx.data_use.setdefault(id(value), ("subscript", None))
        rules = self.hooks.get(t)
        if rules:
            reports = self.reports
            for rule in rules:
                reports.extend(rule.check(node, ctx))
        ctx._callee = None

    def children(self, node: cst.CSTNode) -> None:
        walk = self.walk
        for name in node._fields:
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                walk(value)
            elif type(value) is tuple or type(value) is list:
                for item in value:
                    if isinstance(item, cst.CSTNode):
                        walk(item)

    def block(self, body) -> None:
        """An IndentedBlock / SimpleStatementSuite / Module body."""
        for stmt in body.body:
            self.walk(stmt)

    # -- notes on how ``.data`` is used ---------------------------------------------------------
    def _note_call(self, node: cst.Call) -> None:
        use = self.ctx.data_use
        func = node.func
        if type(func) is cst.Attribute:
            recv = func.value
            if type(recv) is cst.Attribute and recv.attr.value == "data":
                use.setdefault(id(recv), ("method", func.attr.value))
        q = self.ctx.qualname(func)
        writes = None
        for i, arg in enumerate(node.args):
            value = arg.value
            if type(value) is cst.Attribute and value.attr.value == "data":
                if writes is None:
                    writes = self.inf.written_params(node)
                if q and _is_init(q) and i == 0:
                    use.setdefault(id(value), ("init", q))
                elif (i if arg.keyword is None else arg.keyword.value) in writes or (
                        q is None and i == 0 and arg.keyword is None and _initializer(func)):
                    # ``normal_(w.data)`` with a helper of the project that writes into its
                    # argument; ``weight_init(m.weight.data)`` with an initializer passed in
                    use.setdefault(id(value), ("helper-write", dotted_name(func) or "the helper"))
                elif q and q.startswith("torch.") and q not in _CONVERTERS \
                        and not _takes_data(q, i, arg):
                    use.setdefault(id(value), ("torch-arg", q))
                else:
                    use.setdefault(id(value), ("arg", None))
        if type(func) is cst.Attribute and type(func.value) is cst.Subscript:
            # ``w.data[idx].zero_()``: an in-place change through ``.data``
            inner = func.value.value
            if type(inner) is cst.Attribute and inner.attr.value == "data" \
                    and inf_mod.is_value_write(func.attr.value):
                use.setdefault(id(inner), ("subscript-store", None))
        self.inf.register_buffer_call(node)
        self.inf.note_append(node)

    def _note_store(self, target: cst.BaseExpression, aug: bool) -> None:
        use = self.ctx.data_use
        t = type(target)
        if t is cst.Attribute and target.attr.value == "data":
            use.setdefault(id(target), ("augassign" if aug else "assign", None))
        elif t is cst.Subscript:
            value = target.value
            if type(value) is cst.Attribute and value.attr.value == "data":
                use.setdefault(id(value), ("subscript-store", None))
        elif t is cst.Tuple or t is cst.List:
            for e in target.elements:
                self._note_store(e.value, aug)

    # -- statements ----------------------------------------------------------------------------
    def _module(self, node: cst.Module) -> None:
        self.block(node)

    def _simple_line(self, node: cst.SimpleStatementLine) -> None:
        outer = self.ctx.stmt_line
        self.ctx.stmt_line = node
        for stmt in node.body:
            self.walk(stmt)
        self.ctx.stmt_line = outer

    def _suite(self, node: cst.SimpleStatementSuite) -> None:
        outer = self.ctx.stmt_line
        self.ctx.stmt_line = None  # statements after ``if x:`` on one line cannot be wrapped
        for stmt in node.body:
            self.walk(stmt)
        self.ctx.stmt_line = outer

    def _assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._note_store(t.target, False)
        self.dispatch(node)
        for t in node.targets:
            self._walk_target(t.target)
        self.walk(node.value)
        kind = self.inf.infer(node.value)
        for t in node.targets:
            self.inf.bind_target(t.target, kind)

    def _ann_assign(self, node: cst.AnnAssign) -> None:
        self._note_store(node.target, False)
        self.dispatch(node)
        self._walk_target(node.target)
        if node.value is not None:
            self.walk(node.value)
        kind = self.inf.kind_of_annotation(node.annotation.annotation)
        if kind is None and node.value is not None:
            kind = self.inf.infer(node.value)
        if node.value is not None or kind is not None:
            self.inf.bind_target(node.target, kind)

    def _aug_assign(self, node: cst.AugAssign) -> None:
        self._note_store(node.target, True)
        self.dispatch(node)
        self._walk_target(node.target)
        self.walk(node.value)

    def _walk_target(self, target: cst.BaseExpression) -> None:
        t = type(target)
        if t is cst.Name:
            return
        if t is cst.Tuple or t is cst.List:
            for e in target.elements:
                self._walk_target(e.value)
        elif t is cst.StarredElement:
            self._walk_target(target.value)
        else:
            self.walk(target)

    def _import(self, node: cst.Import) -> None:
        self.inf.bind_import(node)

    def _import_from(self, node: cst.ImportFrom) -> None:
        self.inf.bind_import_from(node)

    def _if(self, node: cst.If) -> None:
        """Each branch starts from the state before the ``if``; the states merge afterwards."""
        inf = self.inf
        self.walk(node.test)
        yes, no = inf.narrowing(node.test)
        names = inf.scope.names
        before = dict(names)
        undo = inf.apply(yes)
        type_only = _is_type_checking(node.test)
        inf.type_checking += type_only
        self.block(node.body)
        inf.type_checking -= type_only
        inf.undo(undo)
        body_state, body_ends = dict(names), _ends_flow(node.body)
        names.clear()
        names.update(before)
        undo = inf.apply(no)
        else_ends = False
        if type(node.orelse) is cst.If:
            self._if(node.orelse)
        elif node.orelse is not None:
            self.block(node.orelse.body)
            else_ends = _ends_flow(node.orelse.body)
        inf.undo(undo)
        merged = _merge(body_state, body_ends, dict(names), else_ends)
        default = _none_test(node.test)
        if default is not None and node.orelse is None and not body_ends and \
                before.get(default, inf_mod.FREE) in (inf_mod.FREE, inf_mod.NONE):
            # ``if x is None: x = torch.zeros(3)``: x has the default's kind afterwards
            merged[default] = body_state.get(default, inf_mod.UNKNOWN)
        names.clear()
        names.update(merged)
        if node.orelse is None and no and body_ends:
            inf.apply(no)  # ``if not isinstance(x, Tensor): return`` narrows what follows

    def _assert(self, node: cst.Assert) -> None:
        self.dispatch(node)
        self.walk(node.test)
        yes, _ = self.inf.narrowing(node.test)
        self.inf.apply(yes)

    def _for(self, node: cst.For) -> None:
        self.dispatch(node)
        self.walk(node.iter)
        self.inf.bind_target(node.target, self.inf.element_kind(self.inf.infer(node.iter)))
        self._walk_target(node.target)
        self.block(node.body)
        if node.orelse is not None:
            self.block(node.orelse.body)

    def _with(self, node: cst.With) -> None:
        self.dispatch(node)
        no_grad = False
        for item in node.items:
            self.walk(item.item)
            expr = item.item
            if type(expr) is cst.Call:
                q = self.ctx.qualname(expr.func)
                if q in inf_mod._NO_GRAD:
                    no_grad = True
            if item.asname is not None:
                self.inf.bind_target(item.asname.name, inf_mod.UNKNOWN)
        scope = self.inf.scope
        outer = scope.no_grad
        scope.no_grad = outer or no_grad
        self.block(node.body)
        scope.no_grad = outer

    def _try(self, node) -> None:
        self.block(node.body)
        for handler in node.handlers:
            if handler.type is not None:
                self.walk(handler.type)
            if handler.name is not None:
                self.inf.bind_target(handler.name.name, inf_mod.NOT_TENSOR)
            self.block(handler.body)
        if node.orelse is not None:
            self.block(node.orelse.body)
        if node.finalbody is not None:
            self.block(node.finalbody.body)

    def _function(self, node: cst.FunctionDef) -> None:
        inf = self.inf
        no_grad = False
        is_static = False
        for dec in node.decorators:
            self.walk(dec.decorator)
            d = dec.decorator
            target = d.func if type(d) is cst.Call else d
            q = self.ctx.qualname(target)
            if q in inf_mod._NO_GRAD:
                no_grad = True
            if type(target) is cst.Name and target.value in ("staticmethod", "classmethod"):
                is_static = True
            if type(target) is cst.Name and target.value == "property" and node.name.value == "data":
                self.ctx.local_data_attr = True
        params = node.params
        for p in _all_params(params):
            if p.default is not None:
                self.walk(p.default)
            if p.annotation is not None:
                self.walk(p.annotation.annotation)
        from_calls = inf.param_kinds(node.name.value)
        inf.set(node.name.value, inf.function_kind(node))
        cls = inf.scope.cls if inf.scope.kind == "class" else None
        inf.push("function", cls=cls, no_grad=no_grad)
        outer_scope, self.ctx.scope_node = self.ctx.scope_node, node
        first = True
        for p in _all_params(params):
            kind = None
            if p.annotation is not None:
                kind = inf.kind_of_annotation(p.annotation.annotation)
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

    def _class(self, node: cst.ClassDef) -> None:
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

    def _lambda(self, node: cst.Lambda) -> None:
        for p in _all_params(node.params):
            if p.default is not None:
                self.walk(p.default)
        self.inf.push("comp")
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
        if type(node) is cst.DictComp:
            self.walk(node.key)
            self.walk(node.value)
        else:
            self.walk(node.elt)
        self.inf.pop()

    def _named_expr(self, node: cst.NamedExpr) -> None:
        self.dispatch(node)
        self.walk(node.value)
        self.inf.bind_target(node.target, self.inf.infer(node.value))

    def _if_exp(self, node: cst.IfExp) -> None:
        self.dispatch(node)
        self.walk(node.test)
        yes, no = self.inf.narrowing(node.test)
        undo = self.inf.apply(yes)
        self.walk(node.body)
        self.inf.undo(undo)
        undo = self.inf.apply(no)
        self.walk(node.orelse)
        self.inf.undo(undo)

    def _bool_op(self, node: cst.BooleanOperation) -> None:
        self.dispatch(node)
        self.walk(node.left)
        yes, no = self.inf.narrowing(node.left)
        undo = self.inf.apply(yes if type(node.operator) is cst.And else no)
        self.walk(node.right)
        self.inf.undo(undo)

    def _skip(self, node) -> None:
        """Nodes with nothing a rule or the inference needs (tokens, literals, global)."""


_FREE = inf_mod.FREE


def _all_params(params: cst.Parameters):
    yield from params.posonly_params
    yield from params.params
    if isinstance(params.star_arg, cst.Param):
        yield params.star_arg
    yield from params.kwonly_params
    if params.star_kwarg is not None:
        yield params.star_kwarg


def _merge(a: Dict[str, inf_mod.Kind], a_ends: bool, b: Dict[str, inf_mod.Kind],
           b_ends: bool) -> Dict[str, inf_mod.Kind]:
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
        elif x is None or x is inf_mod.NONE:
            out[key] = y
        elif y is inf_mod.NONE:
            out[key] = x
        elif is_tensor(x) and is_tensor(y):
            # an alias on one path stays an alias: ``p32 = p.data`` then ``if half: p32 =
            # p32.float()`` still writes into ``p`` on the float32 path
            alias = [k for k in (x, y) if type(k) is inf_mod.Alias]
            out[key] = alias[0] if len(alias) == 1 else inf_mod.TENSOR
        else:
            out[key] = inf_mod.UNKNOWN
    return out


def _is_type_checking(test: cst.BaseExpression) -> bool:
    """``if TYPE_CHECKING:`` / ``if typing.TYPE_CHECKING:``: imports there never run."""
    return (type(test) is cst.Name and test.value == "TYPE_CHECKING") or (
        type(test) is cst.Attribute and test.attr.value == "TYPE_CHECKING")


def _none_test(test: cst.BaseExpression) -> Optional[str]:
    """``x`` for a test ``x is None``."""
    if type(test) is cst.Comparison and len(test.comparisons) == 1 and type(test.left) is cst.Name:
        comp = test.comparisons[0]
        if type(comp.operator) is cst.Is and type(comp.comparator) is cst.Name \
                and comp.comparator.value == "None":
            return test.left.value
    return None


def _ends_flow(body) -> bool:
    stmts = body.body
    if not stmts:
        return False
    last = stmts[-1]
    if type(last) is cst.SimpleStatementLine:
        last = last.body[-1] if last.body else None
    return type(last) in (cst.Return, cst.Raise, cst.Continue, cst.Break)


_SPECIAL = {
    cst.Module: Walker._module,
    cst.SimpleStatementLine: Walker._simple_line,
    cst.SimpleStatementSuite: Walker._suite,
    cst.IndentedBlock: Walker.block,
    cst.Assign: Walker._assign,
    cst.AnnAssign: Walker._ann_assign,
    cst.AugAssign: Walker._aug_assign,
    cst.Import: Walker._import,
    cst.ImportFrom: Walker._import_from,
    cst.If: Walker._if,
    cst.Assert: Walker._assert,
    cst.For: Walker._for,
    cst.With: Walker._with,
    cst.Try: Walker._try,
    cst.TryStar: Walker._try,
    cst.FunctionDef: Walker._function,
    cst.ClassDef: Walker._class,
    cst.Lambda: Walker._lambda,
    cst.ListComp: Walker._comp,
    cst.SetComp: Walker._comp,
    cst.GeneratorExp: Walker._comp,
    cst.DictComp: Walker._comp,
    cst.NamedExpr: Walker._named_expr,
    cst.IfExp: Walker._if_exp,
    cst.BooleanOperation: Walker._bool_op,
    cst.Global: Walker._skip,
    cst.Nonlocal: Walker._skip,
    cst.Name: Walker._skip,
    cst.SimpleString: Walker._skip,
    cst.Integer: Walker._skip,
    cst.Float: Walker._skip,
    cst.Pass: Walker._skip,
}


_NOQA = re.compile(
    r"#\s*noqa(?::\s?(?P<codes>[A-Z][A-Z0-9]*(?:[,\s]+[A-Z][A-Z0-9]*)*))?", re.IGNORECASE)


def filter_noqa(diags: List[Diagnostic], source: str) -> List[Diagnostic]:
    """Drop diagnostics silenced by ``# noqa`` / ``# noqa: TEN101`` on their reported line."""
    if "noqa" not in source.lower():
        return diags
    lines = split_lines(source)
    out = []
    for d in diags:
        line = lines[d.line - 1] if 0 < d.line <= len(lines) else ""
        m = _NOQA.search(line)
        if m:
            codes = m.group("codes")
            if not codes:
                continue
            if any(d.code.startswith(c.upper()) for c in re.split(r"[,\s]+", codes) if c):
                continue
        out.append(d)
    return out


class LintError(Exception):
    """The source cannot be analysed (does not parse, or is too deep to walk)."""


class TooDeep(LintError):
    """Brackets nested deeper than Python's parser accepts."""


def check_nesting(source: str) -> None:
    """Raise TooDeep for text nested deeper than MAX_NESTING brackets."""
    if sum(source.count(c) for c in "([{") <= MAX_NESTING:
        return  # cannot be deeper than the number of opening brackets
    depth = nesting_depth(source)
    if depth > MAX_NESTING:
        raise TooDeep(f"too deeply nested: {depth} levels of brackets (the limit is {MAX_NESTING})")


def python_ast(source: str) -> ast.Module:
    """``ast.parse(source)``; LintError (too deeply nested, or the syntax error) if it fails."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        check_nesting(source)
        if isinstance(exc, SyntaxError):
            raise LintError(f"syntax error at {exc.lineno}:{(exc.offset or 1) - 1}: {exc.msg}") \
                from None
        raise LintError(f"cannot parse: {type(exc).__name__}: {exc}".splitlines()[0]) from None


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
        found, spans = planned if planned is not None else plan(tree, source)
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
        module = cst.build(tree, source, text, skip)
    except RecursionError:
        raise LintError("source is nested too deeply to analyse") from None
    project = _project_context(filename, tree, source, settings)
    try:
        inference = Inference(settings.tensor_names, settings.tensor_factories, project)
        ctx = Context(module, inference, source, text)
        walker = Walker(ctx, rules if rules is not None else ALL_RULES)
        try:
            walker.walk(module)
        except RecursionError:
            raise LintError("source is nested too deeply to analyse") from None
        if not walker.reports:
            return []
        return _resolve(module, source, ctx, walker.reports)
    finally:
        if project is not None:
            project.release()


_INSTALLED = re.compile(r"[\\/](?:site|dist)-packages[\\/]")


def _project_context(filename: Optional[str], tree, source: str, settings: Settings):
    """The project index as seen from ``filename``; None for text without a real path."""
    if not filename or filename in ("-", "<string>", "<stdin>") or filename.startswith("<"):
        return None
    if _INSTALLED.search(filename):
        return None  # an installed package (torch's own source, say) is nobody's project here
    from .project import FileContext

    return FileContext(filename, tree if isinstance(tree, ast.Module) else None, source,
                       getattr(settings, "source_roots", ()))


def _resolve(module: cst.Module, source: str, ctx: Context,
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
            fix = _fix(rep.fix, module, source, text, newline)
            if fix is not None and _drops_comment(fix, source, comments):
                fix = None
                message += " (fix withheld: it would drop a comment)"
        out.append(Diagnostic(rep.code, message, rng.start.line, rng.start.column,
                              rng.end.line, rng.end.column, fix))
    out.sort(key=Diagnostic.sort_key)
    return out


def _comments(source: str) -> List[Tuple[int, str]]:
    """(offset, text) of every comment of ``source``."""
    import io
    import tokenize

    out = []
    text = Text(source)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                line, col = tok.start
                out.append((text.starts[line - 1] + col, tok.string))
    except (tokenize.TokenError, SyntaxError):
        pass  # what was read so far is all there is
    return out


def _drops_comment(fix: Fix, source: str, comments: List[Tuple[int, str]]) -> bool:
    """Would ``fix`` delete a comment? (one inside a replaced span whose text no edit writes)"""
    spans = [e for e in fix.edits if e.end > e.start and "#" in source[e.start:e.end]]
    if not spans:
        return False
    if not comments:
        comments.extend(_comments(source))
        comments.append((-1, ""))  # marks the list as filled
    texts = [e.text for e in fix.edits]
    for at, value in comments:
        if value and any(e.start <= at < e.end for e in spans) and \
                not any(value in t for t in texts):
            return True
    return False


def _text(text, source: str, positions: Text) -> str:
    if type(text) is str:
        return text
    return "".join(p if type(p) is str else source.__getitem__(slice(*_span(p, positions)))
                   for p in text)


def _span(e, positions: Text) -> Tuple[int, int]:
    first = positions.span(e.node)
    last = positions.span(e.end) if e.end is not None else first
    return (first[1] if e.from_end else first[0], last[0] if e.to_start else last[1])


def _eat_line(source: str, start: int, end: int) -> Tuple[int, int]:
    """Widen ``[start, end)`` to its whole line when nothing else is on that line."""
    begin = source.rfind("\n", 0, start) + 1
    stop = source.find("\n", end)
    if stop < 0 or source[begin:start].strip() or source[end:stop].strip():
        return start, end
    return begin, stop + 1


def _fix(plan: FixPlan, module, source: str, text: Text, newline: str) -> Optional[Fix]:
    edits = []
    for e in plan.edits:
        if e.kind == "replace":
            start, end = _span(e, text)
            if e.eat_line:
                start, end = _eat_line(source, start, end)
            edits.append(Edit(start, end, _text(e.text, source, text)))
        elif e.kind == "insert":
            start = text.span(e.node)[0]
            edits.append(Edit(start, start, e.text))
        elif e.kind == "no_grad":
            start = text.span(e.node)[0]
            line_begin = start - text.position(start).column
            indent = source[line_begin:start]
            if indent.strip():
                return None
            body = f"with {e.text}.no_grad():{newline}{indent}{default_indent(module, source)}"
            edits.append(Edit(start, start, body))
        elif e.kind == "import_torch":
            at = _import_offset(module, text, source)
            edits.append(Edit(at, at, f"import torch{newline}"))
    return Fix(plan.description, plan.safety, tuple(sorted(set(edits))))


_INDENT = re.compile(r"[ \t\f]*")


def default_indent(module: cst.Module, source: str) -> str:
    """The indentation of the file's first indented block (libcst's ``default_indent``: the
    first INDENT token's), four spaces when it has none."""
    lines = split_lines(source)
    for stmt in module._a.body:
        body = getattr(stmt, "body", None) or getattr(stmt, "cases", None)
        if not isinstance(body, list) or not body:
            continue
        first = body[0]
        if isinstance(first, getattr(ast, "match_case", ())):
            first = first.pattern
        line = first.lineno
        for d in getattr(first, "decorator_list", ()):
            line = min(line, d.lineno)
        text = lines[line - 1] if line <= len(lines) else ""
        indent = _INDENT.match(text).group()
        col = first.col_offset if line == first.lineno else None
        if col is None or not text.encode("utf-8", "surrogatepass")[:col].strip():
            return indent  # the block starts its own line: the first INDENT
    return "    "


def _import_offset(module: cst.Module, text: Text, source: str) -> int:
    """Where ``import torch`` goes: before the first statement that is not a docstring/__future__."""
    for i, stmt in enumerate(module.body):
        if type(stmt) is cst.SimpleStatementLine and stmt.body:
            small = stmt.body[0]
            if i == 0 and type(small) is cst.Expr and type(small.value) in (
                    cst.SimpleString, cst.ConcatenatedString):
                continue
            if type(small) is cst.ImportFrom and not small.relative and small.module is not None \
                    and inf_mod.dotted_name(small.module) == "__future__":
                continue
        return _statement_start(stmt, text)
    return len(source) if module.body else 0


def _statement_start(stmt: cst.CSTNode, text: Text) -> int:
    """A top-level statement's first token (a decorated definition's first decorator)."""
    a = stmt._a
    if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and a.decorator_list:
        d = a.decorator_list[0]
        return text._prev(text.offset(d.lineno, d.col_offset))  # the ``@``
    return text.span(stmt)[0]
