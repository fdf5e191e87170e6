"""TEN501's questions to the loops and the scope of an accumulation (``rules/accumulate.py``),
each walked once per loop, scope and file (``context.cached``): the innermost loop of a
statement and the loops around it, what a loop's body binds and differentiates, what the scope
binds, differentiates, writes in place and returns."""
from __future__ import annotations

import ast
from typing import List, Optional, Set, Tuple

from ..semantic.graph_terms import DETACHING, KEEPS_GRAPH, NUMBERS
from ..semantic.storage_flow import bound_in
from ..syntax import nodes
from ..syntax.accumulation_shapes import CONTAINER_CALLS, forward_hook_line, global_totals, \
    hook_output, stepping_methods, stepping_names
from ..syntax.stepping import stepping_calls
from ..syntax.nodes import dotted_name, last_name
from ..syntax.walk import own_nodes
from .accumulate_graph import instance_facts
from .context import cached, enclosing_function, param_names, positional_param_names, \
    statement_blocks, statement_list

_LOOPS = (nodes.For, nodes.While)
_DEFS = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)


def innermost_loop(ctx, line):
    """The innermost ``for``/``while`` of the scope being checked (not crossing a definition)
    whose body holds the statement line ``line``, or None. The loops of every statement are
    found in one walk per scope and file."""
    if line is None:
        return None
    scope = ctx.scope_node
    return cached(ctx, "_accumulate_loops", scope, lambda: loops_of(scope)).get(id(line))


def fans_out(loop) -> bool:
    """Is ``loop`` a walk over the items or values of a dict named by a plain name (``for k, v
    in losses.items():``)? Inside another loop, what its body accumulates accumulates once per
    turn of that one (``innermost_loop`` of the walk is where the turns are)."""
    it = loop.iter if type(loop) is nodes.For else None
    return type(it) is nodes.Call and type(it.func) is nodes.Attribute and not it.args and \
        it.func.attr.value in ("items", "values") and type(it.func.value) is nodes.Name


def closure_loop(ctx):
    """The loop of the enclosing function that defines the scope being checked (a closure, a
    statement of the loop's own body) and calls it each turn there (``closure()``, or
    ``opt.step(closure)``), or None: what the closure appends to a list of the enclosing
    function accumulates across that loop's turns."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef:
        return None

    name = scope.name.value

    def calls(loop, by_name: bool = True) -> bool:
        for n in own_nodes_of(loop.body):
            if type(n) is not nodes.Call:
                continue
            f = n.func
            if (by_name and type(f) is nodes.Name and f.value == name) or (
                    type(f) is nodes.Attribute and f.attr.value == "step" and n.args and
                    type(n.args[0].value) is nodes.Name and n.args[0].value.value == name):
                return True
        return False

    def find():
        outer = enclosing_function(ctx.module, scope)
        if outer is None:  # (a function of the module the script's loop hands to
            body = ctx.module.body  # ``opt.step(closure)``: LBFGS's closure)
            after = body[next((i for i, s in enumerate(body) if s is scope), len(body)):]
            return next((s for s in after if type(s) in _LOOPS and calls(s, False)), None)
        loops = loops_of(outer)
        loop = loops.get(id(scope))
        if loop is not None:
            return loop if any(s is scope for s in statement_list(loop.body)) and \
                calls(loop) else None
        # a closure defined once before the loop that calls it each turn (``def closure():``
        # ... ``for step in range(n): opt.step(closure)``): the first such loop of the body
        body = statement_list(outer.body)
        after = body[next((i for i, s in enumerate(body) if s is scope), len(body)):]
        return next((s for s in after if type(s) in _LOOPS and calls(s)), None)
    return cached(ctx, "_accumulate_closure_loop", scope, find)


#: the packages whose ``LightningModule`` calls ``training_step`` once per batch, grad on
_LIGHTNING = ("lightning", "pytorch_lightning")


def step_hook(ctx):
    """The method being checked when it is the ``training_step`` of a class of the module whose
    base is Lightning's ``LightningModule`` (by qualified name), else None. Lightning calls it
    once per batch with grad on (and differentiates what it returns): its body is the body of
    a loop whose turns are the training steps, which an attribute of ``self`` outlives."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef or scope.name.value != "training_step" or \
            "LightningModule" not in ctx.source:
        return None

    def find():
        for c in ctx.module.body:
            if type(c) is not nodes.ClassDef or not any(s is scope for s in c.body.body):
                continue
            for b in c.bases:
                v = b.value
                q = ctx.inf.qualname(v) if type(v) in (nodes.Name, nodes.Attribute) else None
                if q is not None and q.endswith(".LightningModule") and \
                        q.partition(".")[0] in _LIGHTNING:
                    return scope
        return None
    return cached(ctx, "_accumulate_step_hook", scope, find)


