"""TEN403: a slice write that reads the memory it writes."""
from __future__ import annotations

import ast
from typing import Iterable, Iterator, List, Optional, Tuple

from ..semantic import ints, region_compare, regions, storage_flow
from ..semantic.view_helpers import property_view, returned_view
from ..semantic.kinds import EMPTY_LIST, TENSORS, Iter, Seq, is_tensor
from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..syntax.overlap_shapes import WRITING as WRITING_METHODS, WRITING_ARGS
from .accumulate_graph import callee
from .overlap_values import LocalValues
from .overlap_conversions import conversion_words, equal_lengths, reshaped, through_detach
from .context import cached
from .base import CLOSED_WORLD, Claim, FixCase, SAFE, UNSAFE, Example, FixPlan, NodeEdit, \
    Report, Rule, Src, applicability

_UNSUPPORTED = "unsupported operation"


# ---- claims (run by ``tensorcopy verify``; torch arrives through the helper ``v``) ----------
def _column_shift_silently_wrong(v):
    """A (3, 5) window shifted right by one column: the overlapping write differs from the
    cloned one (and raises nothing), read directly or through ``.view_as(x[:, 1:])``; the
    cloned write is the intended shift."""
    torch = v.torch
    x = torch.arange(15.0, device=v.device).reshape(3, 5)
    y = x.clone()
    want = x.clone()
    want[:, 1:] = torch.stack([x[:, i] for i in range(4)], dim=1)
    z = x.clone()
    x[:, 1:] = x[:, :-1]  # noqa: TEN403 -- the claim demonstrates the overlap
    y[:, 1:] = y[:, :-1].clone()
    # read through ``view_as`` of the written view: the same elements, as wrong
    z[:, 1:] = z[:, :-1].view_as(z[:, 1:])  # noqa: TEN403 -- the claim demonstrates it
    holds = not bool(torch.equal(x, y)) and bool(torch.equal(y, want)) and \
        not bool(torch.equal(z, y))
    return holds, {"overlapping_row0": x[0].tolist(), "cloned_row0": y[0].tolist(),
                   "view_as_row0": z[0].tolist()}


def _augmented_shift_silently_wrong(v):
    """``x[:, 1:] += x[:, :-1]`` reads elements it has already updated; so do the in-place
    methods written out (``x[:, 1:].mul_(x[:, :-1])``), ``lerp_``, and ``addcmul_`` and
    ``addcdiv_`` through either tensor they read."""
    torch = v.torch
    x = torch.arange(15.0, device=v.device).reshape(3, 5)
    y = x.clone()
    x[:, 1:] += x[:, :-1]  # noqa: TEN403 -- the claim demonstrates the overlap
    y[:, 1:] += y[:, :-1].clone()
    m = torch.arange(1.0, 16.0, device=v.device).reshape(3, 5)
    n = m.clone()
    m[:, 1:].mul_(m[:, :-1])  # noqa: TEN403 -- the claim demonstrates the overlap
    n[:, 1:].mul_(n[:, :-1].clone())
    a = torch.arange(15.0, device=v.device).reshape(3, 5)
    b = a.clone()
    a[:, 1:].lerp_(a[:, :-1], 0.5)  # noqa: TEN403 -- the claim demonstrates the overlap
    b[:, 1:].lerp_(b[:, :-1].clone(), 0.5)
    c = torch.arange(1.0, 16.0, device=v.device).reshape(3, 5)
    d = c.clone()
    w = torch.full_like(c, 2.0)
    c[:, 2:].addcmul_(c[:, :-2], w[:, 2:])  # noqa: TEN403 -- the claim demonstrates the overlap
    d[:, 2:].addcmul_(d[:, :-2].clone(), w[:, 2:])
    e = torch.arange(1.0, 16.0, device=v.device).reshape(3, 5)
    f = e.clone()
    e[:, 1:].addcdiv_(w[:, 1:], e[:, :-1])  # noqa: TEN403 -- the claim demonstrates the overlap
    f[:, 1:].addcdiv_(w[:, 1:], f[:, :-1].clone())
    ok = not bool(torch.equal(x, y)) and not bool(torch.equal(m, n)) and \
        not bool(torch.equal(a, b)) and not bool(torch.equal(c, d)) and \
        not bool(torch.equal(e, f))
    return ok, {"overlapping_row0": x[0].tolist(), "cloned_row0": y[0].tolist(),
                "mul_overlapping_row0": m[0].tolist(), "mul_cloned_row0": n[0].tolist(),
                "lerp_overlapping_row0": a[0].tolist(), "lerp_cloned_row0": b[0].tolist(),
                "addcmul_overlapping_row0": c[0].tolist(), "addcmul_cloned_row0": d[0].tolist(),
                "addcdiv_overlapping_row0": e[0].tolist(), "addcdiv_cloned_row0": f[0].tolist()}


def _cuda_shifts_differ(v):
    """On CUDA a small window can come out right, but on a (64, 4096) tensor both the right and
    the left column shift differ from the cloned write in some elements, run after run."""
    torch = v.torch
    wrong = {"right": [], "left": []}
    for _ in range(3):
        for side, (dst, src) in (("right", (slice(1, None), slice(None, -1))),
                                 ("left", (slice(None, -1), slice(1, None)))):
            x = torch.arange(64.0 * 4096, device=v.device).reshape(64, 4096)
            y = x.clone()
            x[:, dst] = x[:, src]  # noqa: TEN403 -- the claim demonstrates the overlap
            y[:, dst] = y[:, src].clone()
            wrong[side].append(int((x != y).sum()))
    return all(n > 0 for ns in wrong.values() for n in ns), {
        "wrong_of_262144_right": wrong["right"], "wrong_of_262144_left": wrong["left"]}


