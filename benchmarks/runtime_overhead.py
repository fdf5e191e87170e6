"""Overhead of the runtime watcher (``tensorcopy trace`` / ``pytest --tensorcopy``) on training.

    python benchmarks/runtime_overhead.py [--device cpu|cuda] [--rounds 7] [--steps 30]
                                          [--threads N] [--output FILE]

Two small models train on synthetic data for a fixed number of steps: a CNN (two conv layers,
batch 64 of 3x32x32) and a transformer encoder (2 layers, d_model 128, 4 heads, 64 tokens,
batch 16), each with Adam; and, as a stress case, a small MLP whose steps are much shorter. Each round runs ``--steps`` steps without the watcher and the same
steps with it, in alternating order (ABBA), after warm-up steps; the figure is the median step
time over all timed steps, and the ratio is watched / plain. The number of torch functions the
watcher handles per step is counted separately with a counting mode. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from flake8_tensorcopy.runtime.watcher import Watcher  # noqa: E402


class CNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
        )
        self.head = nn.Linear(64 * 8 * 8, 10)

    def forward(self, x):
        return self.head(torch.flatten(self.body(x), 1))


class Transformer(nn.Module):
    def __init__(self, vocab: int = 1000, d: int = 128) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        layer = nn.TransformerEncoderLayer(d, 4, dim_feedforward=256, dropout=0.1,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        return self.head(self.encoder(self.embed(tokens)))


def make(name: str, device: str):
    torch.manual_seed(0)
    if name == "mlp16":  # issue 23 item 4: a unit-test-sized step (about 0.3 ms on one thread)
        model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
        x = torch.randn(16, 32, device=device)
        y = torch.randint(0, 10, (16,), device=device)
    elif name == "mlp":  # a stress case: many calls per millisecond of work
        model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                              nn.Linear(128, 10)).to(device)
        x = torch.randn(128, 64, device=device)
        y = torch.randint(0, 10, (128,), device=device)
    elif name == "cnn":
        model = CNN().to(device)
        x = torch.randn(64, 3, 32, 32, device=device)
        y = torch.randint(0, 10, (64,), device=device)
    else:
        model = Transformer().to(device)
        x = torch.randint(0, 1000, (16, 64), device=device)
        y = torch.randint(0, 1000, (16, 64), device=device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad(set_to_none=True)
        out = model(x)
        loss = loss_fn(out.reshape(-1, out.shape[-1]), y.reshape(-1))
        loss.backward()
        opt.step()
        return loss.detach()

    return step


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def timed_steps(step, n: int, device: str, watch: bool):
    times = []
    w = Watcher().start() if watch else None
    try:
        for _ in range(n):
            _sync(device)
            t0 = time.perf_counter()
            step()
            _sync(device)
            times.append(time.perf_counter() - t0)
    finally:
        if w is not None:
            w.stop()
    return times


class Counter(TorchFunctionMode):
    def __init__(self) -> None:
        super().__init__()
        self.n = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.n += 1
        return func(*args, **(kwargs or {}))


class NullMode(TorchFunctionMode):
    """The floor of the mode mechanism: a TorchFunctionMode that does nothing but call through."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class PatchProbe:
    """A rejected mechanism, measured: call-through wrappers on exactly what the rules need (the
    ``data`` descriptor, ``detach``/``clone``/``copy_``/``new_tensor``, every in-place method and
    operator, ``__setitem__``; ``torch.tensor`` and the ``*_like`` functions), each doing one dict
    lookup and no check: the floor of any Python-level hook. Rejected as the watcher's mechanism:
    a class-level read returns the wrapper (``torch.Tensor.add_`` is no longer the original; a
    subclass's ``__torch_function__`` receives the wrapper as ``func``). ``tensorcopy trace
    --fast`` (``runtime/patches.py``) hooks the same calls through descriptors that keep them."""

    def __init__(self) -> None:
        self.saved = []
        self.tracked = {}

    def __enter__(self):
        tracked = self.tracked
        names = {"detach", "clone", "copy_", "new_tensor", "__setitem__"}
        names |= {n for n in dir(torch.Tensor) if n.endswith("_") and not n.startswith("_")}
        names |= {n for n in dir(torch.Tensor) if n.startswith("__i") and n.endswith("__")
                  and n not in ("__init__", "__index__", "__int__", "__invert__", "__iter__",
                                "__init_subclass__")}

        def wrap(orig):
            def method(self, *args, **kwargs):
                if id(self) in tracked:
                    pass
                return orig(self, *args, **kwargs)
            return method

        for n in sorted(names):
            orig = torch.Tensor.__dict__.get(n, getattr(torch.Tensor, n, None))
            if orig is None or not callable(orig):
                continue
            self.saved.append((torch.Tensor, n, torch.Tensor.__dict__.get(n)))
            setattr(torch.Tensor, n, wrap(orig))
        data = torch._C.TensorBase.__dict__["data"]

        def get(self):
            out = data.__get__(self)
            tracked.get(id(out))
            return out

        def set_(self, value):
            tracked.get(id(value))
            data.__set__(self, value)

        self.saved.append((torch.Tensor, "data", None))
        torch.Tensor.data = property(get, set_)
        for n in ("tensor", "empty_like", "zeros_like", "ones_like"):
            orig = getattr(torch, n)

            def fn(*args, _orig=orig, **kwargs):
                tracked.get(id(args[0]) if args else None)
                return _orig(*args, **kwargs)
            self.saved.append((torch, n, orig))
            setattr(torch, n, fn)
        return self

    def __exit__(self, *exc):
        for owner, n, old in reversed(self.saved):
            if old is None:
                delattr(owner, n)
            else:
                setattr(owner, n, old)
        self.saved = []


