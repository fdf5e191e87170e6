"""TEN404-TEN406: copies that are sometimes not copies. Conversions that return their receiver
when there is nothing to convert, the NumPy bridge, and expanded or repeated tensors. Each rule
asks the storage facts (``semantic/storage.py``: what shares storage with what, and when) and
their flow queries (``semantic/storage_flow.py``: a side written in place, the other read
after); the claims are in ``conversion_claims.py``."""
from __future__ import annotations

from typing import Iterable, Iterator, Optional

from ..syntax import nodes
from ..semantic import storage
from ..semantic.storage import BRIDGE, CONVERSION, REPEATED, Share
from ..semantic.storage_flow import bound_in, first_write, read_after, sole_binding
from ..syntax.storage_shapes import mentions_bridge
from ..semantic.index.statedict_summaries import called_function, module_function
from .context import cached, clip
from .base import FixCase, UNSAFE, Example, FixPlan, NodeEdit, Report, Rule, claims_in

#: the last names of the calls that may make a storage fact (a cheap gate before ``share_of``)
_CONVERSION_CALLS = storage.CONVERSION_METHODS | {"as_tensor", "asarray"}
_BRIDGE_CALLS = frozenset({"from_numpy", "as_tensor", "asarray", "numpy"})
_GATHERS = frozenset({"torch.distributed.all_gather",
                      "torch.distributed.distributed_c10d.all_gather"})


def _bound(node) -> Optional[tuple]:
    """``name = value`` with one plain name: (name node, value); else None."""
    if len(node.targets) != 1 or type(node.targets[0].target) is not nodes.Name:
        return None
    return node.targets[0].target, node.value


def _last_call_name(value) -> Optional[str]:
    if type(value) is not nodes.Call:
        return None
    func = value.func
    if type(func) is nodes.Attribute:
        return func.attr.value
    if type(func) is nodes.Name:
        return func.value
    return None


def _bound_fact(ctx, node, calls, how: str):
    """``name = <call>`` whose last called name is in ``calls``, with its storage fact of kind
    ``how``: (name, share, found) for the rule's ``_check``, or None."""
    bound = _bound(node)
    if bound is None or _last_call_name(bound[1]) not in calls:
        return None
    fact = _fact(ctx, node, bound[1], bound[0].value, how)
    return None if fact is None else (bound[0].value, *fact)


def _fact(ctx, node, value, name: str, how: str):
    """The storage fact of ``value`` bound to ``name`` and the write and read that make it a
    mistake: (share, (write, written side, read side)), or None. The flow is asked first with
    what the expression itself shows, and only where it finds a write and a read are the
    placements the code shows of plain names (``sole_binding``: a walk of the scope) asked."""
    scope = ctx.scope_node
    binding = lambda n: sole_binding(scope, n, node)  # noqa: E731
    share = storage.share_of(value, ctx.inf)
    # ``torch.as_tensor(a)``: only ``a``'s binding shows an array
    refined = share is None and _last_call_name(value) in ("as_tensor", "asarray")
    if refined:
        share = storage.share_of(value, ctx.inf, binding)
    if share is None or share.how != how or share.base_name == name:
        return None
    found = _sides(ctx, node, name, share)
    if found is None:
        return None
    if not refined:
        share = storage.share_of(value, ctx.inf, binding)
        if share is None or share.how != how:
            return None  # the code shows it copies
    return share, found


def _where(share: Share) -> str:
    if share.always:
        return "here (the code shows nothing to convert)"
    return " and ".join(share.conditions) + " (a copy only otherwise)"


def _sides(ctx, node, name: str, share: Share):
    """The first in-place write to one side followed by a read of the other: (write, written
    side, read side), or None. The value side is ``name``; the base side is read only as a
    plain name (an attribute's later reads are not all in view)."""
    scope = ctx.scope_node
    base = share.base_name
    write = first_write(scope, node, frozenset({name}), frozenset({base}),
                        array=share.value_array)
    if write is not None and "." not in base and \
            read_after(scope, write, base, values=True) and \
            not _written_back(scope, write, base, name):
        return write, name, base
    write = first_write(scope, node, frozenset({base}), frozenset({name}),
                        array=share.base_array)
    if write is not None and read_after(scope, write, name, values=True):
        return write, base, name
    return None


def _bridge_in_view(ctx) -> bool:
    """May a project function this file calls share through the NumPy bridge? Its summary says
    so only where its body holds ``BRIDGE_WORDS``, in this file or in a module the file's
    imports reach: the pre-filter's question (``prefilter_proof.Proof.bridged``), asked once per
    file by ``_helper`` for the code kept for other rules (most assignments of a project
    that never converts from NumPy cost nothing here)."""
    if mentions_bridge(ctx.source):
        return True
    project = ctx.inf.project
    return project is not None and project.reaches(mentions_bridge)


