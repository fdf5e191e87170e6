"""TEN2xx: building a "copy" with a constructor."""
from __future__ import annotations

import re
from typing import Dict, Iterator, List, Optional, Tuple

from ..syntax import nodes

from ..semantic.kinds import LEGACY_CONSTRUCTORS, NOT, TENSORS, Iter, evidence, is_tensor, signalled
from ..syntax.nodes import dotted_name
from .base import (CLOSED_WORLD, Claim, FixCase, UNSAFE, Example, FixPlan, NodeEdit, Report, Rule,
                   applicability)


def split_args(node: nodes.Call, data_kw: str = "data"
               ) -> Optional[Tuple[Optional[nodes.BaseExpression], Dict[str, nodes.Arg]]]:
    """(the single data argument, keyword args) or None for shapes we do not handle."""
    positional: List[nodes.BaseExpression] = []
    kwargs: Dict[str, nodes.Arg] = {}
    for arg in node.args:
        if arg.star:
            return None
        if arg.keyword is None:
            positional.append(arg.value)
        else:
            kwargs[arg.keyword.value] = arg
    if data_kw in kwargs and not positional:
        positional.append(kwargs.pop(data_kw).value)
    if len(positional) != 1:
        return None
    return positional[0], kwargs


def _literal_bool(expr: nodes.BaseExpression) -> Optional[bool]:
    if type(expr) is nodes.Name and expr.value in ("True", "False"):
        return expr.value == "True"
    return None


def copy_expression(ctx, src: nodes.BaseExpression, kwargs: Dict[str, nodes.Arg],
                    default_dtype: Optional[str] = None,
                    default_device: Optional[str] = None) -> Optional[str]:
    """``src.detach().clone()`` or ``src.detach().to(dtype=..., device=..., copy=True)``, plus
    ``.pin_memory()`` and ``.requires_grad_(...)`` for those keywords. None if a keyword is not
    understood."""
    if set(kwargs) - {"dtype", "device", "requires_grad", "pin_memory"}:
        return None
    dtype = ctx.code(kwargs["dtype"].value) if "dtype" in kwargs else default_dtype
    device = ctx.code(kwargs["device"].value) if "device" in kwargs else default_device
    text = ctx.operand(src) + ".detach()"
    if dtype is None and device is None:
        text += ".clone()"
    else:
        parts = []
        if dtype is not None:
            parts.append(f"dtype={dtype}")
        if device is not None:
            parts.append(f"device={device}")
        text += ".to(" + ", ".join(parts) + ", copy=True)"
    if "pin_memory" in kwargs:
        flag = _literal_bool(kwargs["pin_memory"].value)
        if flag is None:
            return None
        if flag:
            text += ".pin_memory()"
    if "requires_grad" in kwargs:
        value = kwargs["requires_grad"].value
        flag = _literal_bool(value)
        if flag is None:
            text += f".requires_grad_({ctx.code(value)})"
        elif flag:
            text += ".requires_grad_(True)"
    return text


def copy_edits(ctx, node: nodes.Call, src: nodes.BaseExpression, kwargs: Dict[str, nodes.Arg],
               default_dtype: Optional[str] = None,
               default_device: Optional[str] = None) -> Optional[List[NodeEdit]]:
    """The edits that turn ``node`` into ``copy_expression``'s text while keeping the source's own
    text: the call up to ``src``'s comma becomes ``src.detach().clone(`` / ``.to(``, ``dtype=`` /
    ``device=`` arguments, the comments and line breaks between them and the closing parenthesis
    stay as written, and ``copy=True`` (plus defaults) goes after the last one. None where the
    call has another shape (then the whole call is rewritten, and the engine withholds that fix
    if it would drop a comment)."""
    if set(kwargs) - {"dtype", "device"} or not node.args or node.args[0].value is not src:
        return None
    first, last = node.args[0], node.args[-1]
    extras = []
    if "dtype" not in kwargs and default_dtype is not None:
        extras.append(f"dtype={default_dtype}")
    if "device" not in kwargs and default_device is not None:
        extras.append(f"device={default_device}")
    head: tuple = (*ctx.operand_parts(src), ".detach().")
    if not kwargs and not extras:
        head += ("clone(",)
    elif not kwargs:
        head += ("to(" + ", ".join(extras) + ", copy=True",)
    else:
        head += ("to(",)
    comma = ctx.comma(first)
    if comma is None and len(node.args) == 1 and ctx.simple_whitespace_after(first):
        edits = [NodeEdit("replace", node, head + (")",))]  # nothing after ``src`` to keep
    elif comma is None:
        edits = [NodeEdit("replace", node, head, end=first)]
    elif len(node.args) > 1 and ctx.simple_whitespace_after(comma):
        edits = [NodeEdit("replace", node, head, end=node.args[1], to_start=True)]
    else:
        edits = [NodeEdit("replace", node, head, end=comma)]
    if kwargs:
        more = ", ".join(extras + ["copy=True"])
        last_comma = ctx.comma(last)
        if last_comma is not None:
            edits.append(NodeEdit("replace", last_comma, f" {more},", from_end=True))
        else:
            edits.append(NodeEdit("replace", last, f", {more}", from_end=True))
    return edits


