"""TEN1xx: ``.data``.

One hook (every ``X.data`` attribute) and one evidence function; how the attribute is used (read,
written in place, assigned) decides which of the three codes it gets. The walk notes the use
before the attribute is reached (parents are visited first).
"""
from __future__ import annotations

from typing import Iterator, Optional, Tuple

from ..syntax import nodes

from ..semantic import torch_api
from ..semantic.kinds import (FREE, MODULE_OUT, UNKNOWN, is_tensor, is_value_write, lazy_module,
                              signalled)
from ..semantic.storage_flow import sole_binding
from ..syntax.nodes import last_name, root_name
from .base import (CLOSED_WORLD, Claim, FixCase, SAFE, UNSAFE, Example, FixPlan, NodeEdit, Report, Rule, Src,
                   applicability)

#: last names before ``.data`` that the labeled sample showed to be tensors (74 of 76)
SIGNAL_NAMES = frozenset(
    {"weight", "bias", "grad", "param", "p", "running_mean", "running_var"}
)
#: receivers that are configs, requests or the object itself: never tensors by name alone
NEGATIVE_ROOTS = frozenset(
    {"self", "cls", "args", "opt", "opts", "cfg", "config", "conf", "hparams", "options",
     "flags", "FLAGS", "request", "req", "response", "resp", "settings", "params_cfg"}
)
#: methods called on ``.data`` that only tensors have: NumPy arrays, memoryviews, pandas and
#: xarray objects (whose ``.data`` is common) have none of these
TENSOR_ONLY_METHODS = frozenset(
    {"cpu", "cuda", "clone", "detach", "numpy", "norm", "size", "numel", "nelement", "dim",
     "type_as", "masked_fill", "contiguous", "unsqueeze", "permute", "float", "half", "long",
     "new", "new_zeros", "new_ones", "new_empty", "new_full", "data_ptr", "storage",
     "untyped_storage", "t", "element_size", "is_contiguous", "requires_grad_", "double"}
)
#: attributes read on ``.data`` that only tensors have
TENSOR_ONLY_ATTRS = frozenset({"device", "is_cuda", "requires_grad", "grad", "grad_fn", "is_leaf"})
#: members after ``.data`` that say the object is not a tensor
NON_TENSOR_FOLLOWERS = frozenset(
    {"items", "keys", "values", "get", "decode", "encode", "append", "extend", "update",
     "pop", "setdefault", "strip", "lower", "upper", "split", "startswith", "endswith", "read",
     "write", "close", "iloc", "loc", "columns", "to_dict", "to_numpy", "json", "text",
     "content", "x", "y", "edge_index", "batch", "num_nodes", "ndata", "edata", "obj"}
)
#: uses of a ``.data`` read after which ``.detach()`` behaves the same (nothing keeps the alias).
#: Not ``.cpu()``: on a CPU tensor it returns the alias itself, whose version counter then differs.
SAFE_CONSUMERS = frozenset(
    {"item", "tolist", "clone", "norm", "numpy", "sum", "mean", "std", "var", "max",
     "min", "abs", "size", "dim", "numel", "nelement", "argmax", "argmin", "eq", "ne", "equal",
     "allclose", "isnan", "isinf", "any", "all", "shape", "dtype", "device", "ndim", "is_cuda",
     "element_size", "data_ptr", "sign", "pow", "sqrt", "square", "exp", "log", "prod"}
)


#: reads of a tensor's metadata, the same on ``t.data`` as on ``t``: ``t.data.dtype`` is ``t.dtype``
#: (no ``detach()`` needed); ``new_*`` build a fresh tensor from ``t``'s dtype and device only
METADATA_ATTRS = frozenset({"dtype", "device", "shape", "ndim", "is_cuda", "layout", "is_sparse",
                            "is_quantized", "is_meta", "itemsize", "nbytes"})
METADATA_METHODS = frozenset({"size", "numel", "nelement", "dim", "element_size", "stride",
                              "get_device", "is_contiguous", "new_zeros", "new_ones",
                              "new_empty", "new_full", "new_tensor", "storage_offset",
                              "data_ptr"})