def _first_dim_shift_raises(v):
    """Along the first dimension (and in 1-d) torch detects the overlap and raises."""
    torch = v.torch
    measured = {}
    ok = True
    for shape in ((5,), (4, 3)):
        x = torch.arange(float(shape[0] * (shape[1] if len(shape) > 1 else 1)),
                         device=v.device).reshape(shape)
        try:
            x[1:] = x[:-1]  # noqa: TEN403 -- the claim demonstrates the overlap
            measured[str(shape)] = "no error"
            ok = False
        except RuntimeError as exc:
            measured[str(shape)] = str(exc).split("\n")[0][:100]
            ok = ok and _UNSUPPORTED in str(exc)
        y = torch.arange(float(x.numel()), device=v.device).reshape(shape)
        try:
            y[1:] = y[:-1].clone()  # the fix: no error
        except RuntimeError as exc:
            measured[f"{shape} cloned"] = str(exc).split("\n")[0][:100]
            ok = False
    return ok, measured


class OverlappingSliceWrite(Rule):
    code = "TEN403"
    name = "overlapping-slice-write"
    message = ("`{dst}` is written from `{src}`, an overlapping view of the same tensor{via}: the "
               "result is undefined (silently wrong along a non-contiguous dimension, an error "
               "along others); read `{src}.clone()`")
    hooks = (nodes.Assign, nodes.AugAssign, nodes.Call, nodes.Expr)
    hook_names = {nodes.Call: WRITING_METHODS}  # ``x[a].copy_(x[b])``; writes: any
    fix_safety = SAFE
    what = (
        "Flags a write into a basic-slice view of a tensor (`x[:, 1:] = ...`, `x[..., 1:] += "
        "...`, `x[:, 1:].copy_(...)`, `x[:, 1:].add_(...)` and the other in-place methods an "
        "augmented assignment runs, `x[:, 1:].lerp_(..., w)`, `x[:, 1:].addcmul_(g, ...)` and "
        "`addcdiv_` (either tensor read), each item of a tuple assignment; "
        "`x.narrow(0, 0, n - "
        "1).copy_(x.narrow(0, 1, n - 1))`, read as the slices it selects, `narrow(-1, ...)` "
        "from the last dimension) whose source is an "
        "overlapping basic-slice view of the same tensor (`x[:, :-1]`), with no copy in "
        "between. Bounds may be names and sums of them (`x[:, :-k] = x[:, k:]`, `buf[:, 1:n] "
        "= buf[:, 0:n - 1]`, `len(p)`, `x.shape[1]`; a script's integer constants are their "
        "values, `h = HOP // 2`), other dimensions may be stepped "
        "(`f[1::2, :-s] = f[1::2, s:]`; a stepped one too, when its starts lie whole steps "
        "apart: `buf[2 * d::2] = buf[0:-2 * d:2]`; or with other constant steps, where an "
        "index lies in both before both stops: `s[:, 2::2] = s[:, 1:L]`), an index may add a "
        "new axis "
        "(`sig[:, None, d:] = "
        "sig[:, None, :-d]`: `None` selects no dimension of the tensor), the source may be "
        "read through `detach()` (the same "
        "storage: `x[:, 1:] = x[:, :-1].detach()`) or a conversion to its own tensor's dtype or "
        "device (`.to(x.dtype)`, `.to(x.device)`, `.type_as(x)`: nothing to convert, the view "
        "itself), or a conversion that returns the view itself for a tensor of what the code "
        "shows and torch's defaults (`x[1:] = x[:-1].contiguous()`: a slice of the first "
        "dimension of a contiguous tensor; `x[:, :-1].float()`, `.to(torch.float32)` or "
        "`.type(torch.float32)` where the code shows no other dtype and the file sets no "
        "default dtype; `.double()` of a tensor shown to be float64; the message says what it "
        "rests on, and its fix is not marked safe; not `.double()` or `.half()` of a tensor "
        "not shown to be of that dtype, `.contiguous()` of a slice of another dimension, nor "
        "of a name bound to a value whose layout the code does not show, `y.T`), "
        "or `.view_as(x[...])` (the same elements; also of a name bound to a view of `x`, "
        "`dst.copy_(x[:, :-1].view_as(dst))` after `dst = x[:, 1:]`), or be a call of a function "
        "of the "
        "module whose body returns a basic-slice view of a parameter (`def tail(x, k): return "
        "x[..., k:]`: `tail(self.state, 1).copy_(head(self.state, 1))` writes `self.state[..., "
        "1:]` from `self.state[..., :-1]`; so may the destination; also a property of the class, "
        "`@property def tail(self): return self.buf[:, 1:]`), or be a view bound to a "
        "name first "
        "(`prev = x[:, :-1]` or `prev = x.narrow(1, 0, n - 1)` ... `x[:, 1:] = prev`, while "
        "neither `prev`, `x` nor a name in "
        "the bounds is bound again, on every path), and so may the destination (`d = x[:, "
        "1:]` ... `d.copy_(x[:, :-1])`), also a view of such a view (`w = prev[:, 1:]`), and "
        "the tensor itself under another name (`ids = labels` ... `ids[:, 1:] = "
        "labels[:, :-1]`); a view of an attribute bound to a name (`older = self.taps[..., "
        ":-1]`) counts up to the first statement after it that may run code (a call, a "
        "compound statement), its bounds may read attributes too: `dst = self.state[..., :-t]; "
        "src = self.state[..., t:]; dst.copy_(src)`, `src = self.obs[1:self.size]; "
        "self.obs[:self.size - 1] = src`. A "
        "`self` attribute is a tensor where every binding of it in the class is one, not "
        "counting a binding of `__init__` that a later one replaces in straight-line code "
        "with nothing between that could read it (`self.buf = np.zeros(...)`, then `self.buf "
        "= torch.from_numpy(self.buf)`): a signal, so the fix there is not marked safe. The "
        "names in the bounds are taken to be positive (a shift `k` of at least 1): the views "
        "must overlap for every such value, on a long enough dimension; where that depends on "
        "how the names compare (`x[:, i:i + 2] = x[:, j:j + 2]`) nothing is flagged, nor "
        "where a name is bound to a negative literal or the write sits in a branch taken only "
        "where it is 0 or less (`if k < 0:`). A name used as an index beside the slice (`x[i, "
        "1:] = x[i, :-1]`) must hold an integer on evidence (every binding an integer literal "
        "or arithmetic, a `range`/`enumerate` counter, `len()`, `.size(i)`/`.shape[i]`, an "
        "`int` annotation): a mask there is advanced indexing, which copies. The tensor must "
        "be known to be a torch tensor (NumPy arrays and lists handle the same line "
        "correctly): as the inference knows it, an unannotated parameter on which (or on an "
        "item of which, `x[..., -n:].zero_()`) the function calls `size(d)`, a method only "
        "tensors have, a `view` to three or more sizes or `.float()` of an item taken by a "
        "tuple index (`x[:, :-1].float()`), or a name bound only to a clone or "
        "such a view (`window = context.clone()`: NumPy copies with `copy()`; `v = "
        "x.view(n, t, c, h, w)`), the last two signals, so the fix there is not marked safe; "
        "slices whose ranges are disjoint (`x[:, :k] = x[:, k:2 * k]`), advanced "
        "indexing (which copies) and sources computed from the slice (`x[:, :-1] * 2`) are "
        "not flagged. A call of a function of the project that writes one parameter from "
        "another in place on every call (`def copy_into(dst, src): dst.copy_(src)`, or `dst[:] "
        "= src`, as its body's own statements, neither parameter bound again), handed two "
        "overlapping views of one tensor (`ops.copy_into(ring[1:], ring[:-1])`), is the write "
        "it makes, reported at the call; its fix is not marked safe (what else the function "
        "does with the view it reads is not proven)."
    )
    why = (
        "The write reads memory it has already overwritten. PyTorch copies element by element "
        "without a temporary, so the result depends on the order it happens to use. Measured on "
        "CPU (torch 2.13): shifting a (3, 5) tensor right by one column with `x[:, 1:] = "
        "x[:, :-1]` smears the first column across each row instead of shifting it, silently; "
        "on a 4 x 100,000 tensor the same line got 25,052 of 400,000 elements wrong, so the "
        "damage depends on the size. `x[:, 1:] += x[:, :-1]` computes running sums instead of "
        "pairwise ones. Along the first dimension or in 1-d torch detects the overlap and raises "
        "`RuntimeError: unsupported operation: some elements of the input tensor and the "
        "written-to tensor refer to a single memory location`. The left shift (`x[:, :-1] = "
        "x[:, 1:]`) happened to come out right on CPU for these sizes, but it is undefined too. "
        "Measured on CUDA (an H100, torch 2.11): the (3, 5) shift came out right, but on larger "
        "tensors both the right and the left shift went wrong in some elements, different ones "
        "from run to run (about 1,020 of 262,144 for a 64 x 4,096 tensor, about 3,700 to 4,000 of "
        "1,048,576 for 1,024 x 1,024; claim `cuda-shifts-differ`); on that machine's 16-thread "
        "CPU the left shift of a 4 x 100,000 tensor also got 11 to 12 elements wrong. NumPy handles "
        "all of these correctly (it buffers overlapping copies), which is why the line looks "
        "right. A top-p sampling mask shift (`remove[..., 1:] = remove[..., :-1]`) is the same "
        "bug; careful code writes the `.clone()`."
    )
    use_instead = "`x[:, 1:] = x[:, :-1].clone()`: the source is copied before the write."
    fix_doc = (
        "**Safe.** `.clone()` is appended to the source view. Where the two views do not overlap "
        "at run time (a dimension too short for the ranges to meet) nothing changes: the same "
        "values are written, with the same gradients. Where they do overlap PyTorch defines no "
        "result (it is wrong or an error), so no correct program relies on it. The rule flags "
        "only a receiver known to be a torch tensor, so `.clone()` is a tensor's own method; "
        "the fix is safe only where it is " + CLOSED_WORLD + "."
    )
    references = (
        "https://pytorch.org/docs/stable/notes/autograd.html#in-place-operations-with-autograd",
        "https://github.com/pytorch/pytorch/issues/8212",
    )
    invalid = (
        Example("import torch\nx = torch.arange(15.0).reshape(3, 5)\nx[:, 1:] = x[:, :-1]\n",
                "import torch\nx = torch.arange(15.0).reshape(3, 5)\nx[:, 1:] = x[:, :-1].clone()\n"),
        Example("import torch\nprobs = torch.softmax(torch.randn(2, 6), dim=-1)\n"
                "remove = probs.cumsum(dim=-1) > 0.9\nremove[..., 1:] = remove[..., :-1]\n",
                "import torch\nprobs = torch.softmax(torch.randn(2, 6), dim=-1)\n"
                "remove = probs.cumsum(dim=-1) > 0.9\nremove[..., 1:] = remove[..., :-1].clone()\n"),
        Example("import torch\nx = torch.ones(3, 5)\nx[:, 1:] += x[:, :-1]\n",
                "import torch\nx = torch.ones(3, 5)\nx[:, 1:] += x[:, :-1].clone()\n"),
        Example("import torch\nx = torch.ones(3, 5)\nx[:, :-1].copy_(x[:, 1:])\n",
                "import torch\nx = torch.ones(3, 5)\nx[:, :-1].copy_(x[:, 1:].clone())\n"),
        # an RL frame stack shifted by its channel count
        Example("import torch\nc = 3\nframes = torch.zeros(2, 4 * c, 8, 8)\n"
                "frames[:, c:] = frames[:, :-c]\n",
                "import torch\nc = 3\nframes = torch.zeros(2, 4 * c, 8, 8)\n"
                "frames[:, c:] = frames[:, :-c].clone()\n"),
        # the source view bound to a name first: the copy is made where it is read
        Example("import torch\nx = torch.arange(15.0).reshape(3, 5)\nprev = x[:, :-1]\n"
                "x[:, 1:] = prev\n",
                "import torch\nx = torch.arange(15.0).reshape(3, 5)\nprev = x[:, :-1]\n"
                "x[:, 1:] = prev.clone()\n"),
        Example("import torch\ns = 2\nf = torch.arange(40.0).reshape(4, 10)\n"
                "f[1::2, s:] = f[1::2, :-s]\n",
                "import torch\ns = 2\nf = torch.arange(40.0).reshape(4, 10)\n"
                "f[1::2, s:] = f[1::2, :-s].clone()\n"),
    )
    valid = (
        "import torch\nx = torch.ones(3, 5)\nx[:, 1:] = x[:, :-1].clone()\n",
        "import numpy as np\nx = np.ones((3, 5))\nx[:, 1:] = x[:, :-1]\n",
        "import torch\nx = torch.ones(3, 6)\nx[:, 3:] = x[:, :3]\n",
        "import torch\nx = torch.ones(3, 5)\nx[:, 1:] = x[:, :-1] * 2\n",
        "import torch\nx = torch.ones(3, 5)\ny = torch.ones(3, 5)\nx[:, 1:] = y[:, :-1]\n",
        "import torch\nx = torch.ones(3, 5)\nx[0, 1:] = x[1, :-1]\n",
        "import torch\nx = torch.ones(3, 5)\nx[:, [1, 2]] = x[:, [0, 1]]\n",
        "import torch\nk = 2\nx = torch.ones(3, 6)\nx[:, :k] = x[:, k:2 * k]\n",
        "import torch\nx = torch.ones(3, 5)\nprev = x[:, :-1].clone()\nx[:, 1:] = prev\n",
        "import torch\nx = torch.ones(3, 5)\nprev = x[:, :-1]\nx = x * 2\nx[:, 1:] = prev\n",
    )
    fix_cases = (
        # the views cannot overlap at run time (at most 2 columns): the fix changes nothing
        FixCase("y = t.reshape(1, -1)[:, :2].clone()\n    y[:, 1:] = y[:, :-1]\n    return y"),
        # they overlap: the fixed write is the intended shift, the original is undefined
        FixCase("y = t.detach().reshape(2, -1).clone()\n    y[:, 1:] = y[:, :-1]\n    return y",
                differs=("values",), kinds=("leaf", "plain", "float64", "int64",
                                            "channels_last")),
        # a shift by a name, and a named source view: the same two outcomes
        FixCase("k = 1\n    y = t.reshape(1, -1)[:, :2].clone()\n    y[:, k:] = y[:, :-k]\n"
                "    return y"),
        FixCase("k = 1\n    y = t.detach().reshape(2, -1).clone()\n    prev = y[:, :-k]\n"
                "    y[:, k:] = prev\n    return y",
                differs=("values",), kinds=("leaf", "plain", "float64", "int64",
                                            "channels_last")),
        # ``lerp_`` with its weight: the same outcomes on the floating kinds
        FixCase("y = t.detach().reshape(2, -1).clone()\n    y[:, 1:].lerp_(y[:, :-1], 0.5)\n"
                "    return y", differs=("values",),
                kinds=("leaf", "plain", "float64", "channels_last")),
        # ``addcmul_`` reading the overlapping view as its first tensor
        FixCase("y = t.detach().reshape(2, -1).clone()\n"
                "    y[:, 1:].addcmul_(y[:, :-1], y[:, 1:].clone())\n    return y",
                differs=("values",), kinds=("leaf", "plain", "float64", "channels_last")),
    )
    claims = (
        Claim("column-shift-silently-wrong", "semantics",
              "`x[:, 1:] = x[:, :-1]` on a (3, 5) tensor raises nothing and differs from the "
              "cloned write, which is the intended shift; so does the read through "
              "`.view_as(x[:, 1:])`", _column_shift_silently_wrong,
              devices=("cpu",)),
        Claim("augmented-shift-silently-wrong", "semantics",
              "`x[:, 1:] += x[:, :-1]` differs from `x[:, 1:] += x[:, :-1].clone()`, and "
              "`x[:, 1:].mul_(x[:, :-1])` from `x[:, 1:].mul_(x[:, :-1].clone())`, and "
              "`x[:, 1:].lerp_(x[:, :-1], 0.5)`, `x[:, 2:].addcmul_(x[:, :-2], w[:, 2:])` and "
              "`x[:, 1:].addcdiv_(w[:, 1:], x[:, :-1])` from their cloned forms",
              _augmented_shift_silently_wrong, devices=("cpu",)),
        Claim("cuda-shifts-differ", "semantics",
              "on CUDA, the right and the left column shift of a (64, 4096) tensor each differ "
              "from the cloned write in some elements, in each of 3 runs",
              _cuda_shifts_differ, devices=("cuda",)),
        Claim("first-dim-shift-raises", "semantics",
              "`x[1:] = x[:-1]` raises 'unsupported operation' in 1-d and along the first "
              "dimension; the cloned write does not", _first_dim_shift_raises),
    )

    def check(self, node, ctx) -> Iterable[Report]:
        """A plain function in front of ``_check``: a statement that is no write of one
        subscript into another (nearly every one) returns at once, without making a
        generator."""
        t = type(node)
        if t is nodes.Assign:
            if len(node.targets) != 1:
                return ()
            dst, src = node.targets[0].target, node.value
        elif t is nodes.AugAssign:
            dst, src = node.target, node.value
        elif t is nodes.Expr:  # ``copy_into(ring[1:], ring[:-1])`` of a project writer
            return self._handed(node.value, ctx) if type(node.value) is nodes.Call else ()
        else:  # ``x[a].copy_(x[b])``, ``x[a].add_(x[b])`` (what ``x[a] += x[b]`` runs)
            func = node.func
            if type(func) is not nodes.Attribute or func.attr.value not in WRITING_METHODS:
                return ()
            reads, positional = WRITING_ARGS.get(func.attr.value, (1, 1))
            args, dst = node.args, func.value
            if dotted_name(dst) in ("torch.Tensor", "Tensor") and args and \
                    args[0].keyword is None and not args[0].star:
                dst, args = args[0].value, args[1:]  # ``torch.Tensor.copy_(x[:, 1:], x[:, :-1])``
            if len(args) < reads or any(a.keyword is not None or a.star for a in args[:reads]) \
                    or any(a.keyword is None for a in args[positional:]):
                return ()  # (``add_(v, alpha=a)``: keywords after the source; ``lerp_(v, w)``)
            if reads > 1:  # ``x[:, 1:].addcmul_(g[:, 1:], x[:, :-1])``: either may overlap
                pairs = [p for p in (self._pair(ctx, t, dst, a.value) for a in args[:reads])
                         if p is not None]
                return self._check(node, ctx, pairs) if pairs else ()
            src = args[0].value
        found = self._pair(ctx, t, dst, src)
        if found is not None:
            return self._check(node, ctx, (found,))
        if type(dst) is nodes.Tuple and type(src) is nodes.Tuple and t is nodes.Assign:
            # ``a[:, :-1], b[:, :-1] = a[:, 1:], b[:, 1:]``: each target from its own value
            pairs = _pairs(dst, src)
            if pairs:
                return self._check(node, ctx, pairs)
        return ()

    def _handed(self, call, ctx) -> Iterable[Report]:
        """A call of a project function that writes one parameter from another in place on
        every call (``copy_summaries.writes_from``), handed two views of one tensor: the write
        it makes, read at the call (``ops.copy_into(ring[1:], ring[:-1])``)."""
        f, args = call.func, call.args
        if len(args) < 2 or type(f) not in (nodes.Name, nodes.Attribute) or \
                any(a.keyword is not None or a.star for a in args) or \
                sum(type(a.value) is nodes.Subscript for a in args) < 2 or \
                (type(f) is nodes.Attribute and f.attr.value in WRITING_METHODS):
            return ()
        fn = callee(ctx, f)
        if fn is None or not hasattr(fn, "node"):
            return ()
        from ..semantic.index.copy_summaries import writes_from  # (only such calls get here)

        pairs = [p for i, j in sorted(writes_from(fn)) if i < len(args) and j < len(args)
                 for p in (self._pair(ctx, nodes.Call, args[i].value, args[j].value),)
                 if p is not None]
        # (unsafe: what else the function does with the view it reads is not proven)
        return self._check(call, ctx, pairs, handed=True) if pairs else ()

    @staticmethod
    def _pair(ctx, t, dst, src):
        """(the view written, the view read, the expression read, the one written) when
        statement type ``t`` writes ``dst`` from ``src`` and both may be views to compare, else
        None. A call of a function of the module that returns a view of what it is handed
        stands for that view (``tail(x, 1).copy_(head(x, 1))``: ``semantic.view_helpers``)."""
        shown = dst
        td = type(dst)
        if td is nodes.Call and t is nodes.Call:
            if _narrow(dst):
                td = nodes.Subscript  # ``x.narrow(0, 0, n - 1).copy_(...)``: as ``x[:n - 1]``
            else:
                dst = _helper_view(ctx, dst) or dst
                td = type(dst)
        elif td is nodes.Attribute and t is nodes.Call:  # ``self.head.copy_(self.tail)``
            dst = _property_view(ctx, dst) or dst
            td = type(dst)
        if td is not nodes.Subscript and not (td is nodes.Name and t is nodes.Call):
            return None  # (``y = f(x)``: no write into a view; a tuple: ``_pairs``)
        outer, src = src, through_detach(src, ctx.inf if ctx.inf.viewed else None, ctx)
        ts = type(src)
        if ts is nodes.Call and _narrow(src):
            ts = nodes.Subscript
        elif ts is nodes.Call:
            src = _helper_view(ctx, src) or src
            ts = type(src)
        elif ts is nodes.Attribute:
            src = _property_view(ctx, src) or src
            ts = type(src)
        if td is nodes.Name and t is nodes.Call and ctx.inf.viewed and (
                ts is nodes.Subscript or ts is nodes.Name):
            # ``d = x[:, 1:]; d.copy_(x[:, :-1])``; both named (``d.copy_(s)``, ``s = x[:, :-1]``)
            return dst, src, outer, shown
        if td is nodes.Subscript and (ts is nodes.Subscript or (
                ts is nodes.Name and ctx.inf.viewed)):
            return dst, src, outer, shown
        return None

    def _check(self, node, ctx, pairs, handed: bool = False) -> Iterator[Report]:
        # a tuple's pairs are each reported at their own target (one report per place)
        tuple_write = type(node) is nodes.Assign and type(node.targets[0].target) is nodes.Tuple
        for dst, src, outer, shown in pairs:
            if not overlapping(ctx, dst, src, reshaped(outer)):
                continue
            # the fix's receiver: the tensor the read view is taken from (a named view: itself);
            # the copy is made of what is read (``x[:, :-1].detach().clone()``)
            receiver = src.value if type(src) is nodes.Subscript else src
            safety = applicability([ctx.evidence(receiver)])
            via = conversion_words(ctx, outer) if outer is not src else ""
            if (handed or via) and safety == SAFE:
                safety = UNSAFE
            plan = FixPlan(f"read `{ctx.snippet(outer)}.clone()`", safety,
                           [NodeEdit("replace", outer, (Src(outer), ".clone()"))]) \
                if safety else None
            yield self.report(shown if tuple_write else node, plan, dst=ctx.snippet(shown),
                              src=ctx.snippet(outer), via=via)
            if not tuple_write:
                return  # (``addcmul_`` reading two overlapping views: one report, one fix)


