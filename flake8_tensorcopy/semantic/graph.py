"""Graph facts: which values of a scope are attached to an autograd graph, and the grad mode a
statement runs in. Read from Python's ``ast`` (the lint tree's nodes keep theirs), so the same
analysis serves the linted file and the project index's function summaries (``index.summaries``).

A scope (a function's body or a module's) is walked once, in order, as a code-flow graph:
every binding of a name (assignment, augmented assignment, loop target, parameter...) gets an
id, and every read of a name records the ids of the bindings that may reach it (branches join,
loops run to a fixed point, ``try`` joins its paths). A binding is **attached** when

- its value is derived from an attached one: arithmetic, indexing, a tensor method that keeps
  the graph (``view``, ``sum``...), ``torch.*``/``F.*`` functions of an attached argument,
  containers (a tuple, list or dict) holding one; not ``.detach()``, ``.item()``, ``float()``...
- it is **differentiated**: every binding that reaches the receiver of ``.backward()`` (or the
  argument of ``accelerator.backward(x)``, ``torch.autograd.backward/grad(x)``, a project
  function that calls backward on that parameter) holds a graph, or the program would fail there;
  through ``loss / k``, ``scaler.scale(loss)``, ``loss.mean()`` the operand does too, and the
  terms of a differentiated sum bound to a computed value (``loss = rec + kl``) are the loss's
  terms (**sibling**);
- it is a forward pass (the caller's ``Oracle`` says which calls run a module with parameters),
  a call's value (item) its summary returns differentiated or derives (``graph_sources``).

Each fact carries whether it needs grad mode on to hold: a forward pass records a graph only
with grad on; a differentiated value had one (backward proves it). Unknown stays unknown: a read
with no binding in the scope, a binding the walk cannot follow, is not attached.
"""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Iterable, List, Optional, Tuple

from ..syntax.walk import node_fields
from .graph_terms import (
    DETACHING, DIFFERENTIATING, KEEPS_GRAPH, MODULE_ONLY, NUMBERS, THROUGH_DIFF, calls_in,
    builtin_reduction, computed, decorated_grad, dotted, factors, function_params, grad_effect,
    indexes_tensor, is_sum, join_envs, literal, path_of, path_root, plain_number, reduced_values,
    same_or_view, terms)
from . import graph_calls, graph_items, graph_loop_items, graph_sources
from .graph_facts import (  # noqa: F401 (the facts' vocabulary, read as ``graph.X``)
    DERIVED, DIFFERENTIATED, FORWARD, GRAD_ON, HOLDS, RETURNED, SIBLING, TERMS, Binding, Fact,
    Oracle, first_fact, nested_item, number_binding, strongest, through_arguments,
)

#: bindings followed through one another (``h = f(h)`` line after line) before the answer is
#: "unknown": a long script's chain would otherwise exhaust Python's recursion limit
_MAX_CHAIN = 64


Env = Dict[str, FrozenSet[int]]


