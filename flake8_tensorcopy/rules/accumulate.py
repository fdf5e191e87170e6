"""TEN501: an accumulator that keeps every iteration's autograd graph alive."""
from __future__ import annotations

from typing import Iterable, Iterator, Optional

import ast

from ..semantic import graph, graph_loop_items, kinds
from ..semantic.storage_flow import bound_in
from ..semantic.graph_terms import walked_by
from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..syntax.accumulation_shapes import materialized
from ..syntax.grad_callers import Uses
from .accumulate_graph import consumed_by_callers, method_accumulation, scope_graph, summary
from .accumulate_callers import called_grad_on, called_per_step, kept_by_callers, \
    looped_by_callers, per_parameter, persists, plain_top, script_grad_on
from .accumulate_containers import buffer_slot, queue_put, stored_per_turn
from .accumulate_turns import cleared_every_turn, kept_for_turn, one_rollout, one_update, \
    unrolled_step
from .accumulation_forms import accumulation, concatenated_call, how_kept, kept_by_call, \
    may_keep, operands, stays_local
from .context import cached, param_names
from .accumulate_loops import closure_loop, differentiated, differentiates, \
    emptied_by_call, fans_out, in_loop, innermost_loop, loop_facts, module_container, reset_in, \
    returned, scope_facts, mentions_backward, self_step_call, step_hook, step_method, \
    stepped_by_caller, forward_hook
from .base import SAFE, UNSAFE, Claim, Example, FixCase, FixPlan, NodeEdit, Report, Rule, \
    applicability, check_in


def _checked(name: str):
    """A claim's check in ``accumulate_claims.py``, run with one CPU thread."""
    return check_in("accumulate_claims", name, one_thread=True)