def _pairs(dst: nodes.Tuple, src: nodes.Tuple) -> List[Tuple[nodes.Subscript, nodes.BaseExpression,
                                                              nodes.BaseExpression]]:
    """The (target, view read, value) of each pair of a tuple assignment that writes a
    subscript from a subscript or a name (or its ``detach()``); none where either side has a
    starred item or the lengths differ."""
    if len(dst.elements) != len(src.elements) or any(
            type(e) is not nodes.Element for e in dst.elements + src.elements):
        return []
    return [(d.value, v, s.value, d.value) for d, s in zip(dst.elements, src.elements)
            for v in (through_detach(s.value),)
            if type(d.value) is nodes.Subscript and type(v) in (nodes.Subscript, nodes.Name)]


# ---- the storage of both sides, asked of the semantic core (``semantic/regions.py``) -----------
def _storage(ctx, node: nodes.BaseExpression,
             local: bool = False) -> Optional[Tuple[str, regions.Region]]:
    """(base, region) of a basic-slice view: a subscript of a name or attribute chain (or of
    its ``detach()``), or a name bound to such a view (of a plain name) that nothing rebound
    since."""
    if type(node) is nodes.Name:
        view = regions.view_of(ctx.inf, node.value)
        # (a name for the whole tensor, ``y = x``, is read through its subscripts only: the
        # whole against a part of itself differs in shape, an error)
        return (view.base, view.region) if view is not None and \
            view.region != regions.WHOLE else None
    narrow = type(node) is nodes.Call
    value = node.func.value if narrow else node.value
    while type(value) is nodes.Call and type(value.func) is nodes.Attribute and \
            value.func.attr.value == "detach" and not value.args:
        value = value.func.value  # ``x.detach()[:, :-1]``: a region of ``x``'s storage
    base = _keyed_name(value)
    if base is None:
        return None
    values = cached(ctx, "_overlap_local_values", ctx.scope_node,
                    lambda: LocalValues(ctx)).get if local else None
    r = regions.narrowed(node, lambda n: _may_be_int(ctx, n), values) if narrow else \
        regions.region(node, lambda n: _may_be_int(ctx, n), new_axes=True, values=values)
    if r is None:
        return None
    outer = regions.view_of(ctx.inf, base) if type(value) is nodes.Name else None
    if outer is not None:  # ``v[:, :-1]`` of ``v = x[:, 1:]``: a region of ``x``
        r = regions.compose(outer.region, r)
        return (outer.base, r) if r is not None else None
    return base, r


