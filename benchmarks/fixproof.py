"""The differential fix tester: generated programs run before and after ``tensorcopy fix``.

A safe fix must never change what a correct program does (same output, same exception type,
same exit status). This tester generates small runnable PyTorch programs that put every rule's
pattern into the control flow and among the look-alikes that fool a linter (loops that rebind a
name, closures with ``nonlocal``/``global``, ``match`` captures, a walrus in a comprehension,
``try`` bodies that stop early, f-strings with ``=``, classes with their own ``clone``/``detach``/
``data``/``new_tensor``, properties with side effects, default-device contexts, nested grad
modes, Tensor subclasses), runs each one, fixes the whole batch with the real CLI
(``python -m flake8_tensorcopy fix``, safe fixes; then ``--unsafe-fixes`` separately), runs the
fixed ones again and compares.

Programs run many to a process (importing torch costs more than a program): one interpreter
imports torch once and forks a process per chunk of programs, ``--jobs`` at a time; each
program runs in a fresh namespace with torch's global state (default dtype and device, grad
mode) restored after it; what a program prints, the type of the exception that ended it (or its
exit status) is its behaviour.

    python benchmarks/fixproof.py --programs 10000 --seed 1 --report benchmarks/FIXPROOF.md
    python benchmarks/fixproof.py --programs 300 --seed 7          # a quick look

A pattern is an expression (``torch.tensor({v})``) or, for issue 44's rules, statements and
then an expression (``conv = {v}.float()`` / ``conv.mul_(2)`` / both sides shown): the
statements go just before the first line of the shape that uses the expression.

Exit status 1 when a safe fix changed behaviour. ``tests/test_fixproof.py`` runs a fixed seed
in CI.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# ---- the generator ----------------------------------------------------------------------------
#: how a value the program later copies is made; ``{v}`` is the name it is bound to
SOURCES = {
    "leaf": "{v} = torch.arange(6.0).reshape(2, 3).requires_grad_()",
    "plain": "{v} = torch.arange(6.0).reshape(2, 3)",
    "nonleaf": "{v} = torch.arange(6.0).reshape(2, 3).requires_grad_() * 2",
    "int": "{v} = torch.arange(6).reshape(2, 3)",
    "transposed": "{v} = torch.arange(6.0).reshape(3, 2).t()",
    "param": "{v} = torch.nn.Parameter(torch.ones(2, 3))",
    "float64": "{v} = torch.ones(2, 3, dtype=torch.float64)",
    "numpy": "{v} = np.arange(6.0).reshape(2, 3)",
    "numpy_f32": "{v} = np.ones((2, 3), dtype=np.float32)",
    "numpy_int": "{v} = np.arange(6).reshape(2, 3)",
    "list": "{v} = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]",
    "scalar": "{v} = 2.5",
    "masked": "{v} = np.ma.masked_array(np.arange(6.0), mask=[0, 1, 0, 0, 1, 0])",
    "own_clone": "{v} = OwnClone(torch.ones(3))",
    "subclass": "{v} = Sub(torch.ones(3))",
}

PRELUDE = '''\
import numpy as np
import torch


class OwnClone:
    """Not a tensor: its own clone/detach/data/new_tensor (detach changes it in place)."""

    def __init__(self, t):
        self.data = t
        self.n = 0

    def clone(self):
        self.n += 1
        return OwnClone(self.data + self.n)

    def detach(self):
        self.n += 10
        return self

    def new_tensor(self, x):
        return ("made", len(x))

    def __repr__(self):
        return f"OwnClone({show(self.data)}, n={self.n})"


class Sub(torch.Tensor):
    def clone(self, *a, **k):
        out = super().clone(*a, **k)
        out.tag = "cloned"
        return out


class Box:
    """A property with a side effect: how often it is read shows in the output."""

    def __init__(self, t):
        self._t = t
        self.reads = 0

    @property
    def buf(self):
        self.reads += 1
        return self._t


def show(x):
    if isinstance(x, torch.Tensor):
        return (type(x).__name__, str(x.dtype), tuple(x.shape), x.detach().double().flatten().tolist(),
                x.requires_grad, x.grad_fn is not None, str(x.device), getattr(x, "tag", None))
    if isinstance(x, np.ndarray):
        return ("ndarray", str(x.dtype), x.tolist())
    return repr(x)
'''

TENSOR_SOURCES = ["float64", "int", "leaf", "nonleaf", "param", "plain", "subclass", "transposed"]

#: the copy expression of each pattern: ``{v}`` is the value, ``{w}`` a second tensor
PATTERNS = {
    "TEN201": "torch.tensor({v})",
    "TEN201-dtype": "torch.tensor({v}, dtype=torch.float64)",
    "TEN201-grad": "torch.tensor({v}, requires_grad=True)",
    "TEN202": "{w}.new_tensor({v})",
    "TEN202-self": "{v}.new_tensor({v})",
    "TEN301": "{v}.clone().detach()",
    "TEN301-torch": "torch.clone({v}).detach()",
    "TEN301-unbound": "torch.Tensor.clone({v}).detach()",
    "TEN302": "torch.empty_like({v}).copy_({v})",
    "TEN302-zeros": "torch.zeros_like({v}).copy_({v})",
    "TEN101-norm": "{v}.data.norm()",
    "TEN101-item": "{v}.data.sum().item()",
    "TEN101-read": "{v}.data",
    "TEN204": "torch.tensor([{v}.sum(), {v}.mean()])",
    # ---- issue 44: copies that are sometimes not copies. A pattern of several lines is
    # statements put just before the statement that uses it, then the expression it is used as
    # (both sides, as ``show()`` prints them). Whether it aliases depends on the value drawn:
    # ``.float()`` of a float32 tensor is the tensor, of a float64 or int one a copy
    "TEN404-cpu": "prev = {v}.cpu()\n"
                  "with torch.no_grad():\n"
                  "    {v}.add_(1)\n"
                  "(show(prev), show({v}))",
    "TEN404-float": "conv = {v}.float()\nconv.mul_(2)\n(show(conv), show({v}))",
    "TEN404-double": "conv = {v}.double()\nconv.sub_(1)\n(show(conv), show({v}))",
    "TEN404-to": "conv = {v}.to(torch.float32)\nconv.add_(1)\n(show(conv), show({v}))",
    "TEN404-contiguous": "conv = {v}.contiguous()\nconv[0] = 0\n(show(conv), show({v}))",
    "TEN404-as_tensor": "conv = torch.as_tensor({v})\nconv.mul_(3)\n(show(conv), show({v}))",
    "TEN405-from_numpy": "t_np = torch.from_numpy({v})\nt_np.add_(1)\n(show(t_np), show({v}))",
    "TEN405-as_tensor": "t_np = torch.as_tensor({v})\n{v}.fill(7)\n(show(t_np), show({v}))",
    "TEN405-numpy": "arr = {v}.detach().numpy()\n"
                    "with torch.no_grad():\n"
                    "    {v}.mul_(2)\n"
                    "(show(arr), show({v}))",
    "TEN405-asarray": "arr = np.asarray({v})\narr += 1\n(show(arr), show({v}))",
    "TEN406-list": "reps = [torch.zeros_like({v})] * 3\nreps[0].add_(1)\n"
                   "(show(reps[1]), len(reps))",
    "TEN406-name": "reps = [{v}] * 2\nreps[0].mul_(2)\n(show(reps[1]), show({v}))",
    "TEN406-comp": "reps = [{v} for _ in range(3)]\nreps[2] += 1\n(show(reps[0]), len(reps))",
    "TEN406-expand": "rows = {v}[None].expand(2, -1, -1)\n"
                     "rows[0] = torch.ones_like({v})\n"
                     "(show(rows), show({v}))",
    "TEN406-broadcast": "rows = {v}.unsqueeze(0).broadcast_to((3, -1, -1))\n"
                        "rows[1] = torch.zeros_like({v})\n"
                        "(show(rows), show({v}))",
}

#: the values a pattern draws from when not every one in SOURCES (the NumPy bridge's array
#: side: arrays, and look-alikes it copies or refuses)
ARRAY_SOURCES = ["list", "masked", "numpy", "numpy_f32", "numpy_int", "plain", "scalar",
                 "transposed"]
PATTERN_SOURCES = {"TEN405-from_numpy": ARRAY_SOURCES, "TEN405-as_tensor": ARRAY_SOURCES}

#: why a rule with a fix has no pattern here (FIXPROOF.md lists them)
NOT_DRAWN = {
    "TEN102": "its fix wraps a statement in `with torch.no_grad():`; the patterns here are "
              "expressions, where it offers no fix",
    "TEN401": "a write through an alias, a statement whose fix depends on later uses of the "
              "original; not drawn yet",
    "TEN402": "a snapshot read after a training step: needs a model and an optimizer step, "
              "not drawn yet",
    "TEN403": "every program it would draw reads overlapping memory, whose result torch leaves "
              "undefined (or raises): no correct program to compare before and after",
    "TEN501": "its fix changes what the program keeps alive, not what it prints; unsafe only",
}

#: statements around the copy: ``{setup}`` binds ``{v}``, ``{use}`` is the copy expression
SHAPES = {
    "straight": """
        {setup}
        out = {use}
        print(show(out))
    """,
    "loop_rebinds": """
        {setup}
        for i in range(2):
            out = {use}
            print(i, show(out))
            {v} = out.tolist() if isinstance(out, torch.Tensor) else out
    """,
    "loop_to_numpy": """
        {setup}
        for i in range(2):
            out = {use}
            print(i, show(out))
            if isinstance(out, torch.Tensor):
                {v} = out.detach().numpy() + 1
    """,
    "while_rebinds": """
        {setup}
        n = 0
        while n < 2:
            out = {use}
            print(n, show(out))
            {v} = [1.0, 2.0] if n == 0 else {v}
            n += 1
    """,
    "closure_nonlocal": """
        def outer():
            {setup}

            def swap():
                nonlocal {v}
                {v} = [1.0, 2.0, 3.0]

            swap()
            return {use}

        print(show(outer()))
    """,
    "global_rebind": """
        {setup}

        def swap():
            global {v}
            {v} = [3.0, 4.0]

        swap()
        print(show({use}))
    """,
    "match_capture": """
        {setup}
        match [1.0, 2.0]:
            case [*{v}]:
                pass
        print(show({use}))
    """,
    "walrus_comp": """
        {setup}
        vals = [({v} := [float(k), 1.0]) for k in range(2)]
        print(show({use}), len(vals))
    """,
    "try_stops_early": """
        {setup}
        try:
            {v} = [1.0, 2.0]
            raise ValueError("early")
            {v} = torch.ones(2)
        except ValueError:
            pass
        print(show({use}))
    """,
    "fstring_eq": """
        {setup}
        out = {use}
        print(f"{{{use}=}}"[:12], show(out))
    """,
    "no_grad_nested": """
        {setup}
        with torch.no_grad():
            with torch.enable_grad():
                out = {use}
        print(show(out))
    """,
    "meta_device": """
        {setup}
        with torch.device("meta"):
            out = {use}
        print(show(out))
    """,
    "default_dtype": """
        {setup}
        torch.set_default_dtype(torch.float64)
        out = {use}
        print(show(out))
    """,
    "property_twice": """
        {setup}
        box = Box({v})
        out = {use_box}
        print(show(out), box.reads)
    """,
    "function_param": """
        def f({v}):
            return {use}

        {setup}
        print(show(f({v})))
    """,
    "annotated_param": """
        def f({v}: torch.Tensor):
            return {use}

        {setup}
        print(show(f({v})))
    """,
    # ---- issue 45: evidence the program reaches around -----------------------------------
    "torch_op_on_value": """
        {setup}
        {v} = torch.flip({v}, [0])
        out = {use}
        print(show(out))
    """,
    "helper_wraps_op": """
        def narrowed(a):
            return torch.narrow(a, 0, 0, 1)


        {setup}
        {v} = narrowed({v})
        out = {use}
        print(show(out))
    """,
    "attr_other_method": """
        class Holder:
            def __init__(self):
                self.buf = torch.ones(2, 3)

            def use(self):
                return {use_self}

            def load(self, value):
                self.buf = value


        {setup}
        h = Holder()
        h.load({v})
        print(show(h.use()))
    """,
    "attr_subclass_init": """
        class Base:
            def __init__(self):
                self.buf = torch.ones(2, 3)

            def use(self):
                return {use_self}


        class Child(Base):
            def __init__(self, value):
                super().__init__()
                self.buf = value


        {setup}
        print(show(Child({v}).use()))
    """,
    "attr_caller": """
        class Holder:
            def __init__(self):
                self.buf = torch.ones(2, 3)

            def use(self):
                return {use_self}


        {setup}
        h = Holder()
        h.buf = {v}
        print(show(h.use()))
    """,
    "attr_setattr": """
        class Holder:
            def __init__(self):
                self.buf = torch.ones(2, 3)

            def __setattr__(self, name, value):
                object.__setattr__(self, name, value.tolist() if isinstance(value, torch.Tensor)
                                   else value)

            def use(self):
                return {use_self}


        {setup}
        print(show(Holder().use()), type({v}).__name__)
    """,
    "globals_update": """
        {setup}


        def use():
            return {use}


        globals().update({{"{v}": [1.0, 2.0, 3.0]}})
        print(show(use()))
    """,
    "closure_rebound_later": """
        def outer():
            {setup}

            def get():
                return {use}

            {v} = [1.0, 2.0]
            return get()


        print(show(outer()))
    """,
    "for_else_break": """
        {setup}
        for k in range(3):
            if k == 1:
                {v} = [float(k), 2.0]
                break
        else:
            {v} = torch.ones(2)
        print(show({use}))
    """,
    "vmap": """
        from torch.func import vmap

        {setup}


        def per_row(row):
            {v} = torch.sin(row)
            try:
                return {use}
            except Exception as exc:
                return torch.tensor(float(len(type(exc).__name__)))


        try:
            print(show(vmap(per_row)(torch.ones(2, 3))))
        except Exception as exc:
            print(type(exc).__name__)
    """,
    "lazy_module": """
        {setup}
        m = torch.nn.LazyLinear(2)
        {v} = m.weight
        try:
            print(show({use}))
        except Exception as exc:
            print(type(exc).__name__)
    """,
    "param_accumulator": """
        def accumulate(total, steps):
            for _ in range(steps):
                loss = torch.ones((), requires_grad=True) * 2
                loss.backward()
                total += loss
            return total.item()


        {setup}
        acc = torch.zeros(())
        print(accumulate(acc, 2), acc.grad_fn is not None)
        out = {use}
        print(show(out))
    """,
    "decorator_numpy": """
        import functools


        def as_numpy(fn):
            @functools.wraps(fn)
            def wrapper(*a, **k):
                return fn(*a, **k).detach().numpy()
            return wrapper


        @as_numpy
        def make():
            return torch.ones(2, 3)


        {setup}
        {v} = make()
        out = {use}
        print(show(out))
    """,
}


#: real idioms run in every trial besides the generated programs (they draw nothing from the
#: generator's random sequence). Their point is a write through an alias, so no fix, safe or
#: unsafe, may change what they print (``tests/test_fixproof.py`` checks both).
IDIOMS = {
    # the fp16 master-weight step of fairseq's ``optim/nag.py`` and many optimizers (issue 26)
    "fp16_master_weights": """
        def step(model, lr):
            for p in model.parameters():
                p_data_fp32 = p.data
                if p_data_fp32.dtype in {torch.float16, torch.bfloat16}:
                    p_data_fp32 = p_data_fp32.float()
                p_data_fp32.add_(p.grad, alpha=-lr)
                if p.data.dtype in {torch.float16, torch.bfloat16}:
                    p.data.copy_(p_data_fp32)


        for dtype in (torch.float32, torch.float16):
            model = torch.nn.Linear(3, 1, bias=False).to(dtype)
            with torch.no_grad():
                model.weight.fill_(1.0)
            model.weight.grad = torch.ones(1, 3, dtype=dtype)
            step(model, 0.5)
            print(model.weight.tolist())
    """,
}


def make_program(rng: random.Random, seed: int) -> Tuple[str, Dict[str, str]]:
    """One program (its source) and what it was made of."""
    pattern = rng.choice(sorted(PATTERNS))
    shape = rng.choice(sorted(SHAPES))
    # a program that breaks its own annotation is not a correct program: an annotated
    # parameter is given what it says (a torch.Tensor: any tensor source)
    sources = PATTERN_SOURCES.get(pattern, sorted(SOURCES))
    if shape == "annotated_param":
        sources = [s for s in sources if s in TENSOR_SOURCES]
    source = rng.choice(sources)
    v = rng.choice(["x", "t", "obs", "weight", "p", "src"])
    return render(pattern, shape, source, v, seed), {"pattern": pattern, "shape": shape,
                                                     "source": source}


def render(pattern: str, shape: str, source: str, v: str = "x", seed: int = 0) -> str:
    """The program of one pattern in one shape on one value bound to ``v``."""
    setup = SOURCES[source].format(v=v) + "\nother = torch.zeros(2, dtype=torch.float64)"
    *pre, expr = PATTERNS[pattern].splitlines()
    # what the value is called where a shape uses the pattern: ``{use}``, ``{use_box}``...
    names = {"use": v, "use_box": "box.buf", "use_self": "self.buf"}
    uses = {key: expr.replace("{v}", name).format(w="other") for key, name in names.items()}
    body = textwrap.dedent(SHAPES[shape])
    code = "\n".join(_place(body.splitlines(), setup, pre, names)).format(v=v, **uses)
    return f"# seed {seed}: {pattern} / {shape} / {source}\n{PRELUDE}\n\n{code.strip()}\n"


def _place(lines: List[str], setup: str, pre: List[str], names: Dict[str, str]) -> List[str]:
    """The shape's lines with the setup in place of ``{setup}`` and a pattern's statements
    (``pre``) just before the first line that uses its expression, each indented like the
    line it goes with (its braces escaped: the lines are formatted once more)."""
    out: List[str] = []
    for line in lines:
        indent = line[:len(line) - len(line.lstrip())]
        if "{setup}" in line:
            out.extend(indent + s for s in setup.splitlines())
            continue
        key = next((k for k in names if "{%s}" % k in line), None)
        if pre and key is not None:
            out.extend(indent + s.replace("{v}", names[key]).format(w="other")
                       .replace("{", "{{").replace("}", "}}") for s in pre)
            pre = []
        out.append(line)
    return out


def generic_sources(n: int, seed: int) -> List[str]:
    """``n`` programs drawn from Python's grammar by hypothesmith (fixed seed, no database)."""
    if n <= 0:
        return []
    import warnings

    import hypothesmith
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as with_seed

    drawn: List[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")

        @with_seed(seed)
        @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(hypothesmith.from_grammar())
        def draw(src: str) -> None:
            drawn.append(src)

        draw()
    return drawn[:n]


def make_generic(rng: random.Random, src: str, seed: int) -> Tuple[str, Dict[str, str]]:
    """A generic program: one pattern on a tensor, then what hypothesmith drew (it runs, raises
    or loops; the fixed program must do the same)."""
    pattern = rng.choice(sorted(PATTERNS))
    source = rng.choice([s for s in PATTERN_SOURCES.get(pattern, TENSOR_SOURCES)
                         if s in TENSOR_SOURCES])
    setup = SOURCES[source].format(v="x") + "\nother = torch.zeros(2, dtype=torch.float64)"
    *pre, use = PATTERNS[pattern].format(v="x", w="other").splitlines()
    program = "\n".join([f"# seed {seed}: {pattern} / generic / {source}", PRELUDE, "",
                         setup, *pre, f"print(show({use}))", src])
    return program, {"pattern": pattern, "shape": "generic", "source": source}


# ---- what changed ------------------------------------------------------------------------------
_TENSOR = re.compile(r"\('(\w+)', '([\w.]+)', \(([\d, ]*)\), \[([^\]]*)\], (True|False), "
                     r"(True|False), '([\w:]+)', ('[^']*'|None)\)")
_FIELDS = ("type", "dtype", "shape", "values", "requires_grad", "graph", "device",
           "subclass_method")
_ARRAY = re.compile(r"\('ndarray', '(\w+)', (\[[^()]*?\])\)")


def classify(before: Optional[List[str]], after: Optional[List[str]]) -> List[str]:
    """The kinds of change between two runs of a program (``show()``'s fields, the exception,
    other output), as ``rules.base.FIX_CHANGES`` names them."""
    if before == after or before is None or after is None:
        return []
    kinds = set()
    if before[1] != after[1]:
        kinds.add("raises" if after[1].startswith("raised") else
                  "stops_raising" if before[1].startswith("raised") else "status")
    b_lines, a_lines = before[0].splitlines(), after[0].splitlines()
    for b, a in zip(b_lines, a_lines):
        if b == a:
            continue
        bt, at = _TENSOR.findall(b), _TENSOR.findall(a)
        ba, aa = _ARRAY.findall(b), _ARRAY.findall(a)
        if len(bt) != len(at) or len(ba) != len(aa):
            kinds.add("type")
            continue
        for x, y in zip(bt, at):
            kinds.update(f for f, u, w in zip(_FIELDS, x, y) if u != w)
        for x, y in zip(ba, aa):  # a NumPy array: its dtype and values
            kinds.update(f for f, u, w in zip(("dtype", "values"), x, y) if u != w)
        if _ARRAY.sub("", _TENSOR.sub("", b)) != _ARRAY.sub("", _TENSOR.sub("", a)):
            kinds.add("output")
    if len(b_lines) != len(a_lines) and before[1] == after[1]:
        kinds.add("output")
    return sorted(kinds)


# ---- running ----------------------------------------------------------------------------------
RUNNER = r'''
import contextlib, io, json, os, re, signal, sys, warnings
warnings.simplefilter("ignore")
import torch


class TimedOut(BaseException):
    pass


def _alarm(signum, frame):
    raise TimedOut()


def run(out_path, paths):
    out = {}
    for path in paths:
        buf = io.StringIO()
        status = "ok"
        try:
            code = compile(open(path, encoding="utf-8").read(), path, "exec")
            # a generic program may loop for ever: it stops after 2 s, before and after alike
            signal.setitimer(signal.ITIMER_REAL, 2.0)
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
                exec(code, {"__name__": "__main__", "__file__": path})
        except SystemExit as e:
            status = f"exit {e.code!r}"
        except BaseException as e:  # noqa: BLE001 - the behaviour under test
            status = "raised " + type(e).__name__
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            torch.set_default_dtype(torch.float32)
            torch.set_grad_enabled(True)
            try:
                torch.set_default_device(None)
            except Exception:
                pass
        # object addresses differ from run to run: they are not behaviour
        out[os.path.basename(path)] = [re.sub(r"0x[0-9a-f]+", "0x?", buf.getvalue()[:20000]),
                                       status]
    with open(out_path, "w") as fh:
        json.dump(out, fh)


# torch is imported once, here; each chunk of programs runs in a process of its own forked
# from this one (what a fresh interpreter that imported torch is), ``workers`` at a time
signal.signal(signal.SIGALRM, _alarm)
with open(sys.argv[1]) as fh:
    chunks = json.load(fh)
workers = int(sys.argv[2])
running = set()
failed = False


def reap():
    global failed
    pid, status = os.wait()
    running.discard(pid)
    failed = failed or status != 0


for out_path, paths in chunks:
    while len(running) >= workers:
        reap()
    pid = os.fork()
    if pid == 0:
        ok = False
        try:
            sys.argv = [sys.argv[0], out_path, *paths]
            run(out_path, paths)
            ok = True
        finally:
            os._exit(0 if ok else 1)
    running.add(pid)
while running:
    reap()
sys.exit(1 if failed else 0)
'''


def run_programs(paths: List[str], workdir: str, chunk: int = 200,
                 jobs: int = 2) -> Dict[str, List[str]]:
    """{file name: [stdout, status]} of each program, many to a process: one interpreter
    imports torch and forks a process per ``chunk`` programs, ``jobs`` at a time."""
    runner = os.path.join(workdir, "_runner.py")
    with open(runner, "w") as fh:
        fh.write(RUNNER)
    chunks = [[os.path.join(workdir, f"_out{i}.json"), paths[i:i + chunk]]
              for i in range(0, len(paths), chunk)]
    if not chunks:
        return {}
    plan = os.path.join(workdir, "_chunks.json")
    with open(plan, "w") as fh:
        json.dump(chunks, fh)
    for out, _ in chunks:
        if os.path.exists(out):
            os.remove(out)
    subprocess.run([sys.executable, runner, plan, str(max(1, jobs))], cwd=workdir,
                   timeout=1800 * len(chunks), stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONHASHSEED="0"))
    results: Dict[str, List[str]] = {}
    for out, _ in chunks:
        with open(out) as fh:
            results.update(json.load(fh))
    return results