def _written_back(scope, write, base: str, name: str) -> bool:
    """Is ``base`` written from ``name`` after ``write`` (``p32 = p.data.float(); p32.add_(u);
    p.data.copy_(p32)``, the fp16 master-weight step)? Then the change is meant to reach
    ``base``, and where the conversion returned ``base`` itself it already has."""
    back = first_write(scope, write, frozenset({base, base + ".data"}))
    if back is None and write is not None:
        back = _data_assigned(scope, write, base)
    return back is not None and _mentions_name(back, name)


def _data_assigned(scope, write, base: str):
    """``base.data = ...`` after ``write``: the statement, else None."""
    after = False
    todo = [scope]
    target = base + ".data"
    while todo:  # in source order: children pushed reversed
        node = todo.pop()
        if node is write:
            after = True
            continue
        if after and type(node) is nodes.Assign and any(
                type(a.target) is nodes.Attribute and nodes.dotted_name(a.target) == target
                for a in node.targets):
            return node
        todo.extend(reversed([c for c in node.children if c is not None]))
    return None


class ConversionAlias(Rule):
    code = "TEN404"
    name = "conversion-alias"
    runtime_twin = True
    message = ("`{name} = {expr}` is `{base}` itself {where}: "
               "`{write}` changes `{other}` too, which is read afterwards; write `{fixed}` "
               "for a copy on every device, dtype and layout")
    hooks = (nodes.Assign,)
    fix_safety = UNSAFE
    unsafe_changes = ("raises", "stops_raising", "type", "subclass_method", "values", "graph",
                      "output")
    what = (
        "Flags `y = x.<conversion>(...)` where the conversion returns `x` itself when there is "
        "nothing to convert (`.cpu()`, `.to(device or dtype)`, `.float()`/`.double()`/"
        "`.half()`..., `.type(dtype)`, `.contiguous()`, `torch.as_tensor(x)`, "
        "`.requires_grad_(False)`, also after `.detach()`), `x` is known to be a tensor, and then "
        "one side is written in place (`y.mul_(255)`, `y[i] = v`, `x.add_(...)`) while the "
        "other side is read afterwards in the same function (`prev = w.cpu()` ... "
        "`w.add_(...)` ... `compare(prev, w)`). Reads of what no write changes (`x.shape`, "
        "`x.size()`, `len(x)`) do not count. Not flagged: a conversion the code shows must "
        "convert (`torch.zeros(3, dtype=torch.uint8).float()`, `x.cuda().cpu()`, `copy=True`), "
        "a name bound again before the write (`x = x.float()`), and a side no one reads after "
        "the write.\n\n"
        "Runtime twin (`tensorcopy trace`, `pytest --tensorcopy`): a conversion called by the "
        "program that returned its receiver itself (`out is x`: nothing to convert on that "
        "device, dtype and layout), bound to a name while the receiver has another name in the "
        "same frame; then an in-place write through one name and a later line of that frame "
        "that reads the other's values (`.shape`, `len()` do not count). Reads in another "
        "function, and the receiver reached only through `.detach()` or an attribute, are not "
        "seen."
    )
    why = (
        "These conversions copy only when the device, dtype or layout differs; otherwise they "
        "return the very same tensor (measured, torch 2.13 CPU: `t.cpu()`, `t.to('cpu')`, "
        "`t.to(torch.float32)`, `t.float()`, `t.type(torch.float32)`, `t.contiguous()`, "
        "`torch.as_tensor(t)` and `t.requires_grad_(False)` of a contiguous float32 CPU tensor "
        "are `t`). Code written and tested on a GPU, where `w.cpu()` is a copy, silently writes "
        "into its source on a laptop or a CPU CI runner: a \"previous weights\" snapshot that "
        "follows every update, a normalisation `x = batch.float(); x.mul_(255)` that rescales "
        "the loader's tensor when it already was float32. The message names the device, dtype "
        "or layout on which it aliases."
    )
    use_instead = ("`y = x.cpu().clone()` (or `x.to(..., copy=True)`, `x.float().clone()`): a "
                   "copy on every device, dtype and layout.")
    fix_doc = (
        "**Unsafe.** `.to(...)` gets `copy=True`; every other conversion gets `.clone()` "
        "appended. Where the conversion copied anyway (another device or dtype) nothing "
        "changes but one more copy; where it returned `x` itself the values the program "
        "computes change: that is the fix, and a behaviour change if the write into `x` was "
        "meant. Where `x` is a leaf that requires grad, the original raises at the in-place "
        "write (\"a leaf Variable that requires grad is being used in an in-place operation\") "
        "and the copy does not. No fix is safe: closed-world, a copy is behaviour-preserving "
        "only where the conversion is proven to copy already, and there the rule does not "
        "fire."
    )
    references = ("https://pytorch.org/docs/stable/generated/torch.Tensor.to.html",
                  "https://pytorch.org/docs/stable/generated/torch.Tensor.cpu.html")
    invalid = (
        Example("import torch\nw = torch.zeros(3)\nprev = w.cpu()\nw.add_(1.0)\n"
                "print(torch.equal(prev, w))\n",
                "import torch\nw = torch.zeros(3)\nprev = w.cpu().clone()\nw.add_(1.0)\n"
                "print(torch.equal(prev, w))\n", unsafe=True),
        Example("import torch\n\ndef scale(batch: torch.Tensor):\n    x = batch.float()\n"
                "    x.mul_(255)\n    return x, batch.mean()\n",
                "import torch\n\ndef scale(batch: torch.Tensor):\n    x = batch.float().clone()\n"
                "    x.mul_(255)\n    return x, batch.mean()\n", unsafe=True, run=False),
        Example("import torch\n\ndef step(w: torch.Tensor, device):\n    y = w.to(device)\n"
                "    y.sub_(1)\n    return w\n",
                "import torch\n\ndef step(w: torch.Tensor, device):\n"
                "    y = w.to(device, copy=True)\n    y.sub_(1)\n    return w\n",
                unsafe=True, run=False),
    )
    valid = (
        "import torch\nw = torch.zeros(3)\nprev = w.cpu().clone()\nw.add_(1.0)\nprint(prev)\n",
        "import torch\nw = torch.zeros(3, dtype=torch.uint8)\nx = w.float()\nx.mul_(2)\n"
        "print(w)\n",
        "import torch\nw = torch.zeros(3).cuda()\nprev = w.cpu()\nw.add_(1.0)\nprint(prev)\n",
        "import torch\nw = torch.zeros(3)\nw = w.float()\nw.mul_(2)\nprint(w)\n",
        "import torch\nw = torch.zeros(3)\ny = w.to('cpu', copy=True)\ny.add_(1)\nprint(w)\n",
        "import torch\nw = torch.zeros(3)\nx = w.float()\nx.mul_(2)\nprint(w.shape)\n",
        "cfg = load()\nx = cfg.float()\nx.mul_(2)\nprint(cfg)\n",
    )
    fix_cases = (
        FixCase("y = t.float()\n    y.mul_(2)\n    return t",
                differs=("input_values", "values", "input_version"),
                kinds=("plain", "float64", "int64")),
        FixCase("prev = t.cpu()\n    t.mul_(2)\n    return prev",
                differs=("values", "is_input", "shares_memory", "vc_shared"),
                kinds=("plain", "int64")),
        FixCase("y = t.to(torch.float32)\n    y.add_(1)\n    return t",
                differs=("input_values", "values", "input_version"),
                kinds=("plain", "float64", "int64")),
    )
    claims = claims_in("conversion_claims", "TEN404")

    def check(self, node, ctx) -> Iterable[Report]:
        found = _bound_fact(ctx, node, _CONVERSION_CALLS, CONVERSION)
        return () if found is None else self._check(node, ctx, *found)

    def _check(self, node, ctx, name: str, share: Share, found) -> Iterator[Report]:
        write, _, other = found
        call = share.call
        if _last_call_name(call) == "to":
            fixed = ctx.code(call)[:-1].rstrip() + ", copy=True)"
        else:
            fixed = f"{ctx.operand(call)}.clone()"
        fix = FixPlan(f"bind `{ctx.snippet(call, 30)}` as a copy", UNSAFE,
                      [NodeEdit("replace", call, fixed)])
        yield self.report(node, fix, name=name, expr=ctx.snippet(call, 40), base=share.base_name,
                          where=_where(share), write=ctx.snippet(write, 30), other=other,
                          fixed=clip(fixed, 60))