def _helper_view(ctx, node):
    """The view a call of a function of the module returns (``tail(self.state, 1)`` of ``def
    tail(x, k): return x[..., k:]``, as ``self.state[..., 1:]``), or None."""
    if type(node.func) is not nodes.Name:
        return None
    return returned_view(getattr(ctx.module, "_a", None), node, ctx.code,
                         cached(ctx, "_overlap_helper_views", None, dict),
                         lambda func: getattr(callee(ctx, func), "node", None))


def _property_view(ctx, node):
    """The view ``self.tail`` is where the class of the method being checked (or one related to
    it) defines ``tail`` as a property returning a view of an attribute (``self.data[:, 1:]``:
    ``semantic.view_helpers.property_view``), or None."""
    if type(node.value) is not nodes.Name or node.value.value != "self" or \
            "@property" not in ctx.source or type(ctx.scope_node) is not nodes.FunctionDef:
        return None
    from .snapshot_methods import owner_class, related_classes

    cls = owner_class(ctx.module, ctx.scope_node)
    if cls is None:
        return None
    return property_view([getattr(c, "_a", None) for c in related_classes(ctx.module, cls)],
                         node.attr.value)


def _narrow(node) -> bool:
    """``x.narrow(...)`` (its region: ``regions.narrowed``)."""
    return type(node.func) is nodes.Attribute and node.func.attr.value == "narrow"