class ScopeGraph:
    """The graph facts of one scope (``body``: its statements; ``params``: its parameter names,
    in order), asked by statement and expression: ``attached(expr)`` for an expression read in
    the scope, ``grad_off(stmt)`` for the grad mode a ``with`` around a statement sets."""

    def __init__(self, body: List[ast.stmt], params: Iterable[str] = (),
                 oracle: Optional[Oracle] = None, grad: Optional[str] = None,
                 lazy: bool = False) -> None:
        self.oracle = oracle or Oracle()
        #: ``lazy``: the walk waits for the first question that needs a binding (``_need``); an
        #: expression whose shape alone answers (``x.item()``, a constant) never makes it
        self._pending: Optional[tuple] = (body, params, grad)
        #: the statements ``attached`` reads in, innermost last (``_call``'s forward passes)
        self._at: List[Optional[ast.stmt]] = []
        if not lazy:
            self._need()

    def _need(self) -> None:
        """Walk the scope now, if not walked yet (the facts' attributes exist from here on)."""
        if self._pending is None:
            return
        body, params, grad = self._pending
        self._pending = None
        self.body = body  # (the scope's statements, for questions about where one lies)
        self.bindings: List[Binding] = []
        #: id(Name load) -> the bindings that may reach it (absent: none in this scope)
        self.uses: Dict[int, FrozenSet[int]] = {}
        #: id(stmt) -> "off"/"on"/"unknown" from the innermost ``with`` about grad around it
        self.grad: Dict[int, str] = {}
        #: id(stmt) -> line of that ``with`` (``graph_sources``); the X of ``X.parameters()`` reads
        self.regions, self.module_reads = {}, []  # type: Tuple[Dict[int, int], List[ast.Name]]
        #: differentiating reads: (expression, statement)
        self.differentiated: List[Tuple[ast.AST, ast.stmt]] = []
        #: (return value, statement)
        self.returns: List[Tuple[ast.AST, ast.stmt]] = []
        #: the expression statements, once each
        self.expr_stmts: List[ast.Expr] = []
        #: roots whose paths (``out["loss"]``) are written somewhere: path facts do not hold
        self.path_written: set = set()
        #: those paths, (root, path): of ``x.a[i] = v``, ``.a`` (the constant part); None: none
        self.paths_written: set = set()
        #: names bound where the walk cannot follow (``global``, ``:=``); ``graph_sources``' memo
        self.opaque, self.memo = set(), {}  # type: Tuple[set, Dict[str, object]]
        self._facts: Dict[int, Optional[Fact]] = {}
        self._busy: set = set()
        self.marked: Dict[int, Fact] = {}
        self.paths: Dict[Tuple[int, str], Fact] = {}
        #: binding -> the fact of one of its attached paths (the binding holds an attached item)
        self._holding: Dict[int, Fact] = {}
        self._ids: Dict[tuple, int] = {}
        self._seen: set = set()
        #: id(expression) -> the names ``_reads`` read in it (``_reads``)
        self._read_plans: Dict[int, list] = {}
        #: parameter positions a differentiating read reaches (the summary's "calls backward on
        #: its parameter k"), and those terms of a differentiated sum (``pg - 0.01 * entropy``)
        self.differentiated_params, self.term_params = set(), set()  # type: Tuple[set, set]
        env: Env = {}
        self._with_line = 0
        for i, p in enumerate(params):
            env[p] = frozenset({self._bind(p, None, None, "param", i)})
        self._block(body, env, grad)
        self._mark()

    # ---- the walk ------------------------------------------------------------------------
    def _bind(self, key: str, value, stmt, kind: str, index: int = -1) -> int:
        """One id per (statement, name, position): a loop's body walked again binds the same."""
        memo = (id(stmt), key, index) if stmt is not None else None
        if memo is not None:
            got = self._ids.get(memo)
            if got is not None:
                return got
        self.bindings.append(Binding(key, value, stmt, kind, index))
        if memo is not None:
            self._ids[memo] = len(self.bindings) - 1
        return len(self.bindings) - 1

    def _block(self, body, env: Env, grad: Optional[str]) -> Env:
        for stmt in body:
            env = self._stmt(stmt, env, grad)
        return env

    def _stmt(self, s: ast.stmt, env: Env, grad: Optional[str]) -> Env:
        if grad is not None:
            self.grad[id(s)], self.regions[id(s)] = grad, self._with_line
        t = type(s)
        if t is ast.Assign or t is ast.AnnAssign:
            if s.value is None:
                return env
            self._reads(s.value, env, s)
            targets = s.targets if t is ast.Assign else [s.target]
            for tgt in targets:
                self._reads_in_target(tgt, env, s)
            new = dict(env)
            for tgt in targets:
                self._assign(tgt, s.value, s, new, "assign")
            return new
        if t is ast.AugAssign:
            self._reads(s.value, env, s)
            self._reads(s.target, env, s) if type(s.target) is not ast.Name else \
                self._read_name(s.target, env)
            new = dict(env)
            if type(s.target) is ast.Name:
                new[s.target.id] = frozenset({self._bind(s.target.id, s, s, "aug")})
            else:
                self._written_path(s.target)
            return new
        if t is ast.Expr or t is ast.Return:
            if t is ast.Expr and self._once(s):
                self.expr_stmts.append(s)
            if s.value is not None:
                self._reads(s.value, env, s)
                if t is ast.Return and self._once(s) and not (  # (``return None``: as bare)
                        type(s.value) is ast.Constant and s.value.value is None):
                    self.returns.append((s.value, s))
            return env
        if t is ast.If:
            self._reads(s.test, env, s)
            a = self._block(s.body, dict(env), grad)
            b = self._block(s.orelse, dict(env), grad)
            return join_envs(a, b)
        if t is ast.For or t is ast.AsyncFor:
            self._reads(s.iter, env, s)
            return self._loop(s, env, grad, s.target)
        if t is ast.While:
            self._reads(s.test, env, s)
            return self._loop(s, env, grad, None)
        if t is ast.With or t is ast.AsyncWith:
            inner, outer = grad, self._with_line
            new = dict(env)
            for item in s.items:
                self._reads(item.context_expr, env, s)
                eff = grad_effect(item.context_expr)
                if eff is not None:
                    inner, self._with_line = eff, s.lineno
                if item.optional_vars is not None:
                    self._assign(item.optional_vars, None, s, new, "other")
            out, self._with_line = self._block(s.body, new, inner), outer
            return out
        if t is ast.Try or t.__name__ == "TryStar":
            after = self._block(s.body, dict(env), grad)
            joined = join_envs(env, after)
            outs = [self._block(s.orelse, after, grad)]
            for h in s.handlers:
                henv = dict(joined)
                if h.name:
                    henv[h.name] = frozenset({self._bind(h.name, None, h, "other")})
                outs.append(self._block(h.body, henv, grad))
            out = outs[0]
            for o in outs[1:]:
                out = join_envs(out, o)
            if s.finalbody:
                out = self._block(s.finalbody, join_envs(out, joined), grad)
            return out
        if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            new = dict(env)
            new[s.name] = frozenset({self._bind(s.name, None, s, "other")})
            return new
        if t is ast.Global or t is ast.Nonlocal:
            self.opaque.update(s.names)
            return env
        # anything else (``match``, ``del``, imports...): what it binds is unknown after it
        if t is ast.Delete:
            for tgt in s.targets:
                self._written_path(tgt)
        new = dict(env)
        for n in ast.walk(s):
            if type(n) is ast.Name and type(n.ctx) is not ast.Load:
                new[n.id] = frozenset({self._bind(n.id, None, s, "other")})
            elif type(n) in (ast.alias,):
                name = (n.asname or n.name).partition(".")[0]
                new[name] = frozenset({self._bind(name, None, s, "other")})
            elif type(n) is ast.Name:
                self._read_name(n, env)
        return new

    def _once(self, node) -> bool:
        """First time the walk meets ``node`` (a loop's body is walked more than once)?"""
        seen = id(node) in self._seen
        self._seen.add(id(node))
        return not seen

    def _loop(self, s, env: Env, grad, target) -> Env:
        entry = dict(env)
        for _ in range(6):
            body_env = dict(entry)
            if target is not None:
                self._reads_in_target(target, body_env, s)
                self._assign(target, None, s, body_env, "other")
            end = self._block(s.body, body_env, grad)
            nxt = join_envs(entry, end)
            if nxt == entry:
                break
            entry = nxt
        return self._block(s.orelse, entry, grad)

    def _assign(self, tgt, value, stmt, env: Env, kind: str, index: int = -1) -> None:
        t = type(tgt)
        if t is ast.Name:
            env[tgt.id] = frozenset({self._bind(tgt.id, value, stmt, kind, index)})
        elif t is ast.Tuple or t is ast.List:
            for i, e in enumerate(tgt.elts):
                sub = nested_item(kind, index, i, e)  # ``loss, (a, b) = f(x)``: ``[1][0]``
                if sub is not None:
                    self._assign(e, value if sub[0] == "nested" else None, stmt, env, *sub)
                elif type(e) is ast.Starred:  # ``loss, *parts = f(x)``: ``starred_fact``
                    v = value if type(e.value) is ast.Name else None  # (else: unknown)
                    self._assign(e.value, v, stmt, env, *(("star", i) if v else ("other", -1)))
                else:
                    self._assign(e, value, stmt, env, "unpack" if value is not None else kind, i)
        elif t is ast.Starred:
            self._assign(tgt.value, None, stmt, env, "other")
        else:
            self._written_path(tgt)

    def _written_path(self, tgt) -> None:
        root = tgt  # (``self.slots[i] = v``: ``self.slots`` written, at an unknown item)
        while type(root) in (ast.Subscript, ast.Attribute) and path_of(root) is None:
            root = root.value
        p = path_of(root) if type(root) is not ast.Name else (root.id, None)
        if p is not None:
            self.path_written.add(p[0])
            self.paths_written.add(p)

    def _reads_in_target(self, tgt, env: Env, stmt) -> None:
        """Reads inside a target (``x[i] = ...`` reads ``x`` and ``i``)."""
        if type(tgt) in (ast.Subscript, ast.Attribute):
            self._reads(tgt, env, stmt)
        elif type(tgt) in (ast.Tuple, ast.List):
            for e in tgt.elts:
                self._reads_in_target(e, env, stmt)

    def _read_name(self, n: ast.Name, env: Env) -> None:
        got = env.get(n.id)
        if got is not None and n.id not in self.opaque:
            prev = self.uses.get(id(n))
            self.uses[id(n)] = got if prev is None else prev | got

    def _reads(self, expr, env: Env, stmt) -> None:
        """The reads of ``expr`` (its names, in the walk's order), and its differentiating calls
        and ``:=`` targets. A loop's body is walked more than once: the names read are kept
        from the first walk, and a later walk reads those only (the calls and targets are
        noted once anyway)."""
        names = self._read_plans.get(id(expr))
        if names is not None:
            read = self._read_name
            for n in names:
                read(n, env)
            return
        names = self._read_plans[id(expr)] = []
        bound_here: set = set()
        todo = [expr]
        while todo:
            n = todo.pop()
            t = type(n)
            if t is ast.Name:
                if type(n.ctx) is ast.Load and n.id not in bound_here:
                    names.append(n)
                    self._read_name(n, env)
                continue
            if t in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
                for g in n.generators:
                    for x in ast.walk(g.target):
                        if type(x) is ast.Name:
                            bound_here.add(x.id)
            elif t is ast.Lambda:
                continue  # its reads happen later, with bindings unknown here
            elif t is ast.NamedExpr:
                self.opaque.add(n.target.id)
            elif t is ast.Call:
                f = n.func
                name = f.attr if type(f) is ast.Attribute else getattr(f, "id", "")
                if name in DIFFERENTIATING and self._once(n) and not (
                        type(f) is ast.Attribute and self.oracle is not None and
                        self.oracle.summary(n, False) is not None):
                    # (``accelerator.backward(loss)`` of a project class: ``_mark`` reads it)
                    if type(f) is ast.Attribute:
                        self.differentiated.append((f.value, stmt))
                    if n.args:
                        self.differentiated.append((n.args[0], stmt))
                elif name == "grad" and n.args and self._once(n) and dotted(f) in (
                        "torch.autograd.grad", "autograd.grad"):
                    self.differentiated.append((n.args[0], stmt))
                elif name in MODULE_ONLY and type(f) is ast.Attribute \
                        and type(f.value) is ast.Name and self._once(n):
                    self.module_reads.append(f.value)
            for field in node_fields(type(n)):  # ``syntax.walk.child_nodes``, inline
                v = getattr(n, field, None)
                if type(v) is list:
                    todo.extend([x for x in v if isinstance(x, ast.AST)])
                elif isinstance(v, ast.AST):
                    todo.append(v)

    # ---- the facts ------------------------------------------------------------------------
    def _mark(self) -> None:
        """Bindings and paths that a differentiating read proves attached, and what they were
        computed from (operands through ``loss / k``; the terms of a differentiated sum)."""
        for expr, stmt in self.differentiated:
            self._mark_expr(expr, Fact(DIFFERENTIATED, stmt.lineno), 0)
        for expr, stmt in calls_in(self.expr_stmts):
            summary = self.summary(expr)
            if summary is None:
                continue
            for k, arg in enumerate(expr.args):
                if summary.differentiates(k):
                    self._mark_expr(arg, Fact(DIFFERENTIATED, expr.lineno,
                                              detail=summary.name), 0)

    def _mark_expr(self, expr, fact: Fact, depth: int) -> None:
        if depth > 8:
            return
        t = type(expr)
        if t is ast.Name:
            for b in self.uses.get(id(expr), ()):
                bd = self.bindings[b]
                if bd.kind == "param":
                    self.differentiated_params.add(bd.index)
                    continue
                if bd.kind == "assign" and literal(bd.value):
                    continue
                if b not in self.marked:
                    self.marked[b] = fact
                    if bd.kind == "assign":
                        self._mark_value(bd.value, fact, depth + 1)
                    elif bd.kind == "unpack":
                        graph_items.mark_unpacked(self, bd, fact)
            return
        p = path_of(expr)
        if p is not None and p[0] not in self.path_written:
            for b in self.uses.get(id(path_root(expr)), ()):
                self._path_fact(b, p[1], fact)
                self._mark_key_terms(b, p[1], fact)
            return
        if t is ast.Call and type(expr.func) is ast.Attribute and \
                expr.func.attr in THROUGH_DIFF:
            # (``scaler.scale(loss)``: the loss, not the scaler, which proves nothing)
            self._mark_expr(expr.args[0] if expr.func.attr == "scale" and len(expr.args) == 1
                            else expr.func.value, fact, depth + 1)
        elif t is ast.BinOp and type(expr.op) is ast.Div and plain_number(expr.right):
            self._mark_expr(expr.left, fact, depth + 1)  # ``loss / k``: the numerator
        elif t is ast.BinOp and type(expr.op) is ast.Mult:
            # ``loss * 0.5``, ``w.k * loss``: the side whose other is a constant or a setting;
            # of two plain names either may be the tensor
            for side, other in ((expr.left, expr.right), (expr.right, expr.left)):
                if type(other) in (ast.Constant, ast.Attribute):
                    self._mark_expr(side, fact, depth + 1)
        elif t is ast.UnaryOp and type(expr.op) is ast.USub:
            self._mark_expr(expr.operand, fact, depth + 1)
        elif is_sum(expr):  # ``(loss + 0.01 * reg).backward()``: its terms, as ``loss = a + b``
            self._mark_value(expr, fact, depth + 1)
        elif t is ast.Subscript and type(expr.slice) in (ast.Slice, ast.Tuple) and \
                indexes_tensor(expr):
            # ``-out[:, 0].mean()``: a slice of a tensor holds a graph only if the tensor does
            self._mark_expr(expr.value, fact, depth + 1)
        elif t is ast.IfExp or (t is ast.Call and graph_items.summed(self, expr) is not None):
            graph_items.mark_summed(self, expr, Fact(TERMS, fact.line, detail=fact.detail))

    def _mark_value(self, value, fact: Fact, depth: int) -> None:
        """The value of a differentiated binding: its terms when a sum (siblings), else as
        ``_mark_expr``."""
        if not is_sum(value):
            self._mark_expr(value, fact, depth)
            return
        parts = terms(value)
        sib = Fact(SIBLING, fact.line, detail=fact.detail)
        weights = factors(value)
        for term in parts:
            if type(term) is ast.Name:
                for b in self.uses.get(id(term), ()):
                    bd = self.bindings[b]
                    if id(term) in weights and bd.kind == "assign" and \
                            builtin_reduction(bd.value):
                        continue  # (``-logp.sum() * ret`` of ``ret = sum(rewards)``)
                    if bd.kind == "param":
                        self.term_params.add(bd.index)
                    elif (bd.kind in ("assign", "unpack") and computed(bd.value) or
                            bd.kind == "aug" and computed(bd.value.value)) and \
                            b not in self.marked:  # (``gp, norms = penalty(...)``: ``gp``)
                        graph_items.mark_term(self, b, sib)  # (``ent += ...``: a term too)
            elif path_of(term) is not None:
                self._mark_expr(term, sib, depth + 1)

    def computed_read(self, name: ast.Name) -> bool:
        """Is every binding reaching the read of ``name`` a computed value (``computed``)?"""
        self._need()
        reach = self.uses.get(id(name))
        return bool(reach) and all(self.bindings[b].kind == "assign" and
                                   computed(self.bindings[b].value) for b in reach)

    def _mark_key_terms(self, b: int, key: str, fact: Fact) -> None:
        """A differentiated key of a dict a call returned whose summary says which other keys
        are terms of its sum (``out = criterion(x, y)``; ``out["loss"].backward()``)."""
        bd = self.bindings[b]
        if bd.kind != "assign" or type(bd.value) is not ast.Call:
            return
        summary = self.summary(bd.value)
        if summary is None:
            return
        siblings = summary.key_terms.get(key, ())
        for other in siblings:
            self._path_fact(b, other, Fact(SIBLING, fact.line, detail=fact.detail))
        # and the keys computed from an attached one (``psnr`` from the term ``mse``), in turn
        derived = Fact(DERIVED, fact.line, detail=fact.detail)
        todo = [key, *siblings]
        while todo:
            for other in summary.key_derived.get(todo.pop(), ()):
                if (b, other) not in self.paths:
                    self._path_fact(b, other, derived)
                    todo.append(other)

    def _path_fact(self, b: int, key: str, fact: Fact) -> None:
        self.paths.setdefault((b, key), fact)
        self._holding.setdefault(b, fact)

    def binding_fact(self, b: int) -> Optional[Fact]:
        got = self.marked.get(b)
        if got is not None:
            return got
        if b in self._facts:
            return self._facts[b]
        if b in self._busy or len(self._busy) > _MAX_CHAIN:
            return None  # a loop-carried binding, or a chain too long to follow: unknown
        self._busy.add(b)
        bd = self.bindings[b]
        fact = None
        try:
            if bd.kind == "assign" and (self.grad_mode(bd.stmt) != "off" or
                                        same_or_view(bd.value)):  # (no_grad: no new graph)
                fact = self.attached(bd.value, bd.stmt)
            elif bd.kind == "aug":
                fact = self.attached(bd.value.value) or self.attached(bd.value.target)
            elif bd.kind == "unpack":
                fact = self._unpacked(bd.value, bd.index, bd.stmt)
            elif bd.kind == "nested" and type(bd.value) is ast.Call:  # its item at that path
                fact = graph_sources.call_fact(self, bd.value, bd.index, bd.stmt)
            elif bd.kind == "other" or bd.kind == "star":  # ``for k, v in losses.items()``
                fact = graph_loop_items.loop_item_fact(self, bd)  # of a summed dict; ``*parts``
            if fact is None and bd.kind == "assign" and type(bd.value) is ast.Call:
                fact = graph_sources.call_fact(self, bd.value, "", bd.stmt)
            if fact is None:
                fact = self._holds(b) or graph_items.appended(self, b) or \
                    graph_items.holds_returned(self, bd)
            elif fact.why in (FORWARD, GRAD_ON) and bd.kind == "assign":
                # a model's output an item of which was differentiated (``out = model(x)``;
                fact = self._holds(b) or fact  # ``out["loss"].backward()``): whatever its class
            elif fact.why == RETURNED and bd.kind == "assign" and type(bd.value) is ast.Call:
                # ``info = learn(...)`` returning a dict of what it differentiated: it holds that
                fact = graph_items.holds_returned(self, bd, dicts=True) or fact
        finally:
            self._busy.discard(b)
        self._facts[b] = fact
        return fact

    def _holds(self, b: int) -> Optional[Fact]:
        """The value of binding ``b`` holds an item a differentiating read proved attached, when
        nothing in the scope writes, deletes or changes its items (a method called on it)."""
        key = self.bindings[b].key
        got = self._holding.get(b)
        if got is None or graph_items.changed_in_scope(self, key):
            return None
        return Fact(HOLDS, got.line, detail=got.detail)

    def _unpacked(self, value, i: int, stmt=None) -> Optional[Fact]:
        return graph_items.unpacked_fact(self, value, i, stmt)

    def attached(self, expr, stmt=None) -> Optional[Fact]:
        """Why ``expr`` (an expression of this scope) is attached, or None: not known to be.
        ``stmt``: the statement of the scope it is read in; a forward pass in ``expr`` itself
        is then attached for sure where that statement's grad region is proven on
        (``graph_sources.proven_regions``: ``loss = crit(out, y); loss.backward()``)."""
        self._at.append(stmt)
        try:
            return self._derived(expr, self._read)
        finally:
            self._at.pop()

    def derived_from(self, expr, root: str, key: str) -> bool:
        """Is ``expr`` attached whenever the path ``root`` + ``key`` (``out["mse"]``) is, through
        operations that keep a graph (``10 * torch.log10(1 / out["mse"])``)? Other reads count
        as not attached."""
        mark = Fact(DERIVED, 0)

        def read(e):
            p = path_of(e)
            if p is not None:
                return mark if p == (root, key) else None
            return None if type(e) is ast.Name else _OPEN
        return self._derived(expr, read) is mark

    def _read(self, expr):
        """The fact of a read of a name or a constant-key path; ``_OPEN``: not one of those
        reads, or a path with no fact of its own (look into it)."""
        t = type(expr)
        if t is ast.Name:
            self._need()
            reach = self.uses.get(id(expr))
            if not reach:
                return None
            # (a number a name starts as, ``total = 0.0``, holds no graph, nor keeps one)
            facts = [f for b in reach for f in (self.binding_fact(b),)
                     if f is not None or not number_binding(self.bindings[b])]
            if not facts or any(f is None for f in facts):
                return None
            return strongest(facts)
        p = path_of(expr)
        if p is not None:
            self._need()
            reach = self.uses.get(id(path_root(expr)))
            if reach and p[0] not in self.path_written:
                facts = [self.paths.get((b, p[1])) for b in reach]
                if all(f is not None for f in facts):
                    return strongest(facts)
            got = self.attached_path(path_root(expr), p[1])
            if got is None and p[1].count(".") == 1 and self.oracle.leaf_property(p[1][1:], p[0]):
                return self._leaf_fact(expr, expr)  # ``self.alpha``: on a leaf, where it runs
            if got is None and type(path_root(expr)) is ast.Name:  # (``outputs.logits`` too)
                got = graph_items.path_source_fact(self, expr, p[1])
            return got if got is not None else _OPEN
        return _OPEN

    def _derived(self, expr, read) -> Optional[Fact]:
        """Why ``expr`` is attached, the facts of its reads given by ``read``."""
        got = read(expr)
        if got is not _OPEN:
            return got
        t = type(expr)
        if t is ast.Subscript:  # an item of a tensor, or of a dict (``graph_items.item_fact``)
            got = self._derived(expr.value, read) if indexes_tensor(expr) else None
            return graph_items.item_fact(self, expr.value, got, expr.slice)
        if t is ast.BinOp:
            if type(expr.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.MatMult):
                return self._derived(expr.left, read) or self._derived(expr.right, read) or \
                    self._leaf_fact(expr, expr.left) or self._leaf_fact(expr, expr.right)
            return None
        if t is ast.UnaryOp:
            return (self._derived(expr.operand, read) or self._leaf_fact(expr, expr.operand)) \
                if type(expr.op) in (ast.USub, ast.UAdd) else None
        if t is ast.Attribute:  # ``out.max(dim=-1).values`` (``reduced_values``)
            if type(expr.value) is ast.Call and graph_sources.output_item("." + expr.attr) and \
                    graph_calls.call_kind(self, expr.value) == "forward":
                return self._call(expr.value, read)  # ``model(**batch).logits``: its output's
            return graph_items.reduced_fact(self, expr.value, read) if reduced_values(expr) \
                else None
        if t in (ast.Tuple, ast.List):  # (``(step, *parts)``: the items of ``parts``)
            return first_fact(self._derived(e.value if type(e) is ast.Starred
                                            else e, read) for e in expr.elts)
        if t is ast.ListComp or t is ast.DictComp:  # (``graph_items.comprehension_fact``)
            return graph_items.comprehension_fact(expr, lambda e: self._derived(e, read))
        if t is ast.Dict:
            return first_fact(self._derived(v, read) for v in expr.values)
        if t is ast.IfExp:
            a, b = self._derived(expr.body, read), self._derived(expr.orelse, read)
            return strongest([a, b]) if a is not None and b is not None else None
        if t is ast.Call:
            return self._call(expr, read)
        return None

    def _leaf_fact(self, expr, operand) -> Optional[Fact]:
        return graph_loop_items.leaf_fact(self, expr, operand, self._at[-1] if self._at else None)

    def path_fact(self, b: int, key: str) -> Optional[Fact]:
        """What a differentiating read proved of item ``key`` (``[0]``, ``.loss``) of binding b."""
        self._need()
        return self.paths.get((b, key))

    def attached_path(self, name: ast.Name, key: str) -> Optional[Fact]:
        """Item ``key`` of ``name`` where every binding reaching it is a call whose summary
        returns that item differentiated (``losses = trainer.train_step(x)``: ``losses[0]``,
        ``losses.total_loss``)."""
        self._need()
        reach = self.uses.get(id(name)) if type(name) is ast.Name else None
        if not reach or name.id in self.path_written:
            return None
        facts = []
        for b in reach:
            bd = self.bindings[b]
            s = self.summary(bd.value) if bd.kind == "assign" and \
                type(bd.value) is ast.Call else None
            if s is None or not s.returns_path(key):
                return None
            facts.append(Fact(RETURNED, bd.value.lineno, detail=s.name))
        return strongest(facts)

    def summary(self, node: ast.Call):
        """The graph summary of the project function ``node`` calls, if the oracle knows it
        (``local``: the callee's name is bound in this scope, so a lookup by name is not it)."""
        self._need()
        f = node.func
        local = id(f) in self.uses or (type(f) is ast.Name and f.id in self.opaque)
        return self.oracle.summary(node, local)

    def _call(self, node: ast.Call, read) -> Optional[Fact]:
        f = node.func
        if (type(f) is ast.Name and f.id in NUMBERS) or \
                (type(f) is ast.Attribute and f.attr in DETACHING):
            return None
        kind = graph_calls.call_kind(self, node)
        if kind == "forward":
            if self.oracle.frozen(f) and not any(self._derived(a, read) for a in (
                    *node.args, *(k.value for k in node.keywords))):
                return None  # a frozen module's output: a graph only through its inputs
            return graph_sources.forward_fact(self, node, self._at[-1] if self._at else None)
        if kind == "through":
            return first_fact(self._derived(a, read) for a in through_arguments(node))
        summary = self.summary(node)
        if summary is not None:  # (what it differentiated, or computes from an argument; a
            # dict or tuple it returns holding the loss it differentiated)
            got = graph_items.returned_fact(self, node, summary, lambda a: self._derived(a, read),
                                            self._at[-1] if self._at else None) or \
                graph_items.holding_call(node, summary)
            if got is not None:
                return got
        if type(f) is ast.Attribute and f.attr in KEEPS_GRAPH:
            return self._derived(f.value, read) or self._leaf_fact(node, f.value)
        if type(f) is ast.Name and graph_items.record_call(self, node):
            return graph_items.record_fact(node, lambda a: self._derived(a, read))
        if type(f) is ast.Attribute and f.attr == "step" and len(node.args) == 1 and \
                not node.keywords and type(node.args[0]) is ast.Name:
            return graph_items.closure_loss(self, node.args[0])
        return None

    def nested(self, fn: ast.FunctionDef) -> "ScopeGraph":
        """The graph facts of a ``def`` inside this scope, asked as this scope's oracle would."""
        return scope_graph(fn, self.oracle)

    def grad_mode(self, stmt: ast.stmt) -> Optional[str]:
        """"off"/"on"/"unknown" from the innermost ``with`` about grad around ``stmt`` (or the
        scope's own, given when made); None: no ``with`` about grad."""
        self._need()
        return self.grad.get(id(stmt))


#: ``ScopeGraph._read``: not a read it knows; look into the expression
_OPEN = object()
#: the detail of a HOLDS fact of a list the scope appends to (``graph_items.appended``)
APPENDED = graph_items.APPENDED


def scope_graph(scope, oracle: Optional[Oracle] = None, lazy: bool = False) -> ScopeGraph:
    """The graph facts of a function (``ast.FunctionDef``) or a module (``ast.Module``);
    ``lazy``: walked on the first question that needs it (``ScopeGraph``)."""
    if type(scope) is ast.Module:
        return ScopeGraph(scope.body, (), oracle, lazy=lazy)
    grad = decorated_grad(scope)
    return ScopeGraph(scope.body, function_params(scope), oracle,
                      None if grad is None else grad, lazy=lazy)