def _tensor_list(ctx, expr: nodes.BaseExpression) -> bool:
    t = type(expr)
    if t is nodes.List or t is nodes.Tuple:
        return bool(expr.elements) and all(
            type(e) is nodes.Element and ctx.is_tensor(e.value) for e in expr.elements)
    kind = ctx.infer(expr)
    return kind is TENSORS or (type(kind) is Iter and is_tensor(kind.elem))


# ---- claims (run by ``tensorcopy verify``; torch arrives through the helper ``v``) ----------
def _tensor_warns(v):
    t = v.leaf(3)
    with v.warnings() as caught:
        v.torch.tensor(t)
    texts = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    # TEN301's reasoning rests on torch recommending `detach().clone()` (not the reverse order):
    # the first idiom after "recommended to use" must be it
    recommended = []
    for m in texts:
        found = re.search(r"recommended to use\s+\w+\.((?:detach|clone)\(\)\.(?:detach|clone)\(\))", m)
        if found:
            recommended.append(found.group(1))
    ok = bool(recommended) and all(r == "detach().clone()" for r in recommended)
    return ok, {"recommended": recommended, "warnings": texts[:1]}


def _tensor_is_detached_copy(v):
    t = v.leaf(3)
    with v.warnings():
        c = v.torch.tensor(t)
    ok = (not c.requires_grad and c.is_leaf and not v.shares_memory(c, t)
          and bool(v.torch.equal(c, t.detach())))
    return ok, {"requires_grad": c.requires_grad, "is_leaf": c.is_leaf,
                "memory_shared": v.shares_memory(c, t)}


def _tensor_device_copy(v):
    """Same dtype, device, values and strides, and no sharing, on several sources; where a GPU is
    present the copy also crosses devices (CPU -> GPU and GPU -> CPU)."""
    torch = v.torch
    g = torch.Generator().manual_seed(0)
    sources = {
        "transposed": lambda d: torch.randn(2, 3, generator=g).to(d).requires_grad_(True).t(),
        "float64": lambda d: torch.randn(3, 2, generator=g, dtype=torch.float64).to(d),
        "int64": lambda d: torch.arange(6).reshape(2, 3).to(d),
        "channels_last": lambda d: torch.randn(1, 2, 3, 3, generator=g).to(d).contiguous(
            memory_format=torch.channels_last),
    }
    pairs = [(v.device, v.device)]
    if v.device != "cpu":
        pairs += [("cpu", v.device), (v.device, "cpu")]
    checked = []
    mismatches = []
    for name, build in sources.items():
        for src_dev, dst_dev in pairs:
            t = build(src_dev)
            with v.warnings():
                a = torch.tensor(t, device=dst_dev)
            b = t.detach().to(dst_dev, copy=True)
            same = {
                "dtype": a.dtype == b.dtype == t.dtype,
                "device": a.device == b.device and a.device.type == torch.device(dst_dev).type,
                "values": bool(torch.equal(a.cpu(), b.cpu())) and bool(torch.equal(a.cpu(), t.detach().cpu())),
                "strides": a.stride() == b.stride(),
                "no_sharing": not v.shares_memory(a, t) and not v.shares_memory(b, t),
            }
            checked.append(f"{name} {src_dev}->{dst_dev}")
            bad = [k for k, ok in same.items() if not ok]
            if bad:
                mismatches.append({"source": f"{name} {src_dev}->{dst_dev}", "differs": bad,
                                   "dtypes": [str(a.dtype), str(b.dtype)],
                                   "strides": [list(a.stride()), list(b.stride())]})
    return not mismatches, {"checked": checked, "mismatches": mismatches}


