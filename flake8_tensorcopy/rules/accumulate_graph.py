"""TEN501's questions to the graph facts of the scope it checks (``semantic.graph``): the scope's
``ScopeGraph``, made once per scope and file with an oracle that knows what the linted file's
inference knows (which calls run a module, which call a project function and what that
function's summary says; which attributes of a class are tensors that require grad), and the
accumulations only a summary shows (``meter.update(loss)`` where ``update`` adds its parameter into ``self.sum``,
``record(hist, loss)`` where ``record`` appends one argument to another)."""
from __future__ import annotations

import ast
import weakref
from typing import Dict, Optional

from ..semantic import graph, graph_sources, kinds
from ..semantic.graph_facts import module_call
from ..semantic.index.statedict_summaries import module_function
from ..semantic.index.summaries import class_level
from ..semantic.graph_terms import dotted, keeps_graph_function, leaf_attributes, \
    leaf_properties, module_attributes
from ..syntax import nodes
from ..syntax.grad_callers import Uses, at_script_level, frozen_by_name, frozen_targets, \
    grad_off_in
from ..syntax.walk import class_of
from .accumulate_keepers import factory_keeps, lambda_keeps, named, partial_of
from .context import cached
from .snapshot_records import record_fields


def callee(ctx, func) -> Optional[object]:
    """The project function (``FuncFacts``) a call of ``func`` runs, as the inference knows it:
    a function of the project by name, a method of a project class's instance, the ``forward``
    of a project module's instance."""
    t = type(func)
    try:
        if t is nodes.Name:
            k = ctx.infer(func)
            if type(k) is kinds.Proj:
                obj = k.obj
                return obj if hasattr(obj, "graph_summary") else None
            if k is kinds.FUNCTION or type(k) is kinds.Func:
                project = ctx.inf.project
                return project.current_function(func.value) if project is not None else None
            if type(k) is kinds.Instance and k.cls.facts is not None:
                # calling a project module runs ``forward``, an instance of another project
                # class its ``__call__`` (``stopper(val_loss, model)``)
                fn = k.cls.facts.method("forward" if k.cls.is_module else "__call__")
                return fn if hasattr(fn, "graph_summary") else None
            return None
        if t is nodes.Attribute:
            rk = ctx.infer(func.value)
            if type(rk) is kinds.ClassInfo and rk.facts is not None:
                # ``Tracker.log(loss)``: a static or class method called through its class
                fn = rk.facts.method(func.attr.value)
                return fn if hasattr(fn, "graph_summary") and class_level(fn.node) else None
            facts = instance_facts(rk)
            fn = facts.method(func.attr.value) if facts is not None else \
                module_function(ctx.infer, func, rk)  # ``steps.train_step(...)``
            return fn if hasattr(fn, "graph_summary") else None
    except (RecursionError, OSError, ValueError):
        return None
    return None


def _class_text(ctx, name: str):
    """(the lines, the ``ast`` node) of the linted file's top-level class ``name`` (None: not
    one)."""
    tree = getattr(ctx.module, "_a", None)
    for stmt in getattr(tree, "body", ()):
        if type(stmt) is ast.ClassDef and stmt.name == name:
            lines = ctx.source.splitlines()[stmt.lineno - 1:stmt.end_lineno]
            return "\n".join(lines), stmt
    return None


def summary(ctx, func):
    fn = callee(ctx, func)
    return fn.graph_summary() if fn is not None else None


