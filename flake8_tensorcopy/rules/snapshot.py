"""TEN402: a ``state_dict()`` kept as a snapshot across training is the live tensors."""
from __future__ import annotations

import re
from typing import Iterable, Iterator, List, Optional, Tuple

from ..syntax import nodes

from ..semantic.kinds import TENSOR_DICT, Qual
from ..semantic.index.statedict_summaries import (
    kept_on_instance, returned_live_state_dict, weight_change,
)
from ..semantic.statedicts import Live, live_state_dict, reads_keys_only, same_storage
from ..syntax.nodes import dotted_name, last_name
from .context import statement_blocks, statement_list
from .base import Claim, FixCase, UNSAFE, Example, FixPlan, NodeEdit, Report, Rule
from .snapshot_claims import (
    cpu_snapshot_is_the_tensors_on_cpu, deep_snapshots_keep_old_weights,
    optimizer_state_follows_step, shallow_snapshots_follow_step,
)


class StateDictSnapshot(Rule):
    code = "TEN402"
    name = "state-dict-snapshot"
    message = ("`{target}` keeps `{expr}`: {live}; after {change} it is "
               "read again and holds the new values; {advice}")
    hooks = (nodes.Assign, nodes.AnnAssign, nodes.Expr)
    fix_safety = UNSAFE
    what = (
        "Flags a binding (to a name, an attribute, or into a container) of `X.state_dict()` or "
        "of a shallow copy of one (`.copy()`, `dict(...)`, `OrderedDict(...)`, `copy.copy(...)`, "
        "`{k: v for k, v in ....items()}`, `{k: v.detach() ...}`, `{k: v.cpu() ...}`; also of a "
        "name holding a live state dict: `sd.copy()`), of a project function's result when "
        "every `return` of it is one (`trainer.get_weights()` returning "
        "`self.model.state_dict()`), also `optimizer.state_dict()`, when the binding is read "
        "after a point where the module or optimizer can change: an optimizer step, a "
        "`backward()`, a training call (a callee named `train...`/`fit`, one handed an "
        "optimizer, or a project function that steps an optimizer), a `load_state_dict` into "
        "the same object, a project function that writes the module's parameters in place (an "
        "EMA helper's `copy_to(model)`), or a loop's next turn around one of them; when its "
        "tensors were handed to `setattr` before such a point; or when an attribute binding "
        "(`self.best = model.state_dict()`) is handed to `load_state_dict` in another method of "
        "the class or of a class of the file related to it by inheritance, or in the same "
        "method where a later call reaches the load first (an `EarlyStopping` helper). Reads "
        "of the keys alone (`len(sd)`, `k in sd`, `sd.keys()`) are not reads of the tensors."
    )
    why = (
        "`state_dict()` returns references to the parameters and buffers, not copies; a "
        "shallow copy of the dict copies the references. Measured on CPU (torch 2.13): after "
        "one `SGD.step()` the snapshots made by `state_dict()`, `.copy()`, `dict()`, "
        "`OrderedDict()`, `copy.copy()` and a plain comprehension all equal the NEW weights, "
        "and so does `{k: v.detach() ...}`; `copy.deepcopy(...)` and `{k: v.detach().clone() "
        "...}` keep the old ones. BatchNorm's running statistics and `num_batches_tracked` "
        "follow too, and on CPU `{k: v.cpu() ...}` returns the same tensors (a copy on GPU). In "
        "`optimizer.state_dict()` Adam's `exp_avg` tensors move with the next step while "
        "`param_groups` is a fresh copy. The classic early-stopping loop (`if acc > best_acc: "
        "best_wts = model.state_dict()` ... `model.load_state_dict(best_wts)`) therefore "
        "restores the LAST weights, silently. PyTorch's own transfer-learning tutorial shipped "
        "this bug until it was changed to `copy.deepcopy` (pytorch/tutorials#188).\n\n"
        "Precision needs flow: most `sd = model.state_dict()` lines are saved or loaded at once, "
        "remapped for conversion, or written through on purpose (`sd = model.state_dict(); "
        "sd[k].copy_(other[k])`); none of those is flagged. Only a read after a point where the "
        "weights can change is."
    )
    use_instead = "`best = copy.deepcopy(model.state_dict())`."
    fix_doc = (
        "**Unsafe.** The snapshot becomes `copy.deepcopy(X.state_dict())` (which keeps "
        "`_metadata`, unlike a comprehension), and `import copy` is added when `copy` is not "
        "bound. The program then restores (or saves) the weights of the moment the snapshot "
        "was taken instead of the latest ones: that is the point, and it changes what the "
        "program computes. Deep-copying also costs the memory of one copy of the weights. No "
        "fix is offered where `copy` names something else."
    )
    references = (
        "https://pytorch.org/tutorials/beginner/saving_loading_models.html",
        "https://github.com/pytorch/tutorials/pull/188",
    )
    invalid = (
        Example("import torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nbest_acc = 0.0\n"
                "for epoch in range(3):\n    opt.zero_grad()\n"
                "    model(torch.ones(2, 3)).sum().backward()\n    opt.step()\n"
                "    acc = float(-epoch)\n    if acc >= best_acc:\n        best_acc = acc\n"
                "        best_wts = model.state_dict()\nmodel.load_state_dict(best_wts)\n",
                "import copy\nimport torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nbest_acc = 0.0\n"
                "for epoch in range(3):\n    opt.zero_grad()\n"
                "    model(torch.ones(2, 3)).sum().backward()\n    opt.step()\n"
                "    acc = float(-epoch)\n    if acc >= best_acc:\n        best_acc = acc\n"
                "        best_wts = copy.deepcopy(model.state_dict())\n"
                "model.load_state_dict(best_wts)\n", unsafe=True),
        Example("import copy\nimport torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                "start = model.state_dict().copy()\n"
                "model(torch.ones(2, 3)).sum().backward()\nopt.step()\n"
                "model.load_state_dict(start)\n",
                "import copy\nimport torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                "start = copy.deepcopy(model.state_dict())\n"
                "model(torch.ones(2, 3)).sum().backward()\nopt.step()\n"
                "model.load_state_dict(start)\n", unsafe=True),
        Example("import torch\n\n\nclass EarlyStopping:\n    def __init__(self):\n"
                "        self.best = None\n\n    def __call__(self, loss, model):\n"
                "        self.best = {k: v for k, v in model.state_dict().items()}\n\n"
                "    def restore(self, model):\n        model.load_state_dict(self.best)\n",
                "import copy\nimport torch\n\n\nclass EarlyStopping:\n    def __init__(self):\n"
                "        self.best = None\n\n    def __call__(self, loss, model):\n"
                "        self.best = copy.deepcopy(model.state_dict())\n\n"
                "    def restore(self, model):\n        model.load_state_dict(self.best)\n",
                unsafe=True, run=False),
        # the same tensors on CPU: no fix (a deep copy would keep GPU tensors on the GPU)
        Example("import torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                "start = {k: v.cpu() for k, v in model.state_dict().items()}\n"
                "model(torch.ones(2, 3)).sum().backward()\nopt.step()\n"
                "model.load_state_dict(start)\n"),
    )
    valid = (
        # saved or loaded at once
        "import io\nimport torch\nmodel = torch.nn.Linear(3, 1)\n"
        "torch.save(model.state_dict(), io.BytesIO())\n",
        "import io\nimport torch\nmodel = torch.nn.Linear(3, 1)\nsd = model.state_dict()\n"
        "torch.save(sd, io.BytesIO())\n",
        # used only before any further change
        "import torch\nmodel = torch.nn.Linear(3, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nsd = model.state_dict()\n"
        "print(len(sd))\nmodel(torch.ones(2, 3)).sum().backward()\nopt.step()\n",
        # edited for conversion and loaded elsewhere
        "import torch\nmodel = torch.nn.Linear(3, 1)\nother = torch.nn.Linear(3, 1)\n"
        "sd = model.state_dict()\nsd = {k.replace('a', 'b'): v for k, v in sd.items()}\n"
        "other.load_state_dict(sd)\n",
        # remapped and loaded at once, then only measured (issue 46)
        "import torch\nmodel = torch.nn.Linear(3, 1)\nsd = model.state_dict()\n"
        "model.load_state_dict({k.replace('module.', ''): v for k, v in sd.items()})\n"
        "print(len(sd), 'weight' in sd)\n",
        # deliberate write-through (nanoGPT's from_pretrained)
        "import torch\nmodel = torch.nn.Linear(3, 1)\nsd_hf = {'weight': torch.ones(1, 3)}\n"
        "sd = model.state_dict()\nwith torch.no_grad():\n    sd['weight'].copy_(sd_hf['weight'])\n",
        # deep-copied or cloned
        "import copy\nimport torch\nmodel = torch.nn.Linear(3, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "best = copy.deepcopy(model.state_dict())\nmodel(torch.ones(2, 3)).sum().backward()\n"
        "opt.step()\nmodel.load_state_dict(best)\n",
        "import torch\nmodel = torch.nn.Linear(3, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "best = {k: v.detach().clone() for k, v in model.state_dict().items()}\n"
        "model(torch.ones(2, 3)).sum().backward()\nopt.step()\nmodel.load_state_dict(best)\n",
        # taken again after the last change of each turn: fresh when read
        "import io\nimport torch\nmodel = torch.nn.Linear(3, 1)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor step in range(2):\n"
        "    model(torch.ones(2, 3)).sum().backward()\n    opt.step()\n"
        "    last = model.state_dict()\ntorch.save(last, io.BytesIO())\n",
    )
    fix_cases = (
        FixCase("torch.manual_seed(0)\n    m = torch.nn.Linear(2, 1)\n"
                "    opt = torch.optim.SGD(m.parameters(), lr=0.5)\n    best = m.state_dict()\n"
                "    m(torch.ones(1, 2)).sum().backward()\n    opt.step()\n"
                "    m.load_state_dict(best)\n    return m.weight",
                differs=("values",), kinds=("plain",)),
    )
    claims = (
        Claim("shallow-snapshots-follow-step", "semantics",
              "after one `SGD.step()`, a snapshot made by `state_dict()`, `.copy()`, `dict()`, "
              "`OrderedDict()`, `copy.copy()`, `{k: v}` or `{k: v.detach()}` equals the new "
              "weights", shallow_snapshots_follow_step),
        Claim("cpu-snapshot-is-the-tensors-on-cpu", "semantics",
              "`{k: v.cpu() ...}` of a module on the CPU equals the new weights after one "
              "`SGD.step()`: the same tensors (from a GPU, `.cpu()` copies)",
              cpu_snapshot_is_the_tensors_on_cpu, devices=("cpu",)),
        Claim("deep-snapshots-keep-old-weights", "semantics",
              "`copy.deepcopy(state_dict())` and `{k: v.detach().clone()}` keep the weights of "
              "the moment they were taken, and loading the deep copy restores them",
              deep_snapshots_keep_old_weights),
        Claim("optimizer-state-follows-step", "semantics",
              "Adam's `exp_avg` in an `optimizer.state_dict()` snapshot moves with the next step; "
              "its `param_groups` are a fresh copy", optimizer_state_follows_step),
    )

    def check(self, node, ctx) -> Iterable[Report]:
        """A plain function in front of ``_check``: a statement that binds or appends no
        state dict (nearly every one) returns at once, without making a generator."""
        t = type(node)
        if t is nodes.Assign:
            if len(node.targets) != 1:
                return ()
            target, value = node.targets[0].target, node.value
        elif t is nodes.AnnAssign:
            if node.value is None:
                return ()
            target, value = node.target, node.value
        else:  # ``history.append(model.state_dict())``
            call = node.value
            if type(call) is not nodes.Call or type(call.func) is not nodes.Attribute:
                return ()
            if call.func.attr.value == "load_state_dict" and call.args and \
                    type(call.args[0].value) is nodes.Attribute:
                return self._restored_from_instance(node, ctx, call.args[0].value)
            if call.func.attr.value != "append" or len(call.args) != 1:
                return ()
            target, value = call.func.value, call.args[0].value
        snap = snapshot(ctx, value)
        via = None
        if snap is None:
            # ``best = trainer.get_weights()``: a project function that returns a live state
            # dict (asked only where the file hands the target to ``load_state_dict``)
            if type(value) is not nodes.Call or _tracked_name(target) not in _loaded(ctx.source):
                return ()
            via = returned_live_state_dict(ctx.inf, value)
            if via is None:
                return ()
            snap = Live(None, None, False, "")
        return self._check(node, ctx, target, value, snap, via)

    def _check(self, node, ctx, target, value, snap: Live, via) -> Iterator[Report]:
        receiver = snap.receiver
        tracked = _tracked_name(target)
        if tracked is None:
            return
        owner = dotted_name(receiver) or "" if receiver is not None else ""
        found = _read_after_change(ctx, node, tracked, owner)
        if found is None and type(target) is nodes.Attribute and tracked.startswith("self.") \
                and not (receiver is not None and _fresh_optimizer(ctx, receiver)):
            found = _restored_elsewhere(ctx, node, tracked)
        if found is None:
            return
        change = found[0]
        fix = self._fix(ctx, value, snap)
        if snap.where:
            live = (f"{snap.where} the live tensors themselves, not a copy (a copy only on a "
                    f"GPU)")
            advice = "clone them for a snapshot (`v.detach().cpu().clone()`)"
        elif via is not None:
            live = f"the live tensors (`{via[0]}()` returns `{via[1][:40]}`), not a copy"
            advice = ("take `copy.deepcopy(...)` for a snapshot" if fix is not None
                      else "take a deep copy for a snapshot")
        else:
            live = "the live tensors, not a copy"
            advice = ("take `copy.deepcopy(...)` for a snapshot" if fix is not None
                      else "take a deep copy for a snapshot")
        yield self.report(node, fix, target=ctx.snippet(target, 30), expr=ctx.snippet(value, 40),
                          live=live, change=change, advice=advice)

    def _restored_from_instance(self, node, ctx, arg) -> Iterator[Report]:
        """``model.load_state_dict(es.best_state)`` where ``es``'s class binds ``best_state``
        to a live state dict (``EarlyStopping.step()``), called in a loop that also trains: the
        snapshot of an earlier turn holds the weights of the last one. Reported at the load (the
        binding is in another function, maybe another file)."""
        kept = kept_on_instance(ctx.inf, arg)
        if kept is None:
            return
        cls_name, method, text = kept
        change = _trained_after_keeping(ctx, f"{arg.value.value}.{method}")
        if change is None:
            return
        yield self.report(node, None, target=ctx.snippet(arg, 30), expr=text[:40],
                          live=f"the live tensors (kept by `{cls_name}.{method}()`), not a copy",
                          change=change,
                          advice=f"take a deep copy for a snapshot in `{cls_name}.{method}()`")

    def _fix(self, ctx, value, snap: Live) -> Optional[FixPlan]:
        if snap.where:
            return None  # a deep copy would keep GPU tensors on the GPU: the user's call
        edits: List[NodeEdit] = []
        bound = ctx.inf.lookup("copy")
        if bound is None:
            edits.append(NodeEdit("import", None, "copy"))
        elif not (type(bound) is Qual and bound.qual == "copy"):
            return None
        if snap.receiver is not None:
            inner = f"{ctx.operand(snap.receiver)}.state_dict()"
        else:
            inner = snap.source or ctx.code(value)
        edits.insert(0, NodeEdit("replace", value, f"copy.deepcopy({inner})"))
        return FixPlan("take `copy.deepcopy(...)` of the state dict", UNSAFE, edits)


