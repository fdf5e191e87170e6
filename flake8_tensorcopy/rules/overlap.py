"""TEN403: a slice write that reads the memory it writes."""
from __future__ import annotations

from typing import Iterable, Iterator, List, Optional, Tuple

from ..syntax import nodes

from ..syntax.nodes import dotted_name
from .base import CLOSED_WORLD, Claim, FixCase, SAFE, Example, FixPlan, NodeEdit, Report, Rule, Src, \
    applicability

_UNSUPPORTED = "unsupported operation"


# ---- claims (run by ``tensorcopy verify``; torch arrives through the helper ``v``) ----------
def _column_shift_silently_wrong(v):
    """A (3, 5) window shifted right by one column: the overlapping write differs from the
    cloned one (and raises nothing); the cloned write is the intended shift."""
    torch = v.torch
    x = torch.arange(15.0, device=v.device).reshape(3, 5)
    y = x.clone()
    want = x.clone()
    want[:, 1:] = torch.stack([x[:, i] for i in range(4)], dim=1)
    x[:, 1:] = x[:, :-1]  # noqa: TEN403 -- the claim demonstrates the overlap
    y[:, 1:] = y[:, :-1].clone()
    holds = not bool(torch.equal(x, y)) and bool(torch.equal(y, want))
    return holds, {"overlapping_row0": x[0].tolist(), "cloned_row0": y[0].tolist()}