class LintOracle(graph.Oracle):
    """Calls of the scope as the linted file's inference sees them (at the statement being
    checked: the names of modules and functions a loop calls are bound before it)."""

    def __init__(self, ctx, scope=None) -> None:
        #: weak: the context keeps the graph that keeps this oracle (no reference cycle)
        self._ctx = weakref.ref(ctx)
        #: the ``ast`` function whose graph asks (``leaf``), and what ``_leaves`` found there
        self._scope = scope
        self._leaf_memo = None
        #: id(the ``ast`` function of a call) -> its node in the walk's tree, for the calls the
        #: builder made (``build.Builder.call_funcs``): the graph asks only about calls of the
        #: scope itself (it walks no nested definition or lambda)
        self._funcs = ctx.text.call_funcs

    @property
    def ctx(self):
        return self._ctx()

    def fields(self, node: ast.Call):
        """The fields of a record class the linted module defines, called by its name (TEN402's
        ``snapshot_records.record_fields``: one answer for both rules)."""
        ctx = self.ctx
        return record_fields(ctx, node.func.id) if ctx is not None and \
            type(node.func) is ast.Name else None

    def call(self, node: ast.Call) -> Optional[str]:
        n = self._funcs.get(id(node.func))
        ctx = self.ctx
        if n is None or ctx is None:
            return super().call(node)
        m = module_call(ctx.infer(n))
        if m is not None:
            return "forward" if m else "through"
        q = ctx.inf.qualname(n)
        return "through" if q is not None and keeps_graph_function(q) else None

    def _leaves(self):
        """(the leaf attributes, the properties computing from one) of the class of the method
        whose graph asks (``graph_terms.leaf_attributes``, ``leaf_properties``)."""
        got = self._leaf_memo
        if got is not None:
            return got
        ctx = self.ctx
        cls = class_of(getattr(ctx.module, "_a", None), self._scope) if ctx is not None and \
            self._scope is not None and ("requires_grad" in ctx.source or
                                         "Parameter" in ctx.source) else None
        if cls is None:  # (no text that makes a leaf: no class of the file is read)
            got = frozenset(), frozenset()
        else:
            leaves = cached(ctx, "_leaf_attributes", cls, lambda: leaf_attributes(cls))
            got = leaves, cached(ctx, "_leaf_properties", cls,
                                 lambda: leaf_properties(cls, leaves))
        self._leaf_memo = got
        return got

    def leaf(self, attr: str) -> bool:
        return attr in self._leaves()[0]

    def module_attribute(self, root: str, attr: str) -> bool:
        scope, ctx = self._scope, self.ctx
        if ctx is None or type(scope) not in (ast.FunctionDef, ast.AsyncFunctionDef) or \
                not scope.args.args or scope.args.args[0].arg != root or any(
                    dotted(d) in ("staticmethod", "classmethod") for d in scope.decorator_list):
            return False
        cls = class_of(getattr(ctx.module, "_a", None), scope)
        return cls is not None and attr in cached(ctx, "_module_attributes", cls,
                                                  lambda: module_attributes(cls))

    def instance_leaf(self, root: str, attr: str) -> bool:
        ctx = self.ctx
        if ctx is None or ("requires_grad" not in ctx.source and "Parameter" not in ctx.source):
            return False
        kind = ctx.inf.lookup(root)
        name = kind.cls.cls_name if type(kind) is kinds.Instance else None
        cls = next((c for c in getattr(ctx.module._a, "body", ()) if type(c) is ast.ClassDef
                    and c.name == name), None) if name is not None else None
        return cls is not None and attr in cached(ctx, "_leaf_attributes", cls,
                                                  lambda: leaf_attributes(cls))

    def leaf_property(self, attr: str, root: Optional[str] = None) -> bool:
        scope = self._scope
        mine = None if scope is None or not getattr(scope, "args", None) or \
            not scope.args.args else scope.args.args[0].arg
        if root is None or (root == mine and any(self._leaves())):  # ``self.alpha``
            return attr in self._leaves()[1]
        # ``model.temperature`` of an instance of a class of the file (its property computing
        # from a leaf: ``return 1.0 / self.logit_scale.exp()``)
        ctx = self.ctx
        if ctx is None or ("requires_grad" not in ctx.source and "Parameter" not in ctx.source):
            return False
        kind = ctx.inf.lookup(root)
        name = kind.cls.cls_name if type(kind) is kinds.Instance else None
        found = []
        for cls in getattr(ctx.module._a, "body", ()):
            if type(cls) is ast.ClassDef and (name is None or cls.name == name):
                leaves = cached(ctx, "_leaf_attributes", cls, lambda: leaf_attributes(cls))
                if attr in cached(ctx, "_leaf_properties", cls,
                                  lambda: leaf_properties(cls, leaves)):
                    found.append(leaves)
        if name is not None or len(found) != 1:
            return bool(found) and name is not None
        # of unknown class: where the file's one class with that property is the one whose
        # leaf the scope also reads on that name (``model.logit_scale.clamp_(...)``)
        return scope is not None and any(
            type(n) is ast.Attribute and n.attr in found[0] and type(n.value) is ast.Name and
            n.value.id == root for n in ast.walk(scope))

    def trains_parameters(self, module: Optional[ast.expr] = None) -> bool:
        ctx = self.ctx
        return ctx is not None and (not freezes_here(ctx) or module is not None and
                                    _unfrozen(ctx, module))

    def module_name(self, name: str) -> bool:
        ctx = self.ctx
        return ctx is not None and module_call(ctx.inf.lookup(name)) is True

    def frozen(self, func: ast.expr) -> bool:
        ctx = self.ctx
        return ctx is not None and freezes_here(ctx) and \
            frozen_by_name(_frozen(ctx), func, getattr(ctx.scope_node, "_a", None))

    def method_summary(self, made: ast.Call, name: str):
        n = self._funcs.get(id(made.func))
        ctx = self.ctx
        try:
            facts = getattr(ctx.infer(n), "facts", None) if n is not None and ctx else None
            fn = facts.method(name) if hasattr(facts, "method") else None
        except (RecursionError, OSError, ValueError):
            return None
        return fn.graph_summary() if hasattr(fn, "graph_summary") else None

    def loss_name(self, name: str) -> bool:
        ctx = self.ctx
        return ctx is not None and module_call(ctx.inf.lookup(name)) is False

    def trainable(self, node: ast.Call) -> bool:
        """No parameter frozen and no grad turned off by a call in the linted file
        (``freezes_here``: its ``no_grad`` and ``inference_mode`` blocks are regions the graph
        reads), nor anywhere in the text of the class the call runs (a project class: its
        module; a class of this file: its own lines, ``no_grad`` and ``inference_mode`` too)."""
        n = self._funcs.get(id(node.func))
        ctx = self.ctx
        if n is None or ctx is None or (freezes_here(ctx) and not _unfrozen(ctx, node.func)):
            return False
        try:
            k = ctx.infer(n)
        except (RecursionError, OSError, ValueError):
            return False
        if type(k) is not kinds.Instance:
            return True
        facts = k.cls.facts
        project = ctx.inf.project
        node = None
        if facts is None or (project is not None and facts.module.path == project.path):
            found = _class_text(ctx, k.cls.cls_name)  # (this file's eval blocks are regions)
            text, node = found if found is not None else (None, None)
        else:
            text = getattr(facts.module, "text", None)
        # (a class of this file: read from its tree, where a ``Parameter(...,
        # requires_grad=False)`` freezes nothing; another module's: from its text)
        return text is not None and not (grad_off_in(text, node) or "no_grad" in text or
                                         "inference_mode" in text)

    def summary(self, node: ast.Call, local: bool = False):
        # the inference knows what a name bound in the scope is at the checked statement
        n = self._funcs.get(id(node.func))
        ctx = self.ctx
        return summary(ctx, n) if n is not None and ctx is not None else None