# ---- what a snapshot is -----------------------------------------------------------------------
def snapshot(ctx, node) -> Optional[Live]:
    """``node`` when it holds a module's live tensors (``statedicts.live_state_dict``); a name
    counts as a live state dict where the binding reaching it is one (``TENSOR_DICT``)."""
    return live_state_dict(node, lambda name: ctx.inf.lookup(name) is TENSOR_DICT)


_LOADED = re.compile(r"load_state_dict\(\s*([A-Za-z_][\w.]*)\s*[,)]")
_loaded_in: Tuple[Optional[str], frozenset] = (None, frozenset())


def _loaded(source: str) -> frozenset:
    """The names and attribute chains handed to ``load_state_dict(...)`` in ``source`` (one
    pass per file: the last file's answer is kept, as one tuple read and written whole)."""
    global _loaded_in
    kept = _loaded_in
    if kept[0] is not source:
        kept = _loaded_in = (source, frozenset(_LOADED.findall(source)))
    return kept[1]


def _tracked_name(target) -> Optional[str]:
    t = type(target)
    if t is nodes.Name or t is nodes.Attribute:
        return dotted_name(target)
    if t is nodes.Subscript:
        return dotted_name(target.value)
    return None


# ---- flow: is the binding read after a point where the weights can change? ------------------
_LOOPS = (nodes.For, nodes.While)
_DEFS = (nodes.FunctionDef, nodes.ClassDef)