def stepped_by_caller(ctx) -> Optional[int]:
    """The line of a ``backward()`` in a loop of this file that differentiates what the method
    being checked returns (``loss = module.training_step(batch, i)`` ... ``loss.backward()``:
    the method called by its name on any receiver, in the same loop; the ``forward`` of a class
    of the file whose instance's output is differentiated so: ``loss = crit(model(x), y)``),
    else None. Each such call is one training step made with grad on: the method's body is the
    body of that loop, as Lightning's ``training_step`` is (``step_hook``). Found in one walk of
    the file's ``ast`` (``stepping.stepping_calls``), for every method's name."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef or positional_param_names(scope)[:1] != ["self"]:
        return None
    name = scope.name.value
    if name not in stepping_names(ctx.source):
        return None  # (most methods: the text alone says no)
    cls = getattr(ctx.inf.scope, "cls", None) if name == "forward" else None
    if cls is not None and ctx.source.count(cls.cls_name + "(") < 2 and \
            "forward" not in stepping_methods(ctx.source):
        return None  # (a module the file never makes: ``class Net(`` is all its text holds)
    found = cached(ctx, "_accumulate_stepped", None, lambda: stepping_calls(
        getattr(ctx.inf, "module_tree", None)))
    if cls is not None and cls.cls_name + "()" in found:  # a module of the file, per step
        return found[cls.cls_name + "()"]
    return found.get(name)


def self_step_call(call, ctx) -> bool:
    """A call on ``self`` (``self.log(name, loss)``, ``self.meter.update(loss)``) in a method
    that runs once per training step with grad on: Lightning's ``training_step``, one whose
    value a loop of the file differentiates (``stepped_by_caller``), or one that runs
    ``backward()`` itself (``step_method``)."""
    if type(call) is not nodes.Call or type(call.func) is not nodes.Attribute or \
            not (dotted_name(call.func.value) or "").partition(".")[0] == "self":
        return False
    return step_hook(ctx) is not None or stepped_by_caller(ctx) is not None or (
        mentions_backward(ctx) and step_method(ctx) is not None)


def mentions_backward(ctx) -> bool:
    """Does the text of the scope being checked mention ``backward``? Read once per scope."""
    scope = ctx.scope_node

    def look() -> bool:
        a = getattr(scope, "_a", None)
        if type(scope) is nodes.Module or not isinstance(a, ast.AST):
            return "backward" in ctx.source
        start, end = ctx.text.ast_span(a)
        return ctx.source.find("backward", start, end) >= 0
    return cached(ctx, "_accumulate_backward_text", scope, look)


def step_method(ctx):
    """The method being checked when its own body calls ``backward()`` outside any loop of it (a
    training step: each call is one step), else None. What it adds to an attribute of ``self``
    accumulates across its calls; only a value the method proves attached counts there (no
    caller is asked for the grad mode)."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef or not loop_facts(ctx, scope).any_backward:
        return None  # (most methods: no walk below)
    method = positional_param_names(scope)[:1] == ["self"]
    if not cached(ctx, "_accumulate_step_method", scope, lambda: _differentiates_once(scope)):
        # a function a loop of the file calls by name (``train(epoch)``), or a method a loop
        # calls by its name (``ppo.update(buf)``), that differentiates in a loop of its own:
        # each call is an epoch (what it keeps after that loop)
        return scope if called_in_loop(ctx, scope, method) else None
    # a method, or a function a loop of the file calls by name (``train_step(...)``)
    return scope if method or called_in_loop(ctx, scope) else None


def called_in_loop(ctx, scope, method: bool = False) -> bool:
    """Is ``scope`` a function of the module's top level that a loop of the file calls by its
    name, or (``method``) a method of a top-level class that a loop of the file calls as an
    attribute of that name (``agent.update(batch)``)?"""
    name = scope.name.value
    if name not in ctx.source or name not in cached(
            ctx, "_accumulate_loop_calls", None,
            lambda: _called_in_loops(getattr(ctx.inf, "module_tree", None)))[method]:
        return False
    if method:
        return any(type(s) is nodes.ClassDef and any(m is scope for m in statement_list(s.body))
                   for s in statement_list(ctx.module))
    return any(s is scope for s in statement_list(ctx.module))