def swap_clone_detach(clone: nodes.Call, detach: nodes.Call) -> list:
    """The edits that turn ``X.clone(ARGS).detach()`` into ``X.detach().clone(ARGS)``: the two
    names swap in place and ``(ARGS)`` moves verbatim (its comments and line breaks too)."""
    edits = [NodeEdit("replace", clone.func.attr, "detach"),
             NodeEdit("replace", detach.func.attr, "clone")]
    if clone.args:
        edits += [NodeEdit("replace", clone.func, "()", end=clone, from_end=True),
                  NodeEdit("replace", detach.func, (Src(clone.func, end=clone, from_end=True),),
                           end=detach, from_end=True)]
    return edits


def drop_data(node: nodes.Attribute) -> NodeEdit:
    """The edit that removes ``.data`` from ``X.data``."""
    return NodeEdit("replace", node.value, "", end=node, from_end=True)


def _kind(ctx, node: nodes.Attribute) -> Tuple[str, Optional[str]]:
    return ctx.data_use.get(id(node), ("read", None))


def data_evidence(ctx, node: nodes.Attribute) -> bool:
    """Is the receiver of ``node`` (an ``X.data``) shown to be a tensor?"""
    recv = node.value
    kind = ctx.inf.infer(recv)
    if is_tensor(kind) or kind is MODULE_OUT:
        return True
    if kind is not None and kind is not UNKNOWN and kind is not FREE:
        return False  # known: a module path, a list, a config, a local class...
    if not ctx.inf.imports_torch or ctx.local_data_attr or _dataset(ctx, node, recv):
        return False
    use, detail = _kind(ctx, node)
    if use == "str-subscript" or (use in ("attr", "method") and detail in NON_TENSOR_FOLLOWERS):
        return False
    root = root_name(recv)
    if root in NEGATIVE_ROOTS and not (type(recv) is nodes.Attribute and recv.attr.value in (
            "weight", "bias", "grad")) and not (
            # an item of the object's container, written in place or copied into
            # (``self.buffers[i].data.copy_(g)``): the root is no longer what ``.data`` is read on
            type(recv) is nodes.Subscript and use == "method" and detail == "copy_"):
        return False
    if use in ("init", "torch-arg"):
        return True
    if use == "method" and (_tensor_only(detail or "") or _tensor_chain(
            ctx.data_chain.get(id(node), ()))):
        return True
    if use == "attr" and detail in TENSOR_ONLY_ATTRS:
        return True
    name = last_name(recv)
    if use == "assign" and detail == "tensor" and name in SIGNAL_NAMES:
        return True  # ``p.data = q.data``: a tensor's storage given to a parameter-like name
    if name in SIGNAL_NAMES:
        # a bare name bound to some unknown value is not enough; a parameter or an attribute is
        return not (type(recv) is nodes.Name and kind is UNKNOWN)
    return False


#: libraries whose classes' ``.data`` is a dataset's samples (``MNIST(root).data``)
_DATASET_MODULES = ("torchvision.datasets.", "torchtext.datasets.", "torchaudio.datasets.",
                    "torch_geometric.datasets.")


def _dataset(ctx, node, recv) -> bool:
    """Is ``recv`` a name bound once in the scope, before ``node``, to an instance of a
    dataset class (``train_set = datasets.MNIST(root)``): its ``.data`` is no tensor's?"""
    if type(recv) is not nodes.Name or not _mentions_datasets(ctx):
        return False
    bound = sole_binding(ctx.scope_node, recv.value, node)
    if type(bound) is not nodes.Call:
        return False
    q = ctx.inf.qualname(bound.func) or ""
    return q.startswith(_DATASET_MODULES)


def _mentions_datasets(ctx) -> bool:
    """Does the file's text name one of ``_DATASET_MODULES``' packages (read once a file: the
    qualified name of a call may make the project index read a module)?"""
    hit = ctx.__dict__.get("_data_datasets")
    if hit is None:
        hit = ctx.__dict__["_data_datasets"] = any(
            m.split(".")[0] in ctx.source for m in _DATASET_MODULES)
    return hit