def _unfrozen(ctx, func: ast.expr) -> bool:
    """Is the module called as ``func`` (a dotted name) none of those the file freezes, nor
    within or around one, where every freeze names its module (``frozen_targets``: the
    teacher's ``requires_grad_(False)`` leaves the student's forward a graph)? A freeze of a
    function's parameter names it only in that function: elsewhere it may be any module."""
    frozen = _frozen(ctx)
    d = dotted(func)
    if frozen is None or d is None:
        return False
    here = getattr(ctx.scope_node, "_a", None)
    return not any((fn is not None and fn is not here) or d == r or d.startswith(r + ".") or
                   r.startswith(d + ".") for r, fn in frozen)


def _frozen(ctx):
    """``frozen_targets`` of the linted file, read once."""
    got = ctx.__dict__.get("_accumulate_frozen", False)
    if got is False:
        got = ctx.__dict__["_accumulate_frozen"] = frozen_targets(
            getattr(ctx.inf, "module_tree", None))
    return got


def grad_off_here(ctx) -> bool:
    """Does the linted file freeze a parameter, set grad mode by a call or use
    ``inference_mode`` anywhere (``grad_callers.grad_off_in``, read from its tree)? Once a file."""
    hit = ctx.__dict__.get("_accumulate_grad_off")
    if hit is None:
        hit = ctx.__dict__["_accumulate_grad_off"] = grad_off_in(
            ctx.source, getattr(ctx.inf, "module_tree", None))
    return hit