class NumpyBridgeAlias(Rule):
    code = "TEN405"
    name = "numpy-bridge-alias"
    runtime_twin = True
    message = ("`{name} = {expr}` shares memory with `{base}`{where}: `{write}` changes "
               "`{other}` too, {after}; write `{fixed}` for a copy")
    hooks = (nodes.Assign,)
    fix_safety = UNSAFE
    unsafe_changes = ("raises", "values", "output")
    what = (
        "Flags a NumPy bridge (`t = torch.from_numpy(a)`, `t = torch.as_tensor(a)` of an array "
        "the code shows, `n = x.numpy()`, `n = np.asarray(x)` of a tensor) followed by an "
        "in-place write to one side (`t.clamp_(0, 1)`, `t += 1`, `n[i] = v`, `n += 1`, "
        "`a.fill(0)`, `np.copyto(a, ...)`, `f(..., out=a)`) while the other side is read "
        "afterwards in the same function. An array or list no tensor touches is never "
        "flagged, nor a bridge that copies (`np.array(x)`, `torch.tensor(a)`, `a.copy()`, "
        "`as_tensor(a, device='cuda')`).\n\n"
        "The bridge may sit in a function of the project called by name, or through a project "
        "module imported whole: `t = to_tensor(a)`, `t = utils.to_tensor(a)` "
        "or `x, y = cast_inputs(x, y)` where every `return` of that function gives, for that "
        "value or tuple item, the parameter it is passed through `torch.from_numpy`, "
        "`.numpy()` or `.detach()`, or the parameter itself (its storage summary; a path that "
        "copies, returns something else or converts only sometimes, `.float()` after the "
        "bridge, leaves it unreported). "
        "Also flagged, with its own wording: an in-place write through a bridge (direct or "
        "through such a helper) that shares on every run, into memory the *caller* owns: "
        "the base is a parameter of the enclosing function without a default, which the "
        "function never binds (`def prep(x): t = torch.from_numpy(x); t /= 255`): the caller "
        "sees the change after the return, though nothing reads it here. The value may be "
        "bound again to a view of itself before the write (`t = t.permute(0, 3, 1, 2)`); any "
        "other binding of it before the write, a parameter with a default or `*args`, and a "
        "base bound in the function keep it silent, as does a function whose name ends in `_` "
        "(PyTorch's name for one that writes its argument in place). No fix is offered there: the message "
        "names the out-of-place form (`t = t / 255`).\n\n"
        "Runtime twin (`tensorcopy trace`, `pytest --tensorcopy`): a bridge called by the "
        "program that shares memory (the data pointers compared), bound to a name; then an "
        "in-place torch write to the tensor in the same frame and a later line of that frame "
        "that reads the array. Writes made by NumPy (`a += 1`, `n[0] = v`) are not seen by "
        "any torch hook: that direction stays static only, as do the caller's-memory shape "
        "(the read is the caller's, after the return) and a bridge inside a helper (the twin "
        "watches the bridge calls the program itself makes)."
    )
    why = (
        "The bridge shares memory: measured on torch 2.13 CPU, `x = torch.from_numpy(a); "
        "x += 1` changes `a`, `torch.as_tensor(a)` of the same dtype likewise, and "
        "`n = t.numpy()` or `np.asarray(t)` follows every later in-place write to `t`. "
        "Libraries have shipped this as a bug (an estimator that clipped its caller's input "
        "array in place through `from_numpy`)."
    )
    use_instead = ("`torch.tensor(a)` or `torch.from_numpy(a.copy())`; `x.numpy().copy()`: "
                   "independent memory.")
    fix_doc = (
        "**Unsafe.** `torch.from_numpy(a)` becomes `torch.from_numpy(a.copy())`, "
        "`torch.as_tensor(a)` becomes `torch.tensor(a)` (same arguments), `x.numpy()` and "
        "`np.asarray(x)` get `.copy()`. The other side no longer changes: that is the fix, and "
        "a behaviour change where sharing the memory (or saving the copy's time and memory) "
        "was the point."
    )
    references = ("https://pytorch.org/docs/stable/generated/torch.from_numpy.html",
                  "https://pytorch.org/docs/stable/generated/torch.Tensor.numpy.html")
    invalid = (
        Example("import numpy as np\nimport torch\na = np.linspace(-1, 2, 4)\n"
                "t = torch.from_numpy(a)\nt.clamp_(0, 1)\nprint(a.sum())\n",
                "import numpy as np\nimport torch\na = np.linspace(-1, 2, 4)\n"
                "t = torch.from_numpy(a.copy())\nt.clamp_(0, 1)\nprint(a.sum())\n", unsafe=True),
        Example("import torch\nt = torch.ones(3)\nn = t.numpy()\nt.zero_()\nprint(n)\n",
                "import torch\nt = torch.ones(3)\nn = t.numpy().copy()\nt.zero_()\nprint(n)\n",
                unsafe=True),
        Example("import numpy as np\nimport torch\na = np.ones(3, dtype=np.float32)\n"
                "x = torch.as_tensor(a)\nx.mul_(2)\nprint(a)\n",
                "import numpy as np\nimport torch\na = np.ones(3, dtype=np.float32)\n"
                "x = torch.tensor(a)\nx.mul_(2)\nprint(a)\n", unsafe=True),
    )
    valid = (
        "import numpy as np\nimport torch\na = np.ones(3)\nt = torch.tensor(a)\nt.zero_()\n"
        "print(a)\n",
        "import numpy as np\na = np.ones(3)\nb = np.asarray(a)\nb += 1\nprint(a)\n",
        "import numpy as np\nimport torch\nt = torch.ones(3)\nn = np.array(t)\nt.zero_()\n"
        "print(n)\n",
        "import numpy as np\nimport torch\na = np.ones(3)\nt = torch.from_numpy(a)\nt.zero_()\n",
        "import torch\nt = torch.ones(3)\nn = t.numpy()\nt = t * 2\nt.zero_()\nprint(n)\n",
    )
    fix_cases = (
        FixCase("n = t.detach().numpy()\n    n += 1\n    return t",
                differs=("input_values", "values"),
                kinds=("plain", "transposed", "float64", "int64"), devices=("cpu",)),
        FixCase("a = t.detach().numpy().copy()\n    u = torch.from_numpy(a)\n    u.mul_(2)\n"
                "    return torch.from_numpy(a)", differs=("values",),
                kinds=("plain", "float64", "int64"), devices=("cpu",)),
    )
    claims = claims_in("conversion_claims", "TEN405")

    def check(self, node, ctx) -> Iterable[Report]:
        found = _bound_fact(ctx, node, _BRIDGE_CALLS, BRIDGE)
        if found is not None:
            return self._check(node, ctx, *found)
        bound = _bound(node)
        if bound is not None and _last_call_name(bound[1]) in _BRIDGE_CALLS:
            share = storage.share_of(bound[1], ctx.inf)
            if share is None or share.how != BRIDGE or share.base_name == bound[0].value:
                return ()
            # the base side is not read after: the caller's memory, when the base is theirs
            return self._callers(node, ctx, bound[0].value, share)
        return self._helper(node, ctx)

    def _helper(self, node, ctx) -> Iterator[Report]:
        """``t = helper(a)``, ``x, y = helper(x, y)`` of a project function whose storage
        summary says the value (the item) shares with the argument through the bridge."""
        value = node.value
        # a function called by name, or a function of a project module (as the pre-filter keeps
        # them: ``helper_written``); not a method: its receiver's class decides
        if type(value) is not nodes.Call or len(node.targets) != 1 or \
                type(value.func) not in (nodes.Name, nodes.Attribute):
            return
        target = node.targets[0].target
        if type(target) is nodes.Name:
            names = [(None, target.value)]
        elif type(target) is nodes.Tuple and all(
                type(e) is nodes.Element and type(e.value) is nodes.Name for e in target.elements):
            names = [(i, e.value.value) for i, e in enumerate(target.elements)]
        else:
            return
        if type(value.func) is nodes.Name:
            found = called_function(ctx.inf, value)  # a dictionary look-up: a project function?
        else:
            fn = module_function(ctx.inf.infer, value.func)  # ``utils.to_tensor(a)``
            found = None if fn is None else (fn, False)
        # the project's text is asked last, once per file: most calls are of no project function
        if found is None or not cached(ctx, "_bridge_in_view", None, lambda: _bridge_in_view(ctx)):
            return
        # imported only here: a project function's call by name reaches it (an editor's run
        # that never gets here does not pay for the module's classes, 0.5 ms)
        from ..semantic.index.storage_summaries import bridged_items, helper_share

        bridged = bridged_items(found[0])
        names = [(i, n) for i, n in names if i in bridged]
        if not names:
            return  # its summary: no returned item shares through the bridge
        scope = ctx.scope_node
        for item, name in names:
            if first_write(scope, node, frozenset({name}), views=True) is None:
                continue  # not written in place after the call
            share = helper_share(ctx.inf, value, item, found)
            # only where it shares on every run: a condition inside the helper (``.float()``
            # after the bridge) is not weighed against what the caller shows of the argument
            if share is None or share.how != BRIDGE or not share.always or \
                    share.base_name == name:
                continue
            sides = _sides(ctx, node, name, share)
            if sides is not None:
                yield from self._check(node, ctx, name, share, sides)
            else:
                yield from self._callers(node, ctx, name, share)

    def _callers(self, node, ctx, name: str, share: Share) -> Iterator[Report]:
        """``name`` (sharing with ``share.base`` on every run) written in place where the base
        is a parameter the function never binds (no default, not ``*args``): the write goes
        into memory its caller owns, which the caller sees after the return."""
        scope = ctx.scope_node
        base = share.base_name
        if not share.always or type(scope) is not nodes.FunctionDef or \
                scope.name.value.endswith("_") or \
                not _plain_parameter(scope, base) or bound_in(scope, base):
            return  # (``normalize_(a)``: by PyTorch's naming, writing its argument is its job)
        write = first_write(scope, node, frozenset({name}), array=share.value_array, views=True)
        if write is None:
            return
        yield self.report(node, None, **_bound_text(ctx, node, name, share),
                          write=ctx.snippet(write, 30), other=base,
                          after="the caller's argument, which it sees after the return (a "
                                "parameter this function never binds)",
                          fixed=clip(_out_of_place(ctx, write, name, share), 60))

    def _check(self, node, ctx, name: str, share: Share, found) -> Iterator[Report]:
        write, _, other = found
        call = share.call
        edits = []
        if _last_call_name(call) not in _BRIDGE_CALLS:
            # a project helper's bridge: the copy is the caller's to make, out of place
            yield self.report(node, None, **_bound_text(ctx, node, name, share),
                              write=ctx.snippet(write, 30), other=other,
                              after="which is read afterwards",
                              fixed=clip(_out_of_place(ctx, write, name, share), 60))
            return
        if share.value_array:
            fixed = f"{ctx.operand(call)}.copy()"
            edits.append(NodeEdit("replace", call, fixed))
        elif _last_call_name(call) == "from_numpy":
            fixed = f"{ctx.code(call.func)}({ctx.operand(share.base)}.copy())"
            edits.append(NodeEdit("replace", share.base, f"{ctx.operand(share.base)}.copy()"))
        else:
            torch = ctx.torch_ref(edits)
            if torch is None:
                edits = None
                fixed = "torch.tensor(...)"
            else:
                edits.insert(0, NodeEdit("replace", call.func, f"{torch}.tensor"))
                fixed = f"{torch}.tensor({ctx.code(call)[len(ctx.code(call.func)) + 1:]}"
        fix = FixPlan("make the bridge a copy", UNSAFE, edits) if edits else None
        where = "" if share.always else " " + " and ".join(share.conditions)
        yield self.report(node, fix, name=name, expr=ctx.snippet(call, 40), base=share.base_name,
                          where=where, write=ctx.snippet(write, 30), other=other,
                          after="which is read afterwards", fixed=clip(fixed, 60))