def _called_in_loops(tree) -> tuple:
    """(the names the loops of ``tree`` call: ``train_step(...)`` in a ``for``; the method names
    they call: ``agent.update(...)``), in one walk."""
    found: set = set()
    methods: set = set()
    todo = [(tree, False)] if tree is not None else []
    while todo:
        node, looped = todo.pop()
        if looped and type(node) is ast.Call:
            f = node.func
            if type(f) is ast.Name:
                found.add(f.id)
            elif type(f) is ast.Attribute:
                methods.add(f.attr)
        looped = looped or type(node) in (ast.For, ast.While, ast.AsyncFor)
        todo.extend((c, looped) for c in ast.iter_child_nodes(node))
    return frozenset(found), frozenset(methods)


def _differentiates_once(scope) -> bool:
    """Does a statement of ``scope`` outside its loops (and nested definitions) call
    ``backward()`` (``manual_backward``, ``autograd.grad``)?"""
    todo = statement_list(scope.body)
    while todo:
        s = todo.pop()
        if type(s) in _LOOPS or type(s) in _DEFS:
            continue
        blocks = statement_blocks(s)
        if blocks:
            for block in blocks:
                todo.extend(block)
            continue
        for n in own_nodes_of(s):
            if type(n) is nodes.Call and (last_name(n.func) or "") in BACKWARD_FUNCS | {"grad"}:
                return True
    return False


def differentiates(ctx, loop) -> bool:
    """Does ``loop``, or a loop of the scope around it, call ``backward``?"""
    while loop is not None:
        if loop_facts(ctx, loop).any_backward:
            return True
        loop = innermost_loop(ctx, loop)
    return False


def in_loop(ctx) -> bool:
    """Is the statement being checked in the body of a loop of its scope?"""
    return innermost_loop(ctx, ctx.stmt_line) is not None


def loops_of(scope) -> dict:
    """id of each statement of ``scope`` (not crossing a definition) in a loop's body -> the
    innermost such loop (a loop's ``else`` is not its body)."""
    body = statement_list(scope.body) if type(scope) is nodes.FunctionDef else list(scope.body)
    out: dict = {}
    todo = [(s, None) for s in body]
    while todo:
        s, loop = todo.pop()
        if loop is not None:
            out[id(s)] = loop
        own = type(s) in _LOOPS
        for i, block in enumerate(statement_blocks(s)):
            inner = s if own and i == 0 else loop
            todo.extend((c, inner) for c in block)
    return out


def own_nodes_of(node):
    """Every node under ``node`` in source order, not entering definitions or lambdas."""
    return nodes.within(node, _DEFS)


def prefixes(node, out: Set[str]) -> Set[str]:
    """Every dotted name read under ``node`` with each of its prefixes (``a.b.c``: ``a``,
    ``a.b``, ``a.b.c``): ``node`` mentions a set of names when the two sets meet."""
    for n in own_nodes_of(node):
        t = type(n)
        if t is nodes.Name or t is nodes.Attribute:
            d = dotted_name(n)
            if d is not None:
                out.add(d)
    return out


def _graph_prefixes(node, out: Set[str]) -> Set[str]:
    """``prefixes`` of what a returned value may hand a graph on from: not the names read only
    under ``x.item()``, ``torch.cat(xs).argmax(1)``, ``float(x)`` (``return val_loss.item(),
    preds``: the accumulated graph does not escape to the caller)."""
    todo = [node]
    while todo:
        n = todo.pop()
        t = type(n)
        if t is nodes.Call and len(n.args) <= 1 and (  # (the graph's own stops: DETACHING)
                (type(n.func) is nodes.Attribute and n.func.attr.value in DETACHING) or
                (type(n.func) is nodes.Name and n.func.value in NUMBERS)):
            continue
        if t is nodes.Name or t is nodes.Attribute:
            d = dotted_name(n)
            if d is not None:
                out.add(d)
        if t not in _DEFS and t is not nodes.Lambda:
            todo.extend(c for c in n.children if c is not None)
    return out