def _keyed_name(value) -> Optional[str]:
    """A name or attribute chain, or an item of one at a constant key (``self.cache["k"]``,
    ``bufs[0]``): one tensor wherever the same spelling is read in one statement."""
    d = dotted_name(value)
    if d is not None or type(value) is not nodes.Subscript or len(value.slice) != 1:
        return d
    idx = value.slice[0].slice
    key = idx.value if type(idx) is nodes.Index else None
    if type(key) is nodes.SimpleString and isinstance(key.evaluated_value, str):
        key_text = repr(key.evaluated_value)
    elif type(key) is nodes.Integer:
        key_text = str(int(key.value, 0))
    else:
        return None
    inner = _keyed_name(value.value)
    return f"{inner}[{key_text}]" if inner is not None else None


def _base(dst: nodes.BaseExpression) -> nodes.BaseExpression:
    """The tensor a write goes into: ``x`` of ``x[...]`` or of ``x.narrow(...)``, or the name
    bound to a view."""
    if type(dst) is nodes.Call:
        return dst.func.value
    return dst.value if type(dst) is nodes.Subscript else dst


def _may_be_int(ctx, node: nodes.BaseExpression) -> bool:
    """May ``node``, read as an index, be an integer? Not a tensor nor a list of them
    (advanced indexing copies: no view is read)."""
    k = ctx.infer(node)
    return not (is_tensor(k) or k is TENSORS or k is EMPTY_LIST or type(k) in (Seq, Iter))