def fix_tree(folder: str, unsafe: bool, jobs: int = 2) -> None:
    args = [sys.executable, "-m", "flake8_tensorcopy", "fix", "--no-cache", "--jobs", str(jobs),
            folder]
    if unsafe:
        # TEN501 (the ``param_accumulator`` shape) is no drawn pattern: its unsafe fix's
        # changes would be charged to the program's pattern; its safe fix is still tested
        args[4:4] = ["--unsafe-fixes", "--ignore", "TEN501"]
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    subprocess.run(args, cwd=folder, env=env, timeout=3600, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def check_codes(folder: str, jobs: int = 2) -> Dict[str, List[str]]:
    """{file name: [codes check reports, with their fix applicability]}."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "check", "--no-cache",
                          "--output-format", "json", "--exit-zero", "--jobs", str(jobs), folder],
                         cwd=folder, env=env, capture_output=True, text=True, timeout=3600)
    out: Dict[str, List[str]] = {}
    for d in json.loads(res.stdout or "[]"):
        fix = d.get("fix") or {}
        out.setdefault(os.path.basename(d["filename"]), []).append(
            f"{d['code']}:{fix.get('applicability', 'none')}")
    return out


def trial(n: int, seed: int, workdir: str, generic: int = 0, jobs: int = 2) -> dict:
    """Generate ``n`` programs (and ``generic`` ones from hypothesmith), run them, fix (safe,
    then unsafe) and run again."""
    rng = random.Random(seed)
    base = os.path.join(workdir, "programs")
    os.makedirs(base)
    meta = {}
    for i in range(n):
        program, made = make_program(rng, seed * 1_000_003 + i)
        name = f"p{i:05}.py"
        with open(os.path.join(base, name), "w") as fh:
            fh.write(program)
        meta[name] = made
    for i, src in enumerate(generic_sources(generic, seed)):
        program, made = make_generic(rng, src, seed * 1_000_003 + n + i)
        name = f"g{i:05}.py"
        with open(os.path.join(base, name), "w", encoding="utf-8") as fh:
            fh.write(program)
        meta[name] = made
    for idiom, body in IDIOMS.items():
        name = f"idiom_{idiom}.py"
        with open(os.path.join(base, name), "w") as fh:
            fh.write(f"# idiom: {idiom}\n{PRELUDE}\n\n{textwrap.dedent(body).strip()}\n")
        meta[name] = {"pattern": "idiom", "shape": idiom, "source": "param"}
    names = sorted(meta)
    codes = check_codes(base, jobs)
    before = run_programs([os.path.join(base, f) for f in names], workdir, jobs=jobs)
    report = {"programs": n, "generic": generic, "seed": seed, "meta": meta, "codes": codes}
    for mode in ("safe", "unsafe"):
        folder = os.path.join(workdir, mode)
        shutil.copytree(base, folder)
        fix_tree(folder, unsafe=(mode == "unsafe"), jobs=jobs)
        changed = [f for f in names if _read(os.path.join(base, f)) != _read(os.path.join(folder, f))]
        after = run_programs([os.path.join(folder, f) for f in changed], workdir, jobs=jobs)
        differ = [f for f in changed if after.get(f) != before.get(f)]
        report[mode] = {"fixed_files": len(changed), "fixed": changed, "changed_behaviour": differ,
                        "kinds": {f: classify(before.get(f), after.get(f)) for f in differ},
                        "examples": {f: {"before": before.get(f), "after": after.get(f),
                                         "diff": _diff(os.path.join(base, f),
                                                       os.path.join(folder, f))}
                                     for f in differ[:50]}}
    return report


def _read(path: str) -> str:
    with open(path, encoding="utf-8", errors="surrogateescape") as fh:
        return fh.read()


def _diff(a: str, b: str) -> str:
    import difflib

    with open(a, encoding="utf-8") as fa, open(b, encoding="utf-8") as fb:
        return "".join(difflib.unified_diff(fa.readlines(), fb.readlines(), "before", "after",
                                            n=0))


def summary(report: dict) -> str:
    meta = report["meta"]
    lines = [f"programs: {report['programs']} (seed {report['seed']})"]
    for mode in ("safe", "unsafe"):
        r = report[mode]
        by = Counter(f"{meta[f]['pattern']} / {meta[f]['shape']} / {meta[f]['source']}"
                     for f in r["changed_behaviour"])
        lines.append(f"{mode} fixes: {r['fixed_files']} files fixed, "
                     f"{len(r['changed_behaviour'])} changed behaviour")
        for what, k in by.most_common():
            lines.append(f"  {k:5}  {what}")
    return "\n".join(lines)


def markdown(report: dict, command: str) -> str:
    """``benchmarks/FIXPROOF.md``: what was run, how many fixes, how many changed behaviour."""
    meta = report["meta"]
    out = ["# Differential fix tester: results", "",
           f"`{command}` ({report['programs']:,} generated programs and "
           f"{report.get('generic', 0):,} drawn from Python's grammar by hypothesmith, each with "
           f"one pattern at its top; seed {report['seed']}, "
           f"{report['seconds']} s on a 2-core machine). Each program ran before and after "
           "`tensorcopy fix` (safe fixes; then, from the same programs, `--unsafe-fixes`); "
           "behaviour is what it prints, the type of the exception that ended it, or its exit "
           "status. The generator and the runner are `benchmarks/fixproof.py`; CI runs a 150-program "
           "slice (`tests/test_fixproof.py`) against the list of known failures "
           "`tests/fixproof_known.json`.", ""]
    for mode in ("safe", "unsafe"):
        r = report[mode]
        fixed = r["fixed_files"]
        changed = r["changed_behaviour"]
        out += [f"## {mode.capitalize()} fixes", "",
                f"- programs changed by the fixer: {fixed:,}",
                f"- of those, programs whose behaviour changed: **{len(changed):,}**"
                + (" (the bar is 0)" if mode == "safe" else ""), ""]
        fixed_rules = Counter(r for f in _fixed(report, mode) for r in offered(report, f, mode))
        bad_rules = Counter(r for f in changed for r in charged(report, f, mode))
        out += ["by rule (the rules whose fix `check` offers in a fixed program; a behaviour "
                "change is charged to the pattern's rule where its fix was applied, else to "
                "each rule whose fix was):", "", "| rule | fixed | behaviour changed |",
                "| --- | --- | --- |"]
        out += [f"| {k} | {fixed_rules[k]} | {bad_rules[k]} |"
                for k in sorted(set(fixed_rules) | set(bad_rules))]
        out.append("")
        for key, title in (("pattern", "by pattern"), ("shape", "by surrounding code"),
                           ("source", "by value")):
            total = Counter(meta[f][key] for f in meta if f in set(_fixed(report, mode)))
            bad = Counter(meta[f][key] for f in changed)
            out += [f"{title}:", "", f"| {key} | fixed | behaviour changed |", "| --- | --- | --- |"]
            out += [f"| {k} | {total[k]} | {bad[k]} |" for k in sorted(total)]
            out.append("")
    out += ["## Unsafe fixes: what changed, and whether the rule's docs say so", "",
            "Each behaviour change of an unsafe fix, classified (`classify()`: the exception, "
            "each field `show()` prints, other output) and checked against the kinds the rule's "
            "\"Fix safety\" section lists (`unsafe_changes` in the rule class, rendered in "
            "`docs/rules/`).", "",
            "| rule | what changed | programs | in the rule's docs |", "| --- | --- | --- | --- |"]
    for (code, kind), k in sorted(unsafe_kinds(report).items()):
        out.append(f"| {code} | {kind} | {k} | {'yes' if kind in documented(code) else '**no**'} |")
    out.append("")
    covered = {p.split("-")[0] for p in PATTERNS}
    missing = [code for code, safety in fixable_rules() if code not in covered]
    if missing:
        out += ["Rules with a fix that the generator does not draw (their fixes are checked by "
                "their own fix cases and runnable examples, not by this tester):", ""]
        out += [f"- {code}: {NOT_DRAWN.get(code, 'not drawn yet')}" for code in missing]
        out.append("")
    return "\n".join(out) + "\n"


def unsafe_kinds(report: dict) -> Counter:
    """(rule, kind of change) -> programs, over the unsafe fixes that changed behaviour."""
    counts: Counter = Counter()
    for f, kinds in report["unsafe"].get("kinds", {}).items():
        for rule in charged(report, f, "unsafe"):
            for kind in kinds or ["unclassified"]:
                counts[(rule, kind)] += 1
    return counts


def offered(report: dict, f: str, mode: str) -> List[str]:
    """The rules whose fix the fixer of ``mode`` applies in program ``f``, as ``check`` reported
    them (TEN501's unsafe fix is left out of the unsafe run, see ``fix_tree``)."""
    ok = ("safe",) if mode == "safe" else ("safe", "unsafe")
    return sorted({c.split(":")[0] for c in report.get("codes", {}).get(f, [])
                   if c.split(":")[1] in ok and not (mode == "unsafe" and c.startswith("TEN501"))})


def charged(report: dict, f: str, mode: str) -> List[str]:
    """The rules a change in program ``f`` is charged to: its pattern's rule where that rule's
    fix was applied (or where no rule's was, as far as ``check`` shows), else every rule whose
    fix was (``torch.as_tensor`` of an array: TEN405's fix in a TEN404 pattern)."""
    rule = report["meta"][f]["pattern"].split("-")[0]
    rules = offered(report, f, mode)
    return [rule] if rule in rules or not rules else rules


def fixable_rules() -> List[Tuple[str, str]]:
    """(code, fix safety) of every rule that offers a fix."""
    sys.path.insert(0, ROOT)
    from flake8_tensorcopy.rules import ALL_RULES

    return [(r.code, r.fix_safety) for r in ALL_RULES if r.fix_safety]


def documented(code: str) -> Tuple[str, ...]:
    """The kinds of change the rule's "Fix safety" section warns about."""
    sys.path.insert(0, ROOT)
    from flake8_tensorcopy.rules import ALL_RULES

    return tuple(next((r.unsafe_changes for r in ALL_RULES if r.code == code), ()))


def _fixed(report: dict, mode: str) -> List[str]:
    return report[mode].get("fixed", [])


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--generic", type=int, default=0, metavar="N",
                    help="also N programs drawn from Python's grammar (hypothesmith)")
    ap.add_argument("--jobs", type=int, default=2, metavar="N",
                    help="processes for the fixer and for running programs (default 2)")
    ap.add_argument("--json", metavar="FILE", help="write the whole report (every example) here")
    ap.add_argument("--keep", metavar="DIR", help="keep the programs and the fixed copies here")
    ap.add_argument("--report", metavar="FILE", help="write the markdown summary here "
                    "(benchmarks/FIXPROOF.md)")
    args = ap.parse_args(argv)
    start = time.monotonic()
    workdir = args.keep or tempfile.mkdtemp(prefix="fixproof-")
    try:
        report = trial(args.programs, args.seed, workdir, args.generic, args.jobs)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    report["seconds"] = round(time.monotonic() - start, 1)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=1)
    if args.report:
        command = "python benchmarks/fixproof.py " + " ".join(argv if argv is not None else sys.argv[1:])
        with open(args.report, "w") as fh:
            fh.write(markdown(report, command))
    print(summary(report))
    print(f"took {report['seconds']} s")
    return 1 if report["safe"]["changed_behaviour"] else 0


if __name__ == "__main__":
    sys.exit(main())