def targets_of(n) -> List[str]:
    """The names (dotted) an assignment binds or writes into: ``x``, ``self.x``, ``d`` of
    ``d[k] = v`` (whose index ``k`` it reads, not binds), each of a tuple target."""
    t = type(n)
    todo = [x.target for x in n.targets] if t is nodes.Assign else [n.target]
    out: List[str] = []
    while todo:
        tgt = todo.pop()
        tt = type(tgt)
        if tt is nodes.Tuple or tt is nodes.List:
            todo.extend(e.value for e in tgt.elements)
        elif tt is nodes.StarredElement:
            todo.append(tgt.value)
        elif tt is nodes.Subscript:
            todo.append(tgt.value)
        else:
            d = dotted_name(tgt)
            if d is not None:
                out.append(d)
    return out


class LoopFacts:
    """What the accumulation questions ask of one loop's body, walked once per loop and file:
    its bindings (statement, targets) and its backward calls; the names it binds (its own
    target's too) when asked (``bound``)."""
    __slots__ = ("bindings", "backwards", "any_backward", "_loop", "_bound")

    def __init__(self, loop, ctx) -> None:
        self.bindings: List[tuple] = []
        self.backwards: List[nodes.Call] = []
        self.any_backward = False
        self._loop = loop
        self._bound: Optional[Set[str]] = None
        for n in own_nodes_of(loop.body):
            t = type(n)
            if (t is nodes.Assign or t is nodes.AnnAssign) and n.value is not None:
                targets = [x.target for x in n.targets] if t is nodes.Assign else [n.target]
                self.bindings.append((n, targets))
            elif t is nodes.Call:
                name = last_name(n.func) or ""
                if name in BACKWARD_FUNCS:
                    self.backwards.append(n)
                    self.any_backward = True
                elif name == "grad":
                    self.any_backward = True

    @property
    def bound(self) -> Set[str]:
        """The plain names the loop binds: its target's, its body's assignments, augmented
        assignments and inner loops' targets (not inside a nested definition)."""
        if self._bound is None:
            loop = self._loop
            out: Set[str] = set()
            if type(loop) is nodes.For:
                _bound_by(loop.target, out)
            for n in own_nodes_of(loop.body):
                t = type(n)
                if t is nodes.Assign or t is nodes.AnnAssign or t is nodes.AugAssign or \
                        t is nodes.For:
                    for tgt in [x.target for x in n.targets] if t is nodes.Assign else \
                            [n.target]:
                        _bound_by(tgt, out)
            self._bound = out
        return self._bound


def _bound_by(target, out: Set[str]) -> None:
    """The plain names a target binds (``x``, ``a, (b, c)``, ``*rest``; not what ``x[i]``
    reads)."""
    t = type(target)
    if t is nodes.Name:
        out.add(target.value)
    elif t is nodes.Tuple or t is nodes.List:
        for e in target.elements:
            if type(e) in (nodes.Element, nodes.StarredElement):
                _bound_by(e.value, out)


class ScopeFacts:
    """What the accumulation questions ask of the current scope, walked once per scope and file
    (a GAN script's 25 candidates walked their scope 5 times each, 75% of the file's analysis):
    each binding's targets with the names its value may take a graph from (``_graph_prefixes``:
    not those read only under ``.item()``, ``argmax``, ``float()``), the names each
    differentiating call reads, and the roots whose items are written in place."""
    __slots__ = ("bindings", "differentiating", "in_place_roots", "returned")

    def __init__(self, body) -> None:
        self.bindings: List[Tuple[Set[str], List[str]]] = []
        self.differentiating: List[Set[str]] = []
        self.in_place_roots: Set[str] = set()
        self.returned: Set[str] = set()
        for n in own_nodes_of(body):
            t = type(n)
            if t is nodes.Return and n.value is not None:
                _graph_prefixes(n.value, self.returned)
            elif t in (nodes.Assign, nodes.AnnAssign, nodes.AugAssign):
                if n.value is not None:  # (a number made of it holds none of its graph)
                    self.bindings.append((_graph_prefixes(n.value, set()), targets_of(n)))
            elif t is nodes.Call:
                func = n.func
                name = last_name(func)
                if name in BACKWARD_FUNCS or name == "grad":
                    read: Set[str] = set()
                    if name == "backward" and type(func) is nodes.Attribute:
                        prefixes(func.value, read)
                    for a in n.args:
                        prefixes(a.value, read)
                    self.differentiating.append(read)
                if type(func) is nodes.Attribute and func.attr.value.endswith("_") and \
                        not func.attr.value.startswith("_") and \
                        type(func.value) is nodes.Subscript:
                    root = dotted_name(func.value.value)
                    if root is not None:
                        self.in_place_roots.add(root)