def _tensor_speed(v):
    def setup(n, rg):
        t = v.torch.randn(n, device=v.device, requires_grad=rg)
        return {"t": t}
    return v.speed_claim("torch.tensor(t)", "t.detach().clone()", setup,
                         scope=[(1, False, False), (1, True, False)],
                         extra=[(n, rg, ng) for n in (1, 1_000, 100_000, 10_000_000)
                                for rg in (True, False) for ng in (False, True)])


def _new_tensor_dtype(v):
    torch = v.torch
    t = torch.tensor([1.7, -2.6], device=v.device)
    with v.warnings():
        a = torch.zeros(1, dtype=torch.float64, device=v.device).new_tensor(t)
        b = torch.zeros(1, dtype=torch.int64, device=v.device).new_tensor(t)
    return a.dtype == torch.float64 and b.dtype == torch.int64 and b.tolist() == [1, -2], {
        "f64_receiver": str(a.dtype), "int64_receiver": str(b.dtype), "int64_values": b.tolist()}


def _new_tensor_device(v):
    torch = v.torch
    x = torch.zeros(1, device=v.device)
    t = torch.ones(2)  # on the CPU
    with v.warnings():
        r = x.new_tensor(t)
    return r.device == x.device, {"receiver": str(x.device), "source": "cpu", "result": str(r.device)}


def _legacy_aliases(v):
    torch = v.torch
    x = torch.ones(3, requires_grad=True)
    a = torch.Tensor(x)
    (a * 2).sum().backward()
    name = type(a.grad_fn).__name__ if a.grad_fn is not None else None
    # version counter: an in-place write to the alias must move `x`'s counter
    before = x._version
    with torch.no_grad():
        a.mul_(1)
    version_shared = x._version != before
    ok = (v.shares_memory(a, x) and name == "AliasBackward0" and x.grad.tolist() == [2.0] * 3
          and version_shared)
    return ok, {"memory_shared": v.shares_memory(a, x), "version_shared": version_shared,
                "grad_fn": name, "x_grad": x.grad.tolist()}


def _legacy_dtype_mismatch(v):
    torch = v.torch
    err = v.error(lambda: torch.FloatTensor(torch.zeros(2, dtype=torch.float64)))
    return err is not None and err.startswith("TypeError"), {"error": err}


def _tensor_list_drops_graph(v):
    torch = v.torch
    a = torch.tensor(1.0, device=v.device, requires_grad=True)
    b = a * 3
    with v.warnings():
        r = torch.tensor([a, b])
    s = torch.stack([a, b])
    s.sum().backward()
    return (not r.requires_grad and r.is_leaf and s.grad_fn is not None
            and a.grad.item() == 4.0), {"tensor_requires_grad": r.requires_grad,
                                        "stack_grad_fn": type(s.grad_fn).__name__,
                                        "a_grad_via_stack": a.grad.item()}


def _tensor_list_syncs(v):
    torch = v.torch
    xs = [torch.tensor(float(i), device=v.device) for i in range(8)]
    torch.cuda.synchronize()
    prev = torch.cuda.get_sync_debug_mode()
    torch.cuda.set_sync_debug_mode(1)
    try:
        with v.warnings() as caught:
            torch.tensor(xs, device=v.device)
        syncs = sum("synchroniz" in str(w.message) for w in caught)
        with v.warnings() as caught2:
            torch.stack(xs)
        syncs_stack = sum("synchroniz" in str(w.message) for w in caught2)
    finally:
        torch.cuda.set_sync_debug_mode(prev)
    return syncs >= len(xs) and syncs_stack == 0, {"elements": len(xs), "syncs_tensor": syncs,
                                                  "syncs_stack": syncs_stack}


def _tensor_list_lands_on_cpu(v):
    """``torch.tensor`` reads each CUDA scalar back and builds the result where the default
    device is (the CPU); ``torch.stack`` keeps it on the GPU."""
    torch = v.torch
    xs = [torch.tensor(float(i), device=v.device) for i in range(4)]
    built, stacked = torch.tensor(xs), torch.stack(xs)
    return (built.device.type == "cpu" and stacked.device.type == "cuda",
            {"tensor_device": str(built.device), "stack_device": str(stacked.device)})


def _tensor_list_speed(v):
    def setup(n, rg):
        xs = [v.torch.tensor(float(i), device=v.device, requires_grad=rg) for i in range(n)]
        return {"xs": xs}
    return v.speed_claim("torch.tensor(xs)", "torch.stack(xs)", setup,
                         scope=[(10, False, False)],
                         extra=[(n, rg, False) for n in (10, 100, 1_000) for rg in (False, True)])


