"""TEN4xx: aliases mistaken for copies."""
from __future__ import annotations

from typing import Iterator, Optional

import libcst as cst

from ..inference import Alias, is_value_write
from .base import Claim, FixCase, UNSAFE, Example, FixPlan, NodeEdit, Report, Rule


# ---- claims (run by ``tensorcopy verify``; torch arrives through the helper ``v``) ----------
def _detach_write_reaches_source(v):
    torch = v.torch
    x = torch.zeros(3, device=v.device)
    y = x.detach()
    y.add_(1)  # noqa: TEN401 -- the claim demonstrates the alias
    z = x.detach().clone()
    z.add_(1)
    return x.tolist() == [1.0, 1.0, 1.0], {"x_after_alias_write": x.tolist()}


class AliasWrite(Rule):
    code = "TEN401"
    name = "write-through-alias"
    message = ("`{name}` is `{source}.{via}`, which shares memory with `{source}`: this in-place "
               "write changes `{source}` too; bind `{source}.detach().clone()` if a copy was meant")
    hooks = (cst.Call, cst.Assign, cst.AugAssign)
    fix_safety = UNSAFE
    what = (
        "Flags an in-place write (`y.add_()`, `y[i] = v`, `y += v`, `nn.init.*_(y)`) to a name "
        "bound to `x.detach()` or `x.data`."
    )
    why = (
        "`detach()` and `.data` are not copies: the result shares memory with `x`. Writing into "
        "it writes into `x`. With `detach()` the version counter is shared too, so if `x` was saved "
        "for backward, `backward()` raises; with `.data` it does not, and the gradients are "
        "silently wrong."
    )
    use_instead = "`y = x.detach().clone()` when `y` is meant to be an independent copy."
    fix_doc = (
        "**Unsafe.** The binding becomes `x.detach().clone()`, so `x` is no longer changed: "
        "that is the intended effect when a copy was meant, and a behaviour change if the alias "
        "was deliberate."
    )
    references = ("https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html",)
    invalid = (
        Example("import torch\nx = torch.randn(3)\ny = x.detach()\ny.clamp_(min=0)\n",
                "import torch\nx = torch.randn(3)\ny = x.detach().clone()\ny.clamp_(min=0)\n",
                unsafe=True),
        Example("import torch\nx = torch.randn(3)\ny = x.detach()\ny[0] = 0.0\n",
                "import torch\nx = torch.randn(3)\ny = x.detach().clone()\ny[0] = 0.0\n",
                unsafe=True),
        Example("import torch\n\ndef normalize(x):\n    x = x.detach()\n    x -= x.mean()\n    return x\n",
                "import torch\n\ndef normalize(x):\n    x = x.detach().clone()\n    x -= x.mean()\n    return x\n",
                unsafe=True, run=False),
    )
    valid = (
        "import torch\nx = torch.randn(3)\ny = x.detach().clone()\ny.add_(1)\n",
        "import torch\nmodel = torch.nn.Linear(2, 2)\ny = model(torch.ones(2)).detach()\ny.clamp_(0, 1)\n",
        "import torch\nx = torch.randn(3)\ny = x.detach()\ny = y * 2\ny.add_(1)\n",
        "import torch\nx = torch.randn(3)\ny = x.detach()\nprint(y.requires_grad_(True))\n",
    )

    fix_cases = (
        FixCase("y = t.detach()\n    y.add_(1)\n    return y",
                differs=("input_values", "input_version", "shares_memory", "vc_shared")),
    )

    claims = (
        Claim("detach-write-reaches-source", "semantics",
              "writing in place into `y = x.detach()` changes `x`", _detach_write_reaches_source),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        t = type(node)
        target: Optional[cst.BaseExpression] = None
        if t is cst.Call:
            func = node.func
            if type(func) is cst.Attribute and is_value_write(func.attr.value):
                target = func.value
            else:
                q = ctx.qualname(func)
                if q and q.startswith("torch.nn.init.") and q.endswith("_") and node.args:
                    target = node.args[0].value
        elif t is cst.Assign:
            for tgt in node.targets:
                if type(tgt.target) is cst.Subscript:
                    target = tgt.target.value
                    break
        elif t is cst.AugAssign:
            target = node.target
        if type(target) is not cst.Name:
            return
        kind = ctx.inf.lookup(target.value)
        if type(kind) is not Alias or kind.node is None:
            return
        fix = FixPlan(f"bind `{kind.source}.detach().clone()`", UNSAFE,
                      [NodeEdit("replace", kind.node, f"{ctx.operand(kind.node_value)}.detach().clone()")])
        yield self.report(node, fix, name=target.value, source=kind.source, via=_via(kind.via))


def _via(via: str) -> str:
    return "detach()" if via == "detach" else "data"
