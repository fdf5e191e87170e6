"""TEN402: a ``state_dict()`` kept as a snapshot across training is the live tensors."""
from __future__ import annotations

import ast
from typing import Iterable, Iterator, List, Optional, Tuple

from ..syntax import nodes

from ..semantic import graph
from ..semantic.graph_terms import made_container
from ..semantic.kinds import Qual
from ..semantic.index.statedict_summaries import kept_on_instance, \
    returned_live_by_name, returned_live_parameters, returned_live_state_dict, \
    returned_on_cpu_of
from ..semantic.devices import global_on_accelerator, on_accelerator
from ..semantic.storage_flow import bound_in, sole_binding
from ..semantic.statedicts import COPIES_ELSEWHERE, DICT_COPIES, Live, state_dict_receiver
from ..syntax.nodes import dotted_name
from ..syntax.snapshot_shapes import lagging_name, live_returners, snapshot_name
from .base import Claim, FixCase, UNSAFE, Example, FixPlan, NodeEdit, Report, Rule, check_in
from .context import cached, param_names
from .snapshot_parameters import parameter_kept
from .snapshot_records import live_fields
from .snapshot_values import live_items, parameter_item, snapshot
from ..syntax.source import LazyPattern


class StateDictSnapshot(Rule):
    code = "TEN402"
    name = "state-dict-snapshot"
    message = ("`{target}` keeps `{expr}`: {live}; after {change} it is "
               "read again and holds the new values; {advice}")
    hooks = (nodes.Assign, nodes.AnnAssign, nodes.Expr)
    fix_safety = UNSAFE
    what = (
        "Flags a binding (to a name, an attribute, or into a container; also as an item of a "
        "dict, tuple or list display: `state = {\"model\": model.state_dict(), \"epoch\": "
        "e}`, `kept.append((epoch, model.state_dict()))`, `store.update(weights=model."
        "state_dict())` on a dict the function makes, a field of a namedtuple or dataclass "
        "the file defines (`Best(score=s, weights=model.state_dict())`; `best.score` reads no "
        "tensor; not a dataclass with its own `__init__` or `__post_init__`), where a read of "
        "another constant "
        "key, `state[\"epoch\"]` or `kept[-1][0]`, is no read of its tensors) of "
        "`X.state_dict()` (`keep_vars=True` too; `best, score = model.state_dict(), 0.0`; "
        "`getattr(model, \"state_dict\")()`, the same method by a constant name) or "
        "of a shallow copy of one (`.copy()`, `dict(...)`, `OrderedDict(...)`, `copy.copy(...)`, "
        "`{k: v for k, v in ....items()}` with any key and filter, or its pairs handed to "
        "`dict`/`OrderedDict`, `{k: v.detach() ...}`, "
        "`{k: v.cpu() ...}`, `{k: v.cpu().numpy() ...}` (the same memory), `{k: v.float() "
        "...}` (the same float32 tensors), `{k: v.to(v.dtype) ...}` (nothing to convert), "
        "`{k: torch.as_tensor(v) ...}` (no dtype or device: "
        "`v` itself); also of a "
        "name holding a live state dict: `sd.copy()`), of a project function's result when "
        "every `return` of it is one (`trainer.get_weights()` returning "
        "`self.model.state_dict()`; `before = get_params(model)` returning `[p.data for p in "
        "model.parameters()]`, under a snapshot's name) or hands back a dict of the tensors it "
        "is given "
        "(`strip_prefix(net.state_dict())`), also `optimizer.state_dict()`, when the binding is "
        "read (at script level, a call of a module function reading the global is a read: "
        "`restore(net, tag)` loading `SNAPSHOTS[tag]`) "
        "after a point where the module or optimizer can change: an optimizer step, a "
        "`backward()`, a training call (a callee named `train...`/`fit`, one handed an "
        "optimizer, or a project function that steps an optimizer), a `load_state_dict` into "
        "the same object, a project function that writes the module's parameters in place (an "
        "EMA helper's `copy_to(model)`, its parameters in a `zip` in either place, or "
        "`copy_to(model.parameters())` writing the items it is given), or a loop's next turn "
        "around one of them, or the turn after it (a snapshot retaken on some turns only; a "
        "list re-sliced, `snaps = snaps[-3:]`, still holds them); when its "
        "tensors were handed to `setattr` before such a point; or when an attribute binding "
        "(`self.best = model.state_dict()`, an item of a `self` dict, `self.snapshots[epoch] = "
        "...`, or an append to a `self` container, `self.history.append(self.weights())`) is "
        "handed (whole or an item of it) to `load_state_dict` in another method of "
        "the class or of a class of the file related to it by inheritance, in the same "
        "method where a later call reaches the load first (an `EarlyStopping` helper), or "
        "anywhere in the project: through an instance of the class or of a subclass "
        "(`model.load_state_dict(early_stopping.best_state)` in a trainer whose file says what "
        "`early_stopping` is: `EarlyStopping(...)`, `isinstance(...)`, "
        "`__class__.__name__ == ...`) or through `self` in a subclass's method in another "
        "module; likewise a name a closure declares `nonlocal` (or a function `global`) that "
        "another closure (function) loads, an item a helper stores into the dict it is handed "
        "(`store[\"weights\"] = model.state_dict()`) or a closure into a list of its "
        "enclosing function (`cell[0] = ...`), where the caller loads it after changing the "
        "weights; a dict comprehension over a live dict's items handed to `load_state_dict` "
        "reads it; a dict of a module's parameters kept on `self` under any name "
        "(`self.teacher = {n: p for n, p in student.named_parameters()}`) that another method "
        "loads or runs the module on (`functional_call(student, self.teacher, (x,))`: a "
        "teacher that is the student as it is now); the items of a local list of the "
        "parameters under a snapshot's name (`meta_init = [p.data for p in params]` of "
        "`params = list(net.parameters())`); a list or dict of a module's parameters named "
        "for weights that must lag them, a target network's, an average's, a teacher's "
        "(`target_params = {k: v.detach() for k, v in qnet.named_parameters()}`, `ema = ...`, "
        "`teacher_params = dict(student.named_parameters())`; not where the module's own name "
        "says the same: `swa_params = list(swa_model.parameters())` is its live handle); "
        "views of the parameters count as the parameters "
        "(`[p.reshape(-1) for p in critic.parameters()]`, `p.view(-1)`, `p.flatten()`: a "
        "module's parameters are contiguous), paired one for one with them (`zip(target, "
        "critic.parameters())`: a Polyak target mixed with itself); a list or dict of a module's "
        "parameters kept on "
        "`self` under a snapshot's "
        "name (`self.anchor = [p.detach() for p in backbone.parameters()]`) that another "
        "method reads together with the parameters of the module spelled the same "
        "(`zip(backbone.parameters(), self.anchor)`: an L2-SP penalty measured against "
        "itself, always zero; under any other name, `self.source_weights = [p.detach() for "
        "p in backbone.parameters()]`, where one `zip` pairs the two or a loop over "
        "`named_parameters()`, or a comprehension's (EWC's `sum(... p - self.star[n] ... for "
        "n, p in self.model.named_parameters())`), reads the item kept for each name "
        "(`p - self.w0[n]`), the "
        "module spelled `self.backbone` too where the method binds `self.backbone = "
        "backbone` (and `model` where it binds `self.model = model`), a dict of them taken "
        "through a dict of the parameters (`{n: p.data for n, p in self.params.items()}`), and "
        "`self.reference = list(model.parameters())` under any name where a `zip` pairs it "
        "with the parameters); the parameters a method is given, kept on `self` as they are "
        "(`self.collected = [p.data for p in parameters]`, their `detach()`, `list(parameters)`), "
        "where another method copies them back into what it is given (`for c, p in "
        "zip(self.collected, parameters): p.data.copy_(c)`) and a third writes what it is "
        "given in place (an EMA's `store`, `copy_to` and `restore`: the restore copies the "
        "EMA weights onto themselves), unless the file gives the two methods different "
        "parameters; an "
        "optimizer's copy of its param groups' parameters that is the parameters themselves: "
        "SAM's `self.state[p][\"old_p\"] = p.data` in `for p in group[\"params\"]`, written "
        "in place in the same turn (`p.add_(e_w)`) and read by another method, or Lookahead's "
        "`self.slow = [[p.data for p in g[\"params\"]] for g in self.param_groups]` that "
        "another method pairs with the parameters in a `zip`; a "
        "rewind point on `self` loaded through a local a conditional expression chooses "
        "(`state = self.rewind_state if ... else self.init_state`); the live state dict of "
        "the model a method is handed, pushed onto a `self` heap or list on every call "
        "(`heapq.heappush(self.heap, (score, step, model.state_dict()))`, also through a "
        "local tuple) where another method returns what it reads from there (`return "
        "max(self.heap)[2]`; or through a name it binds from it, `states = [s for _, _, s in "
        "self.heap]` and their mean returned) and the file calls the method and trains (a top-k "
        "keeper: every entry is the last weights); an `__init__` keeping them where the "
        "attribute or the class has a snapshot's name, read from the instance (`k = "
        "Keeper(model)` ... `k.initial`) or from a list of instances (`snaps.append("
        "WeightSnapshot(model, tag))` ... `s.distance(model)` for `s` in it); such a snapshot "
        "is reported where it is kept, not where it is loaded. Also a name bound to one "
        "parameter of a module or a view "
        "of it (`head_w0 = model[-1].weight.reshape(-1)`, `b0 = model.fc.bias.detach()`, "
        "`.data`, `.view(-1)`, `.flatten()`, `torch.as_tensor(...)`) that the scope measures "
        "against that same parameter (`model[-1].weight.reshape(-1) - head_w0`, "
        "`torch.equal(model.fc.weight, w0)`) and reads after a point where the module can "
        "change: the measure is zero however it trained. Reads "
        "of the keys alone (`len(sd)`, `k in sd`, `sd.keys()`) are not reads of the tensors. Not "
        "flagged: a module made in the scope and only ever asked for its state dict (a "
        "template copied into fresh models that are trained instead), steps of optimizers the "
        "scope makes over other modules' parameters only (a teacher's snapshot while the "
        "student's optimizer steps), the state dict of a `self` module the file freezes and "
        "puts in eval mode and uses only for forward passes (a frozen teacher kept for a warm "
        "start), and changes after the owner's name is bound to another "
        "module (a fresh model each turn of a loop)."
    )
    why = (
        "`state_dict()` returns references to the parameters and buffers, not copies; a "
        "shallow copy of the dict copies the references. Measured on CPU (torch 2.13): after "
        "one `SGD.step()` the snapshots made by `state_dict()`, `.copy()`, `dict()`, "
        "`OrderedDict()`, `copy.copy()` and a plain comprehension all equal the NEW weights, "
        "and so does `{k: v.detach() ...}`; `copy.deepcopy(...)` and `{k: v.detach().clone() "
        "...}` keep the old ones. BatchNorm's running statistics and `num_batches_tracked` "
        "follow too, and on CPU `{k: v.cpu() ...}` returns the same tensors (a copy on GPU), "
        "as `.float()` does for float32 ones and `.numpy()` arrays share their memory. In "
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
              "`OrderedDict()`, `copy.copy()`, `{k: v}`, `{k: v.detach()}`, `{**sd}`, "
              "`dict(sd.items())`, `list(sd.values())`, `sd[\"weight\"]`, "
              "`{k: v.contiguous()}`, `{k: v.to(device)}` with the module on `device`, "
              "`list(m.parameters())`, `[p.data for p in "
              "m.parameters()]` or `{n: p.detach() for n, p in m.named_parameters()}` equals "
              "the new weights", check_in("snapshot_claims", "shallow_snapshots_follow_step")),
        Claim("cpu-snapshot-is-the-tensors-on-cpu", "semantics",
              "`{k: v.cpu() ...}` of a module on the CPU equals the new weights after one "
              "`SGD.step()`: the same tensors (from a GPU, `.cpu()` copies)",
              check_in("snapshot_claims", "cpu_snapshot_is_the_tensors_on_cpu"), devices=("cpu",)),
        Claim("float-and-numpy-snapshots-are-the-tensors", "semantics",
              "`{k: v.float() ...}` and `{k: v.to(torch.float32) ...}` of a float32 module on "
              "the CPU and `{k: v.cpu().numpy() ...}` equal the new weights after one "
              "`SGD.step()` (the same tensors, the same memory); `{k: v.double() ...}` keeps the "
              "old ones",
              check_in("snapshot_claims", "float_and_numpy_snapshots_are_the_tensors"),
              devices=("cpu",)),
        Claim("deep-snapshots-keep-old-weights", "semantics",
              "`copy.deepcopy(state_dict())` and `{k: v.detach().clone()}` keep the weights of "
              "the moment they were taken, and loading the deep copy restores them",
              check_in("snapshot_claims", "deep_snapshots_keep_old_weights")),
        Claim("optimizer-state-follows-step", "semantics",
              "Adam's `exp_avg` in an `optimizer.state_dict()` snapshot moves with the next step; "
              "its `param_groups` are a fresh copy",
              check_in("snapshot_claims", "optimizer_state_follows_step")),
        Claim("fresh-optimizer-snapshot-holds-nothing-live", "semantics",
              "`state_dict()` of a fresh `SGD`, `Adam`, `AdamW`, `RMSprop` (and the other "
              "optimizers of `STATELESS_UNTIL_STEP`; not `Adagrad`) holds no state tensors, and "
              "its `param_groups` stay as they were after a step and a new learning rate",
              check_in("snapshot_claims", "fresh_optimizer_snapshot_holds_nothing_live")),
    )

    def check(self, node, ctx) -> Iterable[Report]:
        """A plain function in front of ``_check``: a statement that binds or appends no
        state dict (nearly every one) returns at once, without making a generator."""
        t = type(node)
        if t is nodes.Assign:
            if len(node.targets) != 1:
                return ()
            target, value = node.targets[0].target, node.value
            if type(target) is nodes.Tuple and type(value) is nodes.Tuple:
                return self._unpacked(node, ctx, target, value)
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
            if call.func.attr.value == "update" and call.args and \
                    type(call.func.value) is nodes.Name:
                return self._updated(node, ctx, call)
            if call.func.attr.value.startswith("heap") and "state_dict" in ctx.source:
                from .accumulation_forms import pushed  # ``heapq.heappush(self.heap, (s, sd))``

                if not pushed(call):
                    return ()
                target, value = call.args[0].value, call.args[1].value
            elif call.func.attr.value != "append" or len(call.args) != 1:
                return ()
            else:
                target, value = call.func.value, call.args[0].value
        snap = snapshot(ctx, value)
        via = keys = None
        if snap is None and type(target) is nodes.Subscript and \
                snapshot_name(_tracked_name(target)):
            # ``self.backup[name] = param.data`` in ``for name, param in m.named_parameters()``
            snap = parameter_item(ctx, value)
        if snap is None and type(value) is nodes.Call:
            # ``best = Snapshot(epoch, score, model.state_dict())``, a record (any read: appended)
            found = live_fields(ctx, value, snapshot)
            if found is not None:
                value, snap, live = found
                keys = (0, live) if t is not nodes.Expr else None
        if snap is None and type(value) in (nodes.Dict, nodes.Tuple, nodes.List):
            # ``state = {"model": model.state_dict(), "epoch": e}``, ``snaps.append((epoch,
            # model.state_dict()))``: the items that are live, and where
            found = live_items(ctx, value)
            if found is not None:
                value, snap, live = found
                keys = (1 if t is nodes.Assign or t is nodes.AnnAssign else 2, live)
        if snap is None and type(value) is nodes.Call and t is not nodes.Expr and \
                snapshot_name(_tracked_name(target)):
            # ``before = get_params(model)``: a project function returning the parameters (of
            # this module or another: ``theta_prev = params_of(model)``)
            got = returned_live_parameters(ctx.inf, value)
            if got is not None:
                via, snap = got[:2], got[2]
        if snap is None and "param_groups" in ctx.source and (
                t is nodes.Assign and type(target) is nodes.Subscript or
                type(value) is nodes.ListComp and type(target) is nodes.Attribute):
            # an optimizer's own copy of its param groups' parameters: SAM's backup
            # (``self.state[p]["old_p"] = p.data``), Lookahead's slow weights
            # (``self.slow = [[p.data for p in g["params"]] for g in self.param_groups]``)
            from .snapshot_param_groups import group_backup, group_snapshot

            found = group_backup(ctx, target, value) if type(target) is nodes.Subscript \
                else group_snapshot(ctx, target, value)
            if found is not None:
                return (self.report(node, None, target=ctx.snippet(target, 30),
                                    expr=ctx.snippet(value, 40), change=found[0],
                                    live="the parameters' own tensors, not a copy",
                                    advice="clone them for a snapshot (`p.detach().clone()`)"),)
        if snap is None and t is nodes.Assign and type(target) is nodes.Attribute and \
                type(value) in (nodes.ListComp, nodes.Call) and "copy_" in ctx.source:
            # ``self.collected = [p.data for p in parameters]``: an EMA's store of what it is
            # given, which its restore copies back after its ``copy_to`` wrote the parameters
            from .snapshot_arguments import restored_onto_itself

            found = restored_onto_itself(ctx, node, dotted_name(target) or "", value)
            if found is not None:
                return (self.report(node, None, target=ctx.snippet(target, 30),
                                    expr=ctx.snippet(value, 40), change=found[0],
                                    live="the parameters' own tensors, not a copy",
                                    advice="clone them for a snapshot (`p.detach().clone()`)"),)
        if snap is None and type(target) is nodes.Name and t is not nodes.Expr:
            # ``head_w0 = model[-1].weight.reshape(-1)`` measured against itself later
            found = parameter_kept(ctx, node, target.value, value)
            if found is not None:
                return (self.report(
                    node, None, target=target.value, expr=ctx.snippet(value, 40),
                    change=found[0], live=f"the storage of `{found[1]}` itself, not a copy",
                    advice="clone it for a snapshot (`.detach().clone()`)"),)
        if snap is None:
            # ``best = trainer.get_weights()``: a project function that returns a live state
            # dict (asked only where the file hands the target to ``load_state_dict``, to a
            # method of the file that loads it, or to a project function that does)
            if type(value) is not nodes.Call:
                return ()
            tree, tracked = ctx.module._a, _tracked_name(target)
            loads = "load_state_dict" in ctx.source or "functional_call" in ctx.source
            by_name = False
            if not (loads and tracked in _loaded(ctx.source)):
                # ``best = trainer.weights()`` of the file's method that returns one, handed to
                # the file's method that loads it (``trainer.set_weights(best)``)
                by_name = loads and type(value.func) is nodes.Attribute and \
                    value.func.attr.value in live_returners(tree, ctx.source)
                if by_name:
                    from .snapshot_methods import handed_to_loaders

                    if tracked not in handed_to_loaders(tree) and not snapshot_name(tracked):
                        return ()  # (a name that says it keeps a snapshot: read as one)
                # or ``self.best = capture(self.model)`` ... ``restore(self.model,
                # self.best)`` of project functions (another module's, often), or ``best =
                # get_weights(model)`` in a loop that trains, then any read of it: a name that
                # says it keeps a snapshot is read as a ``state_dict()`` snapshot's name is
                # (``read_after_change``)
                elif not snapshot_name(tracked) or \
                        returned_live_state_dict(ctx.inf, value) is None:
                    return ()
            via = returned_live_state_dict(ctx.inf, value) or (
                returned_live_by_name(ctx.inf, value, tree) if by_name else None)
            if via is None:
                return ()
            on_cpu = returned_on_cpu_of(ctx.inf, value)
            if type(on_cpu) is nodes.Name and _on_gpu(ctx, node, on_cpu):
                return ()  # ``cpu_state(model)`` of a module the code puts on a GPU: a copy
            snap = Live(None, None, False, "")
        return self._check(node, ctx, target, value, snap, via, keys)

    def _updated(self, node, ctx, call) -> Iterable[Report]:
        """``store.update(score=s, weights=model.state_dict())`` or ``store.update({"weights":
        model.state_dict()})`` of a dict the scope makes (``_made_dict``): the keys it sets to
        a live state dict, as ``store["weights"] = ...`` would."""
        args = call.args
        if len(args) == 1 and args[0].keyword is None and not args[0].star and \
                type(args[0].value) is nodes.Dict:
            found = live_items(ctx, args[0].value)
            if found is None:
                return ()
            value, snap, keys = found
        else:
            if any(a.keyword is None for a in args):
                return ()
            live = [(a.keyword.value, a.value, snapshot(ctx, a.value)) for a in args]
            live = [x for x in live if x[2] is not None]
            if not live:
                return ()
            value, snap = live[0][1], live[0][2]
            keys = frozenset(x[0] for x in live)
        if not _made_dict(ctx, call.func.value):
            return ()  # (asked last: a walk of the scope)
        return self._check(node, ctx, call.func.value, value, snap, None, (1, keys))

    def _unpacked(self, node, ctx, target, value) -> Iterable[Report]:
        """``best, score = model.state_dict(), 0.0``: the first name bound to a snapshot."""
        elems = target.elements, value.elements
        if len(elems[0]) != len(elems[1]) or any(
                type(e) is not nodes.Element for pair in elems for e in pair):
            return ()
        for tgt, val in zip(*elems):
            snap = snapshot(ctx, val.value)
            if snap is not None and type(tgt.value) is nodes.Name:
                return self._check(node, ctx, tgt.value, val.value, snap, None)
        return ()

    def _check(self, node, ctx, target, value, snap: Live, via,
               keys: Optional[Tuple[int, frozenset]] = None) -> Iterator[Report]:
        # the flow of a snapshot: imported for the first one (most files keep none)
        from .snapshot_values import kept_each_turn, paired_with_live, retaken_in_loop
        from .snapshot_flow import constructed_fresh, fresh_optimizer, never_changed, \
            read_after_change
        from .snapshot_methods import compared_with_live, frozen_local, frozen_module, \
            handed_back, overwritten_backup, pushed_into_self, \
            restored_by_caller, restored_by_sibling, restored_elsewhere
        from .snapshot_stores import kept_in_module_store, kept_on_new_instance

        receiver = snap.receiver
        if receiver is None and snap.source is not None and "." not in snap.source:
            # ``teacher_sd = teacher.state_dict()`` ... ``{k: v for k, v in teacher_sd.items()}``:
            # the owner of the name's live dict, where the scope binds it once
            bound = sole_binding(ctx.scope_node, snap.source, node)
            receiver = state_dict_receiver(bound) if bound is not None else None
        tracked = _tracked_name(target)
        if tracked is None:
            return
        if snap.where == "on CPU" and type(receiver) is nodes.Name and _on_gpu(ctx, node, receiver):
            return  # ``.cpu()`` of a module the code puts on a GPU: a copy
        paired = None
        if snap.params and not snapshot_name(tracked) and not lagging_name(
                tracked, dotted_name(receiver)) and not (
                dotted_name(receiver) is not None and
                kept_each_turn(ctx, node, target, dotted_name(receiver))):
            # ``params = list(model.parameters())``: as often kept to use them live; unless
            # another method, or the function itself for values (``p.data``), pairs it with
            # the live parameters of the same module (``zip(model.parameters(), w0)``)
            if receiver is None or dotted_name(receiver) is None:
                return
            if type(target) is nodes.Name and type(ctx.scope_node) is nodes.FunctionDef:
                if not paired_with_live(ctx.scope_node, tracked, dotted_name(receiver), value):
                    return
            elif type(target) is not nodes.Attribute or not tracked.startswith("self."):
                return
            else:
                paired = compared_with_live(ctx, tracked, dotted_name(receiver), zipped=True)
                if paired is None and type(value) is nodes.DictComp:  # one another method
                    paired = restored_elsewhere(ctx, node, tracked)  # loads, functional_call
                if paired is None:
                    return
        if receiver is not None and constructed_fresh(ctx, node, receiver):
            return  # an optimizer before its first step: nothing live to keep
        if receiver is not None and (never_changed(ctx, receiver) or
                                     frozen_module(ctx, receiver) or frozen_local(ctx, receiver)):
            return  # a template only ever read for its state dict, a frozen teacher: nothing
            # changes its tensors
        owner = dotted_name(receiver) or "" if receiver is not None else ""
        if type(target) is nodes.Name and owner and not snap.shallow and \
                retaken_in_loop(ctx, tracked, owner):
            return  # a placeholder: the loop after it takes the snapshot (reported there)
        found = paired or read_after_change(ctx, node, tracked, owner, keys)
        if found is None and type(target) in (nodes.Attribute, nodes.Subscript) and \
                tracked.startswith("self.") and \
                not (receiver is not None and fresh_optimizer(ctx, receiver)):
            # (``self.snapshots[epoch] = ...``: a load of any item of it)
            found = restored_elsewhere(ctx, node, tracked, keys)
        if found is None and type(target) is nodes.Name:
            found = restored_by_sibling(ctx, tracked, keys)
        if found is None and type(target) is nodes.Subscript and owner:
            found = restored_by_caller(ctx, tracked, owner, keys) or \
                restored_by_sibling(ctx, tracked, keys, item=True)
            if found is None:
                found = kept_in_module_store(ctx, tracked, owner, keys)
        if found is None and snap.params and type(target) is nodes.Subscript and \
                tracked.startswith("self.") and owner:
            found = overwritten_backup(ctx, tracked, owner)
        if found is None and type(target) is nodes.Attribute and \
                tracked.startswith("self.") and owner:
            found = compared_with_live(ctx, tracked, owner)  # an L2-SP anchor, a drift
            if found is None:  # ``keeper.initial``, ``snaps.append(Snapshot(model))``
                found = kept_on_new_instance(ctx, tracked, owner, keys)
        if found is None and type(node) is nodes.Expr and type(target) is nodes.Attribute and \
                tracked.startswith("self.") and owner:
            found = handed_back(ctx, tracked, owner)  # a top-k keeper's heap
        elif found is None and type(target) is nodes.Name and owner and \
                type(ctx.scope_node) is nodes.FunctionDef and "heap" in ctx.source:
            into = pushed_into_self(ctx.scope_node, tracked)  # ``entry = (s, step, sd)``
            found = handed_back(ctx, into, owner) if into is not None else None
        if found is None:
            return
        change = found[0]
        fix = self._fix(ctx, value, snap)
        if snap.where:
            live = (f"{snap.where}, the live tensors themselves, not a copy (a copy only "
                    f"{COPIES_ELSEWHERE.get(snap.where, 'from another device')})")
            advice = "clone them for a snapshot (`v.detach().cpu().clone()`)" \
                if snap.where == "on CPU" else "clone them for a snapshot (`v.detach().clone()`)"
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
        snapshot of an earlier turn holds the weights of the last one. Reported at the load only
        where the binding's own analysis cannot see this load (``restored_in_project`` reports
        it at the binding, the line to change, when the file says what ``es`` is)."""
        kept = kept_on_instance(ctx.inf, arg)
        if kept is None:
            return
        cls_name, method, text, cls_path = kept
        here = ctx.inf.project
        if here is not None:
            span = ctx.text.range(node)
            if any(load.path == here.path and span.start.line <= load.line <= span.end.line
                   for load in here.attribute_restores(cls_name, cls_path, arg.attr.value)):
                return  # reported where it is kept: the binding is the line to change
        from .snapshot_flow import trained_after_keeping

        change = trained_after_keeping(ctx, f"{arg.value.value}.{method}")
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
        if not _same_keys(value):
            # a dict of its own (a comprehension, pairs, a helper's ``strip_prefix(sd)``): a
            # copy of what it makes, its keys, filter and type kept
            inner = ctx.code(value)
        elif snap.receiver is not None:
            inner = f"{ctx.operand(snap.receiver)}.state_dict()"
        else:
            inner = snap.source or ctx.code(value)
        edits.insert(0, NodeEdit("replace", value, f"copy.deepcopy({inner})"))
        return FixPlan("take `copy.deepcopy(...)` of the state dict", UNSAFE, edits)


def _on_gpu(ctx, node, receiver) -> bool:
    """Is the module ``receiver`` (a plain name) on a GPU where ``node`` runs, as the scope shows
    (``devices.on_accelerator``)?"""
    scope = ctx.scope_node
    if on_accelerator(scope, receiver.value, node, ctx.inf,
                      lambda name: sole_binding(scope, name, node)):
        return True
    # a global of a function (``model = Net().cuda()`` at module level)
    return type(scope) is nodes.FunctionDef and not bound_in(scope, receiver.value) and \
        receiver.value not in param_names(scope) and \
        global_on_accelerator(ctx.module, getattr(ctx.inf, "module_tree", None),
                              receiver.value, ctx.inf)


def _same_keys(value) -> bool:
    """Is ``value`` a state dict or a plain shallow copy of one (``sd.copy()``, ``dict(sd)``,
    ``OrderedDict(...)``, ``copy.copy(...)``, ``{k: v for k, v in sd.items()}``, its values
    detached): the same keys as the dict it copies?"""
    if type(value) is nodes.DictComp:
        comp, key, item = value.for_in, value.key, value.value
        while type(item) is nodes.Call and type(item.func) is nodes.Attribute and \
                item.func.attr.value == "detach" and not item.args:
            item = item.func.value
        elems = comp.target.elements if type(comp.target) is nodes.Tuple else ()
        return not comp.ifs and comp.inner_for_in is None and len(elems) == 2 and \
            type(key) is nodes.Name and type(item) is nodes.Name and \
            all(type(e.value) is nodes.Name for e in elems) and \
            (key.value, item.value) == (elems[0].value.value, elems[1].value.value)
    if type(value) is not nodes.Call or state_dict_receiver(value) is not None:
        return type(value) is nodes.Call
    func = value.func
    if type(func) is nodes.Attribute and func.attr.value == "copy" and not value.args:
        return True
    return dotted_name(func) in DICT_COPIES and len(value.args) == 1 and \
        type(value.args[0].value) not in (nodes.GeneratorExp, nodes.ListComp)


def _made_dict(ctx, name) -> bool:
    """Is ``name`` (a read) bound, on every path reaching it, to a list or dict the scope makes
    (``graph_terms.made_container``; what ``dict.update`` runs on, then a dict)? The scope's
    bindings, from a scope graph made for this question only (no oracle: calls are not asked)."""
    scope = ctx.scope_node
    a, tree = getattr(name, "_a", None), getattr(scope, "_a", None)
    if type(a) is not ast.Name or not isinstance(tree, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                          ast.Module)):
        return False
    g = cached(ctx, "_snapshot_graphs", scope, lambda: graph.scope_graph(tree, lazy=True))
    g._need()
    reach = g.uses.get(id(a))
    return bool(reach) and all(g.bindings[b].kind == "assign" and
                               made_container(g.bindings[b].value) for b in reach)


#: a name or attribute chain handed to ``load_state_dict`` (or an item of it: ``self.history[0]``),
#: or whose items a dict comprehension handed to it reads (``load_state_dict({k: v * m for k, v in
#: early.items()})``, on one line)
_LOADED = LazyPattern(r"load_state_dict\(\s*(?:([A-Za-z_][\w.]*)\s*(?:\[[^\]\n]*\]\s*)?[,)]|"
                      r"\{[^}\n]*?\bin\s+"
                      r"([A-Za-z_][\w.]*)\s*\.\s*items\s*\(\s*\)\s*\})|"
                      # ``functional_call(module, self.frozen, (x,))``: a load for one call
                      r"functional_call\(\s*[\w.]+\s*,\s*([A-Za-z_][\w.]*)\s*[,)]")
_loaded_in: Tuple[Optional[str], frozenset] = (None, frozenset())


def _loaded(source: str) -> frozenset:
    """The names and attribute chains handed to ``load_state_dict(...)`` in ``source`` (or as the
    tensors of ``functional_call``; one
    pass per file: the last file's answer is kept, as one tuple read and written whole)."""
    global _loaded_in
    kept = _loaded_in
    if kept[0] is not source:
        kept = _loaded_in = (source, frozenset(a or b or c
                                               for a, b, c in _LOADED.findall(source)))
    return kept[1]


def _tracked_name(target) -> Optional[str]:
    t = type(target)
    if t is nodes.Name or t is nodes.Attribute:
        return dotted_name(target)
    if t is nodes.Subscript:
        return dotted_name(target.value)
    return None