def lazy_parameter(ctx, node: nodes.Attribute) -> bool:
    """Is the receiver of ``node`` (an ``X.data``) a parameter or buffer of a lazy layer the
    code shows (``self.net = nn.LazyLinear(4)``; ``self.net.bias.data``)? It may be an
    ``UninitializedParameter`` where it runs: every rewrite without ``.data`` may raise
    ``ValueError`` where the original ran (``kinds.lazy_module``), so no fix is offered."""
    recv = node.value
    return type(recv) is nodes.Attribute and lazy_module(ctx.inf.infer(recv.value))


#: what a ``.data`` rule's message says where ``lazy_parameter`` withholds its fix
LAZY_NOTE = ("no fix: `{owner}` is a lazy module; until its first forward its parameters are "
             "`UninitializedParameter`s, on which the same without `.data` raises `ValueError`")


def _tensor_only(method: str) -> bool:
    return method in TENSOR_ONLY_METHODS or is_value_write(method) or \
        torch_api.is_tensor_only_method(method)


def _tensor_chain(calls) -> bool:
    """Do the calls chained on an ``X.data`` (``X.data.view(-1).narrow(0, i, n).add_(g)``)
    reach a method only tensors have through tensor methods alone? Then what ``.data`` gave is
    a tensor: each call before it is one a tensor answers, with a tensor (``view``, ``abs``)."""
    for call in calls:
        m = call.func.attr.value
        if _tensor_only(m):
            return True
        kws = [a.keyword.value for a in call.args if a.keyword is not None]
        star = any(a.star for a in call.args)
        npos = len(call.args) - len(kws) - star
        if m in NON_TENSOR_FOLLOWERS or torch_api.method_return(m, npos, kws, star) != "T":
            return False
    return False


def _mutation(use: str, detail: Optional[str]) -> bool:
    return use in ("subscript-store", "augassign", "init", "helper-write") or (
        use == "method" and (is_value_write(detail or "") or detail in _STORAGE_SWAPS))


#: in-place methods that replace the storage behind ``.data`` (not value writes for TEN401,
#: but a change through ``.data`` all the same)
_STORAGE_SWAPS = frozenset({"set_", "resize_", "resize_as_"})


# ---- claims (run by ``tensorcopy verify``; torch arrives through the helper ``v``) ----------
def _data_shares_memory_not_version(v):
    t = v.leaf(3)
    d = t.data
    before = t._version
    d.add_(1)
    shared = v.shares_memory(t, d)
    return shared and t._version == before, {
        "memory_shared": shared, "version_before": before, "version_after": t._version}


def _detach_shares_version(v):
    t = v.leaf(3)
    d = t.detach()
    before = t._version
    d.add_(1)  # noqa: TEN401 -- the claim demonstrates the alias
    return v.shares_memory(t, d) and t._version == before + 1, {
        "memory_shared": v.shares_memory(t, d), "version_before": before,
        "version_after": t._version}


def _data_write_gives_silent_wrong_grad(v):
    torch = v.torch
    x = torch.tensor([1.0], device=v.device, requires_grad=True)
    y = x * x  # saves x for backward; the correct gradient is 2
    x.data.zero_()
    err = v.error(lambda: y.backward())
    grad = None if x.grad is None else x.grad.item()
    return err is None and grad == 0.0, {"error": err, "grad": grad, "correct_grad": 2.0}


def _detach_write_raises_at_backward(v):
    torch = v.torch
    x = torch.tensor([1.0], device=v.device, requires_grad=True)
    y = x * x
    x.detach().zero_()
    err = v.error(lambda: y.backward())
    return err is not None and "modified by an inplace operation" in err, {"error": err}


def _no_grad_write_is_tracked(v):
    torch = v.torch
    p = torch.nn.Parameter(torch.ones(3, device=v.device))
    y = (p * p).sum()
    with torch.no_grad():
        p.add_(1)
    err = v.error(lambda: y.backward())
    # tracked means autograd's version-counter check fires, not just any error
    return (p.is_leaf and p.requires_grad and type(p).__name__ == "Parameter"
            and err is not None and "modified by an inplace operation" in err), {
        "error": err, "is_leaf": p.is_leaf, "type": type(p).__name__}


def _data_assign_is_silent(v):
    torch = v.torch
    p = torch.nn.Parameter(torch.tensor([2.0], device=v.device))
    y = (p * p).sum()  # correct grad: 2 * 2 = 4
    p.data = torch.tensor([5.0], device=v.device)
    err = v.error(lambda: y.backward())
    grad = None if p.grad is None else p.grad.item()
    return err is None and grad == 10.0, {"error": err, "grad": grad, "correct_grad": 4.0}


