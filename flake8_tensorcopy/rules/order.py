"""TEN3xx: copies made in a wasteful order or in two steps."""
from __future__ import annotations

from typing import Iterator, Optional

from ..syntax import nodes

from ..semantic.kinds import NOT, evidence, signalled
from ..syntax.nodes import dotted_name
from .base import (CLOSED_WORLD, Claim, FixCase, SAFE, UNSAFE, Example, FixPlan, NodeEdit, Report, Rule, Src,
                   applicability)
from .data import data_evidence, drop_data, swap_clone_detach

#: ``torch.clone(t)`` and the unbound method ``torch.Tensor.clone(t)``: the source is the argument
_CLONE_FUNCTIONS = frozenset({"torch.clone", "torch.Tensor.clone"})

_LIKE = frozenset({"torch.empty_like", "torch.zeros_like", "torch.ones_like"})


# ---- claims (run by ``tensorcopy verify``; torch arrives through the helper ``v``) ----------
def _clone_records_node(v):
    t = v.leaf(3)
    c = t.clone()
    name = type(c.grad_fn).__name__ if c.grad_fn is not None else None
    d = c.detach()
    return name == "CloneBackward0" and d.grad_fn is None and not d.requires_grad, {
        "clone_grad_fn": name, "after_detach": None if d.grad_fn is None else "kept"}


def _clone_detach_speed(v):
    def setup(n, rg):
        return {"t": v.torch.randn(n, device=v.device, requires_grad=rg)}
    return v.speed_claim("t.clone().detach()", "t.detach().clone()", setup,
                         scope=[(1, True, False), (1_000, True, False)],
                         extra=[(n, rg, ng) for n in (1, 1_000, 100_000, 10_000_000)
                                for rg in (True, False) for ng in (False, True)])


def _like_copy_grad(v):
    """Contiguous, transposed (non-contiguous) and channels_last sources: same strides, same
    gradients reaching the source."""
    torch = v.torch
    g = torch.Generator().manual_seed(0)
    sources = {
        "contiguous": lambda: torch.randn(4, 3, generator=g),
        "transposed": lambda: torch.randn(3, 4, generator=g).t(),
        "channels_last": lambda: torch.randn(2, 3, 4, 5, generator=g).contiguous(
            memory_format=torch.channels_last),
    }
    measured = {}
    ok = True
    for name, build in sources.items():
        base = build().to(v.device)
        a = base.detach().requires_grad_(True)  # a leaf with the source's strides
        b = base.detach().clone().requires_grad_(True)  # its twin (clone keeps the strides)
        x = torch.empty_like(a).copy_(a)
        y = b.clone()
        (x * x).sum().backward()
        (y * y).sum().backward()
        same = (x.stride() == y.stride() == a.stride()
                and bool(torch.equal(a.grad, b.grad)) and a.grad.stride() == b.grad.stride())
        ok = ok and same
        measured[name] = {"strides": [list(x.stride()), list(y.stride())],
                          "grad_fn": [type(x.grad_fn).__name__, type(y.grad_fn).__name__],
                          "grads_equal": bool(torch.equal(a.grad, b.grad))}
    return ok, measured


def _like_copy_speed(v):
    def setup(n, rg):
        return {"t": v.torch.randn(n, device=v.device, requires_grad=rg)}
    return v.speed_claim("torch.empty_like(t).copy_(t)", "t.clone()", setup,
                         scope=[(1, False, False), (1_000, False, False)],
                         extra=[(n, rg, ng) for n in (1, 1_000, 100_000, 10_000_000)
                                for rg in (True, False) for ng in (False, True)])