def loop_facts(ctx, loop) -> LoopFacts:
    return cached(ctx, "_accumulate_loop_facts", loop, lambda: LoopFacts(loop, ctx))


def scope_facts(ctx) -> ScopeFacts:
    scope = ctx.scope_node
    return cached(ctx, "_accumulate_scope_facts", scope, lambda: ScopeFacts(scope.body))


def meets(read: Set[str], names: Set[str]) -> bool:
    """Does a read set (``prefixes``) mention one of ``names`` (``n`` or ``n.attr...``)? A read
    of ``n.attr`` holds ``n`` too (the walk meets the inner name), so sets meeting suffices."""
    return not read.isdisjoint(names)


def reset_in(facts: LoopFacts, acc, acc_code: str, stmt, ctx) -> bool:
    """Is the accumulator bound afresh inside the loop on every turn (``parts = []`` in the
    loop's body, in a ``with`` or ``try`` block of it, or in both branches of an ``if`` of it)?
    A reset under a condition (``if it % 100 == 0: total = 0``) only bounds how many turns'
    values it holds. A target spelled as the accumulator is one of its node type and dotted
    name (of the subscripted value for ``hist["loss"]``): only those are compared by text."""
    kind = type(acc)
    root = root_name(acc)
    resets = []
    for n, targets in facts.bindings:
        if n is stmt:
            continue
        for tgt in targets:
            if type(tgt) is kind and root_name(tgt) == root and ctx.code(tgt) == acc_code \
                    and acc_code not in ctx.code(n.value) and \
                    not _starts(facts._loop, n, acc_code, ctx):
                resets.append(n)
    return bool(resets) and (every_turn(facts._loop.body, resets) or
                             _after_backward(facts._loop.body, resets))


_BLOCKS = (nodes.IndentedBlock, nodes.SimpleStatementLine, nodes.SimpleStatementSuite)


def _after_backward(body, stmts: list) -> bool:
    """Is one of ``stmts`` in a block of ``body`` (an ``if`` of it, not a nested loop) after a
    statement of that block that calls ``backward()`` or an optimizer's ``step()`` (gradient
    accumulation: ``if (i + 1) % k == 0: accum.backward(); ...; micro_losses = []``, or each
    micro-batch differentiated and ``opt.step(); ...; micro_losses = []``)? What the
    accumulator held was one update's worth, consumed by that update."""
    todo = [body]
    while todo:
        block = todo.pop()
        differentiated = False
        for s in getattr(block, "body", ()):
            if type(s) is nodes.SimpleStatementLine:
                if differentiated and any(x is n for x in s.body for n in stmts):
                    return True
                differentiated = differentiated or any(
                    type(x) is nodes.Expr and type(x.value) is nodes.Call and
                    type(x.value.func) is nodes.Attribute and
                    x.value.func.attr.value in ("backward", "manual_backward", "step")
                    for x in s.body)
            elif type(s) is nodes.If:
                todo.append(s.body)
                if type(s.orelse) is nodes.Else:
                    todo.append(s.orelse.body)
            elif type(s) in (nodes.With, nodes.Try):
                todo.append(s.body)
    return False


def every_turn(body, stmts: list) -> bool:
    """Does one of ``stmts`` run whenever ``body`` runs to its end: a statement of it, of a
    ``with`` block or a ``try`` body in it, or one in each branch of an ``if ... else`` in it
    (not in a nested loop, a handler or one branch only)?"""
    todo = [body]
    while todo:
        n = todo.pop()
        t = type(n)
        if any(n is s for s in stmts):
            return True
        if t in _BLOCKS:
            todo.extend(n.body)
        elif t is nodes.With or t is nodes.Try:
            todo.append(n.body)
        elif t is nodes.If and type(n.orelse) is nodes.Else and \
                every_turn(n.body, stmts) and every_turn(n.orelse.body, stmts):
            return True
    return False