def freezes_here(ctx) -> bool:
    """``grad_off_here`` but ``inference_mode`` (its blocks are regions the graph reads where
    they are)."""
    hit = ctx.__dict__.get("_accumulate_freeze")
    if hit is None:
        hit = ctx.__dict__["_accumulate_freeze"] = grad_off_in(
            ctx.source, getattr(ctx.inf, "module_tree", None), inference=False)
    return hit


def scope_graph(ctx) -> graph.ScopeGraph:
    """The graph facts of the scope being checked, made once per scope and file."""
    scope = ctx.scope_node
    return cached(ctx, "_accumulate_graphs", scope,
                  lambda: graph.scope_graph(scope._a, LintOracle(ctx, scope._a), lazy=True))


def method_accumulation(node, ctx) -> list:
    """``meter.update(loss)`` where the called method adds its parameter into an attribute of
    ``self`` (``summaries``): (receiver, argument, (method, attribute)); ``record(hist, loss)``
    where the called function appends one parameter to another (``store.append(value)``):
    (that argument, the other, (function, None)); each argument the callee keeps so, in the
    order of its parameters (``log_step(step, loss, lr)`` keeps all three: the rule asks of
    each), or none."""
    call = node.value
    if type(call) is not nodes.Call or ctx.inf.in_no_grad:
        return []
    func = call.func
    if type(func) is nodes.Name:
        fn = callee(ctx, func)
        if fn is None:  # (``log_loss = functools.partial(record, store, "loss")``, a lambda,
            return _named_keeper(ctx, call, func)  # a factory's function: ``accumulate_keepers``)
        if getattr(fn, "name", None) != "__call__" or getattr(fn, "cls", None) is None:
            return _collected(call, fn, func.value)
        receiver, method = func, "__call__"  # ``stopper(val_loss, model)``: its ``__call__``
    elif type(func) is not nodes.Attribute or \
            type(func.value) not in (nodes.Name, nodes.Attribute, nodes.Subscript):
        return []  # (an item: ``meters["loss"].update(loss)`` of a dict of meters)
    else:
        receiver, method = func.value, func.attr.value
        fn = callee(ctx, func)
    s = fn.graph_summary() if fn is not None else None
    if s is None:
        return []
    if not s.accumulates and not s.kept_items:
        return _collected(call, fn, method)
    args = [a for a in call.args if a.keyword is None and not a.star]
    # a method's parameters after ``self``, as its summary counts them (``update(val=loss)``;
    # ``def log(self, step, **metrics)``: ``logger.log(step, ce=ce, dice=dice)``)
    given = _given(call, graph.function_params(fn.node)[1:], fn.node.args.kwarg) \
        if len(args) != len(call.args) else None
    found = [(receiver, arg, (method, attr))
             for k, attr in sorted(s.accumulates.items()) for arg in _at(args, given, k)]
    # ``hist.on_batch_end(step, logs)`` of a method keeping ``logs["loss"]``: that item of a
    # dict display, or the dict where its item is attached
    return found + [(receiver, item, (method, attr) if item is not arg else (method, attr, key))
                    for k, (key, attr) in sorted(s.kept_items.items())
                    for arg in _at(args, given, k) for item in (_item_of(ctx, arg, key),)
                    if item is not None]