def _locate(stmts: list, line, chain: list) -> bool:
    for i, s in enumerate(stmts):
        if s is line:
            chain.append((stmts, i))
            return True
        for block in statement_blocks(s):
            chain.append((stmts, i))
            if _locate(block, line, chain):
                return True
            chain.pop()
    return False


def _mentions(node, name: str, skip=None) -> Optional[nodes.CSTNode]:
    """The first Name/Attribute chain spelling ``name`` under ``node`` (not under ``skip``)."""
    todo = [node]
    while todo:
        n = todo.pop()
        if n is skip:
            continue
        t = type(n)
        if t is nodes.Call or t is nodes.Comparison:
            if reads_keys_only(n, name):
                continue  # ``len(sd)``, ``k in sd``: the keys, never the tensors
        if t is nodes.Name or t is nodes.Attribute:
            if dotted_name(n) == name:
                return n
            if t is nodes.Attribute:  # ``x.name``'s attribute is not a read of ``name``
                todo.append(n.value)
            continue
        if t in _DEFS or t is nodes.Lambda:
            continue
        if t is nodes.Arg:  # a keyword's name is not a read either
            todo.append(n.value)
            continue
        todo.extend(reversed([c for c in n.children if c is not None]))
    return None


def _change(ctx, node, receiver: str) -> Optional[str]:
    """A call under ``node`` after which the module's or optimizer's tensors may have changed."""
    todo = [node]
    while todo:
        n = todo.pop()
        t = type(n)
        if t in _DEFS or t is nodes.Lambda:
            continue
        if t is nodes.Call:
            what = _changing_call(n, receiver)
            if what:
                return what
            why = weight_change(ctx.inf, n, receiver)
            if why:
                return f"`{ctx_name(n.func)}()` ({why})"
        todo.extend(c for c in n.children if c is not None)
    return None