def _bound_text(ctx, node, name: str, share: Share) -> dict:
    """The message's ``name``, ``expr``, ``base`` and ``where`` for ``name`` bound by ``node``
    (an item of a tuple target: ``x, y = helper(x, y)`` shares through ``x``)."""
    target = node.targets[0].target
    through = "" if type(target) is nodes.Name else f" through `{name}`"
    when = "" if share.always else " " + " and ".join(share.conditions)
    return dict(name=ctx.snippet(target, 30), expr=ctx.snippet(share.call, 40),
                base=share.base_name, where=through + when)


def _plain_parameter(fn, name: str) -> bool:
    """Is ``name`` a parameter of ``fn`` without a default (not ``*args``/``**kwargs``)?"""
    params = fn.params
    for group in (params.params, params.kwonly_params, getattr(params, "posonly_params", ())):
        for p in group or ():
            if p.name.value == name:
                return p.default is None
    return False


#: in-place methods without an out-of-place method of the same name less the ``_``
_NO_OUT_OF_PLACE = frozenset({"copy_", "zero_", "fill_", "normal_", "uniform_", "random_",
                              "bernoulli_", "exponential_", "geometric_", "cauchy_",
                              "log_normal_", "set_", "resize_", "resize_as_"})


def _out_of_place(ctx, write, name: str, share: Share) -> str:
    """The write made out of place: ``x /= k`` -> ``x = x / k``, ``x.clamp_(0, 1)`` ->
    ``x = x.clamp(0, 1)``; else a copy before it."""
    if type(write) is nodes.AugAssign and type(write.target) is nodes.Name:
        op = ctx.code(write)[len(ctx.code(write.target)):].lstrip()
        op = op[:op.index("=")].strip() if "=" in op else ""
        if op:
            return f"{name} = {name} {op} {ctx.code(write.value)}"
    if type(write) is nodes.Call and type(write.func) is nodes.Attribute and \
            write.func.attr.value.endswith("_") and \
            write.func.attr.value not in _NO_OUT_OF_PLACE and \
            nodes.dotted_name(write.func.value) == name:
        text = ctx.code(write)
        head = ctx.code(write.func)
        return f"{name} = {head[:-1]}{text[len(head):]}"
    return f"{name} = {name}.{'copy' if share.value_array else 'clone'}()"