def _item_of(ctx, arg, key: str):
    """The value ``arg`` holds under ``key`` (``['loss']``): a dict display's value there, or
    ``arg`` itself, a name, where the scope's graph facts say that item is attached (the
    accumulation's form then names the key: ``(method, attribute, key)``)."""
    if type(arg) is nodes.Dict:
        return next((e.value for e in arg.elements if type(e) is nodes.DictElement and
                     type(e.key) is nodes.SimpleString and
                     f"[{ctx.code(e.key)}]" in (key, key.replace("'", '"'))), None)
    if type(arg) is not nodes.Name or not isinstance(arg._a, ast.Name):
        return None
    item = ast.copy_location(ast.Subscript(value=arg._a, slice=ast.copy_location(
        ast.Constant(value=key[2:-2]), arg._a), ctx=ast.Load()), arg._a)
    try:
        return arg if scope_graph(ctx).attached(item) is not None else None
    except RecursionError:
        return None


def _named_keeper(ctx, call, func) -> list:
    """``method_accumulation`` of a call of a name bound to no function of the project."""
    if not named(ctx, func):
        return []
    part = partial_of(ctx, func)
    if part is not None:
        target = part[0]
        fn = callee(ctx, target) if type(target) in (nodes.Name, nodes.Attribute) else None
        return _collected(call, fn, func.value, part[1]) if fn is not None else []
    return lambda_keeps(ctx, call) or factory_keeps(ctx, call, callee)


def _collected(call, fn, name: str, pre: list = ()) -> list:
    """(the argument appended to, the argument appended, (``name``, None)) of a call of a
    project function whose summary says it appends one parameter to another, by position; or
    (the function called, the argument, (``name``, the module-level name)) of one whose summary
    says it keeps that parameter in a module-level container or ``global`` number."""
    from ..semantic.index.collect_summaries import collects, logs

    if fn is None or not hasattr(fn, "node") or any(a.star for a in call.args):
        return []
    args = [a for a in call.args if a.keyword is None]
    given_first = len(args) != len(call.args)
    args = list(pre) + args  # (the arguments a ``functools.partial`` gives first)
    names = graph.function_params(fn.node)
    if getattr(fn, "cls", None) is not None and names[:1] == ["self"]:
        names = names[1:]
    given = _given(call, names, fn.node.args.kwarg) if given_first else None
    found = [(into_arg, arg, (name, None)) for k, into in sorted(collects(fn).items())
             for into_arg in _at(args, given, into)[:1]
             if type(into_arg) in (nodes.Name, nodes.Attribute)
             for arg in _at(args, given, k)]
    # (a function, called by name or of its module: ``logutil.log_metric("loss", loss, step)``;
    # a class method keeping it in a list of its class: ``Tracker.log(loss)``)
    if type(call.func) is nodes.Name or getattr(fn, "cls", 0) is None or class_level(fn.node):
        found += [(call.func, arg, (name, kept)) for k, kept in sorted(logs(fn).items())
                  for arg in _at(args, given, k)]
    return found


def _given(call, names: list, kwarg) -> Dict[int, list]:
    """Position of a parameter among ``names`` (the callee's, as its call fills them) -> the
    keyword arguments of ``call`` it takes (``store=hist``; for ``**metrics``, ``kwarg``, every
    keyword that names no parameter, ``log_metrics(store, bce=loss, acc=acc)``, and each
    ``**`` dict: ``log_metrics(store, **losses)``, a dict whose values it takes)."""
    out: Dict[int, list] = {}
    for a in call.args:
        kw = a.keyword.value if a.keyword is not None else None
        at = names.index(kw) if kw in names else \
            names.index(kwarg.arg) if (kw is not None or a.star == "**") and \
            kwarg is not None else None
        if at is not None:
            out.setdefault(at, []).append(a.value)
    return out


def _at(args: list, given: Optional[Dict[int, list]], k: int) -> list:
    """The argument values ``call`` gives the parameter at position ``k`` (``_given``)."""
    if k < len(args):
        return [args[k].value]
    return given.get(k, []) if given is not None else []


def instance_facts(kind):
    """What the project index knows of the class of an instance of ``kind`` (its
    ``ClassFacts``), or None: not an instance, or of a class the index does not know."""
    return kind.cls.facts if type(kind) is kinds.Instance else None