def _changing_call(call, receiver: str) -> Optional[str]:
    func = call.func
    name = last_name(func) or ""
    low = name.lower()
    owner = dotted_name(func.value) if type(func) is nodes.Attribute else None
    owner_low = (owner or "").rsplit(".", 1)[-1].lower()
    if name == "step" and ("opt" in owner_low or "scaler" in owner_low):
        return f"`{owner}.step()`"
    if name == "backward":
        return "`backward()`"
    if name == "load_state_dict" and owner is not None and owner == receiver:
        return f"`{owner}.load_state_dict()`"
    if (low.startswith("train") or low.endswith("_train") or "train_" in low or low == "fit") \
            and not (name == "train" and owner is not None and not call.args and (
                owner == receiver or "model" in owner_low or "net" in owner_low)):
        return f"`{ctx_name(func)}()`"
    if name[:1].islower():
        for a in call.args:
            arg = dotted_name(a.value)
            if arg and arg.rsplit(".", 1)[-1].lower().startswith(("opt", "optim")):
                return f"`{ctx_name(func)}(..., {arg}, ...)`"
    return None


def ctx_name(func) -> str:
    return dotted_name(func) or last_name(func) or "a call"


class _Scan:
    __slots__ = ("bind", "name", "receiver", "ctx", "changed", "escaped")

    def __init__(self, ctx, bind, name: str, receiver: str) -> None:
        self.ctx = ctx
        self.bind = bind
        self.name = name
        self.receiver = receiver
        self.changed: Optional[str] = None
        #: a ``setattr(obj, k, v)`` that let the snapshot's tensors escape (``_escape``)
        self.escaped: Optional[nodes.CSTNode] = None

    def run(self, items) -> Optional[Tuple[str, nodes.CSTNode]]:
        for stmt in items:
            r = self.stmt(stmt, False)
            if r is not None:
                return r if r != "stop" else None
        return None

    def stmt(self, stmt, cond: bool):
        t = type(stmt)
        if t in _DEFS:
            return None
        if t is nodes.SimpleStatementLine:
            for small in stmt.body:
                r = self.small(small, cond)
                if r is not None:
                    return r
            return None
        if t is nodes.For and self.escaped is None:
            self.escaped = _escape(stmt, self.name)
        # a compound statement: its own expressions, then its blocks (each may not run)
        for field in ("test", "iter", "items", "subject"):
            part = getattr(stmt, field, None)
            if part is None:
                continue
            for p in part if type(part) in (list, tuple) else (part,):
                r = self.small(p, cond)
                if r is not None:
                    return r
        for block in statement_blocks(stmt):
            for s in block:
                r = self.stmt(s, True)
                if r is not None:
                    return r
        return None

    def small(self, node, cond: bool):
        rebinds = None
        t = type(node)
        if t is nodes.Assign or t is nodes.AnnAssign:
            for tgt in node.targets if t is nodes.Assign else (node,):
                tgt = tgt.target
                if type(tgt) in (nodes.Name, nodes.Attribute) and dotted_name(tgt) == self.name:
                    rebinds = tgt
        read = _mentions(node, self.name, skip=rebinds)
        if read is not None and self.changed is not None and node is not self.bind:
            return self.changed, read
        # a statement that rebinds the name runs its call first: on that path the name then
        # holds the new value, so the call changes nothing the name still holds
        change = _change(self.ctx, node, self.receiver) if rebinds is None else None
        if change is not None:
            self.changed = change
            if self.escaped is not None:  # the kept tensors now hold what the change wrote
                return f"{change} (its tensors were kept by `setattr(...)` before)", self.escaped
        if node is self.bind:
            if not cond and rebinds is not None:
                self.changed = None  # taken again: fresh (a container keeps the old one too)
        elif rebinds is not None and not cond:
            return "stop"
        return None


