"""The runtime twin's hooks, its default mechanism since issue 46 (``--fast`` and
``pytest --tensorcopy-fast`` name it; ``--mode``/``--tensorcopy-mode`` is the other one):
the same findings as the ``TorchFunctionMode`` mechanism, and what the watched program
can observe of it (issue 23 item 4).

Everything runs torch for real: the rules' examples under both mechanisms in this process, and
programs through the CLI and pytest in subprocesses.
"""
import json
import sys
import textwrap
import warnings

import pytest

from flake8_tensorcopy.rules import ALL_RULES

from .conftest import run

torch = pytest.importorskip("torch")

from flake8_tensorcopy.runtime.watcher import Watcher  # noqa: E402

EXAMPLES = [(r.code, i, ex.before) for r in ALL_RULES for i, ex in enumerate(r.invalid) if ex.run]
EXAMPLES += [(r.code, f"valid{i}", src) for r in ALL_RULES for i, src in enumerate(r.valid)]


def _watch(tmp_path, name, src, fast):
    path = tmp_path / f"{name}.py"
    path.write_text(src)
    w = Watcher(fast=fast)
    err = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with w:
            try:
                exec(compile(src, str(path), "exec"),
                     {"__name__": "__main__", "__file__": str(path)})
            except Exception as exc:  # valid snippets may name things they never define
                err = repr(exc)
    return [(s.code, s.line, s.column, s.count) for s in w.findings()], err


#: examples whose call goes through the class, ``torch.Tensor.clone(t)``: a class-level read
#: gives the original (that is what keeps identity), so ``--fast`` does not see the call
#: (documented in docs/runtime-overhead.md)
THROUGH_THE_CLASS = {("TEN301", 4)}


@pytest.mark.parametrize("code,i,src", EXAMPLES, ids=[f"{c}-{i}" for c, i, _ in EXAMPLES])
def test_every_rule_example_gives_the_same_findings_under_both_mechanisms(tmp_path, code, i, src):
    mode = _watch(tmp_path, f"mode_{code}_{i}", src, False)
    fast = _watch(tmp_path, f"fast_{code}_{i}", src, True)
    if (code, i) in THROUGH_THE_CLASS:
        assert "torch.Tensor." in src and mode[0] and fast == ([], mode[1]), (src, mode, fast)
        return
    assert fast == mode, src


#: the MLP case of the overhead benchmark (batch 16, 32 -> 64 -> 10, Adam), with the rules'
#: patterns in its loop; prints what it computed, so that the runs can be compared
MLP = textwrap.dedent("""\
    import sys
    import torch
    from torch import nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    x = torch.randn(16, 32)
    y = torch.randint(0, 10, (16,))
    snap = model.state_dict()
    losses = []
    for step in range(20):
        opt.zero_grad(set_to_none=True)
        out = model(x)
        loss = loss_fn(out, y)
        loss.backward()
        opt.step()
        for p in model.parameters():
            p.data.mul_(0.999)
        w = model[0].weight.data
        losses.append(loss.clone().detach())
        kept = torch.tensor(loss)
        buf = torch.empty_like(x).copy_(x)
        alias = out.detach()
        alias.add_(1)
        total = alias.sum()
        grid = torch.arange(16.0).reshape(4, 4)
        grid[:, 1:] = grid[:, :-1]
    model.load_state_dict(snap)
    print(" ".join(f"{v.item():.6f}" for v in losses))
    print(sum(p.sum().item() for p in model.parameters()))
    sys.exit(3)
""")


def _trace(tmp_path, script, *extra):
    out = tmp_path / f"report{'-'.join(extra)}.json"
    res = run([sys.executable, "-m", "flake8_tensorcopy", "trace", *extra, "--output-format",
               "json", "--output", str(out), str(script)], cwd=str(tmp_path), timeout=300)
    found = sorted((d["code"], d["location"]["row"], d["location"]["column"], d["count"])
                   for d in json.loads(out.read_text()))
    return res, found


def test_the_mlp_case_gives_the_same_findings_and_output_under_both_mechanisms(tmp_path):
    script = tmp_path / "mlp.py"
    script.write_text(MLP)
    plain = run([sys.executable, str(script)], cwd=str(tmp_path), timeout=300)
    mode, mode_found = _trace(tmp_path, script, "--mode")
    fast, fast_found = _trace(tmp_path, script)
    codes = {c for c, *_ in mode_found}
    assert codes == {"TEN101", "TEN102", "TEN201", "TEN301", "TEN302", "TEN401", "TEN402",
                     "TEN403"}, mode_found
    assert fast_found == mode_found
    assert plain.returncode == mode.returncode == fast.returncode == 3
    assert plain.stdout == mode.stdout == fast.stdout and plain.stdout.strip()


