"""TEN3xx: copies made in a wasteful order or in two steps."""
from __future__ import annotations

from typing import Iterator

import libcst as cst

from ..inference import dotted_name
from .base import FixCase, SAFE, Example, FixPlan, NodeEdit, Report, Rule

_LIKE = frozenset({"torch.empty_like", "torch.zeros_like", "torch.ones_like"})


class CloneDetach(Rule):
    code = "TEN301"
    name = "clone-then-detach"
    message = "`.clone().detach()` records a clone in the autograd graph only to cut it; use `{fix}`"
    hooks = (cst.Call,)
    fix_safety = SAFE
    what = "Flags `t.clone().detach()` and `torch.clone(t).detach()`."
    why = (
        "When `t` requires grad and grad mode is on, `clone()` first records a `CloneBackward0` "
        "node that `detach()` throws away at once. `t.detach().clone()` gives the identical "
        "result without that work, and it is the spelling the `torch.tensor` documentation and "
        "warning recommend. The time saved is small: on CPU (torch 2.13) about 0.1-0.2 us per "
        "call, and only when `t` requires grad in grad mode; for plain tensors, under `no_grad`, "
        "or for large tensors the two are within noise (see `docs/verification-cpu.md`)."
    )
    use_instead = "`t.detach().clone()` (arguments of `clone`, such as `memory_format`, move with it)."
    fix_doc = (
        "**Safe.** Values, dtype, device, strides, `requires_grad` and `is_leaf` are equal, memory "
        "is not shared with `t` in either form, and `memory_format` behaves the same."
    )
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
        Example("def f(x):\n    return x.clone().detach()\n",
                "def f(x):\n    return x.detach().clone()\n", run=False),
    )
    valid = (
        "import torch\nt = torch.randn(3)\nc = t.detach().clone()\n",
        "import copy\nc = copy.copy(obj).detach\n",
    )

    fix_cases = (
        FixCase("return t.clone().detach()"),
        FixCase("return torch.clone(t).detach()"),
        FixCase("return t.clone(memory_format=torch.channels_last).detach()"),
        FixCase("return t.clone(memory_format=torch.contiguous_format).detach()"),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value != "detach" or node.args:
            return
        inner = func.value
        if type(inner) is not cst.Call or inner.lpar:
            return
        ifunc = inner.func
        if type(ifunc) is not cst.Attribute:
            return
        if ifunc.attr.value == "clone" and ctx.qualname(ifunc) != "torch.clone":
            src = ifunc.value
            args = inner.args
        elif ctx.qualname(ifunc) == "torch.clone" and inner.args and \
                inner.args[0].keyword is None and not inner.args[0].star:
            src = inner.args[0].value
            args = inner.args[1:]
        else:
            return
        if any(a.star for a in args):
            return
        arg_code = "".join(ctx.code(a) for a in args).strip()
        if arg_code.endswith(","):
            arg_code = arg_code[:-1].rstrip()
        text = f"{ctx.operand(src)}.detach().clone({arg_code})"
        fix = FixPlan("swap to `.detach().clone()`", SAFE, [NodeEdit("replace", node, text)])
        shown = f"{ctx.snippet(src, 20)}.detach().clone({'...' if arg_code else ''})"
        yield self.report(node, fix, fix=shown)


class LikeThenCopy(Rule):
    code = "TEN302"
    name = "like-then-copy"
    message = "`{like}({src}).copy_({src})` allocates then copies in two steps; use `{src}.clone()`"
    hooks = (cst.Call,)
    fix_safety = SAFE
    what = "Flags `torch.empty_like(t).copy_(t)` (also `zeros_like`, `ones_like`) with the same `t`."
    why = (
        "Allocating a tensor like `t` and then copying `t` into it is what `t.clone()` does in "
        "one call, with one dispatch and (for `zeros_like`/`ones_like`) without first filling "
        "memory that is overwritten at once. On CPU (torch 2.13) the two-step form measured about "
        "1.2-1.8 times slower for small and medium tensors; at 10^7 elements the difference is "
        "within noise (see `docs/verification-cpu.md`)."
    )
    use_instead = "`t.clone()`."
    fix_doc = (
        "**Safe.** Values, dtype, device, strides, `requires_grad` and the gradients reaching `t` "
        "are identical; only the name of the result's `grad_fn` differs (`CopyBackwards` vs "
        "`CloneBackward0`). Applied only when neither call has extra arguments and `t` is a "
        "name or attribute chain."
    )
    references = ("https://pytorch.org/docs/stable/generated/torch.clone.html",)
    invalid = (
        Example("import torch\nt = torch.randn(3)\nc = torch.empty_like(t).copy_(t)\n",
                "import torch\nt = torch.randn(3)\nc = t.clone()\n"),
        Example("import torch\nt = torch.randn(3, requires_grad=True)\nc = torch.zeros_like(t).copy_(t)\n",
                "import torch\nt = torch.randn(3, requires_grad=True)\nc = t.clone()\n"),
    )
    valid = (
        "import torch\nt = torch.randn(3)\nu = torch.randn(3)\nc = torch.empty_like(t).copy_(u)\n",
        "import torch\nt = torch.randn(3)\nc = torch.empty_like(t, dtype=torch.float64).copy_(t)\n",
        "import torch\nt = torch.randn(3)\nc = torch.empty_like(t).copy_(t, non_blocking=True)\n",
    )

    fix_cases = (
        FixCase("return torch.empty_like(t).copy_(t)"),
        FixCase("return torch.zeros_like(t).copy_(t)"),
        FixCase("return torch.ones_like(t).copy_(t)"),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        func = node.func
        if type(func) is not cst.Attribute or func.attr.value != "copy_":
            return
        if len(node.args) != 1 or node.args[0].keyword or node.args[0].star:
            return
        inner = func.value
        if type(inner) is not cst.Call:
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
        fix = FixPlan(f"replace with `{name}.clone()`", SAFE,
                      [NodeEdit("replace", node, f"{ctx.code(a)}.clone()")])
        yield self.report(node, fix, like=ctx.snippet(inner.func, 30), src=ctx.snippet(a, 30))