def _tensor(ctx, base: nodes.BaseExpression, dst=None) -> bool:
    """Is the written ``base`` a tensor: as the inference knows it, a parameter the function
    uses as one (``storage_flow.tensor_parameter``: ``L = x.size(-1)``), a name bound only to
    a clone of something (``window = context.clone()``: ``storage_flow.tensor_local``), or a
    parameter written through a tuple index (``x[:, 2:6] = ...``: no list takes one) in a
    module that imports torch and no other array library (``_torch_only``)? A NumPy array's
    overlapping copy is well defined. ``m.data[:, 1:]`` writes the storage of ``m``."""
    if type(base) is nodes.Attribute and base.attr.value == "data" and \
            type(base.value) is nodes.Name and not ctx.is_tensor(base) and \
            _tensor(ctx, base.value, dst):
        return True
    return ctx.is_tensor(base) or (type(base) is nodes.Name and (
        storage_flow.tensor_parameter(ctx.scope_node, base.value) or
        storage_flow.tensor_local(ctx.scope_node, base.value) or (
            type(dst) is nodes.Subscript and len(dst.slice) > 1 and _torch_only(ctx) and
            storage_flow.plain_parameter(ctx.scope_node, base.value))))


#: the modules a file may import and still hand its functions torch's tensors only: torch's
#: own, and the standard library's that make no arrays
_PLAIN_IMPORTS = frozenset({
    "torch", "torchvision", "torchaudio", "__future__", "math", "random", "os", "sys", "time",
    "typing", "dataclasses", "functools", "itertools", "collections", "copy", "argparse",
    "logging", "json", "re", "abc", "enum", "contextlib", "pathlib", "warnings"})