def _data_assign_changes_dtype_and_shape(v):
    torch = v.torch
    p = torch.nn.Parameter(torch.zeros(4, device=v.device))
    p.data = torch.zeros(2, dtype=torch.float64, device=v.device)
    return p.dtype == torch.float64 and tuple(p.shape) == (2,), {
        "dtype": str(p.dtype), "shape": list(p.shape)}


class DataRead(Rule):
    code = "TEN101"
    name = "data-read"
    message = "`{src}.data` bypasses autograd (no version counter); use `{instead}`"
    hooks = (nodes.Attribute,)
    hook_names = {nodes.Attribute: frozenset({"data"})}
    fix_safety = "sometimes"
    what = "Flags reading `t.data` of a tensor."
    why = (
        "`t.data` returns a tensor that shares memory with `t` but not its version counter. If "
        "that result is later changed in place, or `t` is changed while the result is saved for "
        "backward, autograd cannot notice, and gradients come out silently wrong. `t.detach()` "
        "returns the same values and memory but shares the version counter, so the same mistake "
        "raises an error at `backward()` instead. PyTorch's maintainers discourage `.data` and want "
        "to remove it."
    )
    use_instead = "`t.detach()` (or `t.detach().clone()` when an independent copy is wanted)."
    fix_doc = (
        "`t.data` becomes `t.detach()`. A read of metadata needs no detach at all: "
        "`t.data.dtype`, `.device`, `.shape`, `.is_cuda`, `.size()`, `.numel()`, `.dim()` and "
        "`t.data.new_zeros(...)` (and the other `new_*`) become `t.dtype`, `t.size()`, "
        "`t.new_zeros(...)`. Chains are fixed whole: `t.data.clone().detach()` becomes "
        "`t.detach().clone()` (TEN301 leaves that chain to this rule) and "
        "`t.data.detach()` becomes `t.detach()`, never `t.detach().detach()`.\n\n"
        "The fix is **safe** only where `t` is " + CLOSED_WORLD + "; and the result is consumed at once by a use that keeps no "
        "tensor alias (`.item()`, `.tolist()`, `.clone()`, `.norm()`, `.sum()`, `.numpy()`, "
        "metadata, ...): results are identical. Where `t` is a tensor only by a signal (its name "
        "`weight`/`bias`/`p`, a loop over `.parameters()` of an unknown object, a tensor-only "
        "method after `.data`) the fix is **unsafe**: a NumPy masked array or a plain object "
        "has a `.data` too. Elsewhere it is **unsafe** as well: the result now shares the "
        "version counter, so code that silently used stale values starts raising. `.cpu()` "
        "counts as unsafe: on a CPU tensor it returns the alias itself. No fix where `t` is a "
        "parameter or buffer of a lazy layer the code shows (`nn.LazyLinear`, `nn.LazyConv2d`, "
        "...): until the layer's first forward it is an `UninitializedParameter`, on which "
        "`detach()`, `.shape` and nearly every operation raise, while `.data` works; the message "
        "says so."
    )
    #: type, shape, values: on a lazy module's parameter, or under a functorch transform where
    #: ``.data`` raises and ``.detach()`` does not (issue 45)
    unsafe_changes = ("raises", "output", "type", "shape", "values")
    references = (
        "https://github.com/pytorch/pytorch/issues/30987",
        "https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html",
    )
    invalid = (
        Example("import torch\nt = torch.ones(3, requires_grad=True)\ntotal = t.data.sum().item()\n",
                "import torch\nt = torch.ones(3, requires_grad=True)\ntotal = t.detach().sum().item()\n"),
        Example("import torch\n\ndef snapshot(model):\n    return [p.data for p in model.parameters()]\n",
                "import torch\n\ndef snapshot(model):\n    return [p.detach() for p in model.parameters()]\n",
                unsafe=True, run=False),
        Example("import torch\nt = torch.ones(2, 2, requires_grad=True)\nu = t.data.cpu()\n",
                "import torch\nt = torch.ones(2, 2, requires_grad=True)\nu = t.detach().cpu()\n",
                unsafe=True),
        Example("import torch\n\ndef f(x: torch.Tensor):\n    y = x.data\n    return y\n",
                "import torch\n\ndef f(x: torch.Tensor):\n    y = x.detach()\n    return y\n",
                unsafe=True, run=False),
        # metadata needs no detach
        Example("import torch\nt = torch.ones(3, requires_grad=True)\nd = t.data.dtype\n",
                "import torch\nt = torch.ones(3, requires_grad=True)\nd = t.dtype\n"),
        # ``weight`` is a tensor by its name only: an unsafe fix
        Example("import torch\n\ndef norm(layer):\n    return layer.weight.data.norm()\n",
                "import torch\n\ndef norm(layer):\n    return layer.weight.detach().norm()\n",
                unsafe=True, run=False),
        # a lazy layer's parameter may be uninitialized here: ``.shape``, ``detach()`` raise
        Example("import torch\nfrom torch import nn\nlayer = nn.LazyLinear(4)\nn = layer.weight.data.numel()\n"),
    )
    valid = (
        "import torch.utils.data\nloader = torch.utils.data.DataLoader([])\n",
        "from flask import request\npayload = request.data\n",
        "import torch\n\ndef f(args):\n    return args.data\n",
        "import torch\n\nclass DS(torch.utils.data.Dataset):\n    def __getitem__(self, i):\n        return self.data[i]\n",
        "import numpy as np\nimport torch\na = np.zeros(3)\nbuf = a.data\n",
        "t = get()\nprint(t.weight.data)\n",
        "import torch\n\ndef f(graph):\n    return graph.data['norm']\n",
        "import torch\nx = torch.zeros(3)\nx = x.tolist()\nprint(x.data)\n",
    )

    fix_cases = (
        FixCase("return t.data.clone()"),
        FixCase("return t.data.sum()", kinds=("leaf", "nonleaf", "plain", "parameter", "float64", "zero_dim")),
        FixCase("return t.data", differs=("vc_shared",)),
        FixCase("return t.data.cpu()", differs=("vc_shared",)),  # why `.cpu()` is not a safe use
        FixCase("return t.data.numpy()", kinds=("plain", "int64", "transposed"),
                devices=("cpu",)),
    )

    claims = (
        Claim("data-shares-memory-not-version", "semantics",
              "`t.data` shares memory with `t` but not its version counter",
              _data_shares_memory_not_version),
        Claim("detach-shares-memory-and-version", "semantics",
              "`t.detach()` shares memory and the version counter with `t`",
              _detach_shares_version),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        if node.attr.value != "data":
            return
        use, detail = _kind(ctx, node)
        if use == "assign" or _mutation(use, detail) or not data_evidence(ctx, node):
            return
        src = ctx.snippet(node.value, 30)
        # a safe fix needs the receiver proven a tensor; the diagnostic's signals allow at most
        # an unsafe one
        evidence = applicability([signalled(ctx.evidence(node.value))])
        calls = ctx.data_chain.get(id(node), ())
        chain = [c.func.attr.value for c in calls]
        drop = drop_data(node)
        if (use == "attr" and detail in METADATA_ATTRS) or (
                use == "method" and detail in METADATA_METHODS):
            # metadata and ``new_*``: the same on ``t`` itself
            instead = f"{src}.{detail}" + (
                "" if use == "attr" else "(...)" if detail.startswith("new_") else "()")
            desc, edits, safe = f"read `{src}.{detail}` directly", [drop], True
        elif chain[:2] == ["clone", "detach"] and not calls[1].args:
            # ``t.data.clone().detach()`` composes into ``t.detach().clone()``
            instead = f"{src}.detach().clone()"
            desc, safe = f"replace with `{instead}`", True
            edits = [drop] + swap_clone_detach(calls[0], calls[1])
        elif use == "method" and detail == "detach" and not calls[:1] or (
                chain[:1] == ["detach"] and not calls[0].args):
            # ``t.data.detach()`` is ``t.detach()`` but for the version counter
            instead = f"{src}.detach()"
            desc, edits = "drop `.data` before `.detach()`", [drop]
            safe = len(chain) > 1 and chain[1] in SAFE_CONSUMERS
        else:
            instead = f"{src}.detach()"
            desc = f"replace `{src}.data` with `{src}.detach()`"
            edits = [NodeEdit("replace", node, ctx.operand(node.value) + ".detach()")]
            safe = use in ("method", "attr") and detail in SAFE_CONSUMERS
        fix = FixPlan(desc, SAFE if safe and evidence == SAFE else UNSAFE, edits) \
            if evidence else None
        report = self.report(node, fix, src=src, instead=instead)
        if lazy_parameter(ctx, node):
            note = LAZY_NOTE.format(owner=ctx.snippet(node.value.value, 30))
            report = Report(self.code, node, f"{report.message} ({note})", None)
        yield report




class DataInplace(Rule):
    code = "TEN102"
    name = "data-inplace"
    message = ("in-place change through `{src}.data` is invisible to autograd and can corrupt "
               "gradients silently; {instead}")
    hooks = (nodes.Attribute,)
    hook_names = {nodes.Attribute: frozenset({"data"})}
    fix_safety = UNSAFE
    what = (
        "Flags in-place changes made through `.data`: `p.data.add_(...)`, `p.data[m] = 0`, "
        "`p.data -= x`, `nn.init.normal_(p.data)`."
    )
    why = (
        "A write through `.data` does not move the tensor's version counter. If the tensor was "
        "saved for backward, `backward()` then uses the new values without any error, and the "
        "gradients are wrong. Under `torch.no_grad()` the same write on the tensor itself is "
        "tracked: the mistake raises instead of corrupting the gradients."
    )
    use_instead = (
        "`with torch.no_grad(): p.add_(...)` (inside an existing `no_grad` block, just drop "
        "`.data`); `nn.init.normal_(p)`, since `nn.init` functions already run under `no_grad`."
    )
    fix_doc = (
        "**Unsafe.** `.data` is dropped and the statement is wrapped in `with torch.no_grad():` "
        "(or left as is inside an existing `no_grad` block or function); `nn.init.*_(p.data)` "
        "becomes `nn.init.*_(p)`. Values, identity, `requires_grad` and `is_leaf` stay the same, "
        "but the version counter now moves: code that silently computed wrong gradients starts "
        "raising at `backward()`. Offered only when the statement is the in-place write alone "
        "(`p.data.add_(g)`, `p.data[m] = 0`, `p.data -= x`, `nn.init.zeros_(p.data)`): a "
        "statement that uses the write's result (`y = p.data.mul_(2) * w`, `return ...`, "
        "`yield ...`) gets no fix, since dropping `.data` or turning grad mode off around it "
        "changes what the rest of the statement sees. `torch.no_grad()` is spelled with a name "
        "bound to torch where the statement runs (`th` after `import torch as th`, in that "
        "function only); `import torch` is added where none is (an import under `if "
        "TYPE_CHECKING:` or `from torch import *` does not bind `torch`), and no fix is offered "
        "where `torch` names something else there (a parameter or local called `torch`). No "
        "fix where the tensor is a parameter or buffer of a lazy layer the code shows "
        "(`nn.LazyLinear`, `nn.LazyConv2d`, ...): until the layer's first forward it is an "
        "`UninitializedParameter`, on which the write without `.data` (and `nn.init.*_`) raises "
        "`ValueError` where the original wrote into an empty tensor; the message says so."
    )
    references = (
        "https://github.com/pytorch/pytorch/issues/30987",
        "https://pytorch.org/docs/stable/generated/torch.no_grad.html",
    )
    invalid = (
        Example(
            "import torch\n\ndef sgd(model, lr):\n    for p in model.parameters():\n        p.data.add_(p.grad, alpha=-lr)\n",
            "import torch\n\ndef sgd(model, lr):\n    for p in model.parameters():\n        with torch.no_grad():\n            p.add_(p.grad, alpha=-lr)\n",
            unsafe=True, run=False),
        Example("import torch\np = torch.nn.Parameter(torch.ones(3))\nwith torch.no_grad():\n    p.data.mul_(0.5)\n",
                "import torch\np = torch.nn.Parameter(torch.ones(3))\nwith torch.no_grad():\n    p.mul_(0.5)\n",
                unsafe=True),
        Example("import torch\nfrom torch import nn\nlayer = nn.Linear(4, 4)\nnn.init.zeros_(layer.bias.data)\n",
                "import torch\nfrom torch import nn\nlayer = nn.Linear(4, 4)\nnn.init.zeros_(layer.bias)\n",
                unsafe=True),
        Example("import torch\np = torch.nn.Parameter(torch.ones(4))\nmask = torch.tensor([True, False, True, False])\np.data[mask] = 0.0\n",
                "import torch\np = torch.nn.Parameter(torch.ones(4))\nmask = torch.tensor([True, False, True, False])\nwith torch.no_grad():\n    p[mask] = 0.0\n",
                unsafe=True),
        Example("import torch\np = torch.nn.Parameter(torch.ones(3))\np.data -= 0.1 * torch.ones(3)\n",
                "import torch\np = torch.nn.Parameter(torch.ones(3))\nwith torch.no_grad():\n    p -= 0.1 * torch.ones(3)\n",
                unsafe=True),
        # a lazy layer's parameter may be uninitialized here: the rewrite would raise
        Example("import torch\nfrom torch import nn\nlayer = nn.LazyLinear(4)\nlayer.bias.data.fill_(0)\n"),
    )
    valid = (
        "import torch\n\ndef f(batch):\n    batch.data.update({'a': 1})\n",
        "import torch\n\nwith torch.no_grad():\n    for p in params_of(model):\n        p.add_(1)\n",
        "import torch\n\ndef f(resp):\n    resp.data['key'] = 1\n",
    )

    fix_cases = (
        FixCase("t.data.mul_(2)\n    return t", differs=("input_version",)),
        FixCase("t.data[0] = 1\n    return t", differs=("input_version",),
                kinds=("leaf", "nonleaf", "plain", "transposed", "parameter", "float64", "int64", "channels_last")),
        FixCase("t.data += 1\n    return t", differs=("input_version",)),
        FixCase("torch.nn.init.zeros_(t.data)\n    return t", differs=("input_version",)),
        # statements that use the in-place result: no fix (wrapping or dropping `.data` changes
        # what the statement computes)
        FixCase("y = t.data.mul_(2) * x\n    return y", fixed=False,
                rejected="with torch.no_grad():\n        y = t.mul_(2) * x\n    return y"),
        FixCase("return t.data.mul_(2)", fixed=False,
                rejected="with torch.no_grad():\n        return t.mul_(2)"),
        FixCase("w = torch.nn.init.zeros_(t.data)\n    return w", fixed=False,
                rejected="w = torch.nn.init.zeros_(t)\n    return w"),
    )

    claims = (
        Claim("data-write-silent-wrong-grad", "semantics",
              "an in-place write through `x.data` after `x` was saved for backward gives a wrong "
              "gradient with no error", _data_write_gives_silent_wrong_grad),
        Claim("detach-write-raises", "semantics",
              "the same write through `x.detach()` raises at `backward()`",
              _detach_write_raises_at_backward),
        Claim("no-grad-write-tracked", "semantics",
              "`with torch.no_grad(): p.add_(...)` keeps `p` a leaf Parameter and is tracked "
              "(backward through a saved `p` raises autograd's in-place modification error)",
              _no_grad_write_is_tracked),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        if node.attr.value != "data":
            return
        use, detail = _kind(ctx, node)
        if not _mutation(use, detail) or not data_evidence(ctx, node):
            return
        src = ctx.snippet(node.value, 30)
        edits = [NodeEdit("replace", node, ctx.operand(node.value))]
        if use == "helper-write":
            instead = f"pass `{src}` and let `{detail}` write under `torch.no_grad()`"
            yield self.report(node, None, src=src, instead=instead)
            return
        alone = _write_alone(ctx, node, use)
        if use == "init":
            instead = f"pass `{src}` itself (nn.init already runs under no_grad)"
            desc = f"pass `{src}` instead of `{src}.data`"
        elif ctx.inf.in_no_grad:
            instead = "drop `.data` (already under no_grad)"
            desc = "drop `.data` inside the no_grad block"
        else:
            instead = f"change `{src}` under `torch.no_grad()`"
            desc = f"write to `{src}` under `torch.no_grad()`"
            torch = ctx.torch_ref(edits) if alone else None
            if torch is None:
                edits = None
            else:
                edits.append(NodeEdit("no_grad", ctx.lone_statement(), torch))
        if not alone:
            edits = None  # the statement uses the write's result: no rewrite keeps it
        if lazy_parameter(ctx, node):
            edits = None
            instead += "; " + LAZY_NOTE.format(owner=ctx.snippet(node.value.value, 30))
        fix = FixPlan(desc, UNSAFE, edits) if edits else None
        yield self.report(node, fix, src=src, instead=instead)




def _write_alone(ctx, node: nodes.Attribute, use: str) -> bool:
    """Is the statement holding ``node`` (an ``X.data``) the in-place write alone?

    ``p.data.add_(g)``, ``nn.init.zeros_(p.data)``, ``p.data[m] = v`` and ``p.data -= v`` as a
    whole statement, one to a line. Anything that uses the write's result (``y = p.data.mul_(2) *
    w``, ``return ...``, ``yield ...``) gets no fix: dropping ``.data`` or switching grad mode
    off around it would change what the rest of the statement sees.
    """
    line = ctx.lone_statement()
    if line is None:
        return False
    stmt = line.body[0]
    t = type(stmt)
    if t is nodes.Expr:
        call = stmt.value
        if type(call) is not nodes.Call:
            return False
        if use == "init":
            return bool(call.args) and call.args[0].value is node
        func = call.func
        return type(func) is nodes.Attribute and func.value is node
    if t is nodes.Assign:
        if len(stmt.targets) != 1:
            return False
        target = stmt.targets[0].target
        return type(target) is nodes.Subscript and target.value is node
    if t is nodes.AugAssign:
        target = stmt.target
        return target is node or (type(target) is nodes.Subscript and target.value is node)
    return False


class DataAssign(Rule):
    code = "TEN103"
    name = "data-assign"
    message = ("assigning `{src}.data` swaps storage behind autograd's back; use `with "
               "torch.no_grad(): {src}.copy_(new)` (same shape) or `torch.utils.swap_tensors`")
    hooks = (nodes.Attribute,)
    hook_names = {nodes.Attribute: frozenset({"data"})}
    fix_safety = None
    what = "Flags assigning to `t.data` (`p.data = new`)."
    why = (
        "`p.data = new` makes `p` use `new`'s storage, shape and dtype without moving the version "
        "counter. Anything that saved `p` for backward then silently uses the new values. The "
        "tracked alternatives differ in ways that matter (a shape change, a dtype change), so no "
        "automatic fix is offered."
    )
    use_instead = (
        "`with torch.no_grad(): p.copy_(new)` when the shape is the same (values are cast to "
        "`p`'s dtype), or `torch.utils.swap_tensors(p, nn.Parameter(new))` to replace the tensor "
        "while keeping the object the optimizer holds."
    )
    fix_doc = "None: which replacement is right depends on shape, dtype and identity needs."
    references = (
        "https://pytorch.org/docs/stable/generated/torch.utils.swap_tensors.html",
        "https://github.com/pytorch/pytorch/issues/30987",
    )
    invalid = (
        Example("import torch\nlayer = torch.nn.Linear(2, 2)\nlayer.weight.data = torch.zeros(2, 2)\n"),
        Example("import torch\n\ndef load(model, tensors):\n    for p, t in zip(model.parameters(), tensors):\n        p.data = t\n",
                run=False),
    )
    valid = (
        "import torch\n\nclass DS(torch.utils.data.Dataset):\n    def __init__(self, x):\n        self.data = x\n",
        "import torch\n\ndef f(ctx):\n    ctx.data = {}\n",
    )

    claims = (
        Claim("data-assign-silent", "semantics",
              "`p.data = new` after `p` was saved for backward gives a gradient computed from "
              "`new` with no error", _data_assign_is_silent),
        Claim("data-assign-changes-dtype-shape", "semantics",
              "`p.data = new` silently changes `p`'s dtype and shape", _data_assign_changes_dtype_and_shape),
    )

    def check(self, node, ctx) -> Iterator[Report]:
        if node.attr.value != "data":
            return
        use, _ = _kind(ctx, node)
        if use != "assign" or not data_evidence(ctx, node):
            return
        yield self.report(node, None, src=ctx.snippet(node.value, 30))
