"""TEN501: an accumulator that keeps every iteration's autograd graph alive."""
from __future__ import annotations

from typing import Iterable, Iterator, List, Optional, Set, Tuple

from ..semantic import closed, kinds, torch_api
from ..syntax import nodes
from ..syntax.nodes import dotted_name, last_name
from .accumulate_callers import Uses
from .accumulate_claims import after_backward_keeps_graph, memory_grows_per_step, \
    no_backward_keeps_activations, one_thread
from .context import statement_blocks, statement_list
from .base import SAFE, UNSAFE, Claim, Example, FixCase, FixPlan, NodeEdit, Report, Rule, \
    applicability


class GraphKeepingAccumulator(Rule):
    code = "TEN501"
    runtime_twin = False
    name = "graph-keeping-accumulator"
    message = "`{acc}` accumulates `{value}`{shape}; accumulate `{fixed}`{also}"
    hooks = (nodes.AugAssign, nodes.Assign, nodes.Expr)
    fix_safety = UNSAFE
    what = (
        "Flags an accumulation inside a loop (`total += loss`, `total = total + loss`, "
        "`losses.append(loss)`, `hist[\"loss\"].append(loss)`) of a graph-attached tensor into an "
        "accumulator that outlives the iteration, in two shapes, each with its own message: "
        "**after backward**, the accumulated value is the one `backward()` is called on in the "
        "same iteration (`loss.backward()`, `scaler.scale(loss).backward()`, "
        "`accelerator.backward(loss)`); **no backward**, a model's output (or a loss computed "
        "from it) accumulated in a loop that never calls `backward()`, where grad mode is "
        "provably on (no `torch.no_grad()`/`inference_mode()` block around it, no "
        "`set_grad_enabled`, no parameter frozen in the file): in script-level code, or in a "
        "plain top-level function whose every caller is visible and runs it with grad on (each "
        "use of its name in its file is a call at script level, or from a function proven so in "
        "turn, outside any `with` block about grad; no decorator on the way; and no other file "
        "of the project imports the file, read from the text of every project file: an import "
        "naming it, or one by a computed name, keeps the function silent). Not flagged: an "
        "accumulator that is itself differentiated (`acc = acc + loss / k` ... "
        "`acc.backward()`, `torch.stack(losses).sum().backward()`), one reset inside the loop, "
        "and `.item()`, `.detach()` or `float(loss)` accumulations; a function of a library, "
        "passed as a value or called under `no_grad` (its callers may run it without grad).\n\n"
        "This rule has no runtime twin: `tensorcopy trace` sees torch calls, but the accumulation "
        "is Python's own (`list.append`, rebinding a name to `total + loss`), and telling one "
        "iteration from the next needs the loop, which a torch hook does not see; no sound, "
        "cheap way to report it at run time was found."
    )
    why = (
        "An accumulated tensor keeps its `grad_fn`, and through it every node of the graph that "
        "produced it; summing or appending losses chains each iteration's graph to the next "
        "(PyTorch's FAQ on running out of memory names exactly `total_loss += loss`). Measured "
        "on CPU torch 2.13 (a 512 -> 2048 -> 1 MLP, batch 256, 40 iterations, resident memory): "
        "accumulating `loss.detach()` +6 MiB; accumulating `loss` after its `backward()` +18 MiB "
        "(the graph's nodes and what they still hold); accumulating a module's output in a loop "
        "that never calls `backward()` with grad enabled (an evaluation loop without `no_grad`) "
        "+156 MiB, about 4 MiB per iteration: the out-of-memory case, since every activation "
        "saved for backward stays alive. With a 150-op MLP the after-backward shape grows about "
        "187 KiB per step (549 MiB after 3,000 steps) and keeps 14,004 graph nodes after 2,000 "
        "steps, and a later `total.backward()` raises \"backward through the graph a second "
        "time\".\n\n"
        "Precision needs flow: a naive matcher over 20 mature repositories finds 34 sites of "
        "which 2 are real; gradient accumulation (`acc = acc + loss / k; acc.backward()`) and "
        "`torch.stack(losses).sum().backward()` are correct and are not flagged, and the "
        "no-backward shape is reported only where grad mode is provably on."
    )
    use_instead = "`total += loss.detach()` (no device sync, unlike `loss.item()`)."
    fix_doc = (
        "**Unsafe** in general. The accumulated value becomes `X.detach()`: the accumulator no "
        "longer requires grad and has no `grad_fn`, so code that later differentiates it, or "
        "prints it (the `grad_fn=` part of a tensor's repr), sees a change; the graph of each "
        "iteration is freed (that is the point). **Safe** only where the accumulator is a local "
        "name of the function, the accumulated value is proven a tensor, and every other read of "
        "the accumulator is `acc.item()`: the accumulator never escapes the function and nothing "
        "derived from it is differentiated, so the values the program sees are the same. "
        "`float(acc)` does not qualify: on a tensor that requires grad it warns (\"Converting a "
        "tensor with requires_grad=True to a scalar may lead to unexpected behavior\"), which "
        "the detached accumulator no longer does (an error under `-W error`)."
    )
    references = (
        "https://pytorch.org/docs/stable/notes/faq.html"
        "#my-model-reports-cuda-runtime-error-2-out-of-memory",
        "https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html",
    )
    invalid = (
        Example("import torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ntotal = 0.0\n"
                "for step in range(3):\n    opt.zero_grad()\n"
                "    loss = model(torch.ones(2, 3)).pow(2).mean()\n    loss.backward()\n"
                "    opt.step()\n    total += loss\nprint(total)\n",
                "import torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ntotal = 0.0\n"
                "for step in range(3):\n    opt.zero_grad()\n"
                "    loss = model(torch.ones(2, 3)).pow(2).mean()\n    loss.backward()\n"
                "    opt.step()\n    total += loss.detach()\nprint(total)\n", unsafe=True),
        Example("import torch\n\n\ndef train(model, loader, criterion, optimizer):\n"
                "    losses = []\n    for x, y in loader:\n        optimizer.zero_grad()\n"
                "        loss = criterion(model(x), y)\n        loss.backward()\n"
                "        optimizer.step()\n        losses.append(loss)\n    return losses\n",
                "import torch\n\n\ndef train(model, loader, criterion, optimizer):\n"
                "    losses = []\n    for x, y in loader:\n        optimizer.zero_grad()\n"
                "        loss = criterion(model(x), y)\n        loss.backward()\n"
                "        optimizer.step()\n        losses.append(loss.detach())\n"
                "    return losses\n", unsafe=True, run=False),
        Example("import torch\nmodel = torch.nn.Sequential(torch.nn.Linear(3, 8), "
                "torch.nn.ReLU(), torch.nn.Linear(8, 1))\nmodel.eval()\npreds = []\n"
                "for batch in torch.ones(4, 2, 3):\n    out = model(batch)\n"
                "    preds.append(out)\n",
                "import torch\nmodel = torch.nn.Sequential(torch.nn.Linear(3, 8), "
                "torch.nn.ReLU(), torch.nn.Linear(8, 1))\nmodel.eval()\npreds = []\n"
                "for batch in torch.ones(4, 2, 3):\n    out = model(batch)\n"
                "    preds.append(out.detach())\n", unsafe=True),
        # the accumulator stays in the function and is read only as a number, but `loss` is
        # computed from a module's output and a caller's batch: open-world, an unsafe fix
        Example("import torch\nimport torch.nn.functional as F\n\n\ndef f(model, batches):\n"
                "    total = 0.0\n    for x, y in batches:\n"
                "        loss = F.mse_loss(model(x), y)\n        loss.backward()\n"
                "        total = total + loss\n    return total.item()\n",
                "import torch\nimport torch.nn.functional as F\n\n\ndef f(model, batches):\n"
                "    total = 0.0\n    for x, y in batches:\n"
                "        loss = F.mse_loss(model(x), y)\n        loss.backward()\n"
                "        total = total + loss.detach()\n    return total.item()\n", unsafe=True,
                run=False),
    )
    valid = (
        # the detached value, a Python number
        "import torch\nmodel = torch.nn.Linear(3, 1)\ntotal = 0.0\nhist = []\n"
        "for step in range(3):\n    loss = model(torch.ones(2, 3)).sum()\n    loss.backward()\n"
        "    total += loss.item()\n    total += float(loss)\n    hist.append(loss.detach())\n",
        # gradient accumulation: the accumulator is what is differentiated
        "import torch\nmodel = torch.nn.Linear(3, 1)\nacc = 0.0\n"
        "for step in range(8):\n    loss = model(torch.ones(2, 3)).sum()\n    acc = acc + loss / 4\n"
        "    if step % 4 == 3:\n        acc.backward()\n        acc = 0.0\n",
        "import torch\nmodel = torch.nn.Linear(3, 1)\nlosses = []\nfor step in range(4):\n"
        "    losses.append(model(torch.ones(2, 3)).sum())\ntorch.stack(losses).sum().backward()\n",
        # an evaluation loop under no_grad
        "import torch\nmodel = torch.nn.Linear(3, 1)\npreds = []\nwith torch.no_grad():\n"
        "    for batch in torch.ones(4, 2, 3):\n        preds.append(model(batch))\n",
        # a function: its callers may run it under no_grad
        "import torch\n\n\ndef evaluate(model: torch.nn.Linear, batches):\n    outs = []\n"
        "    for b in batches:\n        outs.append(model(b))\n    return outs\n",
        # reset every iteration: nothing outlives it
        "import torch\nmodel = torch.nn.Linear(3, 1)\nfor step in range(3):\n    parts = []\n"
        "    loss = model(torch.ones(2, 3)).sum()\n    loss.backward()\n    parts.append(loss)\n",
    )
    fix_cases = (
        FixCase("total = 0\n    for i in range(3):\n        loss = (t * float(i + 1)).sum()\n"
                "        loss.backward()\n        total += loss\n    return total.item()",
                kinds=("leaf", "parameter", "float64", "zero_dim")),
        FixCase("total = 0\n    for i in range(3):\n        loss = (t * float(i + 1)).sum()\n"
                "        loss.backward()\n        total += loss\n    return total.requires_grad",
                differs=("result",), kinds=("leaf", "parameter", "float64", "zero_dim")),
    )
    claims = (
        Claim("after-backward-keeps-graph", "semantics",
              "accumulating `loss` after `loss.backward()` keeps every step's graph nodes "
              "reachable from the accumulator (the count grows with the steps), a later "
              "`total.backward()` raises \"backward through the graph a second time\", and "
              "accumulating `loss.detach()` keeps none", one_thread(after_backward_keeps_graph)),
        Claim("no-backward-keeps-activations", "semantics",
              "appending a model's output in a loop without `backward()` and with grad enabled "
              "keeps every step's intermediate activations alive; `out.detach()` or "
              "`torch.no_grad()` frees them", one_thread(no_backward_keeps_activations)),
        Claim("memory-grows-per-step", "semantics",
              "the memory held by the accumulator grows with every step in both shapes (after "
              "backward: the graph's nodes, in the resident set; without backward: the "
              "activations, in the resident set on CPU and in allocated memory on CUDA), and "
              "accumulating `.detach()` holds (about) none of it", memory_grows_per_step),
    )

    def check(self, node, ctx) -> Iterable[Report]:
        """In front of ``_check``: no generator for what accumulates nothing (``steps += 1``)."""
        found = _accumulation(node)
        return () if found is None or not _operands(found[1]) else self._check(node, ctx, found)

    def _check(self, node, ctx, found) -> Iterator[Report]:
        acc, value, form = found
        line = ctx.stmt_line
        if line is None or (form != "append" and ctx.inf.in_no_grad):
            return  # under no_grad ``total + loss`` records nothing
        if ctx.inf.torch_alias() is None:
            return
        loop = _innermost_loop(ctx.scope_node, line)
        if loop is None:
            return
        acc_code = ctx.code(acc)
        root = dotted_name(acc.value if type(acc) is nodes.Subscript else acc)
        if root is None:
            return
        if "backward" not in ctx.source and (_grad_off_text(ctx) or (
                type(ctx.scope_node) is not nodes.Module and not _plain_top(ctx))):
            return  # neither shape can hold: no ``backward`` call, no loop grad may be on in
        facts = _loop_facts(ctx, loop)
        if _reset_in(facts, acc, acc_code, node, ctx):
            return
        carriers = {}
        _carriers(value, carriers)
        shape, callers = None, False
        bw = _backward_of(facts, set(carriers)) if carriers else None
        if bw is not None:
            name, call = bw
            carrier = carriers[name]
            ev = ctx.evidence(carrier)
            if ev == kinds.NOT or _rebound_between(loop, name, call, node, ctx):
                return
            shape = "after"
            ev = kinds.signalled(ev)
        elif _script_grad_on(ctx, facts) or _called_grad_on(ctx, facts):
            callers = type(ctx.scope_node) is not nodes.Module  # proven by its callers
            graph = _graph_names(ctx, loop, node)
            if not any(n in graph for n in carriers) and not _graph(ctx, value, graph):
                return
            shape = "none"
            ev = kinds.signalled(ctx.evidence(value) if type(value) is not nodes.BinaryOperation
                                 else kinds.OPEN)
        else:
            return
        # last, the one question asked of the whole scope (most candidates never get here)
        scope = _scope_facts(ctx)
        if _differentiated(scope, root) or root in scope.in_place_roots:
            return
        if shape == "none" and callers and ctx.inf.project.imported_elsewhere():
            # asked last: the answer makes the file's analysis depend on every project file
            # (no cache keeps it), so only where everything else already holds
            return
        fields = dict(acc=ctx.snippet(acc, 30), value=ctx.snippet(value, 30),
                      fixed=ctx.snippet(value, 30) + ".detach()"
                      if ctx.operand(value) == ctx.code(value) else
                      f"({ctx.snippet(value, 28)}).detach()")
        if shape == "after":
            fields.update(shape=" after its `backward()`: every iteration's autograd graph stays "
                                "reachable (memory grows each step; a later backward through it "
                                "fails)", also="")
        else:
            fields.update(shape=", a model output made with grad enabled in a loop without "
                                "`backward()`: every step's graph and activations stay alive "
                                "(megabytes per step: the out-of-memory case)",
                          also=" or run the loop under `torch.no_grad()`")
        plan = self._fix(ctx, node, value, acc, root, ev)
        yield self.report(node, plan, **fields)

    def _fix(self, ctx, node, value, acc, root: str, ev: str) -> Optional[FixPlan]:
        safety = applicability([ev])
        if safety is None:
            return None
        if safety == SAFE and not _stays_local(ctx, acc, root):
            safety = UNSAFE
        return FixPlan("accumulate `.detach()`", safety,
                       [NodeEdit("replace", value, (*ctx.operand_parts(value), ".detach()"))])