def _torch_only(ctx) -> bool:
    """Does the module import torch, and besides it only ``_PLAIN_IMPORTS`` (no NumPy, no
    project module, nothing relative)? Read once per file."""
    def read() -> bool:
        tree = getattr(ctx.module, "_a", None)
        mods = [a.name for n in ast.walk(tree) if type(n) is ast.Import for a in n.names] + [
            n.module if not n.level else "." for n in ast.walk(tree)
            if type(n) is ast.ImportFrom] if tree is not None else ["."]
        return "torch" in {(m or ".").partition(".")[0] for m in mods} and all(
            (m or ".").partition(".")[0] in _PLAIN_IMPORTS for m in mods)
    return cached(ctx, "_overlap_torch_only", None, read)


def overlapping(ctx, dst: nodes.BaseExpression, src: nodes.BaseExpression,
                reshaped: bool = False) -> bool:
    """Does ``src`` read a view of the tensor ``dst`` writes that shares elements with it
    without being the same view, for every value of the bounds' symbols but the trivial ones?
    The bounds are read as spelled, then, where that says nothing, with the names the function
    binds once to a shape's arithmetic read as it (``_local_values``)."""
    for local in (False, True):
        a = _storage(ctx, dst, local)
        b = _storage(ctx, src, local) if a is not None else None
        if a is not None and b is not None and a[0] != b[0]:
            return False  # (two tensors: no name bound in the function makes them one)
        verdict = region_compare.compare(a[1], b[1]) if b is not None else regions.UNKNOWN
        if verdict == regions.OVERLAP and not local and _valued(ctx, a[1], b[1]):
            continue  # (``k = 0`` ... ``c[:, k:] = c[:, :n - k]``: as its value says)
        if verdict == regions.OVERLAP and reshaped and not equal_lengths(a[1], b[1]):
            return False  # (a reshape that may copy: broadcast from fewer elements)
        if verdict == regions.OVERLAP:
            break
        if verdict == regions.SAME or local:
            return False
    else:
        return False
    if not _tensor(ctx, _base(dst), dst):
        return False
    names = regions.symbols(a[1]) | regions.symbols(b[1])
    if not names:
        return True
    scopes = ints.scopes_at(ctx.scope_node, ctx.module)
    # an index is one position only if it holds an integer: on evidence (a boolean mask there
    # is advanced indexing, a copy); a name bound to a negative literal shifts the other way
    if not all(ints.sized(s) or (s.isidentifier() and ints.holds_int(scopes, s))
               for s in regions.index_symbols(a[1]) | regions.index_symbols(b[1])):
        return False
    if any(s.isidentifier() and ints.negative_literal(scopes, s) for s in names):
        return False
    return not _not_positive_here(ctx.scope_node, dst, names)