def _starts(loop, binding, acc_code: str, ctx) -> bool:
    """Is ``binding`` in the body of an ``if <acc> is None:`` of the loop (``if all_out is None:
    all_out = out else: all_out = torch.cat([all_out, out])``)? It starts the accumulator the
    first turn, it does not reset it each turn."""
    for n in own_nodes_of(loop.body):
        if type(n) is not nodes.If:
            continue
        test = n.test
        if type(test) is nodes.Comparison and len(test.comparisons) == 1 and \
                type(test.comparisons[0].operator) is nodes.Is and \
                type(test.comparisons[0].comparator) is nodes.Name and \
                test.comparisons[0].comparator.value == "None" and \
                ctx.code(test.left) == acc_code and nodes.holds(n.body, binding):
            return True
    return False



def root_name(node) -> Optional[str]:
    return dotted_name(node.value if type(node) is nodes.Subscript else node)


BACKWARD_FUNCS = frozenset({"backward", "manual_backward"})


def returned(scope: ScopeFacts, root: str) -> bool:
    """Does the scope return the accumulator, or a name computed from it?"""
    return bool(scope.returned) and meets(scope.returned, derived_names(scope, root))


def differentiated(scope: ScopeFacts, root: str) -> bool:
    """Is the accumulator, or a name computed from it, differentiated anywhere in the scope
    (``acc.backward()``, ``torch.stack(losses).sum().backward()``, ``autograd.grad(acc, ...)``)?"""
    if not scope.differentiating:
        return False
    names = derived_names(scope, root)
    return any(meets(read, names) for read in scope.differentiating)


def derived_names(scope: ScopeFacts, root: str) -> Set[str]:
    """``root`` and the names the scope computes from it, a few steps deep."""
    names = {root}
    for _ in range(3):  # names derived from it, a few steps deep
        grew = False
        for read, targets in scope.bindings:
            if meets(read, names):
                for d in targets:
                    if d not in names:
                        names.add(d)
                        grew = True
        if not grew:
            break
    return names


def module_container(ctx, name: str) -> bool:
    """Is ``name`` a container the module binds once at its top level (``TRAIN_LOG = []``), that
    the function being checked neither takes nor binds, or a name bound there once that the
    function declares ``global`` and only adds to (``RUNNING = 0.0``; ``RUNNING += loss``:
    ``global_totals``)? What a training step adds to it stays for the whole process, as what
    it adds to ``self`` stays with the instance."""
    scope = ctx.scope_node
    if "." in name or type(scope) is not nodes.FunctionDef or name in param_names(scope):
        return False
    total = "global " in ctx.source and isinstance(scope._a, ast.AST) and \
        name in global_totals(scope._a)
    if not total and bound_in(scope, name):
        return False
    made = []
    for line in statement_list(ctx.module):
        for s in getattr(line, "body", ()) if type(line) is nodes.SimpleStatementLine else ():
            if type(s) in (nodes.Assign, nodes.AnnAssign, nodes.AugAssign) and name in (
                    dotted_name(t) for t in ([a.target for a in s.targets]
                                             if type(s) is nodes.Assign else [s.target])):
                made.append(s.value)
    if len(made) != 1:
        return False
    value = made[0]
    return total or type(value) in (nodes.List, nodes.Dict) or (
        type(value) is nodes.Call and (last_name(value.func) or "") in CONTAINER_CALLS)


