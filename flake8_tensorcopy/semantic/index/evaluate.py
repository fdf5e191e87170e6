"""What an expression of a project module evaluates to, in the lattice of ``kinds``: a small
evaluator over ``ast`` for what functions return, what ``self.x`` is bound to, and what the
call sites of a top-level function pass it (``collect_call_sites``).

Flow: statements are taken in source order and the latest assignment of a local name wins
(branches are not merged); good enough for what ``return`` gives back.
"""
from __future__ import annotations

import ast
import bisect
from typing import Dict, Iterator, List, Optional, Set, Tuple

from ...syntax.prefilter import child_nodes, dotted
from ...syntax.source import LazyPattern, any_line_within
from .. import torch_api
from .function_values import loop_names, picked_names
from ..kinds import (
    DATA_LOADERS, MODULE, MODULE_OUT, NOT_TENSOR, OPAQUE, OPTIMIZER, PARAM_GROUP, PARAM_GROUPS, TENSOR,
    TENSORS, DictOf, ForeignInstance,
    ModuleOf, ProjectClass, ProjectFunction, ProjectModule, ProjInstance, Qual, Seq,
    PARAMETER_SUBCLASSES, PRIVATE_RETURNS, dict_of_instances, join_returns, loader_batches, same,
)


def def_spans(module) -> List[Tuple[int, int, ast.AST]]:
    """(first line, last line, node) of the module's top-level definitions, in order."""
    return [(stmt.lineno, stmt.end_lineno or stmt.lineno, stmt) for stmt in module.tree.body
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def _callers(module, spans, spots: List[int]) -> Tuple[List[object], bool]:
    """The top-level functions whose lines hold one of ``spots`` (in the module's order of
    definitions, each once), and whether a spot lies outside every definition."""
    callers: Dict[int, object] = {}
    top_level_calls = False
    for ln in spots:
        i = bisect.bisect_right(spans, (ln, float("inf"))) - 1
        if i >= 0 and spans[i][0] <= ln <= spans[i][1]:
            node = spans[i][2]
            d = module.defs.get(node.name)
            if isinstance(d, ProjectFunction) and d.node is node:
                callers[id(d)] = d
        else:
            top_level_calls = True
    return list(callers.values()), top_level_calls


def collect_call_sites(module, target: str,
                       spans=None) -> List[Tuple[List[object], Dict[str, object]]]:
    """Calls of the module's top-level function ``target``, with the shapes of their arguments
    as the calling code has them at that point (module level and inside top-level functions).
    ``spans``: ``def_spans(module)``, if the caller keeps it."""
    sink: Dict[str, List[Tuple[List[object], Dict[str, object]]]] = {}
    targets = {target}
    callers = set()
    top_level_calls = False
    #: sorted lines where the target may be called (None: the text is unknown)
    spots = module.call_lines(target)
    if spots is not None:
        # from the text: a function is a caller when one of the lines lies in its body's lines
        found, top_level_calls = _callers(module, def_spans(module) if spans is None else spans,
                                          spots)
        callers = {id(d) for d in found}
    else:
        # evaluate only the bodies that call the target (a cheap ast scan first)
        for d in module.defs.values():
            if isinstance(d, ProjectFunction) and _calls_any(d.node, targets):
                callers.add(id(d))
        top_level_calls = any(
            _calls_any(stmt, targets) for stmt in module.tree.body
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    if not callers and not top_level_calls:
        return []
    if top_level_calls:
        ev = Evaluator(module)
        ev.collect = (targets, sink)
        ev.spots, ev.last = spots, (spots[-1] if spots else None)
        try:
            ev._block(module.tree.body, [])
        except _PastLastCall:
            pass
    for d in list(module.defs.values()):
        if isinstance(d, ProjectFunction) and id(d) in callers:
            sub = Evaluator(module, None, d.node)
            sub.collect, sub.looped = (targets, sink), module.stand_ins(d.name)
            sub.spots = spots
            if spots:  # the last spot in its own lines
                sub.last = spots[bisect.bisect_right(spots, d.node.end_lineno or d.node.lineno) - 1]  # type: ignore[attr-defined]
            try:
                sub._block(d.node.body, [])  # type: ignore[attr-defined]
            except _PastLastCall:
                pass
            except RecursionError:
                module.index.note(TOO_DEEP)
    return sink.get(target, [])


_UNKNOWN = object()
#: the note (``ProjectIndex.note``) for a chain of definitions too long to follow
TOO_DEEP = ("a chain of calls, imports or base classes was too deep to follow (Python's "
            "recursion limit): the findings that depend on it are missing")


class CallSites:
    """The call sites of one module's top-level functions, as ``collect_call_sites`` finds
    them, asked function by function.

    The first few functions asked are collected one by one (``collect_call_sites``: only the
    callers of that function, each walked up to its last call of it): what the analysis of a
    file asks is usually a handful. Past ``BATCH_AFTER`` functions, each caller is walked once,
    to its end, recording the calls of every top-level function of the module, and what a
    function is asked gets its sites from the walks of its callers (found by the text's call
    lines): every body is evaluated once, however many of the functions it calls are asked
    about, instead of once per function (quadratic in a module of many functions that call
    each other, or one ``main`` that calls them all). Both give the same sites, in the same
    order."""

    BATCH_AFTER = 8

    def __init__(self, module) -> None:
        self.module = module
        self.asked = 0
        self._spans: Optional[List[Tuple[int, int, ast.AST]]] = None
        self._order: Optional[Dict[int, int]] = None
        self._targets: Optional[Set[str]] = None
        #: the lines where any of ``_targets`` may be called (None: the text is unknown)
        self._spots: object = _UNKNOWN
        #: caller (id of its definition; 0: the module level) -> target -> its sites there
        self._walked: Dict[int, Dict[str, List[Tuple[List[object], Dict[str, object]]]]] = {}

    def spans(self) -> List[Tuple[int, int, ast.AST]]:
        if self._spans is None:
            self._spans = def_spans(self.module)
        return self._spans

    def of(self, target: str) -> List[Tuple[List[object], Dict[str, object]]]:
        self.asked += 1
        if self.asked <= self.BATCH_AFTER:
            return collect_call_sites(self.module, target, self.spans())
        module = self.module
        spots = module.call_lines(target)
        if spots is None:
            callers = [d for d in module.defs.values() if isinstance(d, ProjectFunction)]
            top_level_calls = True
        else:
            callers, top_level_calls = _callers(module, self.spans(), spots)
        if not callers and not top_level_calls:
            return []
        out: List[Tuple[List[object], Dict[str, object]]] = []
        if top_level_calls:
            out.extend(self._walk(0, None).get(target, ()))
        if self._order is None:
            self._order = {id(d): i for i, d in enumerate(module.defs.values())}
        order = self._order
        for d in sorted(callers, key=lambda d: order.get(id(d), -1)):
            if id(d) in order:
                out.extend(self._walk(id(d), d).get(target, ()))
        return out

    def _walk(self, key: int, d) -> Dict[str, List[Tuple[List[object], Dict[str, object]]]]:
        """The calls of every top-level function made by ``d``'s body (None: the module
        level), walked once."""
        got = self._walked.get(key)
        if got is not None:
            return got
        module = self.module
        if self._targets is None:
            self._targets = {name for name, f in module.defs.items()
                             if isinstance(f, ProjectFunction)}
        sink: Dict[str, List[Tuple[List[object], Dict[str, object]]]] = {}
        ev = Evaluator(module, None, d.node if d is not None else None)
        ev.collect = (self._targets, sink)
        if d is not None:
            ev.looped = module.stand_ins(d.name)  # ``def run(step): step(g)``, ``run(rule90)``
        if self._spots is _UNKNOWN:
            self._spots = module.all_call_lines(self._targets)
        ev.spots = self._spots  # type: ignore[assignment]
        if d is None:
            ev._block(module.tree.body, [])  # a RecursionError goes up, as one by one
        else:
            try:
                ev._block(d.node.body, [])
            except RecursionError:
                module.index.note(TOO_DEEP)
        self._walked[key] = sink
        return sink


#: every bare name that may be called (``called(name)`` for any name at once): the name,
#: then the same separators (matched once, atomically), looked at but not consumed, so that a
#: match ends where the name does and the search goes on from there, as each name's own does
CALLED_ANY = LazyPattern(r"(?<![\w.])([^\W\d]\w*)(?=((?:[\s)]|\\\n|#[^\n]*)*))(?=\2\()")


#: what follows a bare name where it is called (``call_starts``): blanks, closing parentheses
#: as in ``(name)(x)``, line continuations or comments, then ``(``. The separators are matched
#: once, inside a lookahead (atomic in Python's ``re``; possessive quantifiers need 3.11): they
#: are told apart by their first character, so giving any back could never find a ``(``, and a
#: run of comment lines cannot make the search backtrack exponentially.
_CALL_AFTER = LazyPattern(r"(?=((?:[\s)]|\\\n|#[^\n]*)*))\1\(")
_NAME_BEFORE = LazyPattern(r"[\w.]")


def call_starts(name: str, text: str) -> Iterator[int]:
    """Where the bare name ``name`` may be called in ``text``: followed by ``(`` (after what
    ``_CALL_AFTER`` passes over), never after a dot or a word character; a call found, the
    search goes on after its ``(``. The name is looked for with ``str.find`` and what is around
    it matched there, with no pattern compiled per name (compiling one for each function asked
    about was 1-2% of the plugin's time on the dense corpus)."""
    find, after, before = text.find, _CALL_AFTER.match, _NAME_BEFORE.match
    n = len(name)
    i = find(name)
    while i >= 0:
        m = after(text, i + n) if i == 0 or before(text, i - 1) is None else None
        if m is not None:
            yield i
            i = find(name, m.end())
        else:
            i = find(name, i + 1)


class _PastLastCall(Exception):
    """A collecting walk has passed the last line that may call a target."""


DEF_BEFORE = LazyPattern(r"(?<!\w)def[ \t]+\Z")


def lines_hold(lines: List[int], node: ast.AST) -> bool:
    """Does one of the sorted ``lines`` lie within the lines of ``node``?"""
    first = node.lineno  # type: ignore[attr-defined]
    return any_line_within(lines, first, getattr(node, "end_lineno", None) or first)


def _calls_any(node, names: Set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in names:
            return True
    return False


# ---- a small evaluator over ast expressions -------------------------------------------------

_NOT_TENSOR_BUILTINS = frozenset(
    "len int float str bool range isinstance repr hash id dict set frozenset list tuple sorted "
    "format ord chr bytes".split())
#: methods a tuple, a dict or a model-output object may have too
_NOT_ON_MODULE_OUTPUT = frozenset({"values", "keys", "items", "get", "index", "count", "copy",
                                   "pop", "update", "to"})
_MODULE_METHODS_SELF = frozenset(
    {"cuda", "cpu", "to", "float", "half", "double", "train", "eval", "requires_grad_", "bfloat16"})


class Evaluator:
    """Shapes of expressions inside one function (or at module level) of a project module.

    Flow: statements are taken in source order and the latest assignment of a local name wins
    (branches are not merged); good enough for what ``return`` gives back.
    """

    def __init__(self, module, cls=None,
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
        #: what the ``yield`` statements give (a generator function's elements)
        self.yields: List[object] = []
        #: collecting: a name -> the functions a call of it calls (``function_values``)
        self.looped: Dict[str, Tuple[str, ...]] = {}
        #: the walk of the module's own top-level statements, where a ``def`` or ``class``
        #: binds the module's definition of that name (``_defines_own``)
        self.top = fn is None and cls is None
        self.fn = fn  # the function walked (None at module level)
        if fn is not None:
            self._bind_params(fn)

    def _bind_params(self, fn) -> None:
        args = fn.args
        allargs = args.posonlyargs + args.args + args.kwonlyargs
        for a in allargs:
            self.env[a.arg] = self.annotation(a.annotation) if a.annotation is not None else None
        for a in (args.vararg, args.kwarg):
            if a is not None:
                self.env[a.arg] = None
        first = (args.posonlyargs + args.args)[:1]
        decorators = {(dotted(d) or "") for d in fn.decorator_list}
        if self.cls is not None and first and "staticmethod" not in decorators:
            self.me = first[0].arg
            self.env[self.me] = ProjInstance(self.cls) if "classmethod" not in decorators else self.cls

    def annotation(self, ann):
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                return None
        shape = self.module.resolve_expr(ann) if isinstance(ann, (ast.Name, ast.Attribute)) else None
        return instance_of(shape)

    def function_return(self, fn) -> object:
        self._bind_params(fn)
        rets: List[object] = []
        self.yields = []
        self._block(fn.body, rets)
        if self.yields:
            # a generator: iterating it gives what it yields (its ``return`` ends it)
            return TENSORS if all(y is TENSOR for y in self.yields) else None
        if not rets:
            return None
        return join_returns(rets)

    def _defines_target(self, stmt) -> bool:
        """Is ``stmt`` the module's own definition of a function whose calls are collected?
        (binding it is no rebinding: the calls after it, at script level, run it)"""
        if self.collect is None or stmt.name not in self.collect[0]:
            return False
        d = self.module.defs.get(stmt.name)
        return isinstance(d, ProjectFunction) and d.node is stmt

    def _defines_own(self, stmt) -> bool:
        """At script level (``top``), is ``stmt`` the definition the module's name stands for
        (its last one)? After it the name means what ``module.lookup`` finds: ``net = Net()``
        under ``if __name__ == "__main__":`` is an instance of the module's class."""
        if not self.top:
            return False
        d = self.module.defs.get(stmt.name)
        return d is not None and getattr(d, "_line", None) == stmt.lineno and \
            getattr(d, "name", None) == stmt.name

    def _record_calls(self, stmt) -> None:
        targets, sink = self.collect  # type: ignore[misc]
        todo = [stmt]
        while todo:
            node = todo.pop()
            for child in child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                      ast.Lambda)):
                    continue
                if isinstance(child, ast.stmt):
                    continue  # nested blocks are walked in their turn
                todo.append(child)
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            f = node.func.id  # a target by its name, or through a loop over a display of them
            for name in (f,) if f in targets and f not in self.env else [
                    n for n in self.looped.get(f, ()) if n in targets and n not in self.env]:
                if any(isinstance(a, ast.Starred) for a in node.args) or any(
                        k.arg is None for k in node.keywords):
                    sink.setdefault(name, []).append(([None] * 64, {}))
                    continue
                sink.setdefault(name, []).append(
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
                    self.spots is None or lines_hold(self.spots, stmt)):
                self._record_calls(stmt)
            if t is ast.Return:
                if self.collect is None:  # (collecting calls, what the body returns is unasked)
                    rets.append(self.eval(stmt.value) if stmt.value is not None else NOT_TENSOR)
            elif t is ast.Assign:
                shape = self.eval(stmt.value)
                for target in stmt.targets:
                    self._bind(target, shape)
                if self.collect is not None and type(stmt.value) is ast.Subscript:
                    self.looped = {**self.looped, **picked_names(  # ``fn = SHIFTERS[name]``
                        stmt, self.module.listed, self.fn, frozenset(() if self.top else self.env))}
            elif t is ast.AnnAssign and stmt.value is not None:
                self._bind(stmt.target, self.eval(stmt.value))
            elif t is ast.AugAssign and isinstance(stmt.target, ast.Name):
                cur = self.env.get(stmt.target.id)
                if cur is not TENSOR and self.eval(stmt.value) is not TENSOR:
                    self.env[stmt.target.id] = None
            elif t in (ast.If, ast.While):
                self._block(stmt.body, rets)
                self._block(stmt.orelse, rets)
            elif t in (ast.For, ast.AsyncFor):
                self._bind(stmt.target, _element(self.eval(stmt.iter)))
                looped = self.looped
                if self.collect is not None:  # ``for fn in (a, b)``, ``for aug in AUGMENTS``
                    self.looped = {**looped, **loop_names(stmt, self.module.listed, frozenset(
                        () if self.top else self.env))}
                self._block(stmt.body, rets)
                self.looped = looped
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
                if self._defines_own(stmt):
                    self.env.pop(stmt.name, None)  # the name is the module's definition again
                elif not self._defines_target(stmt):
                    self.env[stmt.name] = None
            elif t is ast.Expr and isinstance(stmt.value, (ast.Yield, ast.YieldFrom)) and \
                    self.collect is None:
                value = stmt.value.value
                got = None if value is None else self.eval(value)
                if isinstance(stmt.value, ast.YieldFrom):
                    got = _element(got)
                self.yields.append(got)  # a generator

    def _bind(self, target, shape) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = shape
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = shape.items if type(shape) is Seq else None
            for i, e in enumerate(target.elts):
                sub = items[i] if items is not None and len(items) == len(target.elts) else (
                    TENSOR if shape is TENSORS else None)
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
            if base is TENSOR:
                return TENSOR
            if base is TENSORS and not isinstance(node.slice, ast.Slice):
                return TENSOR
            if base is PARAM_GROUPS and not isinstance(node.slice, ast.Slice):
                return PARAM_GROUP
            if base is PARAM_GROUP and isinstance(node.slice, ast.Constant) and \
                    node.slice.value == "params":
                return TENSORS
            if type(base) is Seq and isinstance(node.slice, ast.Constant) \
                    and isinstance(node.slice.value, int) and -len(base.items) <= node.slice.value < len(base.items):
                return base.items[node.slice.value]
            return None
        if t is ast.BinOp:
            if self.eval(node.left) is TENSOR or self.eval(node.right) is TENSOR:
                return TENSOR
            return None
        if t is ast.UnaryOp:
            if isinstance(node.op, ast.Not):
                return NOT_TENSOR
            return TENSOR if self.eval(node.operand) is TENSOR else None
        if t is ast.Tuple:
            return Seq(tuple(self.eval(e) for e in node.elts)) if node.elts and not any(
                isinstance(e, ast.Starred) for e in node.elts) else None
        if t is ast.List:
            if node.elts and all(self.eval(e) is TENSOR for e in node.elts):
                return TENSORS
            return NOT_TENSOR
        if t is ast.IfExp:
            a, b = self.eval(node.body), self.eval(node.orelse)
            return a if same(a, b) else None
        if t is ast.Dict or t is ast.DictComp:
            return dict_of_instances(node, self.eval)
        if t is ast.Compare:  # ``torch.rand(n) > 0.5``: a tensor of booleans
            return TENSOR if len(node.ops) == 1 and type(node.ops[0]) in _ELEMENTWISE and \
                any(v is TENSOR for v in (self.eval(node.left), self.eval(node.comparators[0]))) \
                else NOT_TENSOR
        if t in (ast.Constant, ast.Set, ast.JoinedStr, ast.SetComp, ast.Lambda):
            return NOT_TENSOR
        return None

    def _attribute(self, node: ast.Attribute):
        base = self.eval(node.value)
        attr = node.attr
        t = type(base)
        if t is Qual:
            return Qual(f"{base.qual}.{attr}")
        if t is ProjInstance:
            cls = base.facts
            got = cls.attr(attr)
            if got is not None:
                return got
            meth = cls.method(attr)
            if meth is not None and meth.is_property():
                return meth.returns()  # ``self.params``: what the property's body gives
            if attr == "param_groups" and cls.category() == "optimizer":
                return PARAM_GROUPS
            return None
        if t is ModuleOf:
            return TENSOR if torch_api.owns_tensor(base.quals, attr) else None
        if isinstance(base, ProjectModule):
            return base.member(attr)
        if base is TENSOR:
            return _PROPERTY_KINDS.get(torch_api.property_kind(attr)) if attr != "grad" else None
        if base is MODULE and attr in ("weight", "bias"):
            return TENSOR
        if attr == "param_groups" and base is None:
            return PARAM_GROUPS  # ``self.optimizer.param_groups``
        return None

    def _call(self, node: ast.Call):
        func = node.func
        star = any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords)
        npos = len(node.args)
        kws = [k.arg for k in node.keywords if k.arg]
        if (dotted(func) or "").endswith("DataLoader") and _unbatched(node):
            kws.append("batch_size=None")
        if isinstance(func, ast.Attribute):
            recv = self.eval(func.value)
            m = func.attr
            if (recv is None or recv is MODULE_OUT) and torch_api.is_tensor_only_method(m):
                recv = TENSOR  # only tensors answer ``unsqueeze``, ``masked_fill``, ``gather``...
            if recv is MODULE_OUT and m not in _NOT_ON_MODULE_OUTPUT and \
                    torch_api.is_tensor_method(m):
                recv = TENSOR
            if recv is TENSOR:
                if m == "detach":
                    return TENSOR
                ret = torch_api.method_return(m, npos, kws, star)
                return _from_class(ret)
            t = type(recv)
            if t is Qual:
                if f"{recv.qual}.{m}" == "collections.defaultdict":
                    return self._instances_by_default(node)
                return _qual_call(f"{recv.qual}.{m}", npos, kws, star)
            if t is ProjInstance:
                cls = recv.facts
                meth = cls.method(m)
                if meth is not None:
                    return meth.returns()
                if cls.category() == "module" and m in _MODULE_METHODS_SELF:
                    return recv
                attr = cls.attr(m)
                if attr is not None:
                    return _call_instance(attr)
                return None
            if isinstance(recv, ProjectModule):
                return _call_shape(recv.member(m))
            if t is ModuleOf or recv is MODULE:
                return recv if m in _MODULE_METHODS_SELF else None
            return None
        if isinstance(func, ast.Name):
            if func.id in self.env:
                return _call_instance(self.env[func.id])
            shape = self.module.lookup(func.id)
            if shape is None:
                if func.id in _NOT_TENSOR_BUILTINS:
                    return NOT_TENSOR
                if func.id == "getattr" and len(node.args) >= 2 and isinstance(
                        node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                    return self._attribute(ast.Attribute(value=node.args[0], attr=node.args[1].value))
                return None
            if type(shape) is Qual:
                if shape.qual == "collections.defaultdict":
                    return self._instances_by_default(node)
                return _qual_call(shape.qual, npos, kws, star)
            return _call_shape(shape)
        return None

    def _instances_by_default(self, node: ast.Call):
        """``defaultdict(AverageMeter)``: a dict of instances of that project class."""
        if len(node.args) != 1 or node.keywords or type(node.args[0]) is ast.Starred:
            return None
        made = _call_shape(self.eval(node.args[0]))
        return DictOf(made) if type(made) is ProjInstance else None


#: a tensor attribute's kind from the table: ``?`` (the table cannot type it) stays apart from
#: "nothing known" (None), which lets a tensor-only method name the receiver a tensor
_PROPERTY_KINDS = {"T": TENSOR, "O": NOT_TENSOR, "?": OPAQUE}


def _from_class(ret: Optional[str]):
    """The kind of what the torch table says a call returns (its compact spelling: ``T`` a
    tensor, ``L`` a list of them, ``(T,T)`` a tuple, ``C:qual`` an instance of a class)."""
    if ret is None:
        return None
    if ret == "T":
        return TENSOR
    if ret == "L":
        return TENSORS
    if ret == "T|(T)":
        return None
    if ret.startswith("("):
        return Seq(tuple(TENSOR if k == "T" else None for k in ret.strip("()").split(",")))
    if ret.startswith("C:"):
        return ForeignInstance(ret[2:])
    return NOT_TENSOR


def _qual_call(q: str, npos: int, kws, star: bool):
    if q in PARAMETER_SUBCLASSES:
        return TENSOR
    if q != "torch" and not q.startswith("torch."):
        # (``torchvision.models.resnet18``, ``timm.create_model``: as ``Inference`` says)
        return MODULE if torch_api.is_model_builder(q) else None
    if q in DATA_LOADERS:
        return loader_batches(npos, kws, star, "batch_size=None" in kws)
    if q in PRIVATE_RETURNS:
        return _from_class(PRIVATE_RETURNS[q])
    if q in ("torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.Tensor",
             "torch.nn.Buffer"):
        return TENSOR
    if torch_api.is_layer(q):
        return ModuleOf((q,))
    if q.startswith("torch.optim.") and torch_api.is_optimizer(q):
        return OPTIMIZER
    return _from_class(torch_api.function_return(q, npos, kws, star))


def _unbatched(node: ast.Call) -> bool:
    """``batch_size=None`` given (a DataLoader that does not collate)."""
    args = [k.value for k in node.keywords if k.arg == "batch_size"] + node.args[1:2]
    return any(isinstance(a, ast.Constant) and a.value is None for a in args)


#: comparisons a tensor answers element by element (``is``, ``in``: a Python bool)
_ELEMENTWISE = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


def _call_shape(shape):
    """The kind of calling ``shape`` (a class, a function, a module instance)."""
    if isinstance(shape, ProjectClass):
        if shape.category() == "tensor":
            return TENSOR
        return ProjInstance(shape)
    if isinstance(shape, ProjectFunction):
        return shape.returns()
    return _call_instance(shape)


def _call_instance(shape):
    """Calling an instance: a torch layer or a project ``nn.Module`` runs ``forward``. A module
    whose forward is not known gives ``MODULE_OUT``: a module's output (a tensor if it has
    ``.data`` or tensor methods; a tuple or a dict has neither)."""
    if shape is MODULE:
        return MODULE_OUT
    t = type(shape)
    if t is ModuleOf:
        ret = torch_api.forward_return(shape.quals)
        return _from_class(ret) if ret not in (None, "?") else MODULE_OUT
    if t is ProjInstance and shape.facts.category() == "module":
        fwd = shape.facts.method("forward")
        ret = fwd.returns() if fwd is not None else None
        return ret if ret is not None else MODULE_OUT
    if isinstance(shape, (ProjectClass, ProjectFunction)):
        return _call_shape(shape)
    return None


def instance_of(shape):
    """An annotation's kind: the instance of the class it names."""
    if isinstance(shape, ProjectClass):
        return TENSOR if shape.category() == "tensor" else ProjInstance(shape)
    if type(shape) is Qual:
        q = shape.qual
        if q in ("torch.Tensor", "torch.nn.Parameter") or q in PARAMETER_SUBCLASSES:
            return TENSOR
        if q in ("torch.nn.Module", "torch.nn.modules.module.Module"):
            return MODULE  # any module: not the layer class ``Module`` itself, which owns nothing
        if torch_api.is_layer(q):
            return ModuleOf((q,))
        if q in DATA_LOADERS:
            return loader_batches(0, (), False)
    return None


def _element(shape) -> object:
    """What iterating over a value of ``shape`` gives (None: unknown)."""
    if shape is TENSOR or shape is TENSORS:
        return TENSOR
    if shape is PARAM_GROUPS:
        return PARAM_GROUP
    return None