def _valued(ctx, a: regions.Region, b: regions.Region) -> bool:
    """Does a bound of either region spell a name the scope binds once to a constant
    (``LocalValues``: ``k = 0``)? Then the regions are compared with it read as that value."""
    values = cached(ctx, "_overlap_local_values", ctx.scope_node, lambda: LocalValues(ctx))
    return any(s.isidentifier() and values.get(s) is not None and not values.get(s).terms
               for s in regions.symbols(a) | regions.symbols(b))


# ---- a branch taken only where a shift is not positive ----------------------------------------
#: comparisons ``s OP c`` that leave ``s <= 0`` for an integer ``s``: c at most this
_AT_MOST = {nodes.LessThan: 1, nodes.LessThanEqual: 0, nodes.Equal: 0}
#: and those whose negation does (``else`` of ``if s > 0``)
_NOT_AT_MOST = {nodes.GreaterThan: 0, nodes.GreaterThanEqual: 1, nodes.NotEqual: 0}
_FLIPPED = {nodes.LessThan: nodes.GreaterThan, nodes.GreaterThan: nodes.LessThan,
            nodes.LessThanEqual: nodes.GreaterThanEqual,
            nodes.GreaterThanEqual: nodes.LessThanEqual, nodes.Equal: nodes.Equal,
            nodes.NotEqual: nodes.NotEqual}


def _not_positive_here(scope: nodes.CSTNode, target: nodes.CSTNode, names) -> bool:
    """Is ``target`` in a branch taken only where a symbol of ``names`` is 0 or less (``if k <
    0:``, the ``else`` of ``if k > 0:``)? The regions were compared for positive symbols: a
    shift written for a negative one (``x[:, :-k]`` is then ``x[:, :|k|]``) is another write.
    Walked only for a write about to be reported."""
    path = _branches(scope, target)
    return path is not None and any(_says_not_positive(test, holds, names)
                                    for test, holds in path)


def _branches(node, target, depth: int = 0):
    """The (test, taken) of each ``if`` around ``target`` under ``node``, or None."""
    if node is target:
        return []
    if depth > 200 or not isinstance(node, nodes.Node):
        return None
    if type(node) is nodes.If:
        for branch, holds in ((node.body, True), (node.orelse, False)):
            if branch is not None:
                inner = _branches(branch, target, depth + 1)
                if inner is not None:
                    return [(node.test, holds)] + inner
        return None
    for child in node.children:
        inner = _branches(child, target, depth + 1)
        if inner is not None:
            return inner
    return None


def _says_not_positive(test, holds: bool, names) -> bool:
    if type(test) is nodes.UnaryOperation and type(test.operator) is nodes.Not:
        return _says_not_positive(test.expression, not holds, names)
    if dotted_name(test) in names:
        return not holds  # ``if k: ... else:`` (here k == 0)
    if type(test) is not nodes.Comparison or len(test.comparisons) != 1:
        return False
    op = type(test.comparisons[0].operator)
    left, right = test.left, test.comparisons[0].comparator
    if dotted_name(right) in names and op in _FLIPPED:
        left, right, op = right, left, _FLIPPED[op]
    bound = regions.affine(right)
    if dotted_name(left) not in names or bound is None or bound.terms:
        return False
    table = _AT_MOST if holds else _NOT_AT_MOST
    return op in table and bound.const <= table[op]