def test_pytest_fast_reports_what_pytest_tensorcopy_reports(tmp_path):
    body = "\n".join("    " + line for line in MLP.replace("sys.exit(3)", "").splitlines())
    (tmp_path / "test_mlp.py").write_text("def test_mlp():\n" + body + "\n")
    found = []
    for flag in ("--tensorcopy-mode", "--tensorcopy", "--tensorcopy-fast"):
        report = tmp_path / f"{flag}.json"
        res = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", flag,
                   "--tensorcopy-report", str(report), "test_mlp.py"], cwd=str(tmp_path),
                  timeout=300)
        assert res.returncode == 0, res.stdout + res.stderr
        found.append(sorted((d["code"], d["location"]["row"], d["count"])
                            for d in json.loads(report.read_text())))
    assert found[0] == found[1] == found[2] and len(found[0]) == 8


#: what a program can observe of torch while it runs; printed, so runs can be compared
OBSERVE = textwrap.dedent("""\
    import pickle
    import torch

    BASE = torch._C.TensorBase
    names = ["add_", "mul_", "detach", "clone", "copy_", "new_tensor", "__setitem__", "__iadd__",
             "zero_", "__itruediv__"]
    print([getattr(torch.Tensor, n) is getattr(BASE, n, None) for n in names])
    print([repr(getattr(torch.Tensor, n)) for n in names])
    print(torch.Tensor.data is BASE.__dict__["data"], repr(torch.Tensor.add_))
    print(pickle.loads(pickle.dumps(torch.Tensor.add_)) is torch.Tensor.add_)

    # keyed by torch.Tensor's methods (not by torch.tensor/torch.*_like: under --fast those are
    # wrappers while the program runs, the documented change, test_hooks_keep_identity...)
    HANDLED = {torch.Tensor.add_: "add_", torch.Tensor.clone: "clone", torch.Tensor.detach:
               "detach", torch.Tensor.__setitem__: "setitem", torch.Tensor.copy_: "copy_",
               torch.Tensor.new_tensor: "new_tensor"}
    seen = []

    class Logged(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(HANDLED.get(func, "other"))
            return super().__torch_function__(func, types, args, kwargs or {})

    t = torch.ones(3).as_subclass(Logged)
    t.add_(1)
    c = t.clone()
    d = c.detach()
    t[0] = 5
    t.copy_(torch.zeros(3))
    n = t.new_tensor([1.0])
    print(seen, type(c).__name__, type(n).__name__)
    z = torch.zeros_like(t)
    print(len(seen), type(z).__name__)

    def f(x):
        y = x.detach().clone()
        y.add_(1)
        y[0] = 7
        return y * 2
    g = torch.compile(f, backend="eager", fullgraph=True)
    print(g(torch.arange(3.0)).tolist(), f(torch.arange(3.0)).tolist())
    u = torch.ones(2)
    u += 1
    print(u.tolist(), torch.Tensor.__iadd__ is BASE.__iadd__)
""")


@pytest.mark.parametrize("flags", [["--mode"], []], ids=["mode", "hooks"])
def test_what_the_watched_program_observes_is_unchanged(tmp_path, flags):
    """Identity of ``torch.Tensor``'s methods and ``data`` (captured in the program), what a
    subclass's ``__torch_function__`` receives (a table keyed by them; the watcher's own reads
    of a tensor, ``_version`` and the like, are not seen there: they were, under the mode, before
    issue 23 item 4), pickling, torch.compile."""
    script = tmp_path / "observe.py"
    script.write_text(OBSERVE)
    plain = run([sys.executable, str(script)], cwd=str(tmp_path), timeout=300)
    fast = run([sys.executable, "-m", "flake8_tensorcopy", "trace", *flags, str(script)],
               cwd=str(tmp_path), timeout=300)
    assert plain.returncode == fast.returncode == 0, plain.stderr + fast.stderr
    assert "other" not in plain.stdout and "[True, True" in plain.stdout
    assert fast.stdout == plain.stdout