# ---- the accumulation ---------------------------------------------------------------------------
def _accumulation(node):
    """(accumulator, accumulated value, form) for ``acc += v``, ``acc = acc + v`` (or
    ``v + acc``) and ``acc.append(v)``; None otherwise."""
    t = type(node)
    if t is nodes.AugAssign:
        if type(node.operator) is not nodes.Add or type(node.target) not in _TARGETS:
            return None
        return node.target, node.value, "aug"
    if t is nodes.Assign:
        if len(node.targets) != 1 or type(node.value) is not nodes.BinaryOperation or \
                type(node.value.operator) is not nodes.Add:
            return None
        acc = node.targets[0].target
        name = dotted_name(acc)
        if name is None:
            return None
        op = node.value
        if dotted_name(op.left) == name:
            return acc, op.right, "add"
        if dotted_name(op.right) == name:
            return acc, op.left, "add"
        return None
    call = node.value
    if type(call) is not nodes.Call or type(call.func) is not nodes.Attribute or \
            call.func.attr.value != "append" or len(call.args) != 1 or call.args[0].keyword \
            is not None or call.args[0].star:
        return None
    acc = call.func.value
    if type(acc) not in _TARGETS:
        return None
    return acc, call.args[0].value, "append"


_TARGETS = (nodes.Name, nodes.Attribute, nodes.Subscript)
_LOOPS = (nodes.For, nodes.While)
_DEFS = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)


