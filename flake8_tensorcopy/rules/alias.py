"""TEN4xx: aliases mistaken for copies."""
from __future__ import annotations

from typing import Iterable, Iterator, Optional

from ..syntax import nodes

from ..semantic.kinds import Alias, is_value_write
from ..semantic.storage_flow import backward_after, original_used_after, read_after, \
    swapped_between
from .context import param_names
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
               "write changes `{source}` too; {advice}")
    hooks = (nodes.Call, nodes.Assign, nodes.AugAssign)
    fix_safety = UNSAFE
    what = (
        "Flags an in-place write (`y.add_()`, `y[i] = v`, `y += v`, `nn.init.*_(y)`) to a name "
        "bound to `x.detach()` or `x.data`, when `x` is a plain name (a local or an argument) and "
        "either `y` is then read as a value of its own (returned, passed on, used in an "
        "expression) or the original `x` is used afterwards (read again, or saved by autograd "
        "for a backward that follows: `c = out.detach(); c.zero_(); out.sum().backward()`); and "
        "every in-place write through a name bound to `x.data`, where autograd never sees it."
    )
    why = (
        "`detach()` and `.data` are not copies: the result shares memory with `x`. Writing into "
        "it writes into `x`. With `detach()` the version counter is shared too, so if `x` was saved "
        "for backward, `backward()` raises; with `.data` it does not, and the gradients are "
        "silently wrong.\n\n"
        "A write through a `detach()` alias is not flagged where the write into `x` is the "
        "point: an alias whose source is an attribute of an object (`b = self.buf.detach(); "
        "b.zero_()`: a parameter, buffer or state updated on purpose), and an alias that nothing "
        "reads after the write while nothing uses `x` afterwards either (`p_ = p.detach(); "
        "p_.copy_(avg)` in parameter averaging: a copy written and never read would be dead "
        "code, so the write must be meant for `p`). When `x` is used afterwards, the write "
        "changes a value the code goes on to use (or one autograd saved, and `backward()` "
        "raises): it is flagged, with no fix, since the intent is unclear. A write after `x.data` "
        "was given other storage (`bak = p.data; p.data = p.data.float(); ...; bak.copy_(p.data)`) "
        "no longer reaches `x` and is not flagged. "
        "Precision beats recall here: a mistaken alias of an attribute is missed.\n\n"
        "A write through a `.data` alias is flagged even when it is deliberate (`p_fp32 = "
        "p.data; p_fp32.add_(step)` in an optimizer, `w = module.weight.data; w.mul_(s)`): the "
        "change reaches `x` behind autograd's back (the version counter does not move), which is "
        "the `.data` hazard itself. Such deliberate writes get no fix; write `x` in place under "
        "`torch.no_grad()` instead."
    )
    use_instead = "`y = x.detach().clone()` when `y` is meant to be an independent copy."
    fix_doc = (
        "**Unsafe.** The binding becomes `x.detach().clone()`, so `x` is no longer changed: "
        "that is the intended effect when a copy was meant, and a behaviour change if the alias "
        "was deliberate. Deliberate shapes (above) are never rewritten: the `detach()` ones are "
        "not flagged, the `.data` ones are flagged with no fix. Nor is the binding rewritten "
        "where `x` itself is used after the write (`p32 = p.data; p32.add_(step); "
        "p.data.copy_(p32)`, the fp16 master-weight step of many optimizers): the write reaches "
        "`x` and later code sees it, so a copy would silently stop the program's purpose; such "
        "sites are flagged with no fix (and no `[unsafe fix]` tag)."
    )
    references = ("https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html",)
    invalid = (
        Example("import torch\nx = torch.randn(3)\ny = x.detach()\ny.clamp_(min=0)\nprint(y.sum())\n",
                "import torch\nx = torch.randn(3)\ny = x.detach().clone()\ny.clamp_(min=0)\nprint(y.sum())\n",
                unsafe=True),
        Example("import torch\nx = torch.randn(3)\ny = x.detach()\ny[0] = 0.0\nz = y * 2\n",
                "import torch\nx = torch.randn(3)\ny = x.detach().clone()\ny[0] = 0.0\nz = y * 2\n",
                unsafe=True),
        Example("import torch\n\ndef normalize(x):\n    x = x.detach()\n    x -= x.mean()\n    return x\n",
                "import torch\n\ndef normalize(x):\n    x = x.detach().clone()\n    x -= x.mean()\n    return x\n",
                unsafe=True, run=False),
        # the original is used afterwards (saved by sigmoid for backward): flagged, no fix
        Example("import torch\na = torch.randn(3, requires_grad=True)\nout = a.sigmoid()\n"
                "c = out.detach()\nc.zero_()\nout.sum().backward()\n", None, run=False),
        # a deliberate write through a ``.data`` alias: flagged (autograd never sees it), no fix
        Example("import torch\n\ndef scale(module: torch.nn.Linear, s):\n"
                "    w = module.weight.data\n    w.mul_(s)\n    return w\n", None, run=False),
    )
    valid = (
        "import torch\nx = torch.randn(3)\ny = x.detach().clone()\ny.add_(1)\n",
        "import torch\nmodel = torch.nn.Linear(2, 2)\ny = model(torch.ones(2)).detach()\ny.clamp_(0, 1)\n",
        "import torch\nx = torch.randn(3)\ny = x.detach()\ny = y * 2\ny.add_(1)\n",
        "import torch\nx = torch.randn(3)\ny = x.detach()\nprint(y.requires_grad_(True))\n",
        # deliberate alias writes: in-place parameter averaging, scaling a module's weight
        "import torch\n\ndef average(swa, model, n):\n"
        "    for p_swa, p_model in zip(swa.parameters(), model.parameters()):\n"
        "        p_swa_ = p_swa.detach()\n"
        "        p_swa_.copy_(p_swa_ + (p_model.detach() - p_swa_) / (n + 1))\n",
        "import torch\nx = torch.randn(3)\ny = x.detach()\ny.zero_()\n",
        # a backup of the old storage, restored after ``p.data`` was swapped
        "import torch\np = torch.nn.Parameter(torch.ones(2))\nbak = p.data\n"
        "p.data = p.data.double()\nbak.copy_(p.data)\n",
    )

    fix_cases = (
        FixCase("y = t.detach()\n    y.add_(1)\n    return y",
                differs=("input_values", "input_version", "shares_memory", "vc_shared")),
        # deliberate alias writes (in-place averaging, scaling through .data): no fix, because
        # the copy a fix would bind stops the write from reaching ``t``
        FixCase("t_ = t.detach()\n    t_.copy_(t_ * 0.5 + 1)\n    return t", fixed=False,
                rejected="t_ = t.detach().clone()\n    t_.copy_(t_ * 0.5 + 1)\n    return t"),
        FixCase("w = t.data\n    w.mul_(2)\n    return t", fixed=False,
                rejected="w = t.detach().clone()\n    w.mul_(2)\n    return t"),
        # the fp16 master-weight optimizer step: the update must reach ``t``
        FixCase("p32 = t.data\n    if p32.dtype == torch.float16:\n        p32 = p32.float()\n"
                "    p32.add_(torch.ones_like(p32), alpha=-0.5)\n"
                "    if t.dtype == torch.float16:\n        t.data.copy_(p32)\n    return t",
                fixed=False,
                rejected="p32 = t.detach().clone()\n    if p32.dtype == torch.float16:\n"
                "        p32 = p32.float()\n    p32.add_(torch.ones_like(p32), alpha=-0.5)\n"
                "    if t.dtype == torch.float16:\n        t.data.copy_(p32)\n    return t"),
    )

    claims = (
        Claim("detach-write-reaches-source", "semantics",
              "writing in place into `y = x.detach()` changes `x`", _detach_write_reaches_source),
    )

    def check(self, node, ctx) -> Iterable[Report]:
        """A plain function in front of ``_check``: until a name holds an alias (most files,
        most of the others' calls) it returns at once, without making a generator."""
        if not ctx.inf.aliased:
            return ()
        return self._check(node, ctx)

    def _check(self, node, ctx) -> Iterator[Report]:
        t = type(node)
        target: Optional[nodes.BaseExpression] = None
        if t is nodes.Call:
            func = node.func
            if type(func) is nodes.Attribute and is_value_write(func.attr.value):
                target = func.value
            else:
                q = ctx.qualname(func)
                if q and q.startswith("torch.nn.init.") and q.endswith("_") and node.args:
                    target = node.args[0].value
        elif t is nodes.Assign:
            for tgt in node.targets:
                if type(tgt.target) is nodes.Subscript:
                    target = tgt.target.value
                    break
        elif t is nodes.AugAssign:
            target = node.target
        if type(target) is not nodes.Name:
            return
        kind = ctx.inf.lookup(target.value)
        if type(kind) is not Alias or kind.node is None:
            return
        if swapped_between(ctx.scope_node, kind.node, node, kind.source):
            # ``bak = p.data; p.data = p.data.float(); ...; bak.copy_(p.data)``: ``p`` got other
            # storage after the alias was taken; the write goes to the old one, not to ``p``
            return
        fields = dict(name=target.value, source=kind.source, via=_via(kind.via))
        alias_read = read_after(ctx.scope_node, node, target.value)
        if kind.via == "detach" and not alias_read and "." not in kind.source and \
                not swapped_between(ctx.scope_node, kind.node, node, kind.source, rebound=True) and \
                original_used_after(ctx.scope_node, node, kind.source, kind.node):
            # the alias is never read, but the original is, or autograd saved it for a backward
            # that follows (``c = out.detach(); c.zero_(); out.sum().backward()``): the write
            # changes a value the code goes on to use. Intent is unclear: no fix
            yield self.report(node, None, advice=f"`{kind.source}` is used afterwards; write a "
                              f"clone if a copy was meant", **fields)
            return
        if "." in kind.source or not alias_read:
            # a deliberate write: into an object's state (``w = module.weight.data; w.mul_(s)``),
            # or through an alias that nothing reads afterwards (``p_ = p.detach();
            # p_.copy_(avg)``) while the original is not used afterwards in this scope either:
            # the write only matters because it reaches the source. Through ``detach()`` that is
            # fine; through ``.data`` autograd never sees it: flag, no fix
            if kind.via == "detach":
                return
            yield self.report(node, None, advice=f"autograd does not see it; if the change is "
                              f"meant, write `{kind.source}` in place under `torch.no_grad()`",
                              **fields)
            return
        if kind.source != target.value and read_after(ctx.scope_node, node, kind.source,
                                                      writes=True):
            # ``p32 = p.data; p32.add_(step); p.data.copy_(p32)``: ``p`` is read after the
            # write, which may be the point of it (an fp16 master-weight step); a copy would
            # silently stop the write from reaching ``p``: no rewrite
            yield self.report(node, None, advice=f"`{kind.source}` is read afterwards and sees "
                              f"the change; bind `{kind.source}.detach().clone()` only if a copy "
                              f"was meant", **fields)
            return
        if type(ctx.scope_node) is nodes.FunctionDef and \
                kind.source not in param_names(ctx.scope_node) and not (
                backward_after(ctx.scope_node, node, kind.source, kind.node)
                if kind.source == target.value else
                original_used_after(ctx.scope_node, node, kind.source, kind.node)):
            # the original is this scope's own and neither read again nor saved for a backward
            # that follows (``h = h.detach(); h[:, done] = 0``; ``preds = logits.detach();
            # preds.clamp_(0, 1)`` after the step): the write reaches nothing anyone uses
            return
        fix = FixPlan(f"bind `{kind.source}.detach().clone()`", UNSAFE,
                      [NodeEdit("replace", kind.node, f"{ctx.operand(kind.node_value)}.detach().clone()")])
        yield self.report(node, fix, advice=f"bind `{kind.source}.detach().clone()` if a copy "
                          f"was meant", **fields)


def _via(via: str) -> str:
    return "detach()" if via == "detach" else "data"