def consumed_by_callers(ctx, tree: ast.Module, uses: Uses, name: str) -> bool:
    """Is every use of the top-level function ``name`` a call whose value (each item it
    unpacks) its caller (the script, or a top-level function) binds to a name that it then
    differentiates (``ent = run_episode(model)`` ... ``update(model, opt, ent)`` of a function
    that runs ``backward()`` through that argument)? A function that returns what it
    accumulates is then an episode's rollout, its graph consumed by that backward (and freed
    with it), not kept."""
    found = uses.of(name)
    if not found or not found[0]:
        return False
    owners = {s.name: s for s in tree.body if type(s) is ast.FunctionDef}
    for owner, called, _, use in found[0]:
        home = tree if owner is None else owners.get(owner)
        if not called or home is None:
            return False
        g = cached(ctx, "_accumulate_caller_graphs", home,
                   lambda home=home: graph.scope_graph(home, LintOracle(ctx, home)))
        g._need()
        bound = [i for i, bd in enumerate(g.bindings) if bd.kind in ("assign", "unpack") and
                 type(bd.value) is ast.Call and bd.value.func is use]  # (``lp, ent = f(...)``)
        if not bound or not all(
                getattr(g.marked.get(b), "why", None) in (graph.DIFFERENTIATED, graph.SIBLING) or
                _handed_to_consumer(g, b) for b in bound):
            return False
    return True


def _handed_to_consumer(g, b: int) -> bool:
    """Is binding ``b``'s name handed, as a call statement's positional argument, to a project
    function whose summary says a ``backward()`` of it runs through that argument
    (``GraphSummary.consumed``)?"""
    for call, _ in graph.calls_in(g.expr_stmts):
        s = g.summary(call)
        if s is not None and any(type(a) is ast.Name and b in g.uses.get(id(a), ()) and
                                 k in getattr(s, "consumed", ()) for k, a in enumerate(call.args)):
            return True
    return False


# ---- a caller's grad mode, proven by its own differentiation ---------------------------------
def caller_proves(ctx, tree: ast.Module, owner: str, use: ast.Name, escapes) -> bool:
    """Is grad on where the top-level function ``owner`` of the linted module calls ``use``
    (the called name): the statement holding the call is in a grad region a value ``owner``
    differentiates proves on (``graph_sources.proven_regions``: ``loss = criterion(model(x),
    y); loss.backward()`` ... ``validate(model, loader)``), whatever its own callers do?
    Where ``escapes()`` (the called function returns what it accumulated), only a call whose
    value is dropped (a statement of its own) counts."""
    fn = next((s for s in tree.body if type(s) is ast.FunctionDef and s.name == owner), None)
    return fn is not None and method_proves(ctx, fn, use, escapes)


def _dropped(stmt: ast.stmt, use) -> bool:
    """Is the value of the call of ``use`` dropped by ``stmt``: a statement of its own, or an
    argument of a ``print(...)`` statement (nothing differentiates what it returned)?"""
    if type(stmt) is not ast.Expr or type(stmt.value) is not ast.Call:
        return False
    call = stmt.value
    if call.func is use:
        return True
    return type(call.func) is ast.Name and call.func.id == "print" and any(
        type(a) is ast.Call and a.func is use for a in call.args)


_AS_NUMBER = frozenset({"item", "tolist"})


def _read_as_number(fn, stmt: ast.stmt, use) -> bool:
    """``val_loss = validate(model, loader)`` where every other read of ``val_loss`` in ``fn``
    is ``val_loss.item()``, ``val_loss.tolist()`` or ``float(val_loss)``: nothing differentiates
    what the call returned (the name bound once in ``fn``, by ``stmt``)."""
    if type(stmt) is not ast.Assign or stmt.value is not use and not (
            type(stmt.value) is ast.Call and stmt.value.func is use) or \
            len(stmt.targets) != 1 or type(stmt.targets[0]) is not ast.Name:
        return False
    name = stmt.targets[0].id
    numbers = set()
    reads = []
    for n in ast.walk(fn):
        if type(n) is ast.Name and n.id == name:
            if type(n.ctx) is not ast.Load:
                if n is not stmt.targets[0]:
                    return False  # bound again: another value
            else:
                reads.append(n)
        elif type(n) is ast.Call and len(n.args) == 1 and not n.keywords and \
                type(n.func) is ast.Name and n.func.id == "float":
            numbers.add(id(n.args[0]))
        elif type(n) is ast.Call and not n.args and type(n.func) is ast.Attribute and \
                n.func.attr in _AS_NUMBER:
            numbers.add(id(n.func.value))
    return all(id(r) in numbers for r in reads)