def mechanisms(name: str, rounds: int, steps: int) -> dict:
    """Step time on one model under each mechanism, interleaved (each round runs every
    mechanism, in a rotating order): medians and the 25-75% range of each ratio over rounds."""
    step = make(name, "cpu")
    kinds = {"plain": None, "null TorchFunctionMode": NullMode,
             "watcher, mode (tensorcopy trace --mode)": lambda: Watcher(fast=False),
             "watcher, hooks (tensorcopy trace, the default)": lambda: Watcher(fast=True),
             "patched methods, no checks (PatchProbe)": PatchProbe}
    for _ in range(10):
        step()
    times = {k: [] for k in kinds}
    per_round = {k: [] for k in kinds}
    order = list(kinds)
    for r in range(rounds):
        order = order[1:] + order[:1]
        for k in order:
            ctx = kinds[k]() if kinds[k] is not None else None
            if ctx is not None:
                ctx.__enter__()
            try:
                step()
                got = []
                for _ in range(steps):
                    t0 = time.perf_counter()
                    step()
                    got.append(time.perf_counter() - t0)
            finally:
                if ctx is not None:
                    ctx.__exit__(None, None, None)
            times[k].extend(got)
            per_round[k].append(statistics.median(got))
    out = {}
    base = per_round["plain"]
    for k in kinds:
        ratios = sorted(w / p for w, p in zip(per_round[k], base))
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        out[k] = (statistics.median(times[k]) * 1e3, statistics.median(ratios), q[0], q[2])
    return out


def calls_per_step(step) -> int:
    with Counter() as c:
        step()
    return c.n


def per_call_cost(rounds: int = 9, n: int = 20000) -> dict:
    """Median cost of one torch call the watcher passes straight through (``t.add(1)`` on a
    4-element tensor), and of one it inspects (``t.detach()``), plain vs watched."""
    t = torch.ones(4)

    def loop(fn):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t0) / n * 1e6

    out = {}
    for label, fn in (("pass-through (t.add(1))", lambda: t.add(1)),
                      ("inspected (t.detach())", lambda: t.detach())):
        plain, watched = [], []
        for r in range(rounds):
            for watch in ((False, True) if r % 2 == 0 else (True, False)):
                if watch:
                    with Watcher():
                        watched.append(loop(fn))
                else:
                    plain.append(loop(fn))
        out[label] = (statistics.median(plain), statistics.median(watched))
    return out


