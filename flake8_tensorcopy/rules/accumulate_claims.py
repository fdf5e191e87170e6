"""TEN501's claims, run by ``tensorcopy verify``: an accumulator keeps every step's graph (and,
without ``backward()``, every step's activations) alive, and accumulating ``.detach()`` does
not. torch arrives through the verifier's helper ``v``: importing this never imports torch."""
from __future__ import annotations

from typing import Optional


def _mlp(v, width: int = 64, depth: int = 8):
    torch = v.torch
    torch.manual_seed(0)
    layers = []
    for _ in range(depth):
        layers += [torch.nn.Linear(width, width), torch.nn.Tanh()]
    return torch.nn.Sequential(*layers, torch.nn.Linear(width, 1)).to(v.device)


def _graph_nodes(t) -> int:
    """Autograd nodes reachable from ``t`` (0 for a tensor without a graph)."""
    seen = set()
    todo = [getattr(t, "grad_fn", None)]
    while todo:
        fn = todo.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def _growth(run):
    """Graph nodes reachable after 5 and after 10 steps of ``run(steps, detach)``, after 10
    steps keeping ``.detach()``, and the nodes added per step: ({5: n, 10: n}, fixed, per step)."""
    kept = {n: _graph_nodes(run(n, False)) for n in (5, 10)}
    return kept, _graph_nodes(run(10, True)), (kept[10] - kept[5]) / 5


def _after_backward(v, steps: int, detach: bool):
    """``total += loss`` (or ``loss.detach()``) after ``loss.backward()``, ``steps`` times."""
    torch = v.torch
    model = _mlp(v)
    x = torch.randn(16, 64, device=v.device)
    total = 0
    for _ in range(steps):
        loss = model(x).pow(2).mean()
        loss.backward()
        total = total + (loss.detach() if detach else loss)
    return total


def after_backward_keeps_graph(v):
    torch = v.torch
    kept, fixed, per_step = _growth(lambda n, d: _after_backward(v, n, d))
    total = _after_backward(v, 3, False)
    try:
        total.backward()
        second = "no error"
    except RuntimeError as exc:
        second = str(exc).split("\n")[0][:90]
    holds = per_step >= 10 and fixed == 0 and "second time" in second
    del torch
    return holds, {"graph_nodes_after_5": kept[5], "graph_nodes_after_10": kept[10],
                   "nodes_per_step": per_step, "graph_nodes_with_detach": fixed,
                   "total.backward()": second}


def _stored(v, steps: int, detach: bool):
    """``losses[i] = loss`` (or ``loss.detach()``) after ``loss.backward()``, into a tensor
    made before the loop."""
    torch = v.torch
    model = _mlp(v)
    x = torch.randn(16, 64, device=v.device)
    losses = torch.zeros(steps, device=v.device)
    for i in range(steps):
        loss = model(x).pow(2).mean()
        loss.backward()
        losses[i] = loss.detach() if detach else loss
    return losses


def stored_keeps_graph(v):
    """A tensor an item is stored into per step records each store (``CopySlices``): every
    step's graph stays reachable from it; storing ``loss.detach()`` keeps none."""
    kept, fixed, per_step = _growth(lambda n, d: _stored(v, n, d))
    return per_step >= 10 and fixed == 0, {
        "graph_nodes_after_5": kept[5], "graph_nodes_after_10": kept[10],
        "nodes_per_step": per_step, "graph_nodes_with_detach": fixed}


def _queued(v, steps: int, detach: bool):
    """``queue = torch.cat([queue, out])[-4:]`` (or ``out.detach()``) after ``backward()``."""
    torch = v.torch
    model = _mlp(v)
    queue = torch.zeros(0, 1, device=v.device)
    for _ in range(steps):
        out = model(torch.randn(2, 64, device=v.device))
        out.pow(2).mean().backward()
        queue = torch.cat([queue, out.detach() if detach else out])[-4:]
    return queue


def bounded_queue_keeps_graph(v):
    """A queue cut to its last rows after each concatenation still reaches every step's graph
    (each step's ``CatBackward`` links the one before); ``out.detach()`` keeps none."""
    kept, fixed, per_step = _growth(lambda n, d: _queued(v, n, d))
    return per_step >= 10 and fixed == 0, {
        "graph_nodes_after_5": kept[5], "graph_nodes_after_10": kept[10],
        "nodes_per_step": per_step, "graph_nodes_with_detach": fixed}


def _closure_steps(v, steps: int, detach: bool, lbfgs: bool):
    """``loss = opt.step(closure)`` (the closure differentiates the loss and returns it), the
    step's value kept (or its ``.detach()``), ``steps`` times; stacked into one tensor."""
    torch = v.torch
    model = _mlp(v)
    params = model.parameters()
    opt = torch.optim.LBFGS(params, lr=0.1, max_iter=2) if lbfgs else \
        torch.optim.SGD(params, lr=0.01)
    x = torch.randn(16, 64, device=v.device)
    kept = []
    for _ in range(steps):
        def closure():
            opt.zero_grad()
            loss = model(x).pow(2).mean()
            loss.backward()
            return loss
        loss = opt.step(closure)
        kept.append(loss.detach() if detach else loss)
    return torch.stack(kept)