def _carriers(value, out: dict) -> None:
    """The names (and attribute chains) that are the accumulated value or a direct operand of
    arithmetic forming it: ``loss``, ``loss * n``; not ``loss.item()``, ``float(loss)``."""
    t = type(value)
    if t is nodes.Name or t is nodes.Attribute:
        name = dotted_name(value)
        if name is not None:
            out.setdefault(name, value)
    elif t is nodes.BinaryOperation:
        _carriers(value.left, out)
        _carriers(value.right, out)
    elif t is nodes.UnaryOperation:
        _carriers(value.expression, out)


def _operands(value) -> bool:
    """A name, attribute or call in ``value``, through arithmetic and subscripts (``_graph``)?"""
    t = type(value)
    if t is nodes.BinaryOperation:
        return _operands(value.left) or _operands(value.right)
    if t is nodes.UnaryOperation or t is nodes.Subscript:
        return _operands(value.expression if t is nodes.UnaryOperation else value.value)
    return t is nodes.Name or t is nodes.Attribute or t is nodes.Call


def _innermost_loop(scope, line):
    """The innermost ``for``/``while`` of ``scope`` (not crossing a definition) whose body holds
    the statement line ``line``."""
    body = statement_list(scope.body) if type(scope) is nodes.FunctionDef else list(scope.body)
    return _find_loop(body, None, line)[0]