class RepeatedTensorWrite(Rule):
    code = "TEN406"
    name = "repeated-tensor-write"
    runtime_twin = True
    message = ("`{name} = {expr}` {shares}: {effect}; {advice}")
    hooks = (nodes.Assign,)
    fix_safety = UNSAFE
    unsafe_changes = ("raises", "stops_raising", "subclass_method", "values", "output")
    what = (
        "Flags writes into a tensor that repeats one piece of memory: a list made by "
        "`[t] * n` or `[t for _ in range(n)]` (`t` bound outside the comprehension, or a "
        "tensor-making call such as `torch.zeros_like(x)`) that is filled by "
        "`torch.distributed.all_gather(lst, x)`, or whose item is written in place "
        "(`lst[0].add_(1)`, `lst[i][j] = v`, `lst[i] += v`) while the list is read afterwards; "
        "and an item assignment `e[i] = row` into `e = x.expand(n, -1)` (or `broadcast_to`) "
        "where the code shows that dimension 0 of `x` has size 1 (`x.unsqueeze(0)`, `x[None]`, "
        "`torch.zeros(1, d)`) and the other dimensions are kept, so the write goes through "
        "silently. Not flagged: `all_gather_object` (it replaces the items), a comprehension "
        "that makes a new tensor per item, an expansion the code does not show.\n\n"
        "Runtime twin (`tensorcopy trace`, `pytest --tensorcopy`, each `torchrun` rank): "
        "`dist.all_gather(lst, x)` that returned with one tensor more than once in `lst`, "
        "reported at the line that bound the list; an item assignment into an `expand`/"
        "`expand_as`/`broadcast_to` result whose memory repeats, where the written region does "
        "not (torch writes it silently). A write through one item of a `[t] * n` list is not "
        "seen: no torch call makes the list, and watching every in-place write would cost "
        "every program."
    )
    why = (
        "`[torch.zeros(2)] * 3` is one tensor three times: `l[0].add_(1)` changes every item. "
        "`gathered = [torch.zeros_like(x)] * world_size; dist.all_gather(gathered, x)` writes "
        "every rank's tensor into the same memory: measured with gloo on 3 ranks holding 10, 11 "
        "and 12 it returns `[12, 12, 12]` on every rank (a training framework and an RL library "
        "have each shipped and fixed this). An expanded tensor's rows are one row of memory: "
        "`e.add_(1)` and `e[:, 0] = 7` raise, but `e[0] = row` writes silently into every row "
        "(and into `x`)."
    )
    use_instead = ("`[torch.zeros_like(x) for _ in range(world_size)]`; `x.expand(n, -1).clone()` "
                   "for rows of their own.")
    fix_doc = (
        "**Unsafe.** `[E] * n` becomes `[E for _ in range(n)]` where `E` is a call (a new tensor "
        "per item), and `[t.clone() for _ in range(n)]` where it is a name; the expansion gets "
        "`.clone()`. Each item (row) then has its own memory: the values the program computes "
        "change, which is the fix."
    )
    references = ("https://pytorch.org/docs/stable/distributed.html#torch.distributed.all_gather",
                  "https://pytorch.org/docs/stable/generated/torch.Tensor.expand.html")
    invalid = (
        Example("import torch\nimport torch.distributed as dist\n\ndef gather(x: torch.Tensor):\n"
                "    out = [torch.zeros_like(x)] * dist.get_world_size()\n"
                "    dist.all_gather(out, x)\n    return out\n",
                "import torch\nimport torch.distributed as dist\n\ndef gather(x: torch.Tensor):\n"
                "    out = [torch.zeros_like(x) for _ in range(dist.get_world_size())]\n"
                "    dist.all_gather(out, x)\n    return out\n", unsafe=True, run=False),
        Example("import torch\nbufs = [torch.zeros(2)] * 3\nbufs[0].add_(1)\nprint(bufs)\n",
                "import torch\nbufs = [torch.zeros(2) for _ in range(3)]\nbufs[0].add_(1)\n"
                "print(bufs)\n", unsafe=True),
        Example("import torch\nrow = torch.zeros(3)\ne = row.unsqueeze(0).expand(4, -1)\n"
                "e[0] = torch.ones(3)\nprint(e)\n",
                "import torch\nrow = torch.zeros(3)\ne = row.unsqueeze(0).expand(4, -1).clone()\n"
                "e[0] = torch.ones(3)\nprint(e)\n", unsafe=True),
    )
    valid = (
        "import torch\nimport torch.distributed as dist\n\ndef gather(x: torch.Tensor):\n"
        "    out = [torch.zeros_like(x) for _ in range(dist.get_world_size())]\n"
        "    dist.all_gather(out, x)\n    return out\n",
        "import torch\nimport torch.distributed as dist\n\ndef gather(obj):\n"
        "    out = [None] * dist.get_world_size()\n    dist.all_gather_object(out, obj)\n"
        "    return out\n",
        "import torch\nbufs = [torch.zeros(2)] * 3\nbufs[0] = bufs[0] + 1\nprint(bufs)\n",
        "names = ['a'] * 3\nnames[0] += 'b'\nprint(names)\n",
        "import torch\nx = torch.zeros(2, 3)\ne = x.expand(2, 3)\ne[0] = torch.ones(3)\n",
        "import torch\nrow = torch.zeros(3)\ne = row.unsqueeze(0).expand(4, -1)\nprint(e[0])\n",
    )
    fix_cases = (
        FixCase("bufs = [torch.zeros_like(t)] * 3\n    bufs[0].add_(1)\n    return bufs[1]",
                differs=("values",)),
        FixCase("e = torch.zeros(1, 3).expand(4, 3)\n    e[0] = torch.ones(3)\n    return e[1]",
                differs=("values",), kinds=("plain",)),
    )
    claims = claims_in("conversion_claims", "TEN406")

    def check(self, node, ctx) -> Iterable[Report]:
        bound = _bound(node)
        if bound is None:
            return ()
        value = bound[1]
        t = type(value)
        if t is nodes.BinaryOperation and type(value.operator) is nodes.Multiply or \
                t is nodes.ListComp:
            share = storage.share_of(value, ctx.inf)
            if share is None or share.how != REPEATED:
                return ()
            return self._repeated(node, ctx, bound[0].value, share)
        if _last_call_name(value) in ("expand", "broadcast_to"):
            scope = ctx.scope_node
            share = storage.expanded_rows(value, ctx.inf,
                                          lambda name: sole_binding(scope, name, node))
            if share is None:
                return ()
            return self._expanded(node, ctx, bound[0].value, share)
        return ()

    def _repeated(self, node, ctx, name: str, share: Share) -> Iterator[Report]:
        scope = ctx.scope_node
        write = first_write(scope, node, frozenset({name}), items=True, gathers=True)
        if write is None:
            return
        if type(write) is nodes.Call and storage_gather(write, name):
            if ctx.qualname(write.func) not in _GATHERS:
                return
            effect = (f"`{ctx.snippet(write, 30)}` writes every rank's tensor into that one "
                      f"tensor, so every item ends up holding the last one")
        elif read_after(scope, write, name):
            effect = f"`{ctx.snippet(write, 30)}` changes every item of `{name}`"
        else:
            return
        value = share.call
        fix = self._list_fix(ctx, value, share)
        yield self.report(node, fix, name=name, expr=ctx.snippet(value, 40),
                          shares="is one tensor repeated, not a list of tensors of their own", effect=effect,
                          advice="make one tensor per item (`[... for _ in range(n)]`)")

    def _list_fix(self, ctx, value, share: Share) -> Optional[FixPlan]:
        item = share.base
        if type(value) is nodes.ListComp:
            return FixPlan("clone per item", UNSAFE,
                           [NodeEdit("replace", item, f"{ctx.operand(item)}.clone()")])
        count = value.right if type(value.left) is nodes.List else value.left
        if _mentions_name(item, "_") or _mentions_name(count, "_"):
            return None
        elem = ctx.code(item) if type(item) is nodes.Call else f"{ctx.operand(item)}.clone()"
        return FixPlan("make a tensor per item", UNSAFE,
                       [NodeEdit("replace", value, f"[{elem} for _ in range({ctx.code(count)})]")])

    def _expanded(self, node, ctx, name: str, share: Share) -> Iterator[Report]:
        write = first_write(ctx.scope_node, node, frozenset({name}))
        if type(write) is not nodes.Assign:
            return
        target = next((a.target for a in write.targets if type(a.target) is nodes.Subscript), None)
        if target is None or len(target.slice) != 1 or \
                type(target.slice[0].slice) is not nodes.Index:
            return  # ``e[:, 0] = v`` raises where the region repeats: not silent
        value = share.call
        fix = FixPlan("give the expansion memory of its own", UNSAFE,
                      [NodeEdit("replace", value, f"{ctx.operand(value)}.clone()")])
        yield self.report(node, fix, name=name, expr=ctx.snippet(value, 40),
                          shares="repeats one row of memory in every row",
                          effect=f"`{ctx.snippet(write, 30)}` writes that row, so every row of "
                          f"`{name}` changes (and `{ctx.snippet(share.base, 20)}`)",
                          advice=f"write into `{ctx.snippet(value, 30)}.clone()`")


def storage_gather(call, name: str) -> bool:
    """``X.all_gather(name, ...)``: a gather into the list ``name``."""
    func = call.func
    return type(func) is nodes.Attribute and func.attr.value == "all_gather" and \
        bool(call.args) and type(call.args[0].value) is nodes.Name and \
        call.args[0].value.value == name


def _mentions_name(expr, name: str) -> bool:
    if type(expr) is nodes.Name:
        return expr.value == name
    return any(_mentions_name(c, name) for c in expr.children)