def _augmented_shift_silently_wrong(v):
    """``x[:, 1:] += x[:, :-1]`` reads elements it has already updated."""
    torch = v.torch
    x = torch.arange(15.0, device=v.device).reshape(3, 5)
    y = x.clone()
    x[:, 1:] += x[:, :-1]  # noqa: TEN403 -- the claim demonstrates the overlap
    y[:, 1:] += y[:, :-1].clone()
    return not bool(torch.equal(x, y)), {"overlapping_row0": x[0].tolist(),
                                         "cloned_row0": y[0].tolist()}


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
    message = ("`{dst}` is written from `{src}`, an overlapping view of the same tensor: the "
               "result is undefined (silently wrong along a non-contiguous dimension, an error "
               "along others); read `{src}.clone()`")
    hooks = (nodes.Assign, nodes.AugAssign, nodes.Call)
    hook_names = {nodes.Call: frozenset({"copy_"})}  # ``x[a].copy_(x[b])``; writes: any
    fix_safety = SAFE
    what = (
        "Flags a write into a basic-slice view of a tensor (`x[:, 1:] = ...`, `x[..., 1:] += "
        "...`, `x[:, 1:].copy_(...)`) whose source is an overlapping basic-slice view of the "
        "same tensor (`x[:, :-1]`), with no copy in between. The tensor must be known to be a "
        "torch tensor (NumPy arrays and lists handle the same line correctly); slices whose "
        "ranges are disjoint, advanced indexing (which copies) and sources computed from the "
        "slice (`x[:, :-1] * 2`) are not flagged."
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
    )
    valid = (
        "import torch\nx = torch.ones(3, 5)\nx[:, 1:] = x[:, :-1].clone()\n",
        "import numpy as np\nx = np.ones((3, 5))\nx[:, 1:] = x[:, :-1]\n",
        "import torch\nx = torch.ones(3, 6)\nx[:, 3:] = x[:, :3]\n",
        "import torch\nx = torch.ones(3, 5)\nx[:, 1:] = x[:, :-1] * 2\n",
        "import torch\nx = torch.ones(3, 5)\ny = torch.ones(3, 5)\nx[:, 1:] = y[:, :-1]\n",
        "import torch\nx = torch.ones(3, 5)\nx[0, 1:] = x[1, :-1]\n",
        "import torch\nx = torch.ones(3, 5)\nx[:, [1, 2]] = x[:, [0, 1]]\n",
    )
    fix_cases = (
        # the views cannot overlap at run time (at most 2 columns): the fix changes nothing
        FixCase("y = t.reshape(1, -1)[:, :2].clone()\n    y[:, 1:] = y[:, :-1]\n    return y"),
        # they overlap: the fixed write is the intended shift, the original is undefined
        FixCase("y = t.detach().reshape(2, -1).clone()\n    y[:, 1:] = y[:, :-1]\n    return y",
                differs=("values",), kinds=("leaf", "plain", "float64", "int64",
                                            "channels_last")),
    )
    claims = (
        Claim("column-shift-silently-wrong", "semantics",
              "`x[:, 1:] = x[:, :-1]` on a (3, 5) tensor raises nothing and differs from the "
              "cloned write, which is the intended shift", _column_shift_silently_wrong,
              devices=("cpu",)),
        Claim("augmented-shift-silently-wrong", "semantics",
              "`x[:, 1:] += x[:, :-1]` differs from `x[:, 1:] += x[:, :-1].clone()`",
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
        else:  # ``x[a].copy_(x[b])``
            func = node.func
            if type(func) is not nodes.Attribute or func.attr.value != "copy_" or \
                    len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
                return ()
            dst, src = func.value, node.args[0].value
        if type(dst) is not nodes.Subscript or type(src) is not nodes.Subscript:
            return ()
        return self._check(node, ctx, dst, src)

    def _check(self, node, ctx, dst, src) -> Iterator[Report]:
        base = dotted_name(dst.value)
        if base is None or base != dotted_name(src.value):
            return
        if not overlapping(ctx, dst, src) or not ctx.is_tensor(dst.value):
            return
        safety = applicability([ctx.evidence(src.value)])
        plan = FixPlan(f"read `{ctx.snippet(src)}.clone()`", safety,
                       [NodeEdit("replace", src, (Src(src), ".clone()"))]) if safety else None
        yield self.report(node, plan, dst=ctx.snippet(dst), src=ctx.snippet(src))


# ---- static overlap of two basic-slice subscripts of the same tensor -------------------------
#: a bound of a range over a dimension of unknown length n: (k, c) stands for k * n + c
Bound = Tuple[int, int]
_ALL = ("slice", (0, 0), (1, 0))


def _int(node) -> Optional[int]:
    if node is None:
        return None
    if type(node) is nodes.Integer:
        try:
            return int(node.value, 0)
        except ValueError:
            return None
    if type(node) is nodes.UnaryOperation and type(node.operator) is nodes.Minus:
        inner = _int(node.expression)
        return -inner if inner is not None else None
    return None


def _dims(ctx, sub: nodes.Subscript) -> Optional[Tuple[list, Optional[list]]]:
    """(dims before ``...``, dims after it or None without one); each dim is ``("slice", lo,
    hi)`` (bounds in n), ``("int", i)`` or ``("expr", text)``; None: not a basic slice we read."""
    before: List[tuple] = []
    after: Optional[List[tuple]] = None
    for el in sub.slice:
        s = el.slice
        out = after if after is not None else before
        if type(s) is nodes.Slice:
            if s.step is not None and _int(s.step) != 1:
                return None
            lo = _bound(s.lower, lower=True)
            hi = _bound(s.upper, lower=False)
            if lo is None or hi is None:
                return None
            out.append(("slice", lo, hi))
            continue
        value = s.value
        if type(value) is nodes.Ellipsis:
            if after is not None:
                return None
            after = []
            continue
        i = _int(value)
        if i is not None:
            out.append(("int", i))
        elif type(value) in (nodes.Name, nodes.Attribute) and dotted_name(value) not in (None, "None"):
            out.append(("expr", dotted_name(value)))
        else:
            return None  # advanced indexing, ``None``, a computed index: not read here
    return before, after


def _bound(node, lower: bool) -> Optional[Bound]:
    if node is None:
        return (0, 0) if lower else (1, 0)
    c = _int(node)
    if c is None:
        return None
    return (1, c) if c < 0 else (0, c)


def _meet(a: tuple, b: tuple) -> Optional[bool]:
    """Do two dims select common indices (for a long enough dimension)? None: cannot say."""
    if a[0] == "slice" and b[0] == "slice":
        lo = max(a[1], b[1])
        hi = min(a[2], b[2])
        return lo < hi and a[1] < a[2] and b[1] < b[2]
    if a[0] == b[0]:
        return a[1] == b[1]
    return None  # an index against a slice: the views have different shapes


def overlapping(ctx, dst: nodes.Subscript, src: nodes.Subscript) -> bool:
    """Do two basic-slice subscripts of one tensor share elements without being the same view?"""
    a, b = _dims(ctx, dst), _dims(ctx, src)
    if a is None or b is None:
        return False
    (a0, a1), (b0, b1) = a, b
    if (a1 is None) != (b1 is None):
        return False
    if a1 is None:
        n = max(len(a0), len(b0))
        a0 = a0 + [_ALL] * (n - len(a0))
        b0 = b0 + [_ALL] * (n - len(b0))
        pairs = list(zip(a0, b0))
    else:
        if len(a0) != len(b0) or len(a1) != len(b1):
            return False
        pairs = list(zip(a0, b0)) + list(zip(a1, b1))
    same = True
    for x, y in pairs:
        if x[0] != y[0] and "slice" in (x[0], y[0]):
            return False
        meet = _meet(x, y)
        if not meet:
            return False
        same = same and x == y
    return not same