def _statement_of(body, use: ast.Name):
    """The innermost statement of ``body`` (not inside a nested definition) holding ``use``."""
    line, col = use.lineno, use.col_offset
    for s in body:
        if not (s.lineno, s.col_offset) <= (line, col) <= (s.end_lineno, s.end_col_offset):
            continue
        if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            return None
        for field in ("body", "orelse", "finalbody", "handlers"):
            inner = getattr(s, field, None)
            if type(inner) is list:
                blocks = [h.body for h in inner] if field == "handlers" else [inner]
                for b in blocks:
                    got = _statement_of(b, use)
                    if got is not None:
                        return got
        return s
    return None


class CallerOracle(graph.Oracle):
    """The calls of a caller's scope as its own text shows them (no inference state is at that
    scope): torch's functions as spelled, a name it binds once, to a loss module it makes
    (``criterion = nn.CrossEntropyLoss()``: no parameters, its output has a graph through its
    inputs), and the summary of a plain top-level function of the linted module called by its
    name (``tr = train_epoch(model, loader, opt)``, whose every call differentiates)."""

    def __init__(self, fn: ast.FunctionDef, ctx=None) -> None:
        self._ctx = None if ctx is None else weakref.ref(ctx)
        bound: dict = {}
        for n in ast.walk(fn):
            if type(n) is ast.Assign:
                for t in n.targets:
                    for x in ast.walk(t):
                        if type(x) is ast.Name:
                            bound[x.id] = None if x.id in bound else n.value
            elif type(n) in (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr):
                for x in ast.walk(getattr(n, "target", None) or n):
                    if type(x) is ast.Name and type(x.ctx) is ast.Store:
                        bound[x.id] = None
        self._losses = frozenset(k for k, v in bound.items() if _loss_module(v))
        self._bound = frozenset(bound)

    def call(self, node: ast.Call) -> Optional[str]:
        got = super().call(node)
        if got is None and type(node.func) is ast.Name and node.func.id in self._losses:
            return "through"
        return got

    def summary(self, node: ast.Call, local: bool = False):
        ctx = self._ctx() if self._ctx is not None else None
        f = node.func
        if ctx is None or local or type(f) is not ast.Name or f.id in self._bound or \
                ctx.inf.project is None:
            return None
        tree = ctx.inf.project.module_tree()
        if tree is None:
            return None
        # a plain top-level ``def`` nothing else binds (the callers' proof reads the same uses)
        uses = cached(ctx, "_accumulate_callers", tree, lambda: Uses(tree, ctx.source))
        got = uses.of(f.id) if f.id in uses.plain else None
        fn = ctx.inf.project.current_function(f.id) if got and got[1] == 1 and all(
            type(u[3].ctx) is ast.Load for u in got[0]) else None
        return fn.graph_summary() if fn is not None else None


def _loss_module(value) -> bool:
    """``nn.MSELoss()``, ``torch.nn.CrossEntropyLoss(reduction="sum")``."""
    if type(value) is not ast.Call:
        return False
    head, _, last = (dotted(value.func) or "").rpartition(".")
    return last.endswith("Loss") and head in ("nn", "torch.nn")


def method_called_with_grad_on(ctx, tree: ast.Module, fn, escapes) -> bool:
    """Does the method ``fn`` (a plain one, no decorator, of a top-level class of the linted
    module) run only with grad on, as the module shows: the class defines it once and no other
    class of the module defines its name; every use of the name in the module is a call
    ``self.m(...)`` in a plain method of the same class, outside any ``with`` about grad,
    where that method's differentiation proves grad on (``caller_proves``; ``escapes`` as
    there)? Other files are asked by the caller (``imported_elsewhere``)."""
    if type(fn) is not ast.FunctionDef or fn.decorator_list or \
            f"self.{fn.name}(" not in ctx.source:
        return False  # (the text first: a call ``self.m(`` spelled so somewhere)
    dropped = escapes()  # (the answer differs with it: kept apart)
    return cached(ctx, "_accumulate_method_callers" + ("_dropped" if dropped else ""), fn,
                  lambda: _method_callers_prove(ctx, tree, fn, lambda: dropped))