COMPILED = textwrap.dedent("""\
    import torch
    import torch._dynamo

    torch._dynamo.config.error_on_recompile = True  # a second compile of f or g raises

    f = torch.compile(lambda x: torch.relu(x).clone().detach() * 2, backend="eager")

    @torch.compile(backend="eager", fullgraph=True)
    def g(x):
        y = x.detach().clone()
        y.add_(1)
        y.data.mul_(2)
        return y

    for _ in range(3):
        a, b = f(torch.ones(2)), g(torch.ones(2))
    print(a.tolist(), b.tolist(), torch._dynamo.utils.counters["stats"]["unique_graphs"])
""")


@pytest.mark.parametrize("flags", [["--mode"], []], ids=["mode", "hooks"])
def test_compiled_functions_are_compiled_once_under_the_watcher(tmp_path, flags):
    """What dynamo traces of the mode and the hooks reads nothing of the watcher's state: no
    guard on it, so no second compile. Before, each mechanism read something first (the mode its
    table of kinds, a hook the watcher's ``enabled`` and the compile flag, True while tracing and
    False when the code runs): the compiled functions were compiled again on the next call, and
    on torch 2.11 (a lent GPU's) failed to compile at all."""
    script = tmp_path / "compiled.py"
    script.write_text(COMPILED)
    plain = run([sys.executable, str(script)], cwd=str(tmp_path), timeout=300)
    traced = run([sys.executable, "-m", "flake8_tensorcopy", "trace", *flags, str(script)],
                 cwd=str(tmp_path), timeout=300)
    assert plain.returncode == 0 and plain.stdout == "[2.0, 2.0] [4.0, 4.0] 2\n", plain.stderr
    assert traced.returncode == 0, traced.stderr[-3000:]
    assert traced.stdout == plain.stdout
    # the compiled graph's own calls are still watched (FX's generated code runs through them)
    assert "TEN301" in traced.stderr and "3x; in torch.compile'd code" in traced.stderr


def test_hooks_keep_identity_while_running_and_are_removed_exactly():
    before_tensor = dict(torch.Tensor.__dict__)
    before_torch = {n: getattr(torch, n) for n in ("tensor", "clone", "empty_like",
                                                   "zeros_like", "ones_like", "save")}
    add, data, det = torch.Tensor.add_, torch.Tensor.data, torch.Tensor.detach
    w = Watcher(fast=True).start()
    try:
        assert torch.Tensor.add_ is add and torch.Tensor.data is data
        assert torch.Tensor.detach is det and "add_" in torch.Tensor.__dict__
        # the documented change: module functions are wrappers while the watcher runs
        assert torch.tensor is not before_torch["tensor"]
        assert torch.tensor.__wrapped__ is before_torch["tensor"]
    finally:
        w.stop()
    assert dict(torch.Tensor.__dict__) == before_tensor
    assert {n: getattr(torch, n) for n in before_torch} == before_torch


def test_read_after_write_mode_comes_and_goes(tmp_path):
    """TEN401 under the fast mechanism: the argument-reading mode is on only while a written
    ``detach()`` alias is pending; a user's own mode is left alone (no read is seen then)."""
    src = textwrap.dedent("""\
        import torch
        from torch.overrides import TorchFunctionMode
        depth = torch._C._len_torch_function_stack
        x = torch.randn(3, requires_grad=True)
        a = x.detach()
        a.add_(1)
        print("pending", depth())
        s = a.sum()
        x.clone()
        print("read", depth())
        class Mine(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                return func(*args, **(kwargs or {}))
        with Mine():
            b = x.detach()
            b.add_(1)
            print("mine", depth())
            b.sum()
        print("after", depth())
    """)
    path = tmp_path / "reads.py"
    path.write_text(src)
    res = run([sys.executable, "-m", "flake8_tensorcopy", "trace", "--fast", "--output-format",
               "json", "--output", str(tmp_path / "r.json"), str(path)], cwd=str(tmp_path),
              timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["pending", "1", "read", "0", "mine", "1", "after", "0"]
    report = json.loads((tmp_path / "r.json").read_text())
    found = [(d["code"], d["location"]["row"]) for d in report]
    assert found == [("TEN401", 6)]


def test_an_internal_error_disables_the_fast_watcher_with_one_warning(tmp_path, monkeypatch,
                                                                      capsys):
    def broken(*a, **k):
        raise KeyError("boom")

    monkeypatch.setattr(Watcher, "_record", broken)
    src = "import torch\nt = torch.ones(2)\nfor _ in range(3):\n    u = t.clone().detach()\n"
    got, err = _watch(tmp_path, "broken", src, True)
    assert err is None and got == []
    out = capsys.readouterr().err
    assert out.count("runtime watcher disabled") == 1 and "boom" in out