def _find_loop(stmts, loop, line):
    # module level, not a closure: a nested function that calls itself is a reference cycle,
    # which kept the whole analysed tree alive until the cyclic collector ran
    for s in stmts:
        if s is line:
            return loop, True
        for block in statement_blocks(s):
            inner = s if type(s) in _LOOPS and block is not None and \
                _same(block, statement_list(s.body)) else loop
            got, hit = _find_loop(block, inner, line)
            if hit:
                return got, True
    return None, False


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _walk(node):
    """Every node under ``node`` in source order, not entering definitions or lambdas."""
    return nodes.within(node, _DEFS)


def _prefixes(node, out: Set[str]) -> Set[str]:
    """Every dotted name read under ``node`` with each of its prefixes (``a.b.c``: ``a``,
    ``a.b``, ``a.b.c``): ``node`` mentions a set of names when the two sets meet."""
    for n in _walk(node):
        t = type(n)
        if t is nodes.Name or t is nodes.Attribute:
            d = dotted_name(n)
            if d is not None:
                out.add(d)
    return out


def _targets_of(n) -> List[str]:
    t = type(n)
    targets = [x.target for x in n.targets] if t is nodes.Assign else [n.target]
    return [d for tgt in targets for sub in _walk(tgt)
            if type(sub) in (nodes.Name, nodes.Attribute) for d in (dotted_name(sub),)
            if d is not None]