def emptied_by_call(ctx, loop, acc, kept: Optional[str] = None) -> bool:
    """Does a loop around ``loop`` call, on each turn, a function of the file by its name that
    empties the accumulator it is handed (REINFORCE: ``policy.saved_log_probs.append(...)`` in
    the episode's loop, then ``finish_episode(policy, opt)`` differentiates them and runs ``del
    policy.saved_log_probs[:]``)? ``acc`` is a name, or an attribute of one (handed as that
    name); the function empties that parameter (``del p[:]``, ``p.clear()``, ``p = []`` does
    not count) or that attribute of it (``del p.attr[:]``, ``p.attr.clear()``, ``p.attr = []``,
    ``p.attr[:] = []``). ``kept``: the attribute of ``self`` in which the method called on
    ``acc`` keeps what it is given (``storage.add(log_prob)`` into ``self.log_probs``), where a
    method the loop around calls on it empties that attribute (``storage.clear()`` with
    ``self.log_probs.clear()``)."""
    if kept is not None and _emptied_by_method(ctx, loop, acc, kept):
        return True
    attr = None
    root = acc
    if type(acc) is nodes.Attribute and type(acc.value) is nodes.Name:
        attr, root = acc.attr.value, acc.value
    if type(root) is not nodes.Name or ("del " not in ctx.source and
                                        ".clear()" not in ctx.source and attr is None):
        return False
    tree = getattr(ctx.inf, "module_tree", None)
    defs = {s.name: s for s in getattr(tree, "body", ()) if type(s) is ast.FunctionDef}
    outer = innermost_loop(ctx, loop)
    while outer is not None:
        a = getattr(outer, "_a", None)
        for n in own_nodes(a) if a is not None else ():  # (the calls of its body)
            fn = defs.get(n.func.id) if type(n) is ast.Call and type(n.func) is ast.Name \
                else None
            if fn is None or n.keywords and any(k.arg is None for k in n.keywords):
                continue
            params = [p.arg for p in fn.args.posonlyargs + fn.args.args]
            at = [i for i, x in enumerate(n.args) if type(x) is ast.Name and x.id == root.value]
            if any(i < len(params) and _empties(fn, params[i], attr) for i in at):
                return True
        outer = innermost_loop(ctx, outer)
    return False


def _emptied_by_method(ctx, loop, acc, kept: str) -> bool:
    """(``emptied_by_call``, ``kept``) Where the loop that keeps them differentiates nothing:
    they wait for a backward after it (an episode's rollout), not kept beside each step's."""
    if loop_facts(ctx, loop).any_backward:
        return False
    facts = instance_facts(ctx.infer(acc)) if type(acc) is nodes.Name else None
    outer = innermost_loop(ctx, loop) if facts is not None else None
    while outer is not None:
        a = getattr(outer, "_a", None)
        for n in own_nodes(a) if a is not None else ():
            if type(n) is not ast.Call or type(n.func) is not ast.Attribute or \
                    type(n.func.value) is not ast.Name or n.func.value.id != acc.value:
                continue
            try:
                fn = getattr(facts.method(n.func.attr), "node", None)
            except (OSError, ValueError, RecursionError):
                fn = None
            if fn is not None and fn.args.args and _empties(fn, fn.args.args[0].arg, kept):
                return True
        outer = innermost_loop(ctx, outer)
    return False


def _empties(fn, param: str, attr: Optional[str]) -> bool:
    """Does ``fn``'s body empty ``param`` (``attr`` None) or ``param.attr``?"""
    def held(e) -> bool:
        if attr is None:
            return type(e) is ast.Name and e.id == param
        return type(e) is ast.Attribute and e.attr == attr and type(e.value) is ast.Name and \
            e.value.id == param

    for n in ast.walk(fn):
        t = type(n)
        if t is ast.Delete and any(type(x) is ast.Subscript and held(x.value) and
                                   type(x.slice) is ast.Slice for x in n.targets):
            return True  # ``del p.attr[:]``
        if t is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "clear" and \
                not n.args and held(n.func.value):
            return True  # ``p.attr.clear()``
        if t is ast.Assign and type(n.value) is ast.List and not n.value.elts and any(
                (attr is not None and held(x)) or (type(x) is ast.Subscript and held(x.value))
                for x in n.targets):
            return True  # ``p.attr = []``, ``p.attr[:] = []``
    return False


def forward_hook(ctx, value) -> Optional[int]:
    """The line registering the function checked as a forward hook (``forward_hook_line``),
    where ``value`` is its ``output`` (or an item of it): it runs on every forward pass, and a
    loop of the file calls ``backward()``; else None."""
    scope = ctx.scope_node
    fn = getattr(scope, "_a", None)
    out = hook_output(fn) if type(scope) is nodes.FunctionDef else None
    v = value
    while type(v) is nodes.Subscript or type(v) is nodes.Call and \
            type(v.func) is nodes.Attribute and v.func.attr.value in KEEPS_GRAPH:
        v = v.value if type(v) is nodes.Subscript else v.func.value  # ``out[0]``, ``out.sum()``
    if out is None or type(v) is not nodes.Name or v.value != out or \
            "register_forward_hook" not in ctx.source:
        return None
    project = ctx.inf.project
    tree = project.module_tree() if project is not None else getattr(ctx.module, "_a", None)
    return forward_hook_line(tree, fn) if isinstance(tree, ast.Module) else None