def _escape(loop, name: str) -> Optional[nodes.CSTNode]:
    """``for k, v in name.items(): setattr(obj, k, v)`` (also ``.values()``, ``v.detach()``,
    ``for k in name: setattr(obj, k, name[k])``): the ``setattr`` call that keeps the dict's
    tensors elsewhere, else None."""
    it = loop.iter
    target = loop.target
    value = None  # the loop's name for each tensor, or None: ``name[k]``
    key = None
    if type(it) is nodes.Call and not it.args and type(it.func) is nodes.Attribute and \
            dotted_name(it.func.value) == name:
        m = it.func.attr.value
        if m == "values" and type(target) is nodes.Name:
            value = target.value
        elif m == "items" and type(target) is nodes.Tuple and len(target.elements) == 2 and \
                type(target.elements[1].value) is nodes.Name:
            value = target.elements[1].value.value
        else:
            return None
    elif dotted_name(it) == name and type(target) is nodes.Name:
        key = target.value
    else:
        return None
    todo = list(statement_list(loop.body))
    while todo:
        n = todo.pop()
        if type(n) is nodes.Call and type(n.func) is nodes.Name and n.func.value == "setattr" \
                and len(n.args) == 3:
            v = n.args[2].value
            if value is not None and same_storage(v, value) is not None:
                return n
            if key is not None and type(v) is nodes.Subscript and dotted_name(v.value) == name \
                    and len(v.slice) == 1 and dotted_name(v.slice[0].slice.value) == key:
                return n
        if type(n) not in _DEFS and type(n) is not nodes.Lambda:
            todo.extend(c for c in n.children if c is not None)
    return None