class _LoopFacts:
    """What the accumulation questions ask of one loop's body, walked once per loop and file:
    its bindings (statement, targets) and its backward calls."""
    __slots__ = ("bindings", "backwards", "any_backward")

    def __init__(self, loop, ctx) -> None:
        self.bindings: List[tuple] = []
        self.backwards: List[nodes.Call] = []
        self.any_backward = False
        for n in _walk(loop.body):
            t = type(n)
            if (t is nodes.Assign or t is nodes.AnnAssign) and n.value is not None:
                targets = [x.target for x in n.targets] if t is nodes.Assign else [n.target]
                self.bindings.append((n, targets))
            elif t is nodes.Call:
                name = last_name(n.func) or ""
                if name in _BACKWARD_FUNCS:
                    self.backwards.append(n)
                    self.any_backward = True
                elif name == "grad":
                    self.any_backward = True


class _ScopeFacts:
    """What the accumulation questions ask of the current scope, walked once per scope and file
    (a GAN script's 25 candidates walked their scope 5 times each, 75% of the file's analysis):
    each binding's targets with the names its value reads, the names each differentiating call
    reads, and the roots whose items are written in place."""
    __slots__ = ("bindings", "differentiating", "in_place_roots")

    def __init__(self, body) -> None:
        self.bindings: List[Tuple[Set[str], List[str]]] = []
        self.differentiating: List[Set[str]] = []
        self.in_place_roots: Set[str] = set()
        for n in _walk(body):
            t = type(n)
            if t in (nodes.Assign, nodes.AnnAssign, nodes.AugAssign):
                if n.value is not None:
                    self.bindings.append((_prefixes(n.value, set()), _targets_of(n)))
            elif t is nodes.Call:
                func = n.func
                name = last_name(func)
                if name in _BACKWARD_FUNCS or name == "grad":
                    read: Set[str] = set()
                    if name == "backward" and type(func) is nodes.Attribute:
                        _prefixes(func.value, read)
                    for a in n.args:
                        _prefixes(a.value, read)
                    self.differentiating.append(read)
                if type(func) is nodes.Attribute and func.attr.value.endswith("_") and \
                        not func.attr.value.startswith("_") and \
                        type(func.value) is nodes.Subscript:
                    root = dotted_name(func.value.value)
                    if root is not None:
                        self.in_place_roots.add(root)