class TensorOfTensor(Rule):
    code = "TEN201"
    name = "tensor-of-tensor"
    message = "`torch.tensor({src})` on a tensor copies it with a UserWarning; use `{fix}`"
    hooks = (nodes.Call,)
    hook_quals = {nodes.Call: frozenset({"torch.tensor"})}
    fix_safety = "sometimes"
    what = "Flags `torch.tensor(t)` where `t` is already a tensor."
    why = (
        "`torch.tensor` is for building tensors from Python data. Given a tensor it makes a "
        "detached copy, exactly like `t.detach().clone()`, but warns (`To copy construct from a "
        "tensor, it is recommended to use sourceTensor.detach().clone()...`), and for small "
        "tensors it is slower (claim `tensor-slower-than-detach-clone`, 1-element tensors; large "
        "ones show no difference). The code also hides its intent: the reader must know that the "
        "graph is dropped."
    )
    use_instead = (
        "`t.detach().clone()`; with `dtype`/`device`: `t.detach().to(dtype=..., device=..., "
        "copy=True)`; with `requires_grad=True`: append `.requires_grad_(True)`."
    )
    fix_doc = (
        "**Safe** only where `t` is " + CLOSED_WORLD + ". Then the rewrite gives equal "
        "values, dtype, device, strides, `requires_grad`, `is_leaf` and no memory sharing. "
        "**Unsafe** where `t` is known a tensor only by a signal (a method only tensors have, a "
        "module's output) or is an instance of a `Tensor` subclass: `torch.tensor(t)` returns "
        "a plain `Tensor`, `t.detach().clone()` keeps the subclass. `.to()` always gets `copy=True`: without it, `.to()` "
        "returns the tensor itself when nothing changes. `pin_memory=True` becomes "
        "`.pin_memory()`, applied before `.requires_grad_()` so the result stays a leaf. Only "
        "the call around the arguments is rewritten: the argument's own text, comments and line "
        "breaks between arguments and the closing parenthesis stay as written (`copy=True` goes "
        "after the last argument). Where a comment cannot be kept, no fix is offered and the "
        "message says so.\n\n"
        "**Unsafe** where the context could make the two differ: `t` is a tensor on the nearest "
        "binding but not on every path that reaches the call (a loop that rebinds it, a `try` "
        "that may stop early, a `global`/`nonlocal` write, a walrus in a comprehension): the "
        "rewrite raises where `t` is not a tensor; inside `with torch.device(...)` or in a file "
        "that calls `torch.set_default_device` (without a `device=` argument): `torch.tensor` "
        "follows the default device, the rewrite keeps `t`'s; with `pin_memory=True` (which "
        "`torch.tensor` refuses for a tensor): the rewrite pins instead of raising."
    )
    #: dtype, shape, values: under a functorch transform (``vmap``), where the two differ
    unsafe_changes = ("raises", "stops_raising", "type", "subclass_method", "dtype", "shape",
                      "values")
    references = (
        "https://pytorch.org/docs/stable/generated/torch.tensor.html",
    )
    invalid = (
        Example("import torch\nt = torch.randn(3)\nc = torch.tensor(t)\n",
                "import torch\nt = torch.randn(3)\nc = t.detach().clone()\n"),
        Example("import torch\nt = torch.randn(3)\nc = torch.tensor(t, dtype=torch.float64)\n",
                "import torch\nt = torch.randn(3)\nc = t.detach().to(dtype=torch.float64, copy=True)\n"),
        Example("import torch\nt = torch.randn(3)\nc = torch.tensor(t, requires_grad=True)\n",
                "import torch\nt = torch.randn(3)\nc = t.detach().clone().requires_grad_(True)\n"),
        # a caller may pass a Tensor subclass: ``torch.tensor`` returns a plain one, the fix
        # keeps the subclass, so an annotated parameter gets an unsafe fix
        Example("import torch as th\n\ndef f(x: th.Tensor):\n    return th.tensor(x + 1, device='cpu')\n",
                "import torch as th\n\ndef f(x: th.Tensor):\n    return (x + 1).detach().to(device='cpu', copy=True)\n",
                unsafe=True, run=False),
    )
    valid = (
        "import torch\nc = torch.tensor([1.0, 2.0])\n",
        "import torch\nimport numpy as np\nc = torch.tensor(np.zeros(3))\n",
        "import torch\nx = torch.zeros(3)\nx = x.tolist()\nc = torch.tensor(x)\n",
        "import torch\n\ndef f(x):\n    return torch.tensor(x)\n",
        "import torch\nx = torch.zeros(3)\nc = torch.tensor(x.shape)\n",
        "import torch\nx = torch.zeros(3)\nc = torch.tensor(x.item())\n",
    )

    fix_cases = (
        FixCase("return torch.tensor(t)", differs=("warning",)),
        FixCase("return torch.tensor(t, dtype=torch.float64)", differs=("warning",)),
        FixCase("return torch.tensor(t, dtype=torch.float16, device=t.device)", differs=("warning",)),
        FixCase("return torch.tensor(t, requires_grad=True)", differs=("warning", "error_message")),
        FixCase("return torch.tensor(t, dtype=torch.float64, requires_grad=True)", differs=("warning",)),
        # comments inside the call are kept, and the fixed code still runs the same
        FixCase("return torch.tensor(\n        t,  # the source\n        # float64 for the solver\n"
                "        dtype=torch.float64,\n    )", differs=("warning",)),
    )

    claims = (
        Claim("tensor-warns", "semantics",
              "`torch.tensor(t)` on a tensor emits a UserWarning whose recommended spelling is "
              "`detach().clone()` (not `clone().detach()`)",
              _tensor_warns),
        Claim("tensor-is-detached-copy", "semantics",
              "`torch.tensor(t)` returns a detached leaf that shares no memory with `t`",
              _tensor_is_detached_copy),
        Claim("tensor-device-equals-to-copy", "semantics",
              "`torch.tensor(t, device=d)` equals `t.detach().to(d, copy=True)` (dtype, device, "
              "values, strides, no sharing; float32 transposed, float64, int64 and channels_last "
              "sources; across devices where a GPU is present)", _tensor_device_copy),
        Claim("tensor-slower-than-detach-clone", "speed",
              "`torch.tensor(t)` is slower than `t.detach().clone()` by at least 5% (the whole 95% "
              "interval) for 1-element tensors, with and without requires_grad; other sizes are "
              "reported, not claimed",
              _tensor_speed),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        if ctx.qualname(node.func) != "torch.tensor":
            return
        parts = split_args(node)
        if parts is None:
            return
        src, kwargs = parts
        if not ctx.is_tensor(src):
            return
        text = copy_expression(ctx, src, kwargs)
        edits = copy_edits(ctx, node, src, kwargs) or [NodeEdit("replace", node, text)]
        # the default device and pinning decide where torch.tensor's copy lands: the rewrite
        # keeps ``t``'s device and drops pinning, the same only where neither can differ
        same_context = not ("device" not in kwargs and ctx.default_device_may_differ()) and not (
            "pin_memory" in kwargs and _literal_bool(kwargs["pin_memory"].value) is not False)
        safety = applicability([ctx.evidence(src)], same_context=same_context)
        fix = FixPlan(f"replace with `{_short(text)}`", safety, edits) if text and safety else None
        yield self.report(node, fix, src=ctx.snippet(src, 30),
                          fix=_short(text) if text else "t.detach().clone()")


class NewTensorOfTensor(Rule):
    code = "TEN202"
    name = "new-tensor-of-tensor"
    message = ("`{recv}.new_tensor({src})` copies `{src}` with `{recv}`'s dtype and device (not "
               "`{src}`'s) and warns; use `{fix}`")
    hooks = (nodes.Call,)
    hook_names = {nodes.Call: frozenset({"new_tensor"})}
    fix_safety = "sometimes"
    what = ("Flags `x.new_tensor(t)` where `t` is already a tensor and `x` is not known to be "
            "something else (an object of a class with its own `new_tensor`).")
    why = (
        "`x.new_tensor(t)` is often described as equivalent to `t.detach().clone()`. It is not: "
        "the result takes `x`'s dtype and device, so a float64 `x` silently turns a float32 `t` "
        "into float64 and an int64 `x` truncates its values. It also warns like `torch.tensor(t)`."
    )
    use_instead = (
        "`t.detach().to(dtype=x.dtype, device=x.device, copy=True)` to keep today's behaviour, or "
        "`t.detach().clone()` if `t`'s own dtype and device were meant."
    )
    fix_doc = (
        "**Safe** only when both `x` and `t` are each " + CLOSED_WORLD + "; and the rewrite "
        "evaluates the same things in the same order: `x` "
        "is a plain name (it is now read twice, after the arguments), and the arguments hold no "
        "walrus and no call other than a torch function or a tensor's own non-in-place method, "
        "so nothing they do can rebind `x`. Then the rewrite spells out `x`'s dtype and device "
        "and results are identical. When `x` is `t` itself it becomes `t.detach().clone()`. "
        "**Unsafe** where `x` is an attribute chain (read once before, twice after: a property "
        "would notice), where `x` is known a tensor only by the `new_tensor` call itself (an "
        "object with its own `new_tensor` raises after the fix), where either is a `Tensor` "
        "subclass instance, or where the arguments could rebind `x`. Other receivers get no fix. "
        "Unsafe also where `t` or `x` is a tensor on the nearest binding but not on every "
        "path that reaches the call (a loop that rebinds it, a `try` that may stop early, "
        "another scope's write)."
    )
    unsafe_changes = ("raises", "stops_raising", "type", "subclass_method", "dtype", "shape",
                      "values")
    references = ("https://pytorch.org/docs/stable/generated/torch.Tensor.new_tensor.html",)
    invalid = (
        Example("import torch\nx = torch.zeros(2, dtype=torch.float64)\nt = torch.randn(2)\nc = x.new_tensor(t)\n",
                "import torch\nx = torch.zeros(2, dtype=torch.float64)\nt = torch.randn(2)\nc = t.detach().to(dtype=x.dtype, device=x.device, copy=True)\n"),
        Example("import torch\nt = torch.randn(2)\nc = t.new_tensor(t)\n",
                "import torch\nt = torch.randn(2)\nc = t.detach().clone()\n"),
        Example("import torch\nt = torch.randn(2)\nc = make().new_tensor(t)\n", None, run=False),
        # ``fac`` may be a factory object with its own ``new_tensor``: at most an unsafe fix
        Example("import torch\n\ndef f(fac, t: torch.Tensor):\n    return fac.new_tensor(t)\n",
                "import torch\n\ndef f(fac, t: torch.Tensor):\n    return t.detach().to(dtype=fac.dtype, device=fac.device, copy=True)\n",
                unsafe=True, run=False),
        # the walrus rebinds ``x`` before the rewrite would read it
        Example("import torch\nx = torch.zeros(2, dtype=torch.float64)\nt = torch.randn(2)\n"
                "c = x.new_tensor((x := t))\n",
                "import torch\nx = torch.zeros(2, dtype=torch.float64)\nt = torch.randn(2)\n"
                "c = (x := t).detach().to(dtype=x.dtype, device=x.device, copy=True)\n",
                unsafe=True, run=False),
    )
    valid = (
        "import torch\nx = torch.zeros(2)\nc = x.new_tensor([1, 2])\n",
        "import torch\n\nclass Factory:\n    def new_tensor(self, t):\n        return t\n\n"
        "t = torch.ones(2)\nc = Factory().new_tensor(t)\n",
        "import torch\nimport numpy as np\nx = torch.zeros(2)\nc = x.new_tensor(np.ones(2))\n",
    )

    fix_cases = (
        FixCase("return x.new_tensor(t)", differs=("warning",)),
        FixCase("return t.new_tensor(t)", differs=("warning",)),
        FixCase("return x.new_tensor(t, dtype=torch.float32)", differs=("warning",)),
        FixCase("return x.new_tensor(\n        t,  # the source\n    )", differs=("warning",)),
    )

    claims = (
        Claim("new-tensor-takes-receiver-dtype", "semantics",
              "`x.new_tensor(t)` takes `x`'s dtype (float64 stays float64, int64 truncates)",
              _new_tensor_dtype),
        Claim("new-tensor-takes-receiver-device", "semantics",
              "`x.new_tensor(t)` is placed on `x`'s device, not `t`'s", _new_tensor_device,
              devices=("cuda",)),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        func = node.func
        if type(func) is not nodes.Attribute or func.attr.value != "new_tensor":
            return
        parts = split_args(node)
        if parts is None:
            return
        src, kwargs = parts
        if not ctx.is_tensor(src):
            return
        recv = func.value
        if evidence(ctx.infer(recv)) == NOT:
            return  # an object's own ``new_tensor`` (a factory), not a tensor's
        recv_name = dotted_name(recv)
        text = None
        edits = None
        same = False
        if recv_name is not None:
            if recv_name == dotted_name(src) and not {"dtype", "device"} & set(kwargs):
                text = copy_expression(ctx, src, kwargs)
                edits = copy_edits(ctx, node, src, kwargs)
                # ``t`` was evaluated twice and is once: the same for a plain name
                same = type(recv) is nodes.Name
            else:
                # ``x`` moves after the arguments and is read twice: the same only for a plain
                # name that nothing in the arguments can rebind or change
                same = type(recv) is nodes.Name and all(
                    _order_free(ctx, a.value) for a in node.args)
                text = copy_expression(ctx, src, kwargs, f"{recv_name}.dtype",
                                       f"{recv_name}.device")
                edits = copy_edits(ctx, node, src, kwargs, f"{recv_name}.dtype",
                                   f"{recv_name}.device")
        safety = applicability([signalled(ctx.evidence(recv)), ctx.evidence(src)],
                               same_evaluation=same)
        fix = FixPlan(f"replace with `{_short(text)}`", safety,
                      edits or [NodeEdit("replace", node, text)]) if text and safety else None
        r, s = ctx.snippet(recv, 20), ctx.snippet(src, 20)
        shown = _short(text) if text else f"{s}.detach().to(dtype={r}.dtype, device={r}.device, copy=True)"
        yield self.report(node, fix, recv=r, src=s, fix=shown)


class LegacyConstructorAlias(Rule):
    code = "TEN203"
    name = "legacy-constructor-alias"
    message = ("`{ctor}({src})` on a tensor is not a copy: it aliases `{src}` (shared memory, "
               "graph kept) or raises on a dtype mismatch; use `{src}` or `{src}.detach().clone()`")
    hooks = (nodes.Call,)
    hook_quals = {nodes.Call: frozenset(LEGACY_CONSTRUCTORS)}
    fix_safety = None
    what = "Flags the legacy constructors `torch.Tensor(t)`, `torch.FloatTensor(t)`... given a tensor."
    why = (
        "Called on a tensor, the legacy typed constructors return an alias: the result shares "
        "memory and the version counter with `t` and is still connected to its autograd graph "
        "(`AliasBackward0`). Code that meant a copy then writes into `t`. With a different dtype "
        "(`torch.FloatTensor(float64_t)`) it raises a `TypeError` instead."
    )
    use_instead = "`t` (if an alias was meant) or `t.detach().clone()` (if a copy was meant)."
    fix_doc = "None: the intent (alias or copy) cannot be told from the code."
    references = ("https://pytorch.org/docs/stable/tensors.html",)
    invalid = (
        Example("import torch\nt = torch.randn(3, requires_grad=True)\nc = torch.Tensor(t)\n"),
        Example("import torch\nt = torch.randn(3)\nc = torch.FloatTensor(t)\n"),
    )
    valid = (
        "import torch\nc = torch.Tensor([1, 2])\n",
        "import torch\nc = torch.FloatTensor(3, 4)\n",
    )

    claims = (
        Claim("legacy-constructor-aliases", "semantics",
              "`torch.Tensor(t)` shares memory and the version counter with `t` and keeps the "
              "graph (`AliasBackward0`)",
              _legacy_aliases, devices=("cpu",)),
        Claim("legacy-constructor-dtype-mismatch", "semantics",
              "`torch.FloatTensor(float64_t)` raises TypeError", _legacy_dtype_mismatch,
              devices=("cpu",)),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        q = ctx.qualname(node.func)
        if q not in LEGACY_CONSTRUCTORS:
            return
        if len(node.args) != 1 or node.args[0].keyword or node.args[0].star:
            return
        src = node.args[0].value
        if not ctx.is_tensor(src):
            return
        yield self.report(node, None, ctor=ctx.snippet(node.func, 30), src=ctx.snippet(src, 30))


class TensorOfTensorList(Rule):
    code = "TEN204"
    name = "tensor-of-tensor-list"
    message = ("`torch.tensor([...])` of tensors drops their autograd graph and reads each one "
               "back as a Python number; use `torch.stack([...])`")
    hooks = (nodes.Call,)
    hook_quals = {nodes.Call: frozenset({"torch.tensor"})}
    fix_safety = UNSAFE
    what = "Flags `torch.tensor([a, b, ...])` or `torch.tensor(list_of_tensors)`."
    why = (
        "`torch.tensor` converts each element to a Python scalar and builds a new leaf: "
        "gradients no longer flow to `a`, `b`... and `backward()` through the result fails or "
        "silently skips them (claim `tensor-list-drops-graph`). On CUDA each element costs a "
        "device synchronisation (claim `tensor-list-syncs-per-element`, checked only where a GPU "
        "is present). For short lists it is also slower on CPU (claim "
        "`tensor-list-slower-than-stack`, 10 elements); for long lists it is not. `torch.stack` "
        "keeps the graph and works on the tensors directly."
    )
    use_instead = "`torch.stack([a, b, ...])`."
    fix_doc = (
        "**Unsafe.** The result keeps the autograd graph (that is the point), and its shape "
        "differs for 1-element 1-d inputs: `torch.tensor([tensor([1.]), tensor([2.])])` has shape "
        "`(2,)`, `torch.stack` gives `(2, 1)`. On CUDA the device changes too: `torch.tensor` of "
        "CUDA tensors builds a CPU tensor, `torch.stack` keeps the result on the GPU (claim "
        "`tensor-list-lands-on-cpu`, measured on an H100). No fix is offered when other "
        "arguments are given."
    )
    unsafe_changes = ("raises", "stops_raising", "type", "requires_grad", "graph", "device",
                      "shape", "values")
    references = ("https://pytorch.org/docs/stable/generated/torch.stack.html",)
    invalid = (
        Example("import torch\na = torch.tensor(1.0, requires_grad=True)\nb = a * 2\nv = torch.tensor([a, b])\n",
                "import torch\na = torch.tensor(1.0, requires_grad=True)\nb = a * 2\nv = torch.stack([a, b])\n",
                unsafe=True),
        Example("import torch\n\ndef f(losses: list[torch.Tensor]):\n    return torch.tensor(losses)\n",
                "import torch\n\ndef f(losses: list[torch.Tensor]):\n    return torch.stack(losses)\n",
                unsafe=True, run=False),
    )
    valid = (
        "import torch\nv = torch.tensor([1.0, 2.0])\n",
        "import torch\na = torch.zeros(())\nv = torch.tensor([a.item(), 2.0])\n",
    )

    fix_cases = (
        # on CUDA ``torch.tensor`` of CUDA scalars builds a CPU tensor; ``torch.stack`` keeps
        # CUDA (measured on an H100, torch 2.11)
        FixCase("return torch.tensor([t.sum(), t.max()])",
                differs=("warning", "requires_grad", "is_leaf", "grad_fn", "grad", "device")),
    )

    claims = (
        Claim("tensor-list-drops-graph", "semantics",
              "`torch.tensor([a, b])` is a leaf without grad; `torch.stack([a, b])` keeps the graph",
              _tensor_list_drops_graph),
        Claim("tensor-list-syncs-per-element", "semantics",
              "on CUDA, `torch.tensor([cuda scalars])` synchronizes once per element; "
              "`torch.stack` does not", _tensor_list_syncs, devices=("cuda",)),
        Claim("tensor-list-lands-on-cpu", "semantics",
              "on CUDA, `torch.tensor([cuda scalars])` builds a CPU tensor; `torch.stack` keeps "
              "the result on the GPU", _tensor_list_lands_on_cpu, devices=("cuda",)),
        Claim("tensor-list-slower-than-stack", "speed",
              "for a list of 10 scalar tensors without requires_grad, `torch.tensor(xs)` is slower "
              "than `torch.stack(xs)` by at least 5% (the whole 95% interval); longer lists and requires_grad are reported, not claimed "
              "(on CPU the order can reverse for long lists)",
              _tensor_list_speed),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        func = node.func
        if ctx.qualname(func) != "torch.tensor":
            return
        parts = split_args(node)
        if parts is None:
            return
        src, kwargs = parts
        if not _tensor_list(ctx, src):
            return
        fix = None
        if not kwargs:
            edits: List[NodeEdit] = []
            torch: Optional[str] = "torch"
            if type(func) is nodes.Attribute and ctx.qualname(func.value) == "torch":
                edits.append(NodeEdit("replace", func.attr, "stack"))
            else:
                torch = ctx.torch_ref(edits)
                edits.append(NodeEdit("replace", func, f"{torch}.stack"))
            if torch is not None:
                fix = FixPlan("replace `torch.tensor` with `torch.stack`", UNSAFE, edits)
        yield self.report(node, fix)


def _order_free(ctx, expr: nodes.CSTNode) -> bool:
    """Can evaluating ``expr`` rebind a name or change a tensor's dtype or device? No walrus, no
    ``yield``/``await``/``lambda``, and every call in it a torch function or a method of a
    tensor: then moving another plain name's evaluation after it changes nothing."""
    t = type(expr)
    if t in (nodes.NamedExpr, nodes.Yield, nodes.Await, nodes.Lambda):
        return False
    if t is nodes.Call:
        func = expr.func
        q = ctx.qualname(func)
        if not ((q is not None and (q == "torch" or q.startswith("torch.")))
                or (type(func) is nodes.Attribute and ctx.is_tensor(func.value)
                    and not func.attr.value.endswith("_"))):
            return False
    return all(_order_free(ctx, c) for c in expr.children)


def _short(text: Optional[str], limit: int = 100) -> str:
    if text is None:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