def measure(name: str, device: str, rounds: int, steps: int) -> dict:
    step = make(name, device)
    for _ in range(5):
        step()
    timed_steps(step, 3, device, True)
    plain, watched = [], []
    for r in range(rounds):
        order = (False, True) if r % 2 == 0 else (True, False)
        for watch in order:
            (watched if watch else plain).extend(timed_steps(step, steps, device, watch))
    p, w = statistics.median(plain), statistics.median(watched)
    q = lambda xs: statistics.quantiles(xs, n=4)  # noqa: E731
    calls = calls_per_step(step)
    return {
        "model": name, "device": device, "plain_ms": p * 1e3, "watched_ms": w * 1e3,
        "ratio": w / p, "plain_iqr_ms": (q(plain)[2] - q(plain)[0]) * 1e3,
        "watched_iqr_ms": (q(watched)[2] - q(watched)[0]) * 1e3, "calls_per_step": calls,
        "us_per_call": (w - p) * 1e6 / calls if calls else float("nan"),
        "steps": len(plain),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (default: torch's)")
    ap.add_argument("--output", help="append the markdown table here")
    ap.add_argument("--mechanisms", action="store_true",
                    help="only compare the mechanisms (plain, a null TorchFunctionMode, the "
                         "watcher's mode and --fast, patched methods) on the mlp16 step")
    ap.add_argument("--models", default="cnn,transformer,mlp,mlp16",
                    help="comma-separated models (default: all four)")
    args = ap.parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("runtime_overhead: no CUDA device; nothing measured", file=sys.stderr)
        return 2
    if args.threads:
        torch.set_num_threads(args.threads)
    if args.mechanisms:
        torch.set_num_threads(args.threads or 1)
        got = mechanisms("mlp16", args.rounds, args.steps)
        lines = [f"torch {torch.__version__}, Python {platform.python_version()}, "
                 f"{os.cpu_count()} CPUs, {torch.get_num_threads()} torch threads, "
                 f"{datetime.date.today()}; mlp16 step (batch 16, 32->64->10, Adam); "
                 f"{args.rounds} rounds of {args.steps} steps per mechanism, interleaved", "",
                 "| mechanism | median step (ms) | ratio to plain (median of rounds) | "
                 "ratio IQR |", "| --- | --- | --- | --- |"]
        for k, (ms, ratio, lo, hi) in got.items():
            lines.append(f"| {k} | {ms:.3f} | {ratio:.3f} | {lo:.3f}-{hi:.3f} |")
        text = "\n".join(lines)
        print(text)
        if args.output:
            with open(args.output, "a", encoding="utf-8") as fh:
                fh.write(text + "\n\n")
        return 0
    rows = [measure(m, args.device, args.rounds, args.steps) for m in args.models.split(",")]
    head = (f"torch {torch.__version__}, Python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs, {torch.get_num_threads()} torch threads, device "
            f"{args.device}, {datetime.date.today()}; {args.rounds} interleaved rounds of "
            f"{args.steps} steps each way")
    lines = [head, "",
             "| model | plain step (ms, IQR) | watched step (ms, IQR) | ratio | torch calls seen "
             "per step | extra us per call |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r['model']} | {r['plain_ms']:.2f} ({r['plain_iqr_ms']:.2f}) | "
                     f"{r['watched_ms']:.2f} ({r['watched_iqr_ms']:.2f}) | {r['ratio']:.3f} | "
                     f"{r['calls_per_step']} | {r['us_per_call']:.2f} |")
    lines += ["", "| one torch call | plain (us) | watched (us) | extra (us) |",
              "| --- | --- | --- | --- |"]
    for label, (p, w) in per_call_cost().items():
        lines.append(f"| {label} | {p:.2f} | {w:.2f} | {w - p:.2f} |")
    text = "\n".join(lines)
    print(text)
    if args.output:
        with open(args.output, "a", encoding="utf-8") as fh:
            fh.write(text + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