def _cached(ctx, key: str, node, make):
    cache = ctx.__dict__.setdefault(key, {})
    hit = cache.get(id(node))
    if hit is None or hit[0] is not node:
        hit = cache[id(node)] = (node, make())
    return hit[1]


def _loop_facts(ctx, loop) -> _LoopFacts:
    return _cached(ctx, "_accumulate_loop_facts", loop, lambda: _LoopFacts(loop, ctx))


def _scope_facts(ctx) -> _ScopeFacts:
    scope = ctx.scope_node
    return _cached(ctx, "_accumulate_scope_facts", scope, lambda: _ScopeFacts(scope.body))


def _meets(read: Set[str], names: Set[str]) -> bool:
    """Does a read set (``_prefixes``) mention one of ``names`` (``n`` or ``n.attr...``)? A read
    of ``n.attr`` holds ``n`` too (the walk meets the inner name), so sets meeting suffices."""
    return not read.isdisjoint(names)


def _reset_in(facts: _LoopFacts, acc, acc_code: str, stmt, ctx) -> bool:
    """Is the accumulator bound afresh inside the loop (``parts = []`` each turn)? A target
    spelled as the accumulator is one of its node type and dotted name (of the subscripted
    value for ``hist["loss"]``): only those are compared by text."""
    kind = type(acc)
    root = _root_name(acc)
    for n, targets in facts.bindings:
        if n is stmt:
            continue
        for tgt in targets:
            if type(tgt) is kind and _root_name(tgt) == root and ctx.code(tgt) == acc_code \
                    and acc_code not in ctx.code(n.value):
                return True
    return False


def _root_name(node) -> Optional[str]:
    return dotted_name(node.value if type(node) is nodes.Subscript else node)


_BACKWARD_FUNCS = frozenset({"backward", "manual_backward"})


def _loss_expr(node, names: Set[str]) -> Optional[str]:
    """The carrier ``node`` differentiates: ``loss``, ``loss / k``, ``scaler.scale(loss)``."""
    t = type(node)
    if t is nodes.Name or t is nodes.Attribute:
        d = dotted_name(node)
        return d if d in names else None
    if t is nodes.BinaryOperation:
        return _loss_expr(node.left, names) or _loss_expr(node.right, names)
    if t is nodes.UnaryOperation:
        return _loss_expr(node.expression, names)
    if t is nodes.Call and last_name(node.func) == "scale" and len(node.args) == 1:
        return _loss_expr(node.args[0].value, names)
    return None


def _backward_of(facts: _LoopFacts, names: Set[str]) -> Optional[Tuple[str, nodes.Call]]:
    """A ``backward`` call in the loop's body on one of ``names``: ``loss.backward()``,
    ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``."""
    for n in facts.backwards:
        if last_name(n.func) == "backward" and type(n.func) is nodes.Attribute:
            hit = _loss_expr(n.func.value, names)
            if hit:
                return hit, n
        if n.args and n.args[0].keyword is None:
            hit = _loss_expr(n.args[0].value, names)
            if hit:
                return hit, n
    return None


def _differentiated(scope: _ScopeFacts, root: str) -> bool:
    """Is the accumulator, or a name computed from it, differentiated anywhere in the scope
    (``acc.backward()``, ``torch.stack(losses).sum().backward()``, ``autograd.grad(acc, ...)``)?"""
    if not scope.differentiating:
        return False
    names = {root}
    for _ in range(3):  # names derived from it, a few steps deep
        grew = False
        for read, targets in scope.bindings:
            if _meets(read, names):
                for d in targets:
                    if d not in names:
                        names.add(d)
                        grew = True
        if not grew:
            break
    return any(_meets(read, names) for read in scope.differentiating)