def _method_callers_prove(ctx, tree: ast.Module, fn, escapes, depth: int = 0) -> bool:
    cls = next((c for c in tree.body if type(c) is ast.ClassDef and
                any(s is fn for s in c.body)), None)
    if cls is None:
        return False
    name = fn.name
    defined = [d for d in ast.walk(tree) if type(d) in (ast.FunctionDef, ast.AsyncFunctionDef)
               and d.name == name]
    if len(defined) != 1:
        return False
    methods = {m.name: m for m in cls.body if type(m) is ast.FunctionDef}
    called = False
    scripted = 0
    for owner in ast.walk(tree):
        for node in ast.iter_child_nodes(owner):
            if (type(node) is ast.Attribute and node.attr == name) or \
                    (type(node) is ast.Name and node.id == name):
                if not (type(owner) is ast.Call and owner.func is node and
                        type(node) is ast.Attribute):
                    return False
                if type(node.value) is ast.Name and node.value.id == "self":
                    continue
                # ``Runner(...).run()`` at script level, outside any ``with``: grad is on there
                if not (_instance_of(tree, node.value, cls.name) and
                        at_script_level(tree.body, owner)):
                    return False
                scripted += 1
    for m in methods.values():
        if m is fn or m.decorator_list:
            continue
        for node in ast.walk(m):
            if type(node) is ast.Attribute and node.attr == name:
                if not method_proves(ctx, m, node, escapes, tree, depth):
                    return False
                called = True
    # every use is in a plain method of the class or a script-level call (counted above)
    uses = sum(1 for n in ast.walk(tree) if type(n) is ast.Attribute and n.attr == name)
    return (called or scripted > 0) and uses == scripted + sum(
        1 for m in methods.values() if not m.decorator_list for n in ast.walk(m)
        if type(n) is ast.Attribute and n.attr == name)


def _instance_of(tree: ast.Module, value: ast.expr, cls: str) -> bool:
    """Is ``value`` ``Cls(...)``, or a name every binding of which in the module is a
    script-level ``name = Cls(...)``?"""
    if type(value) is ast.Call:
        return type(value.func) is ast.Name and value.func.id == cls
    if type(value) is not ast.Name:
        return False
    stores = [n for n in ast.walk(tree)
              if type(n) is ast.Name and n.id == value.id and type(n.ctx) is not ast.Load]
    assigns = {id(t): s for s in ast.walk(tree) if type(s) is ast.Assign for t in s.targets}
    return bool(stores) and all(
        id(n) in assigns and at_script_level(tree.body, assigns[id(n)]) and
        _instance_of(tree, assigns[id(n)].value, cls) for n in stores)


def method_proves(ctx, method: ast.FunctionDef, use, escapes, tree=None,
                   depth: int = 0) -> bool:
    """Is grad on at ``use`` (a called name, ``self.m``) in the function or method ``method``:
    not in a nested definition, in a grad region ``method``'s own differentiation proves on
    (``graph_sources.proven_regions``; a ``with`` block about grad is a region of its own),
    or (given the module's ``tree``) in the grad mode ``method`` was called in, where its own
    callers prove it on in turn (``Runner(...).run()`` at script level: a chain of at most
    three methods)?"""
    stmt = _statement_of(method.body, use)
    if stmt is None or (escapes() and not _dropped(stmt, use) and
                        not _read_as_number(method, stmt, use)):
        return False
    g = cached(ctx, "_accumulate_caller_graphs", method,
               lambda: graph.scope_graph(method, CallerOracle(method, ctx)))
    r = graph_sources.region(g, stmt)
    if r is not None and r in graph_sources.proven_regions(g):
        return True
    return r == "" and tree is not None and depth < 2 and \
        _method_callers_prove(ctx, tree, method, lambda: False, depth + 1)