def _read_after_change(ctx, bind, name: str, receiver: str):
    scope = ctx.scope_node
    body = statement_list(scope.body) if type(scope) is nodes.FunctionDef else list(scope.body)
    line = ctx.stmt_line
    chain: list = []
    if line is None or not _locate(body, line, chain):
        return None
    items: list = []
    for depth in range(len(chain) - 1, -1, -1):
        stmts, i = chain[depth]
        items.extend(stmts[i + 1:])
        owner = chain[depth - 1] if depth else None
        if owner is not None:
            compound = owner[0][owner[1]]
            if type(compound) in _LOOPS and stmts is not None and _is_body(compound, stmts):
                items.extend(stmts)  # the next turn
    return _Scan(ctx, bind, name, receiver).run(items)


def _trained_after_keeping(ctx, keeper: str) -> Optional[str]:
    """A loop before the current statement or around it that calls ``keeper`` (``es.step``)
    and also changes the weights: what changes them (``_change``), else None."""
    scope = ctx.scope_node
    body = statement_list(scope.body) if type(scope) is nodes.FunctionDef else list(scope.body)
    chain: list = []
    if ctx.stmt_line is None or not _locate(body, ctx.stmt_line, chain):
        return None
    loops = []
    for depth, (stmts, i) in enumerate(chain):
        if depth and type(chain[depth - 1][0][chain[depth - 1][1]]) in _LOOPS:
            loops.append(chain[depth - 1][0][chain[depth - 1][1]])  # around the load
        todo = list(stmts[:i])
        while todo:  # before it
            n = todo.pop()
            if type(n) in _LOOPS:
                loops.append(n)
            elif type(n) not in _DEFS:
                todo.extend(s for block in statement_blocks(n) for s in block)
    for loop in loops:
        if _calls(loop, keeper):
            change = _change(ctx, loop, "")
            if change is not None:
                return change
    return None