def step_closure_returns_the_loss(v):
    """``opt.step(closure)`` gives back the loss the closure differentiated, graph and all
    (SGD: the closure's value; LBFGS: its first evaluation's): keeping it each step keeps every
    step's graph; ``.detach()`` keeps none."""
    out = {}
    holds = True
    for name, lbfgs in (("sgd", False), ("lbfgs", True)):
        _, fixed, per_step = _growth(lambda n, d: _closure_steps(v, n, d, lbfgs))
        holds = holds and per_step >= 10 and fixed == 0
        out.update({f"{name}_nodes_per_step": per_step, f"{name}_graph_nodes_with_detach": fixed})
    return holds, out


def _no_backward(v, steps: int, detach: bool, no_grad: bool = False):
    """An evaluation loop without ``no_grad``: the outputs appended; a weak reference to one
    intermediate activation of each step."""
    import contextlib
    import weakref
    torch = v.torch
    model = _mlp(v).eval()  # an evaluation loop: eval() does not turn grad off
    hidden = model[1]
    refs = []
    handle = hidden.register_forward_hook(lambda m, i, o: refs.append(weakref.ref(o)))
    outs = []
    with torch.no_grad() if no_grad else contextlib.nullcontext():
        for _ in range(steps):
            out = model(torch.randn(16, 64, device=v.device))
            outs.append(out.detach() if detach else out)
            del out
    handle.remove()
    alive = sum(r() is not None for r in refs)
    return outs, alive


def no_backward_keeps_activations(v):
    _, kept = _no_backward(v, 6, False)
    _, fixed = _no_backward(v, 6, True)
    _, under = _no_backward(v, 6, False, no_grad=True)
    return kept == 6 and fixed == 0 and under == 0, {
        "activations_alive_kept": f"{kept}/6", "activations_alive_detach": f"{fixed}/6",
        "activations_alive_no_grad": f"{under}/6"}


def _resident() -> Optional[int]:
    """This process's resident set in bytes, after handing the allocator's free memory back
    (``malloc_trim``), so memory freed earlier in the run does not hide new growth; None where
    either is not available (not Linux with glibc)."""
    import ctypes
    import os
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, AttributeError, ValueError, IndexError):
        return None


def _growth_per_step(v, steps: int, step, host: bool) -> Optional[float]:
    """Bytes held per step once warm: the resident set (``host``, or on CPU) or CUDA's
    allocated memory, measured after step 2 and after the last step."""
    torch = v.torch
    cuda = v.device == "cuda" and not host

    def held() -> Optional[int]:
        if cuda:
            torch.cuda.synchronize()
            return torch.cuda.memory_allocated()
        return _resident()

    state: list = []
    start = None
    for i in range(steps):
        step(state)
        if i == 2:
            start = held()
    end = held()
    if start is None or end is None:
        return None
    return (end - start) / (steps - 3)


def memory_grows_per_step(v):
    torch = v.torch
    kib = 1024.0
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a loaded machine makes 2 threads 10x slower, not the result
    try:
        measured = {}
        rates = {}
        for detach in (False, True):
            model = _mlp(v)
            x = torch.randn(16, 64, device=v.device)

            def after(state, model=model, x=x, detach=detach):
                loss = model(x).pow(2).mean()
                loss.backward()
                total = state.pop() if state else 0
                state.append(total + (loss.detach() if detach else loss))

            rates["after", detach] = _growth_per_step(v, 120, after, host=True)
            torch.manual_seed(0)
            big = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.ReLU(),
                                      torch.nn.Linear(1024, 1)).to(v.device).eval()

            def evaluate(state, big=big, detach=detach):
                out = big(torch.randn(256, 256, device=v.device))
                state.append(out.detach() if detach else out)

            rates["none", detach] = _growth_per_step(v, 12, evaluate, host=False)
    finally:
        torch.set_num_threads(threads)
    if any(r is None for r in rates.values()):
        return "not shown", {"reason": "no resident-set measurement on this system"}
    for (shape, detach), r in rates.items():
        label = {"after": "after-backward", "none": "no-backward"}[shape]
        measured[f"{label}{' fixed' if detach else ''} (KiB/step)"] = round(r / kib, 1)
    # after backward: the graph's nodes (host memory); without backward: each step's
    # activations (256 x 1024 floats = 1 MiB, saved for the ReLU and the last Linear)
    holds = rates["after", False] >= 4 * kib and rates["after", True] * 10 <= rates["after", False] \
        and rates["none", False] >= 512 * kib and rates["none", True] * 4 <= rates["none", False]
    return holds, measured