def _rebound_between(loop, name: str, call, stmt, ctx) -> bool:
    """Is ``name`` bound again between its ``backward()`` and the accumulation?"""
    a, b = ctx.text.span(call)[0], ctx.text.span(stmt)[0]
    lo, hi = min(a, b), max(a, b)
    for n in _walk(loop.body):
        t = type(n)
        if t is nodes.Assign or t is nodes.AnnAssign or t is nodes.AugAssign:
            targets = [x.target for x in n.targets] if t is nodes.Assign else [n.target]
            for tgt in targets:
                for sub in _walk(tgt):
                    if type(sub) in (nodes.Name, nodes.Attribute) and dotted_name(sub) == name \
                            and lo < ctx.text.span(n)[0] < hi:
                        return True
    return False


# ---- the no-backward shape: grad mode provably on, a value computed by a model -----------------
_GRAD_OFF_TEXT = ("set_grad_enabled", "requires_grad_(False)", "requires_grad = False",
                  "requires_grad=False", "inference_mode", "_set_grad_enabled")
#: tensor methods whose result keeps the receiver's graph
_KEEPS_GRAPH = frozenset({
    "cpu", "cuda", "to", "float", "double", "half", "squeeze", "unsqueeze", "view", "reshape",
    "flatten", "sigmoid", "softmax", "log_softmax", "exp", "log", "mean", "sum", "abs", "clone",
    "contiguous", "permute", "transpose", "t", "tanh", "relu"})


def _script_grad_on(ctx, facts: _LoopFacts) -> bool:
    """Script-level code (module scope) where nothing in the file turns grad off or freezes a
    parameter, outside any ``no_grad`` block, and a loop body without ``backward``."""
    if type(ctx.scope_node) is not nodes.Module or ctx.inf.in_no_grad or _grad_off_text(ctx):
        return False
    return not facts.any_backward


def _grad_off_text(ctx) -> bool:
    """Does the file's text turn grad off or freeze a parameter anywhere (``_GRAD_OFF_TEXT``)?
    Read once per file: each accumulation asks."""
    hit = ctx.__dict__.get("_accumulate_grad_off")
    if hit is None:
        hit = ctx.__dict__["_accumulate_grad_off"] = any(s in ctx.source for s in _GRAD_OFF_TEXT)
    return hit


def _plain_top(ctx) -> bool:
    """Is the current scope a top-level function without decorators, not ``async``?"""
    scope = ctx.scope_node
    return type(scope) is nodes.FunctionDef and not scope.asynchronous and \
        not scope.decorators and any(s is scope for s in ctx.module.body)


def _called_grad_on(ctx, facts: _LoopFacts) -> bool:
    """A plain top-level function, outside any ``no_grad`` block of its own, with a loop body
    without ``backward``, in a file where nothing turns grad off or freezes a parameter, whose
    every caller in the project is visible and runs it with grad on: each use of its name in
    the file is a call at script level or from a function proven so in turn
    (``accumulate_callers``). That no other file of the project may import the file is asked
    last, by ``check``, once the accumulation would be reported."""
    if ctx.inf.in_no_grad or facts.any_backward or not _plain_top(ctx):
        return False
    name = ctx.scope_node.name.value
    if _grad_off_text(ctx) or ctx.source.count(name + "(") < 2:
        return False  # grad turned off somewhere, or the name is never called in the file
    project = ctx.inf.project
    tree = project.module_tree() if project is not None else None
    if tree is None:
        return False
    return _cached(ctx, "_accumulate_callers", tree,
                   lambda: Uses(tree, ctx.source)).grad_on(name)


def _module_call(kind) -> Optional[bool]:
    """Calling a value of ``kind``: True for a module with parameters, False for one without
    (a loss, an activation: its output has a graph only through its inputs), None for no module."""
    t = type(kind)
    if t is kinds.ModuleOf:  # a container holds the parameters of what it holds
        return any(q.endswith("Sequential") or (torch_api.layer(q) or {}).get("params")
                   for q in kind.quals)
    if kind is kinds.MODULE or (t is kinds.Instance and kind.cls.is_module):
        return True
    return None