def _calls(node, dotted: str) -> bool:
    todo = [node]
    while todo:
        n = todo.pop()
        if type(n) is nodes.Call and dotted_name(n.func) == dotted:
            return True
        if type(n) not in _DEFS and type(n) is not nodes.Lambda:
            todo.extend(c for c in n.children if c is not None)
    return False


def _is_body(compound, stmts) -> bool:
    body = statement_list(compound.body)
    return len(body) == len(stmts) and all(a is b for a, b in zip(body, stmts))


def _fresh_optimizer(ctx, receiver) -> bool:
    """An optimizer's snapshot taken in ``__init__``: an optimizer has no state tensors until
    its first step and ``param_groups`` are copied, so a construction-time snapshot holds
    nothing live (fairseq's BMUF keeps one to reset the state)."""
    name = (last_name(receiver) or "").lower()
    scope = ctx.scope_node
    return type(scope) is nodes.FunctionDef and scope.name.value == "__init__" and (
        name.startswith("opt") or "optim" in name)


def _restored_elsewhere(ctx, bind, name: str):
    """``self.best = ...`` in one method, ``X.load_state_dict(self.best)`` in another method of
    the class or of a class of the file related to it by inheritance (the same object), or in
    the same method where a later call reaches the load before the binding (the load precedes
    it, or sits in another branch of an ``if``)."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef:
        return None
    cls = _owner_class(ctx.module, scope)
    if cls is None:
        return None
    for owner in _related_classes(ctx.module, cls):
        for stmt in statement_list(owner.body):
            if type(stmt) is not nodes.FunctionDef:
                continue
            if stmt is scope:
                hit = _restored_on_later_call(stmt, ctx.stmt_line, name)
                if hit is not None:
                    return f"a later call of `{stmt.name.value}()`", hit
                continue
            hit = _load_of(stmt.body, name)
            if hit is not None:
                where = "other methods" if owner is cls else f"`{owner.name.value}`'s methods"
                return f"later calls of {where} (`{stmt.name.value}()`)", hit
    return None


def _load_of(node, name: str):
    """A read of ``name`` in the first argument of a ``load_state_dict`` call under ``node``."""
    todo = [node]
    while todo:
        n = todo.pop()
        if type(n) is nodes.Call and last_name(n.func) == "load_state_dict" and n.args:
            hit = _mentions(n.args[0], name)
            if hit is not None:
                return hit
        todo.extend(c for c in n.children if c is not None)
    return None


def _lines_with_chain(stmts: list, chain: list):
    """Each simple statement line under ``stmts`` with its chain (``_locate``'s)."""
    for i, s in enumerate(stmts):
        chain.append((stmts, i))
        if type(s) is nodes.SimpleStatementLine:
            yield s, list(chain)
        elif type(s) not in _DEFS:
            for block in statement_blocks(s):
                yield from _lines_with_chain(block, chain)
        chain.pop()


def _restored_on_later_call(method, bind, name: str):
    """A load of ``name`` in ``method`` that a later call of it reaches without passing the
    binding's statement line ``bind`` first: it comes before the binding, or in another branch of an ``if``."""
    body = statement_list(method.body)
    at: list = []
    if bind is None or not _locate(body, bind, at):
        return None
    for line, chain in _lines_with_chain(body, []):
        hit = _load_of(line, name)
        if hit is not None and _order(at, chain) in ("before", "apart"):
            return hit
    return None


def _order(a: list, b: list) -> str:
    """Where statement chain ``b`` lies against ``a``: "after", "before", "apart" (another
    branch of one ``if``), or "unknown"."""
    for d in range(min(len(a), len(b))):
        (sa, ia), (sb, ib) = a[d], b[d]
        if sa[0] is not sb[0]:  # other blocks of the compound statement one level up
            up = a[d - 1][0][a[d - 1][1]] if d else None
            return "apart" if type(up) is nodes.If else "unknown"
        if ia != ib:
            return "after" if ib > ia else "before"
    return "unknown"


def _related_classes(module, cls) -> list:
    """``cls`` first, then the classes of the file that derive from it or that it derives from
    (by name, transitively): a method of any of them may run on the same ``self``."""
    classes = []
    todo = [module]
    while todo:
        n = todo.pop()
        if type(n) is nodes.ClassDef:
            classes.append(n)
        if type(n) in (nodes.Module, nodes.ClassDef, nodes.If, nodes.Try, nodes.IndentedBlock,
                       nodes.Else):
            todo.extend(c for c in n.children if c is not None)
    bases = {c.name.value: {last_name(b.value) for b in c.bases} for c in classes}
    related = {cls.name.value}
    grew = True
    while grew:
        grew = False
        for c in classes:
            n = c.name.value
            if n not in related and (bases[n] & related or any(
                    n in bases[r] for r in related if r in bases)):
                related.add(n)
                grew = True
    return [cls] + [c for c in classes if c is not cls and c.name.value in related]


def _owner_class(module, fn):
    todo = [module]
    while todo:
        n = todo.pop()
        if type(n) is nodes.ClassDef and any(s is fn for s in statement_list(n.body)):
            return n
        if type(n) in (nodes.Module, nodes.ClassDef, nodes.FunctionDef, nodes.If, nodes.Try,
                       nodes.IndentedBlock, nodes.Else, nodes.With):
            todo.extend(c for c in n.children if c is not None)
    return None