class CloneDetach(Rule):
    code = "TEN301"
    name = "clone-then-detach"
    message = "`.clone().detach()` {cost}; use `{fix}`"
    #: what the chain costs, by the kind of source
    COST = "clones through autograd first (a graph node that is then dropped when the source requires grad)"
    COST_DATA = ("of `.data`: `.data` never requires grad, so `.detach()` adds nothing, and the "
                 "`.data` read bypasses autograd (TEN101)")
    hooks = (nodes.Call,)
    hook_names = {nodes.Call: frozenset({"detach"})}
    fix_safety = "sometimes"
    what = ("Flags `t.clone().detach()`, `torch.clone(t).detach()` and "
            "`torch.Tensor.clone(t).detach()`, unless `t` is known to be something else than a "
            "tensor (an array, a list, an object of a class with its own `clone`). "
            "On `t.data.clone().detach()` its message and its fix agree with the `.data` "
            "rule's: the chain becomes `t.detach().clone()`.")
    why = (
        "When `t` requires grad and grad mode is on, `clone()` first records a `CloneBackward0` "
        "node that `detach()` throws away at once. `t.detach().clone()` gives the identical "
        "result without that work, and it is the spelling the `torch.tensor` documentation and "
        "warning recommend. The time saved is small and narrow: `tensorcopy verify` claims it "
        "(`detach-clone-faster-when-rg`) only for sources that require grad in grad mode, at 1 and "
        "1,000 elements. For plain tensors, under `no_grad` or for large tensors it makes no "
        "claim; there the report shows no difference or a small one (see "
        "`docs/verification-cpu.md` for every size measured)."
    )
    use_instead = "`t.detach().clone()` (arguments of `clone`, such as `memory_format`, move with it)."
    fix_doc = (
        "**Safe** only where `t` is " + CLOSED_WORLD + ". Then values, dtype, device, strides, "
        "`requires_grad` and `is_leaf` are equal, memory is not shared with `t` in either form, "
        "and `memory_format` behaves the same. Where the shape is the only evidence (an "
        "unannotated parameter, no torch import) the fix is **unsafe**: a class with its own "
        "`clone`/`detach` (torch_geometric's `Data.detach()` changes the object in place) "
        "behaves differently when the two calls swap. So is it for an instance of a `Tensor` "
        "subclass (its own `clone` then runs on a different value) and for the unbound "
        "`torch.Tensor.clone(t)`, which bypasses a subclass's `clone` where the rewrite does "
        "not. `super().clone().detach()` gets no fix: the rewrite would run the subclass's own "
        "`clone`. The fix "
        "swaps the two names in place and moves `clone`'s parentheses as written, so comments, "
        "line breaks and a multi-line chain stay as they are; where a comment cannot be kept "
        "(`torch.clone(t  # why\n, ...)`) no fix is offered and the message says so. "
        "**Unsafe** where `t` is a tensor on the nearest binding but not on every path that "
        "reaches the call (a loop that rebinds it, a `try` that may stop early, another scope's "
        "write): the two forms differ on what is not a tensor."
    )
    unsafe_changes = ("raises", "stops_raising", "subclass_method", "values", "output")
    references = (
        "https://pytorch.org/docs/stable/generated/torch.tensor.html",
        "https://github.com/pytorch/pytorch/issues/64532",
    )
    invalid = (
        Example("import torch\nt = torch.randn(3, requires_grad=True)\nc = t.clone().detach()\n",
                "import torch\nt = torch.randn(3, requires_grad=True)\nc = t.detach().clone()\n"),
        Example("import torch\nt = torch.randn(1, 3, 4, 4)\nc = t.clone(memory_format=torch.channels_last).detach()\n",
                "import torch\nt = torch.randn(1, 3, 4, 4)\nc = t.detach().clone(memory_format=torch.channels_last)\n"),
        Example("import torch\nt = torch.randn(3)\nc = torch.clone(t).detach()\n",
                "import torch\nt = torch.randn(3)\nc = t.detach().clone()\n"),
        # the shape is the only evidence that ``x`` is a tensor: an unsafe fix
        Example("def f(x):\n    return x.clone().detach()\n",
                "def f(x):\n    return x.detach().clone()\n", unsafe=True, run=False),
        Example("import torch\nt = torch.randn(3)\nc = torch.Tensor.clone(t).detach()\n",
                "import torch\nt = torch.randn(3)\nc = t.detach().clone()\n", unsafe=True),
        Example("import torch\n\nclass Sub(torch.Tensor):\n    def copy(self):\n"
                "        return super().clone().detach()\n", None, run=False),
    )
    valid = (
        "import torch\nt = torch.randn(3)\nc = t.detach().clone()\n",
        "import copy\nc = copy.copy(obj).detach\n",
        "import numpy as np\na = np.ma.masked_array(np.arange(3.0))\nc = a.clone().detach()\n",
        "import torch\n\nclass Graph:\n    def clone(self):\n        return Graph()\n\n"
        "    def detach(self):\n        return self\n\ng = Graph().clone().detach()\n",
    )

    fix_cases = (
        FixCase("return t.clone().detach()"),
        FixCase("return torch.clone(t).detach()"),
        FixCase("return t.clone(memory_format=torch.channels_last).detach()"),
        FixCase("return t.clone(memory_format=torch.contiguous_format).detach()"),
        # comments and a multi-line chain are kept as written
        FixCase("return t.clone(\n        memory_format=torch.contiguous_format,  # why\n    ).detach()"),
        FixCase("return (t.sum(dim=0)\n        .clone()  # a copy\n        .detach())"),
    )

    claims = (
        Claim("clone-records-then-detach-drops", "semantics",
              "`t.clone()` of a tensor that requires grad records `CloneBackward0`, which "
              "`.detach()` then drops", _clone_records_node),
        Claim("detach-clone-faster-when-rg", "speed",
              "`t.clone().detach()` is slower than `t.detach().clone()` by at least 5% (the whole 95% "
              "interval) when `t` requires grad in grad mode, for 1 and 1,000 elements; elsewhere no difference is claimed",
              _clone_detach_speed),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        func = node.func
        if type(func) is not nodes.Attribute or func.attr.value != "detach" or node.args:
            return
        inner = func.value
        if type(inner) is not nodes.Call or ctx.parenthesized(inner):
            return
        ifunc = inner.func
        if type(ifunc) is not nodes.Attribute:
            return
        q = ctx.qualname(ifunc)
        if ifunc.attr.value == "clone" and q not in _CLONE_FUNCTIONS:
            src = ifunc.value
            args = inner.args
        elif q in _CLONE_FUNCTIONS and inner.args and \
                inner.args[0].keyword is None and not inner.args[0].star:
            src = inner.args[0].value
            args = inner.args[1:]
        else:
            return
        if any(a.star for a in args):
            return
        if evidence(ctx.infer(src)) == NOT:
            return  # an array, a list, an object with its own ``clone``/``detach``
        # ``x.data.clone().detach()`` of a tensor ``x``: no graph node is ever recorded for
        # ``x.data``; the fix (the same as TEN101's) composes into ``x.detach().clone()``
        of_data = type(src) is nodes.Attribute and src.attr.value == "data" and \
            data_evidence(ctx, src)
        shown_src = src.value if of_data else src
        if src is ifunc.value:
            # ``X.clone(ARGS).detach()``: swap the two names and move ``(ARGS)`` verbatim (its
            # comments and line breaks too); ``X`` and the layout of the chain stay as they are
            edits = swap_clone_detach(inner, node)
            if of_data:
                edits.insert(0, drop_data(src))
        else:
            # ``torch.clone(X, ARGS).detach()``: ``X`` and the text after its comma are kept
            first = inner.args[0]
            comma = ctx.comma(first)
            if comma is None:
                rest = Src(first, end=inner, from_end=True)
            elif args and ctx.simple_whitespace_after(comma):
                rest = Src(args[0], end=inner)
            else:
                rest = Src(comma, end=inner, from_end=True)
            edits = [NodeEdit("replace", node, (*ctx.operand_parts(shown_src), ".detach().clone(",
                                                rest))]
        safety = applicability([signalled(ctx.evidence(shown_src))])
        if safety == SAFE and q == "torch.Tensor.clone":
            # the unbound call runs ``Tensor.clone`` itself, bypassing a subclass's own; the
            # rewrite dispatches on the value's class (a proof of "tensor" admits subclasses)
            safety = UNSAFE
        fix = FixPlan("swap to `.detach().clone()`", safety, edits) if safety else None
        shown = f"{ctx.snippet(shown_src, 20)}.detach().clone({'...' if args else ''})"
        yield self.report(node, fix, fix=shown, cost=self.COST_DATA if of_data else self.COST)




class LikeThenCopy(Rule):
    code = "TEN302"
    name = "like-then-copy"
    message = "`{like}({src}).copy_({src})` allocates then copies in two steps; use `{src}.clone()`"
    hooks = (nodes.Call,)
    hook_names = {nodes.Call: frozenset({"copy_"})}
    fix_safety = "sometimes"
    what = ("Flags `torch.empty_like(t).copy_(t)` (also `zeros_like`, `ones_like`) with the same "
            "`t`, in one expression or in two statements in a row (`out = torch.empty_like(t)` "
            "then `out.copy_(t)`), unless `t` is known not to be a tensor (an array, an object).")
    why = (
        "Allocating a tensor like `t` and then copying `t` into it is what `t.clone()` does in "
        "one call, with one dispatch and (for `zeros_like`/`ones_like`) without first filling "
        "memory that is overwritten at once. `tensorcopy verify` claims the two-step form is "
        "slower (`like-copy-slower-than-clone`) at 1 and 1,000 elements; other sizes are "
        "reported in `docs/verification-cpu.md`, where large tensors show no difference."
    )
    use_instead = "`t.clone()`."
    fix_doc = (
        "**Safe** only where `t` is a plain name, " + CLOSED_WORLD + ". Then values, dtype, device, strides, `requires_grad` and the "
        "gradients reaching `t` are identical; only the name of the result's `grad_fn` differs "
        "(`CopyBackwards` vs `CloneBackward0`). **Unsafe** where `t` is known only by the shape "
        "(an unannotated parameter), is an instance of a `Tensor` subclass (its own `clone` "
        "runs where `empty_like` and `copy_` ran), or is an attribute chain (`self.buf`: read "
        "twice before, once after; a property would notice). Applied only when neither call has "
        "extra arguments and `t` is a name or attribute chain. `copy_`'s parentheses stay, so a comment in them is kept; a "
        "comment inside `empty_like(...)` cannot be, and then no fix is offered (the message "
        "says so). **Unsafe** when `t` is an attribute chain (`self.buf`: the rewrite reads it "
        "once where the original read it twice, and a property runs once less) or when `t` is "
        "a tensor on the nearest binding but not on every path that reaches the call. The "
        "two-statement form gets no fix (the message names `t.clone()`)."
    )
    unsafe_changes = ("raises", "stops_raising", "subclass_method", "output")
    references = ("https://pytorch.org/docs/stable/generated/torch.clone.html",)
    invalid = (
        Example("import torch\nt = torch.randn(3)\nc = torch.empty_like(t).copy_(t)\n",
                "import torch\nt = torch.randn(3)\nc = t.clone()\n"),
        Example("import torch\nt = torch.randn(3, requires_grad=True)\nc = torch.zeros_like(t).copy_(t)\n",
                "import torch\nt = torch.randn(3, requires_grad=True)\nc = t.clone()\n"),
        # two statements in a row: flagged, no fix
        Example("import torch\nv = torch.randn(3)\nout = torch.empty_like(v)\nout.copy_(v)\n", None),
        Example("import torch\n\ndef f(t):\n    return torch.empty_like(t).copy_(t)\n",
                "import torch\n\ndef f(t):\n    return t.clone()\n", unsafe=True, run=False),
    )
    valid = (
        "import torch\nt = torch.randn(3)\nu = torch.randn(3)\nc = torch.empty_like(t).copy_(u)\n",
        "import torch\nt = torch.randn(3)\nc = torch.empty_like(t, dtype=torch.float64).copy_(t)\n",
        "import torch\nt = torch.randn(3)\nc = torch.empty_like(t).copy_(t, non_blocking=True)\n",
        # something happens between the two statements, or another tensor is copied
        "import torch\nv = torch.randn(3)\nout = torch.zeros_like(v)\nout[0] = 1.0\nout.copy_(v)\n",
        "import torch\nv = torch.randn(3)\nw = torch.randn(3)\nout = torch.zeros_like(v)\nout.copy_(w)\n",
        "import numpy as np\nimport torch\nw = np.zeros(3)\nc = torch.empty_like(w).copy_(w)\n",
    )

    fix_cases = (
        FixCase("return torch.empty_like(t).copy_(t)"),
        FixCase("return torch.zeros_like(t).copy_(t)"),
        FixCase("return torch.ones_like(t).copy_(t)"),
        FixCase("return torch.empty_like(t).copy_(  # two-step copy\n        t\n    )"),
    )

    claims = (
        Claim("like-copy-same-gradients", "semantics",
              "`torch.empty_like(t).copy_(t)` and `t.clone()` give the same strides and the same "
              "gradients to `t` (contiguous, transposed and channels_last `t`)", _like_copy_grad),
        Claim("like-copy-slower-than-clone", "speed",
              "`torch.empty_like(t).copy_(t)` is slower than `t.clone()` by at least 5% (the whole "
              "95% interval) for 1 and 1,000 elements",
              _like_copy_speed),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        func = node.func
        if type(func) is not nodes.Attribute or func.attr.value != "copy_":
            return
        if len(node.args) != 1 or node.args[0].keyword or node.args[0].star:
            return
        inner = func.value
        if type(inner) is nodes.Name:
            yield from self._two_statements(node, inner, ctx)
            return
        if type(inner) is not nodes.Call:
            return
        like = ctx.qualname(inner.func)
        if like not in _LIKE:
            return
        if len(inner.args) != 1 or inner.args[0].keyword or inner.args[0].star:
            return
        a, b = inner.args[0].value, node.args[0].value
        name = dotted_name(a)
        if name is None or name != dotted_name(b):
            return
        if evidence(ctx.infer(a)) == NOT:
            return  # an array or an object: ``empty_like`` raises on it, ``.clone()`` may not
        # ``t`` was evaluated twice and is evaluated once: the same only for a plain name
        safety = applicability([signalled(ctx.evidence(a))],
                               same_evaluation=type(a) is nodes.Name)
        # ``torch.empty_like(t).copy_`` becomes ``t.clone``; ``copy_``'s own parentheses stay
        # (with any comment in them) and only its argument goes, with its line if it had one
        edits = [NodeEdit("replace", func, f"{ctx.code(a)}.clone"),
                 NodeEdit("replace", node.args[0], "", eat_line=True,
                          end=ctx.comma(node.args[0]))]
        fix = FixPlan(f"replace with `{name}.clone()`", safety, edits) if safety else None
        yield self.report(node, fix, like=ctx.snippet(inner.func, 30), src=ctx.snippet(a, 30))

    def _two_statements(self, node: nodes.Call, out: nodes.Name, ctx) -> Iterator[Report]:
        """``out = torch.empty_like(v)`` right before the statement ``out.copy_(v)``."""
        line = ctx.stmt_line
        if line is None or len(line.body) != 1 or type(line.body[0]) is not nodes.Expr or \
                line.body[0].value is not node:
            return
        if len(node.args) != 1 or node.args[0].keyword or node.args[0].star:
            return
        src = node.args[0].value
        name = dotted_name(src)
        if name is None:
            return
        prev = _previous_statement(ctx.scope_node, line)
        if type(prev) is not nodes.SimpleStatementLine or len(prev.body) != 1:
            return
        bind = prev.body[0]
        if type(bind) is not nodes.Assign or len(bind.targets) != 1:
            return
        target, value = bind.targets[0].target, bind.value
        if type(target) is not nodes.Name or target.value != out.value or \
                type(value) is not nodes.Call:
            return
        like = ctx.qualname(value.func)
        if like not in _LIKE or len(value.args) != 1 or value.args[0].keyword or \
                value.args[0].star or dotted_name(value.args[0].value) != name:
            return
        yield self.report(node, None, like=ctx.snippet(value.func, 30), src=ctx.snippet(src, 30))


def _previous_statement(scope: nodes.CSTNode, stmt: nodes.CSTNode) -> Optional[nodes.CSTNode]:
    """The statement just before ``stmt`` in the block that holds it (None: the first one, or
    not found). Searched from ``scope`` (a function or the module) down, skipping nested
    definitions, so the cost is one walk of the scope for each (rare) ``name.copy_(...)``."""
    todo = [scope]
    while todo:
        node = todo.pop()
        body = getattr(node, "body", None)
        if type(body) in (list, tuple):
            for i, child in enumerate(body):
                if child is stmt:
                    return body[i - 1] if i else None
        for child in node.children:
            if isinstance(child, (nodes.SimpleStatementLine, nodes.Expr)):
                continue
            if child is not scope and type(child) in (nodes.FunctionDef, nodes.ClassDef):
                continue
            todo.append(child)
    return None