def _graph(ctx, expr, graph: Set[str]) -> bool:
    t = type(expr)
    if t is nodes.Name or t is nodes.Attribute:
        return dotted_name(expr) in graph
    if t is nodes.BinaryOperation:
        return _graph(ctx, expr.left, graph) or _graph(ctx, expr.right, graph)
    if t is nodes.UnaryOperation:
        return _graph(ctx, expr.expression, graph)
    if t is nodes.Subscript:
        return _graph(ctx, expr.value, graph)
    if t is not nodes.Call:
        return False
    func = expr.func
    module = _module_call(ctx.infer(func)) if type(func) in (nodes.Name, nodes.Attribute) else None
    if module:
        return True
    args = [a.value for a in expr.args if a.keyword is None and not a.star]
    q = ctx.qualname(func) if type(func) in (nodes.Name, nodes.Attribute) else None
    if module is False or (q is not None and q.startswith("torch.nn.functional.")):
        return any(_graph(ctx, a, graph) for a in args)
    if type(func) is nodes.Attribute and func.attr.value in _KEEPS_GRAPH:
        return _graph(ctx, func.value, graph)
    return False


def _graph_names(ctx, loop, stmt) -> Set[str]:
    """Names bound in the loop's body, before ``stmt``, to a value with a graph made by a model
    call (``out = model(x)``, ``loss = criterion(out, y)``)."""
    graph: Set[str] = set()
    end = ctx.text.span(stmt)[0]
    for n in _walk(loop.body):
        if type(n) is not nodes.Assign or ctx.text.span(n)[0] >= end:
            continue
        has = _graph(ctx, n.value, graph)
        for tgt in n.targets:
            target = tgt.target
            whole = type(target) is nodes.Name
            for sub in _walk(target):
                if type(sub) is nodes.Name:
                    # unpacked (``out, _, ratio = model(data)``): which items carry the graph is
                    # unknown (``ratio`` may be a Python float), so none is taken to
                    (graph.add if has and whole else graph.discard)(sub.value)
    return graph


# ---- fix safety -------------------------------------------------------------------------------
def _stays_local(ctx, acc, root: str) -> bool:
    """A local name of a function whose every read is ``acc.item()`` (besides the accumulations
    and bindings): it never escapes the function. Not ``float(acc)``: on a tensor that requires
    grad it warns ("Converting a tensor with requires_grad=True to a scalar"), and the fix
    would silence that warning (an error under ``-W error``)."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef or type(acc) is not nodes.Name or \
            "global" in ctx.source or "nonlocal" in ctx.source:
        return False
    ok: List[nodes.CSTNode] = []
    made = False
    todo = [scope.body]
    while todo:
        n = todo.pop()
        t = type(n)
        if t is list:
            todo.extend(n)
            continue
        if t in _DEFS and _mentions_anywhere(n, root):
            return False  # a closure reads it
        if t in _DEFS:
            continue
        if t is nodes.Call and not n.args and type(n.func) is nodes.Attribute and \
                n.func.attr.value == "item" and type(n.func.value) is nodes.Name and \
                n.func.value.value == root:
            continue
        if t is nodes.Name and n.value == root:
            ok.append(n)
            continue
        if t in (nodes.Assign, nodes.AugAssign):
            targets = [x.target for x in n.targets] if t is nodes.Assign else [n.target]
            if any(type(x) is nodes.Name and x.value == root for x in targets):
                value = n.value
                found = _accumulation(n)
                if found is None and not closed.fresh(ctx.inf, value):
                    return False  # a view of another tensor, a caller's value (issue 45)
                made = made or found is None
                todo.append(found[1] if found is not None else value)
                continue
        todo.extend(c for c in n.children if c is not None)
    # a bare read left: the only allowed ones are the ``acc`` of ``acc = acc + v``; and it
    # must be made here, not be a parameter (a caller's tensor updated in place)
    return not ok and made


def _mentions_anywhere(node, name: str) -> bool:
    todo = [node]
    while todo:
        n = todo.pop()
        if type(n) is nodes.Name and n.value == name:
            return True
        todo.extend(c for c in n.children if c is not None)
    return False