class GraphKeepingAccumulator(Rule):
    code = "TEN501"
    runtime_twin = True
    name = "graph-keeping-accumulator"
    message = "`{acc}` accumulates `{value}`{shape}; accumulate {fixed}{also}"
    hooks = (nodes.AugAssign, nodes.Assign, nodes.Expr)
    fix_safety = UNSAFE
    what = (
        "Flags an accumulation inside a loop (`total += loss`, `total = total + loss`, "
        "`losses.append(loss)`, `losses.extend([loss])`, `recent.appendleft(loss)`, "
        "`heapq.heappush(heap, (score, step, z))`, `q.put(z)` into a `queue.Queue` the scope "
        "makes, `ema.mul_(d).add_(v)` (also once per call of a function that a loop of the file "
        "calls each step with grad on, over a module's parameters: `ema_p.mul_(d).add_(p)` for "
        "`zip(ema.parameters(), model.parameters())`, or for `zip(shadow, model.parameters())` of "
        "a list every such call hands it, made before the loop; `self.shadow[n] = ...`), "
        "`objs[i] = loss` into `np.empty(n, dtype=object)`, "
        "`buf.push(s, a, q)` of a method keeping its `*args` (or a record of them), "
        "`hist[\"loss\"].append(loss)`, `hist = torch.cat((hist, out))` (also a bounded queue, `q "
        "= torch.cat([q, out])[-k:]`: each step's graph links the last), `total = torch.add(total, "
        "loss)`, `stats[k] = stats.get(k, 0.0) + loss`, a running average `ema = 0.9 * ema + 0.1 * "
        "loss` (scaled by numbers, settings or arithmetic of them, `(1 - tau) * ema`; also of "
        "an item, `self.shadow[n] = tau * p + (1 - tau) * self.shadow[n]`; also started in one "
        "branch of `loss if ema is None else ...`), an item stored per "
        "index into a tensor, list or dict the function makes, or an object's class makes "
        "(`miner.cache[step] = logits` of `self.cache = {}`), in a loop that calls `backward()` "
        "(`losses[i] = loss`: a tensor records every store), a project function that appends one "
        "argument to another (`record(hist, loss)` with `store.append(value)`; or adds it into an "
        "item of it, `stats[key] = stats.get(key, 0.0) + value`) or to a module-level container of "
        "its module (`log_step(loss)` with `LOSSES.append(value)`; a `global` number, `TOTAL += "
        "value`), the same of a `staticmethod` or `classmethod` called on its class "
        "(`Stats.push(store, loss)`; `Tracker.log(loss)` with `cls.records.append(value)` of a "
        "list the class binds), `setattr(obj, name, getattr(obj, name, 0.0) + term)` (a total "
        "under a name chosen at run time), a list or dict display a project function returns "
        "of what it computes from an argument that keeps a graph "
        "(`probs.extend(gather_probs(logits))` with `return [logits.softmax(-1)]`), and a "
        "tracker's method that adds what it is given into an attribute of `self`: "
        "`meter.update(loss)` with `self.sum += val`, `self.sum += hvd.allreduce(val.cpu())` (an "
        "autograd-aware call), or every item of a dict it is given, `for k in losses: "
        "self.totals[k] += losses[k]`, or an average started from the first value it is given "
        "(`if self.avg is None: self.avg = v` then `self.avg = b * self.avg + (1 - b) * v`), or "
        "each keyword it is given, to a meter of a dict of meters (`logger.update(loss=loss)`, "
        "`logger.update(**loss_dict)` with `self.meters[k].update(v)` of "
        "`defaultdict(SmoothedValue)`), or one item of a dict it is given "
        "(`cb.on_batch_end(step, {\"loss\": loss})` with `self.losses.append(logs[\"loss\"])`), or "
        "a slice of a tensor the class keeps that it writes what it is given into "
        "(`self.bank[idx] = F.normalize(new)`, `self.queue[:, i:j] = keys.T`, "
        "`self.memory.index_copy_(0, idx, new)`: each write is linked to the last); also an "
        "object called like a function, `stopper(val_loss, "
        "model)` with a `__call__` keeping `score = -val_loss` in `self.scores`) of a "
        "graph-attached value into an accumulator that outlives the iteration; and what the "
        "`training_step` of a Lightning `LightningModule` appends to or adds into an attribute of "
        "`self` (`self.training_step_outputs.append(loss)`: Lightning runs it once per batch with "
        "grad on; not `validation_step`, which it runs under `no_grad`), or by a method whose own "
        "body calls `backward()` outside a loop (a training step: each call is a step; only a "
        "value the method proves attached, `self.losses.append(loss)` after `loss.backward()`), or "
        "by a method that a loop of the file calls by name and whose value that loop "
        "differentiates (`loss = module.training_step(batch, i)` ... `loss.backward()`: each call "
        "is a step made with grad on), or by a module's `forward` where a loop of the file "
        "differentiates what a call of its instance computed (`self.bank = torch.cat([self.bank, "
        "q])` in `forward`, with `model = Bank()` ... `loss = crit(model(x), y); "
        "loss.backward()`; `for model in (Bank(), Other()):` trains each, and so do `run(Bank())` "
        "with `run(model)` training its parameter and `nn.Sequential(nn.Linear(4, 4), Bank())`; "
        "a module of the file "
        "such a module keeps on `self` and runs in its `forward`, `self.attn = Attention(d)` "
        "... `h = self.attn(x)`, directly, as an item of a `nn.ModuleList`, or in a loop over "
        "one, runs its `forward` each step too), or by a top-level function into a list "
        "parameter that a loop of "
        "another function hands it on every step where that loop proves grad on (`collect(model, "
        "x, kept)` with `sink.append(model(x))`, `kept = []` before the loop; or into a list an "
        "instance it is handed each step keeps for good, `select_action(policy, state)` with "
        "`policy.all_log_probs.append(...)`, made in `__init__` and emptied nowhere; a loss "
        "summed from "
        "a number, `loss = 0.0` ... `loss += w * crit(o, y)`, proves it where it was summed), or "
        "by a forward hook keeping its `output` (`store.append(output)`, also "
        "`store.setdefault(name, []).append(output)`) outside the call, registered with "
        "`register_forward_hook` in a file whose loop calls `backward()`; "
        "also a project generator that yields what it differentiated, run to "
        "its end with every value kept (`list(train_steps(...))`, `sum(train_iter(...))`, "
        "`losses.extend(train_iter(...))`); a tensor attribute written in place, a slot at a "
        "time, in such a step or `forward` (`self.slots[ptr:ptr + b] = z`: each write links the "
        "tensor's last version); a module-level name a step function declares `global` and only "
        "adds to (`RUNNING += loss`). A value "
        "is graph-attached by the semantic core's graph facts (`semantic/graph.py`: "
        "flow-sensitive, every binding that reaches the read must be attached, a number it starts "
        "as aside, `total = 0.0`; function summaries in the project index carry it across calls "
        "and files), in two shapes, each with its own message: **after backward**, the value had a "
        "graph because backward ran through it: the value `backward()` is called on "
        "(`loss.backward()`, `scaler.scale(loss / k).backward()` (the loss, not the scaler; "
        "also bound first, `scaled = scaler.scale(loss); scaled.backward()`), "
        "`accelerator.backward(loss)`, "
        "`out[\"loss\"].backward()`), a term of that loss bound to a computed value (`loss = rec + "
        "kl` ... `total_rec += rec`; `(loss + 0.01 * reg).backward()` the same; arithmetic "
        "differentiated where it is made proves grad on there, so `(losses.mean() + "
        "aux).backward()` ... `per_sample[idx] = losses` holds a graph), a value of a "
        "dict whose values the loss sums (`loss = "
        "sum(loss_dict.values())` ... `for k, v in loss_dict.items(): hist[k].append(v)`), or of a "
        "dict a project function builds from what it is given (`dices = dice_per_class(logits, "
        "mask)` ... `for k, v in dices.items()`; also as an item of the tuple it returns, "
        "`total, terms = criterion(out, y)` ... `for k, v in terms.items()`, and what it computes "
        "from the negation of a parameter it is handed, `torch.exp(-model.log_vars)`), a record "
        "made of such values (a `NamedTuple`, `namedtuple` or dataclass of the file that keeps "
        "what it is given: `records.append(StepRecord(step, loss.item(), margin))`), the loss a "
        "called function differentiated and "
        "returns (`loss = train_step(batch)`), a field of a meter it fed such a value "
        "(`losses.update(loss, n)` ... `return losses.avg`, with `self.avg = self.sum / "
        "self.count`), a key of the dict it returns that it differentiated "
        "(`out[\"loss\"].backward(); return out` ... `total += out[\"loss\"]`) or a value of the "
        "dict display it returns that its backward proved attached (`return {\"loss\": loss, "
        "\"ce\": ce}` ... `for k, v in logs.items(): hist[k].append(v)`), an item of the tuple or "
        "namedtuple it returns (`a, b, total = step(x)` where `step` ran "
        "`losses.total.backward()` on a `LossTuple(*terms, sum(terms))`: each term too; at any "
        "depth, `total, (seg, depth) = step(x)`), a key of a returned dict computed "
        "from the loss or a term of it through operations that keep a graph (`out[\"psnr\"] = 10 * "
        "torch.log10(1 / out[\"mse\"])`), a dict whose item was differentiated "
        "(`out[\"loss\"].backward()` ... `outputs.append(out)`, unless the item is rewritten, "
        "deleted or the dict changed by a method; or returned by a called step that differentiated "
        "it, `terms = self.training_step(batch)` ... `history.log(terms)` with `log` appending "
        "every value it is given), or a dict, tuple or list holding one (a comprehension copying "
        "such a dict's values too, `{k: v for k, v in d.items()}`); the loss `opt.step(closure)` "
        "gives back where the closure differentiated it; what a loop takes from a generator that "
        "yields the loss it differentiated (`for loss in train_gen(...)`), or that yields a value "
        "derived from a forward pass, its own or of the model it is given (`yield "
        "F.cross_entropy(model(x), y), n`: a model output); a list the loop fills with such values "
        "(`values.append(v)`) and extends another with (`episode_values.extend(values)`); a model "
        "output a step function returns where it differentiates on every call (a `backward()` "
        "among its body's own statements, no `return` before it): its own module's, or a call of "
        "its parameter where the caller passes a module (`loss, out = step(student, batch)` with "
        "`student.train()` in the caller), or what a call of its parameter computes from a model "
        "output where the caller passes a loss (`val = validate(model, batch, crit)` returning "
        "`criterion(model(x), y)`, with `crit = nn.CrossEntropyLoss()` or `F.cross_entropy`); an "
        "item or key a called function derives from a model output it is given (or from a forward "
        "pass of its own) through operations that keep a graph, where grad mode is proven on: a "
        "value computed in the same grad mode was differentiated (`out = criterion(model(x), y); "
        "out[\"loss\"].backward()` ... `meter.update(out[\"y_bpp\"])` with `out[\"y_bpp\"] = "
        "torch.log(output[\"likelihoods\"][\"y\"]).sum()`), or a model output of the scope itself "
        "where a loss computed in the same grad mode was differentiated (`out = model(x); loss = "
        "F.mse_loss(out, y); loss.backward(); outs.append(out)`; the differentiated value proves "
        "nothing where it is a view or a conversion, which keep `requires_grad` with grad off; a "
        "parameter `model` whose `parameters()` the function reads, or whose `train()`/`eval()` it "
        "calls, is a module; a field or string key of its output counts too, `outputs.logits` "
        "after `outputs.loss.backward()`, not `.shape` or `.data`; an operation on an attribute of "
        "`self` its class makes only with `requires_grad=True` or as a `Parameter`, "
        "`self.log_alpha.exp()` after `alpha_loss.backward()`, or on a name bound to such a "
        "tensor (`log_vars = nn.Parameter(torch.zeros(3))` ... `torch.exp(-log_vars)`), counts "
        "as a model output, the attribute or name alone does not (a property of the class returning such an operation, "
        "`self.alpha` for `return self.log_alpha.exp()`, counts where it is read), and so does one "
        "on a module's `weight` or `bias` (`model.fc.weight.norm()`, `model[0].weight.norm()`, "
        "of a `model` whose "
        "`parameters()`, `train()` or `eval()` the function reads, where the file freezes no "
        "parameter; a module the file freezes by name as it binds it, `self.teacher = "
        "teacher.eval().requires_grad_(False)`, `QNet().requires_grad_(False)`, gives outputs "
        "with a graph only through their inputs and leaves the other modules theirs); nothing "
        "computed under `no_grad` or by a `@torch.no_grad()` function, nor "
        "after `.item()`, `float()` or `.detach()`; model outputs made in a list comprehension and "
        "stacked or concatenated, `torch.stack([model(a(x)) for a in augs])`, are model outputs "
        "too); **no backward**, a model's output (or a loss computed from it) accumulated in a "
        "loop that never calls `backward()`, where grad mode is provably on (no "
        "`torch.no_grad()`/`inference_mode()` block around it, no `set_grad_enabled`, no parameter "
        "frozen in the file): in script-level code (an item stored per index, `scores[i] = "
        "logits`, counts there too), or in a plain top-level function whose every caller is "
        "visible and runs it with grad on (each use of its name in its file is a call at script "
        "level, from a function proven so in turn, or from a function whose own `backward()` "
        "proves grad on where it calls it (`loss.backward()` ... `validate(model, val_loader)`; a "
        "call whose value is dropped, where the function returns what it accumulates), outside any "
        "`with` block about grad; no decorator on the way), or in a plain method called only as "
        "`self.m()` from methods of its class proven so (`self.model(x)` is a model's output where "
        "the method calls `self.model.eval()`, or where the class is handed the model and reads "
        "it as one, `self.model = model` in an `__init__` that reads `model.parameters()`, or "
        "whose output feeds the loss a method differentiates; a deep copy of a module is a "
        "module; `self.history = history if history is not None else History()` is a "
        "`History`); and "
        "no other file of the project imports the file, "
        "read from the text of every project file: an import naming it, or one by a computed name, "
        "keeps the function silent). Not flagged: an accumulator that is itself differentiated "
        "(`acc = acc + loss / k` ... `acc.backward()`, `torch.stack(losses).sum().backward()`), "
        "one reset on every iteration of the loop (a reset under a condition, `if step % 100 == 0: "
        "total = 0`, only bounds how many graphs it holds, and is flagged, unless the same block "
        "first runs `backward()`: gradient accumulation's `micro_losses = []` after the step that "
        "differentiates their sum), an episode's rollout (kept by a loop without `backward()` "
        "in a buffer the loop around it hands to an update and empties on every turn, "
        "`learn(model, opt, buf); buf.clear()`; in an attribute list that a function of the file "
        "builds its loss from, differentiates and empties, `del model.saved_actions[:]`; or a "
        "function that returns what it built "
        "from its lists to callers that differentiate it), and `.item()`, `.detach()` or "
        "`float(loss)` accumulations (a tracker method given `loss.item()`, or one that takes "
        "`val.item()` itself); a term of the loss that is a Python number; a function of a "
        "library, passed as a value or called under `no_grad` (its callers may run it without "
        "grad). A dict or tuple holding the value gets no fix (detach the tensor inside "
        "it): a call's own value holds the loss its function differentiated where that function "
        "returns a dict or tuple with it (`history.append(train_step(batch))`), or a dict it "
        "made and added what it differentiated into (`sums[k] += v` over the items of a dict "
        "whose `\"loss\"` it differentiated, `total[\"loss\"] = total[\"loss\"] + loss`); "
        "`return None` holds no graph, as a bare `return` does (`optimize_model()` returning "
        "`None` until its memory holds a batch); a function's summary reads a call of its "
        "module's own top-level model or loss (`model = Net()`, `criterion = nn.MSELoss()`) as a "
        "forward pass or a loss.\n\nRuntime twin (`tensorcopy trace`, `pytest --tensorcopy`): "
        "the after-backward "
        "shape written in place, `total += loss` or `total.add_(loss)` in the user's code with "
        "grad mode on, where `backward()` already ran on `loss` and `total` holds a graph; "
        "reported from the second such write into the same accumulator on. `total = total + loss` "
        "and `losses.append(loss)` are Python's own operations on new objects or a list, which no "
        "torch hook sees, and the no-backward shape needs the loop: those stay static only.")
    why = (
        "An accumulated tensor keeps its `grad_fn`, and through it every node of the graph that "
        "produced it; summing or appending losses chains each iteration's graph to the next "
        "(PyTorch's FAQ on running out of memory names exactly `total_loss += loss`). Measured "
        "on CPU torch 2.13 (a 512 -> 2048 -> 1 MLP, batch 256, 40 iterations, resident memory): "
        "accumulating `loss.detach()` +6 MiB; accumulating `loss` after its `backward()` +18 MiB "
        "(the graph's nodes and what they still hold); accumulating a module's output in a loop "
        "that never calls `backward()` with grad enabled (an evaluation loop without `no_grad`) "
        "+156 MiB, about 4 MiB per iteration: the out-of-memory case, since every activation "
        "saved for backward stays alive. With a 150-op MLP the after-backward shape grows about "
        "187 KiB per step (549 MiB after 3,000 steps) and keeps 14,004 graph nodes after 2,000 "
        "steps, and a later `total.backward()` raises \"backward through the graph a second "
        "time\".\n\n"
        "Precision needs flow: a naive matcher over 20 mature repositories finds 34 sites of "
        "which 2 are real; gradient accumulation (`acc = acc + loss / k; acc.backward()`) and "
        "`torch.stack(losses).sum().backward()` are correct and are not flagged, and the "
        "no-backward shape is reported only where grad mode is provably on."
    )
    use_instead = "`total += loss.detach()` (no device sync, unlike `loss.item()`)."
    fix_doc = (
        "**Unsafe** in general. The accumulated value becomes `X.detach()`: the accumulator no "
        "longer requires grad and has no `grad_fn`, so code that later differentiates it, or "
        "prints it (the `grad_fn=` part of a tensor's repr), sees a change; the graph of each "
        "iteration is freed (that is the point). **Safe** only where the accumulator is a local "
        "name of the function, the accumulated value is proven a tensor, and every other read of "
        "the accumulator is `acc.item()`: the accumulator never escapes the function and nothing "
        "derived from it is differentiated, so the values the program sees are the same. "
        "`float(acc)` does not qualify: on a tensor that requires grad it warns (\"Converting a "
        "tensor with requires_grad=True to a scalar may lead to unexpected behavior\"), which "
        "the detached accumulator no longer does (an error under `-W error`)."
    )
    references = (
        "https://pytorch.org/docs/stable/notes/faq.html"
        "#my-model-reports-cuda-runtime-error-2-out-of-memory",
        "https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html",
    )
    invalid = (
        Example("import torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ntotal = 0.0\n"
                "for step in range(3):\n    opt.zero_grad()\n"
                "    loss = model(torch.ones(2, 3)).pow(2).mean()\n    loss.backward()\n"
                "    opt.step()\n    total += loss\nprint(total)\n",
                "import torch\nmodel = torch.nn.Linear(3, 1)\n"
                "opt = torch.optim.SGD(model.parameters(), lr=0.1)\ntotal = 0.0\n"
                "for step in range(3):\n    opt.zero_grad()\n"
                "    loss = model(torch.ones(2, 3)).pow(2).mean()\n    loss.backward()\n"
                "    opt.step()\n    total += loss.detach()\nprint(total)\n", unsafe=True),
        Example("import torch\n\n\ndef train(model, loader, criterion, optimizer):\n"
                "    losses = []\n    for x, y in loader:\n        optimizer.zero_grad()\n"
                "        loss = criterion(model(x), y)\n        loss.backward()\n"
                "        optimizer.step()\n        losses.append(loss)\n    return losses\n",
                "import torch\n\n\ndef train(model, loader, criterion, optimizer):\n"
                "    losses = []\n    for x, y in loader:\n        optimizer.zero_grad()\n"
                "        loss = criterion(model(x), y)\n        loss.backward()\n"
                "        optimizer.step()\n        losses.append(loss.detach())\n"
                "    return losses\n", unsafe=True, run=False),
        Example("import torch\nmodel = torch.nn.Sequential(torch.nn.Linear(3, 8), "
                "torch.nn.ReLU(), torch.nn.Linear(8, 1))\nmodel.eval()\npreds = []\n"
                "for batch in torch.ones(4, 2, 3):\n    out = model(batch)\n"
                "    preds.append(out)\n",
                "import torch\nmodel = torch.nn.Sequential(torch.nn.Linear(3, 8), "
                "torch.nn.ReLU(), torch.nn.Linear(8, 1))\nmodel.eval()\npreds = []\n"
                "for batch in torch.ones(4, 2, 3):\n    out = model(batch)\n"
                "    preds.append(out.detach())\n", unsafe=True),
        # a term of the differentiated loss: it has a graph too
        Example("import torch\nmodel = torch.nn.Linear(3, 2)\ntotal_rec = 0.0\n"
                "for step in range(3):\n    out = model(torch.ones(2, 3))\n"
                "    rec = out.pow(2).mean()\n    kl = out.abs().mean()\n    loss = rec + kl\n"
                "    loss.backward()\n    total_rec += rec\nprint(total_rec)\n",
                "import torch\nmodel = torch.nn.Linear(3, 2)\ntotal_rec = 0.0\n"
                "for step in range(3):\n    out = model(torch.ones(2, 3))\n"
                "    rec = out.pow(2).mean()\n    kl = out.abs().mean()\n    loss = rec + kl\n"
                "    loss.backward()\n    total_rec += rec.detach()\nprint(total_rec)\n",
                unsafe=True),
        # the accumulator stays in the function and is read only as a number, but `loss` is
        # computed from a module's output and a caller's batch: open-world, an unsafe fix
        Example("import torch\nimport torch.nn.functional as F\n\n\ndef f(model, batches):\n"
                "    total = 0.0\n    for x, y in batches:\n"
                "        loss = F.mse_loss(model(x), y)\n        loss.backward()\n"
                "        total = total + loss\n    return total.item()\n",
                "import torch\nimport torch.nn.functional as F\n\n\ndef f(model, batches):\n"
                "    total = 0.0\n    for x, y in batches:\n"
                "        loss = F.mse_loss(model(x), y)\n        loss.backward()\n"
                "        total = total + loss.detach()\n    return total.item()\n", unsafe=True,
                run=False),
    )
    valid = (
        # the detached value, a Python number
        "import torch\nmodel = torch.nn.Linear(3, 1)\ntotal = 0.0\nhist = []\n"
        "for step in range(3):\n    loss = model(torch.ones(2, 3)).sum()\n    loss.backward()\n"
        "    total += loss.item()\n    total += float(loss)\n    hist.append(loss.detach())\n",
        # gradient accumulation: the accumulator is what is differentiated
        "import torch\nmodel = torch.nn.Linear(3, 1)\nacc = 0.0\n"
        "for step in range(8):\n    loss = model(torch.ones(2, 3)).sum()\n    acc = acc + loss / 4\n"
        "    if step % 4 == 3:\n        acc.backward()\n        acc = 0.0\n",
        "import torch\nmodel = torch.nn.Linear(3, 1)\nlosses = []\nfor step in range(4):\n"
        "    losses.append(model(torch.ones(2, 3)).sum())\ntorch.stack(losses).sum().backward()\n",
        # a term of the loss that is a Python number
        "import torch\nmodel = torch.nn.Linear(3, 1)\npen = 0.0\nfor i in range(3):\n"
        "    x = torch.ones(2, 3)\n    reg = len(x) * 0.1\n    loss = model(x).sum() + reg\n"
        "    loss.backward()\n    pen += reg\n",
        # an evaluation loop under no_grad
        "import torch\nmodel = torch.nn.Linear(3, 1)\npreds = []\nwith torch.no_grad():\n"
        "    for batch in torch.ones(4, 2, 3):\n        preds.append(model(batch))\n",
        # a function: its callers may run it under no_grad
        "import torch\n\n\ndef evaluate(model: torch.nn.Linear, batches):\n    outs = []\n"
        "    for b in batches:\n        outs.append(model(b))\n    return outs\n",
        # reset every iteration: nothing outlives it
        "import torch\nmodel = torch.nn.Linear(3, 1)\nfor step in range(3):\n    parts = []\n"
        "    loss = model(torch.ones(2, 3)).sum()\n    loss.backward()\n    parts.append(loss)\n",
    )
    fix_cases = (
        FixCase("total = 0\n    for i in range(3):\n        loss = (t * float(i + 1)).sum()\n"
                "        loss.backward()\n        total += loss\n    return total.item()",
                kinds=("leaf", "parameter", "float64", "zero_dim")),
        FixCase("total = 0\n    for i in range(3):\n        loss = (t * float(i + 1)).sum()\n"
                "        loss.backward()\n        total += loss\n    return total.requires_grad",
                differs=("result",), kinds=("leaf", "parameter", "float64", "zero_dim")),
    )
    claims = (
        Claim("after-backward-keeps-graph", "semantics",
              "accumulating `loss` after `loss.backward()` keeps every step's graph nodes "
              "reachable from the accumulator (the count grows with the steps), a later "
              "`total.backward()` raises \"backward through the graph a second time\", and "
              "accumulating `loss.detach()` keeps none",
              _checked("after_backward_keeps_graph")),
        Claim("stored-per-index-keeps-graph", "semantics",
              "storing the loss after `backward()` at a new index of a tensor each step "
              "(`losses[i] = loss`) keeps every step's graph reachable from that tensor (the "
              "count grows with the steps); storing `loss.detach()` keeps none",
              _checked("stored_keeps_graph")),
        Claim("bounded-queue-keeps-graph", "semantics",
              "a queue cut to its last 4 rows after each `torch.cat` with a model output after "
              "`backward()` (`queue = torch.cat([queue, out])[-4:]`) still reaches every step's "
              "graph (the count grows with the steps); `out.detach()` keeps none",
              _checked("bounded_queue_keeps_graph")),
        Claim("step-closure-returns-the-loss", "semantics",
              "`loss = opt.step(closure)`, whose closure differentiates the loss and returns "
              "it, gives back that loss with its graph (SGD, and LBFGS's first evaluation): "
              "keeping it each step keeps every step's graph reachable (the count grows with "
              "the steps); `.detach()` keeps none",
              _checked("step_closure_returns_the_loss")),
        Claim("no-backward-keeps-activations", "semantics",
              "appending a model's output in a loop without `backward()` and with grad enabled "
              "keeps every step's intermediate activations alive; `out.detach()` or "
              "`torch.no_grad()` frees them",
              _checked("no_backward_keeps_activations")),
        Claim("memory-grows-per-step", "semantics",
              "the memory held by the accumulator grows with every step in both shapes (after "
              "backward: the graph's nodes, in the resident set; without backward: the "
              "activations, in the resident set on CPU and in allocated memory on CUDA), and "
              "accumulating `.detach()` holds (about) none of it",
              check_in("accumulate_claims", "memory_grows_per_step")),
    )

    def check(self, node, ctx) -> Iterable[Report]:
        """In front of ``_check``: no generator for what accumulates nothing (``steps += 1``)."""
        found = accumulation(node) or queue_put(node, ctx)
        if found is None and kept_by_call(node, ctx.source) and may_keep(node.value) and (
                in_loop(ctx) or self_step_call(node.value, ctx)):
            # (asked only in a loop, or of ``self`` in a step method: ``_check`` reports nothing
            # elsewhere, and finding the called method's summary is the costly part); the
            # first argument it keeps that holds a graph
            for kept in method_accumulation(node, ctx):
                reports = list(self._check(node, ctx, kept)) if operands(kept[1]) else ()
                if reports:
                    return reports
            return ()
        if (found is None or found[2] == "append" and type(found[1]) is nodes.Call) and \
                type(node) in (nodes.Assign, nodes.AugAssign, nodes.Expr):
            got = self._materialized(node, ctx)  # (``losses.extend(train_iter(...))`` too)
            if got or found is None:
                return got
        return () if not operands(found[1]) else self._check(node, ctx, found)

    def _materialized(self, node, ctx) -> Iterable[Report]:
        """``list(train_steps(model, loader))``, ``sum(train_iter(...))``: a generator of the
        project that yields what it differentiated (``GraphSummary.yields``), every value kept."""
        a = getattr(node.value, "_a", None)
        call = materialized(a) if isinstance(a, ast.Call) else None
        if call is None or ctx.inf.in_no_grad:
            return ()
        built = next((n for n in nodes.within(node.value) if getattr(n, "_a", None) is call),
                     None)
        s = summary(ctx, built.func) if type(built) is nodes.Call else None
        if s is None or -1 not in getattr(s, "yields", ()):
            return ()
        gen = f"`{s.name}()`"
        keeper = a if a.args[0] is call else a.args[0]
        acc = f"{keeper.func.id}()" if type(keeper.func) is ast.Name else \
            ctx.snippet(node.value.func.value, 30)
        return [self.report(node, None, acc=acc, value=ctx.snippet(built, 30),
                            shape=f" (every value {gen} yields after `backward()` ran through it):"
                                  " every step's autograd graph stays reachable (memory grows "
                                  "each step; a later backward through it fails)",
                            fixed=f"what {gen} yields `.detach()`-ed (or its `.item()`)",
                            also="")]

    def _check(self, node, ctx, found) -> Iterator[Report]:
        acc, value, form = found
        line = ctx.stmt_line
        if line is None or (form in ("aug", "add", "ifexp", "cat", "store") and
                            ctx.inf.in_no_grad):
            return  # under no_grad ``total + loss`` records nothing
        cat = concatenated_call(node.value) if form == "cat" else None
        if not ctx.inf.imports_torch or (  # (``import torch.nn.functional as F`` is enough)
                cat is not None and not (ctx.inf.qualname(cat.func) or "").startswith("torch.")):
            return
        loop = innermost_loop(ctx, line)
        each = loop is not None and per_parameter(acc, loop)  # (``ema[n] = ...``, per turn)
        outer = innermost_loop(ctx, loop) if loop is not None and (each or fans_out(loop)) \
            else None
        if outer is not None:  # ``for k, v in losses.items(): hist[k].append(v)``, each step
            loop = outer
        fanned = loop if each and outer is None else None
        if fanned is not None:
            loop = None  # (``ema_p.add_(p)`` per parameter: once per call of the function)
        closure = loop is None and form in ("append", "aug", "add", "cat")
        hook = False
        step = stepped = kept = hooked = looped = per_call = None
        if closure:
            loop = closure_loop(ctx)  # ``evals.append(loss)`` in ``opt.step(closure)``'s closure
            if loop is None:  # ``self.outputs.append(loss)`` in Lightning's ``training_step``
                loop = step_hook(ctx)
                hook, closure = loop is not None, False
            if loop is None:  # ``self.losses.append(loss)`` in a method that ran backward
                loop = step = step_method(ctx)
                closure = False
            if loop is None and (dotted_name(acc) or "").startswith("self."):
                # ... or in a method whose value a loop of the file differentiates
                stepped = stepped_by_caller(ctx)
                loop = ctx.scope_node if stepped is not None else None
                hook = loop is not None
            kept = kept_by_callers(ctx, acc) if loop is None and form == "append" else None
            if kept is None and loop is None and form == "append" and \
                    type(acc) is nodes.Name and module_container(ctx, acc.value):
                # ``trace.append(v)`` into the module's list, in a function a loop calls
                kept = looped = looped_by_callers(ctx, acc.value)
            if kept is not None:  # ``sink.append(v)``, its caller's list handed on every step
                loop, closure = ctx.scope_node, False
            if loop is None and fanned is not None and persists(ctx, acc, form, fanned):
                # ``ema_p.mul_(d).add_(p)``, ``self.shadow[n] = ...``: once per call of a
                # function a loop calls with grad on, into what outlives the call
                per_call = called_per_step(ctx)
                if per_call is not None:
                    loop, closure = ctx.scope_node, False
            hooked = forward_hook(ctx, value) if loop is None else None
            if hooked is not None:  # a forward hook keeping its ``output``: every forward pass
                loop, closure = ctx.scope_node, False
        elif loop is None and type(form) is tuple and self_step_call(node.value, ctx):
            # ``self.log(name, loss)``, a method of its own keeping it in ``self``, in such a
            # method or in Lightning's ``training_step``
            loop = step_hook(ctx)
            stepped = stepped_by_caller(ctx) if loop is None else None
            loop = loop or (ctx.scope_node if stepped is not None else None)
            hook = loop is not None
            if loop is None:  # (``self.replay.update(idx, td)`` in a method that ran backward)
                loop = step = step_method(ctx)
        buffer = form == "store" and loop is None and buffer_slot(ctx, acc)
        if buffer:  # ``self.slots[i] = z`` in ``forward``: its history grows with every write
            loop = step_hook(ctx)  # (Lightning's ``training_step``; a method that ran backward;
            hook = loop is not None  # one whose value its caller differentiates)
            loop = loop or step_method(ctx)
            step = loop if loop is not None and not hook else None
            stepped = stepped_by_caller(ctx) if loop is None else None
            if stepped is not None:
                loop, hook = ctx.scope_node, True
        script = type(ctx.scope_node) is nodes.Module
        if loop is None or (form == "store" and not (script or buffer or mentions_backward(ctx))):
            return  # (an item per index: only where the scope's text calls ``backward``, or
            # at script level, where the file proves grad on: ``script_grad_on``)
        acc_code = ctx.code(acc)
        root = dotted_name(acc.value if type(acc) is nodes.Subscript else acc)
        if root is not None and type(form) is tuple and (form[1] or "").startswith("self."):
            root = form[1] if root == "self" else root + form[1][4:]  # ``miner.last_loss``
        if root is None or ((closure or hooked is not None and not root.startswith("self.")) and (
                root.partition(".")[0] in param_names(ctx.scope_node) or
                bound_in(ctx.scope_node, root.partition(".")[0]))) \
                or ((hook or step is not None) and not root.startswith("self.") and not (
                    step is not None and module_container(ctx, root))):
            return  # (a closure's own list, a step's: made afresh on each call)
        facts = loop_facts(ctx, loop)
        if reset_in(facts, acc, acc_code, node, ctx) or cleared_every_turn(
                loop, dotted_name(acc) or root, ctx.source) or (
                form == "store" and not buffer and not (
                (script or differentiates(ctx, loop)) and
                stored_per_turn(ctx, facts.bound, node, acc))):
            return  # (an item per index: asked only in a loop that differentiates, or a
            # script's loop)
        if type(value) is nodes.Name and not facts.any_backward and \
                kept_for_turn(ctx, loop, acc, acc_code, node, value.value):
            return
        if facts.any_backward and one_update(ctx, loop, acc, acc_code, node):
            return  # (a micro-batch loop's list, bound afresh per update)
        if not facts.any_backward and one_rollout(ctx, loop, dotted_name(acc) or root):
            return  # (an episode's rollout, emptied for each update)
        if not facts.any_backward and unrolled_step(ctx, loop, acc):
            return  # (a decoder's time steps, differentiated once after the loop)
        try:
            at = node._a if isinstance(node._a, ast.stmt) else None
            fact = scope_graph(ctx).attached(value._a, at) \
                if isinstance(value._a, ast.AST) else None
            if fact is None and form == "aug" and type(value) is nodes.Name:
                # ``ema_p.add_(p)``, ``total += p``: the add in place is an operation on the
                # leaf ``p`` (a module's parameter), recorded where grad is on
                fact = graph_loop_items.added_in_place(scope_graph(ctx), value._a, at)
        except RecursionError:  # an expression too deep to read: nothing is known
            fact = None
        if fact is None and hooked is not None:  # the output of a hooked module's forward pass
            fact = graph.Fact(graph.FORWARD, hooked, True)
        if fact is None:
            return
        container = type(value) in _CONTAINERS or fact.why in (graph.TERMS, graph.HOLDS) or \
            type(form) is tuple and len(form) > 2  # (a dict one item of which is kept)
        ev = kinds.signalled(ctx.evidence(value)) if not container else kinds.OPEN
        callers = False
        if not fact.needs_grad:
            if not container and ctx.evidence(value) == kinds.NOT:
                return
        elif hook or kept is not None or hooked is not None or per_call is not None or \
                step is None and (
                form != "store" or script) and (
                script_grad_on(ctx, facts) or (form != "store" and called_grad_on(
                    ctx, facts, lambda: returned(scope_facts(ctx), root)))):
            # proven by its callers (Lightning's own call of ``training_step``: no file's)
            callers = not hook and kept is None and hooked is None and \
                type(ctx.scope_node) is not nodes.Module
            if type(value) is nodes.BinaryOperation:
                ev = kinds.OPEN
        else:
            return
        # last, the one question asked of the whole scope (most candidates never get here)
        scope = scope_facts(ctx)
        if differentiated(scope, root) or root in scope.in_place_roots:
            return
        if emptied_by_call(ctx, loop, acc, form[1][5:] if type(form) is tuple and (
                form[1] or "").startswith("self.") else None):
            return  # (REINFORCE's episode buffer: a function the outer loop calls empties it)
        tree = ctx.inf.project.module_tree() if callers else None
        if tree is not None and returned(scope, root) and plain_top(ctx) and \
                consumed_by_callers(ctx, tree, cached(ctx, "_accumulate_callers", tree,
                                                      lambda: Uses(tree, ctx.source)),
                                    ctx.scope_node.name.value):
            return  # (an episode's rollout: what it returns, its caller differentiates)
        if callers and ctx.inf.project.imported_elsewhere():
            # asked last: the answer makes the file's analysis depend on every project file
            # (no cache keeps it), so only where everything else already holds
            return
        fields = dict(acc=ctx.snippet(acc, 30), value=ctx.snippet(value, 30),
                      fixed="`" + ctx.snippet(value, 30) + ".detach()`"
                      if ctx.operand(value) == ctx.code(value) else
                      f"`({ctx.snippet(value, 28)}).detach()`", also="")
        if container:
            fields["fixed"] = "each tensor in it `.detach()`-ed"
        elif form == "ifexp":
            fields["fixed"] = "`.detach()`-ed values in both branches"
        how = how_kept(form, fact)
        if stepped is not None:
            fields.update(shape=how + f" in `{ctx.scope_node.name.value}()`, whose value "
                                      f"`backward()` differentiates on line {stepped}, once per "
                                      "step: every call's autograd graph stays reachable from "
                                      "`self` (memory grows each step)")
        elif hooked is not None:
            fields.update(shape=how + f" in a forward hook (registered on line {hooked}), which "
                          "runs on every forward pass of the training loop: every step's "
                          "autograd graph stays reachable from it (memory grows each step)")
        elif per_call is not None:
            holder = "`self`" if root.startswith("self.") else "the parameters it walks" \
                if walked_by(getattr(fanned, "_a", None), root) is not None \
                else "the tensors it is handed"
            fields.update(shape=how + f" in `{ctx.scope_node.name.value}()`, which line "
                          f"{per_call} calls each step with grad on: every call's autograd "
                          f"graph stays reachable from {holder} (memory grows with each call)",
                          also=" or run the update under `torch.no_grad()`")
        elif looped is not None:
            fields.update(shape=how + f" in `{ctx.scope_node.name.value}()`, which line {kept} "
                          "calls each step with grad on: every step's autograd graph stays "
                          "reachable from the module's list (memory grows)")
        elif kept is not None:
            same = "list" if type(acc) is nodes.Name else \
                f"`{ctx.code(acc.value)}`, whose list nothing empties"
            fields.update(shape=how + f" in `{ctx.scope_node.name.value}()`, which line {kept} "
                          f"calls each step with grad on, handing it the same {same}: every "
                          "step's autograd graph stays reachable from it (memory grows)")
        elif hook:
            fields.update(shape=how + " in `training_step`, which Lightning runs once per batch "
                                      "with grad on: every step's autograd graph stays reachable "
                                      "until it is emptied or reset (memory grows each step)")
        elif step is not None:
            holder = "`self`" if root.startswith("self.") else f"`{root.partition('.')[0]}`"
            fields.update(shape=how + f" in `{step.name.value}()`, which calls `backward()`: "
                                      f"every call's autograd graph stays reachable from {holder} "
                                      "(memory grows with each call; a later backward through "
                                      "it fails)")
        elif not fact.needs_grad:
            fields.update(shape=how + ": every iteration's autograd graph stays reachable "
                                      "(memory grows each step; a later backward through it "
                                      "fails)")
        else:
            fields.update(shape=how + ", a model output made with grad enabled in a loop "
                                      "without `backward()`: every step's graph and "
                                      "activations stay alive (megabytes per step: the "
                                      "out-of-memory case)",
                          also=" or run the loop under `torch.no_grad()`")
        plan = None if container or form == "ifexp" else \
            self._fix(ctx, node, value, acc, root, ev)
        yield self.report(node, plan, **fields)

    def _fix(self, ctx, node, value, acc, root: str, ev: str) -> Optional[FixPlan]:
        safety = applicability([ev])
        if safety is None:
            return None
        if safety == SAFE and not stays_local(ctx, acc, root):
            safety = UNSAFE
        return FixPlan("accumulate `.detach()`", safety,
                       [NodeEdit("replace", value, (*ctx.operand_parts(value), ".detach()"))])


# ---- the accumulation ---------------------------------------------------------------------------
_CONTAINERS = (nodes.Tuple, nodes.List, nodes.Dict)
_LOOPS = (nodes.For, nodes.While)
