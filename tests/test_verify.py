"""`tensorcopy verify`: every rule's claims, run for real on the installed torch."""
import json
import os
import re
import sys

import pytest

from flake8_tensorcopy.rules import ALL_RULES

from .conftest import ROOT, run, tensorcopy


def test_every_rule_declares_claims():
    for rule in ALL_RULES:
        kinds = {c.kind for c in rule.claims if "cpu" in c.devices}
        assert "semantics" in kinds, rule.code
        if rule.fix_safety is not None:
            assert rule.fix_cases, rule.code
    speed = {r.code for r in ALL_RULES for c in r.claims if c.kind == "speed"}
    assert {"TEN201", "TEN204", "TEN301", "TEN302"} <= speed


def test_no_rule_claims_speed_without_a_speed_claim():
    for rule in ALL_RULES:
        prose = " ".join([rule.why, rule.use_instead, rule.fix_doc, rule.message]).lower()
        if re.search(r"\b(faster|slower|speed)\b", prose):
            ids = [c.id for c in rule.claims if c.kind == "speed"]
            assert ids, f"{rule.code} talks about speed but has no speed claim"
            assert any(i in rule.why for i in ids), f"{rule.code}'s docs must name its speed claim"


def test_verify_without_torch_says_so_and_exits_2():
    code = ("import sys; sys.modules['torch'] = None\n"
            "from flake8_tensorcopy.cli import main\n"
            "sys.exit(main(['verify', '--quick']))\n")
    res = run([sys.executable, "-c", code])
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "needs PyTorch" in res.stderr


torch = pytest.importorskip("torch", reason="torch is not installed; verify needs it")


def test_verify_quick_json_semantic_and_fix_claims_hold():
    """Semantic and fix claims must hold; speed verdicts come from real timings, so this test only
    checks their shape and that the exit status follows the statuses (never the machine's load)."""
    res = tensorcopy("verify", "--quick", "--device", "cpu", "--format", "json")
    assert res.returncode in (0, 1), res.stdout[-3000:] + res.stderr[-2000:]
    doc = json.loads(res.stdout)
    assert doc["torch"] == torch.__version__ and doc["devices"] == ["cpu"]
    claims = doc["claims"]
    assert {c["kind"] for c in claims} == {"semantics", "fix", "speed"}
    for c in claims:
        assert set(c) >= {"rule", "id", "kind", "device", "claim", "status", "holds", "measured"}
        if c["device"] != "cpu":
            assert c["status"] == "not run" and "cuda only" in c["reason"], c
        elif c["kind"] == "speed":
            assert c["status"] in ("holds", "does not hold", "not shown"), c
            for row in c["measured"]["rows"]:
                assert row["claimed"] and row["ratio_low"] <= row["ratio"] <= row["ratio_high"]
                assert row["verdict"] in ("holds", "does not hold", "not shown")
        else:
            assert c["status"] == "holds", c
    assert {c["rule"] for c in claims} == {r.code for r in ALL_RULES}
    want = 1 if any(c["status"] == "does not hold" for c in claims) else 0
    assert res.returncode == want


def test_verify_rule_filter_text_and_markdown(tmp_path):
    res = tensorcopy("verify", "--quick", "--rule", "TEN101", "--device", "cpu")
    assert res.returncode == 0
    assert "TEN101" in res.stdout and "TEN301" not in res.stdout
    assert re.search(r"\d+ of \d+ claims hold\.", res.stdout)
    out = tmp_path / "report.md"
    res = tensorcopy("verify", "--quick", "--rule", "TEN301", "--device", "cpu",
                     "--format", "markdown", "--output", str(out))
    text = out.read_text()
    assert "| method | requires_grad | graph kept | memory shared |" in text
    assert "`t.detach()` | no | no | yes | yes | no |" in text
    assert "### TEN301 `detach-clone-faster-when-rg`" in text


def test_verify_help_documents_the_exit_statuses():
    res = tensorcopy("verify", "--help")
    text = " ".join(res.stdout.split())
    assert res.returncode == 0
    assert "1 a claim does not hold, 3 a claim could not be checked" in text and "--plot DIR" in text


def test_verify_bad_arguments():
    res = tensorcopy("verify", "--rule", "TEN999")
    assert res.returncode == 2 and "unknown rule" in res.stderr
    if not torch.cuda.is_available():
        res = tensorcopy("verify", "--device", "cuda")
        assert res.returncode == 2 and "no CUDA device" in res.stderr


def test_a_failing_claim_is_reported_not_hidden(monkeypatch):
    from flake8_tensorcopy.rules.base import Claim
    from flake8_tensorcopy.verify import render, run as runner

    rule = ALL_RULES[0]
    bogus = Claim("bogus", "semantics", "tensors are lists", lambda v: (False, {"measured": 1}))
    monkeypatch.setattr(type(rule), "claims", tuple(rule.claims) + (bogus,))
    results = runner.run(torch, ["cpu"], [rule.code], quick=True)
    failing = [r for r in results if not r.holds]
    assert [(r.id, r.status) for r in failing] == [("bogus", "does not hold")]
    assert "FAILS" in render.to_text({"torch": "x", "python": "y", "devices": ["cpu"]}, results)
    assert runner.exit_code(results) == 1


def test_a_claim_that_raises_is_an_error_and_the_run_goes_on(monkeypatch):
    from flake8_tensorcopy.rules.base import Claim
    from flake8_tensorcopy.verify import render, run as runner

    def broken(v):
        raise RuntimeError("the probe itself broke")

    rule = ALL_RULES[0]
    claims = (Claim("broken", "semantics", "x", broken),) + tuple(rule.claims)
    monkeypatch.setattr(type(rule), "claims", claims)
    results = runner.run(torch, ["cpu"], [rule.code], quick=True)
    by_id = {r.id: r for r in results}
    assert by_id["broken"].status == "error" and "probe itself broke" in by_id["broken"].reason
    assert all(r.status == "holds" for r in results if r.id != "broken")
    assert len(results) == len(claims) + len(rule.fix_cases)
    assert runner.exit_code(results) == 3


#: a fix case whose fixed form makes the harness's own backward() raise: the fix turns a silent
#: `.data` write into a tracked one, and `exp` saved its output for backward
HARNESS_BREAKER = "y = t.exp()\n    y.data.mul_(2)\n    return y"


def test_a_failing_harness_step_is_an_error_not_a_crash(monkeypatch):
    from flake8_tensorcopy.rules.base import FixCase
    from flake8_tensorcopy.rules.data import DataInplace
    from flake8_tensorcopy.verify import render, run as runner

    cases = tuple(DataInplace.fix_cases) + (FixCase(HARNESS_BREAKER, differs=("input_version",)),)
    monkeypatch.setattr(DataInplace, "fix_cases", cases)
    results = runner.run(torch, ["cpu"], ["TEN102"], quick=True)
    by_id = {r.id: r for r in results}
    last = by_id[f"fix-{len(cases)}"]
    assert last.status == "error" and "backward failed" in last.reason, last
    assert all(by_id[f"fix-{i}"].status == "holds" for i in range(1, len(cases)))
    assert runner.exit_code(results) == 3


def test_verify_exits_3_when_a_claim_could_not_be_checked():
    code = ("import sys\n"
            "from flake8_tensorcopy.rules.base import FixCase\n"
            "from flake8_tensorcopy.rules.data import DataInplace\n"
            f"DataInplace.fix_cases = (FixCase({HARNESS_BREAKER!r}),)\n"
            "from flake8_tensorcopy.cli import main\n"
            "sys.exit(main(['verify', '--quick', '--rule', 'TEN102', '--device', 'cpu', "
            "'--format', 'json']))\n")
    res = run([sys.executable, "-c", code])
    assert res.returncode == 3, res.stderr[-2000:]
    assert "Traceback" not in res.stderr
    doc = json.loads(res.stdout)
    assert [c["status"] for c in doc["claims"] if c["kind"] == "fix"] == ["error"]
    assert doc["counts"]["error"] == 1


def test_output_and_plot_are_checked_before_measuring(tmp_path, monkeypatch):
    from flake8_tensorcopy.cli import main
    from flake8_tensorcopy.verify import render, run as runner

    def no_measuring(*a, **k):
        raise AssertionError("measured before checking --output")

    monkeypatch.setattr(runner, "run", no_measuring)
    missing = tmp_path / "no-such-dir" / "report.md"
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    for argv, words in [(["--output", str(missing)], "does not exist"),
                        (["--output", str(tmp_path)], "is a directory"),
                        (["--plot", str(a_file)], "not a directory"),
                        (["--plot", str(tmp_path / "a" / "b")], "does not exist")]:
        assert main(["verify", "--quick", "--device", "cpu", *argv]) == 2, argv
    res = tensorcopy("verify", "--output", str(missing))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and str(missing) in res.stderr and "does not exist" in res.stderr


def test_claims_for_an_absent_device_are_listed_as_not_run():
    from flake8_tensorcopy.verify import render, run as runner

    from .test_mutations import synthetic_sampler

    results = runner.run(torch, ["cpu"], None, quick=True,
                         absent={"cuda": "no CUDA device is available"}, sampler=synthetic_sampler)
    cuda = [r for r in results if r.device == "cuda"]
    want = {(rule.code, c.id) for rule in ALL_RULES for c in rule.claims if "cuda" in c.devices}
    want |= {(rule.code, f"fix-{i}") for rule in ALL_RULES
             for i, case in enumerate(rule.fix_cases, 1) if "cuda" in case.devices}
    assert {(r.rule, r.id) for r in cuda} == want
    assert ("TEN101", "fix-5") not in want  # a CPU case (``t.data.numpy()`` raises on CUDA)
    assert all(r.status == "not run" and r.reason == "no CUDA device is available" for r in cuda)
    assert runner.exit_code(results) == 0
    env = {"torch": "t", "python": "p", "devices": ["cpu"], "machine": "m", "cpu_threads": 1,
           "date": "d", "not_verified": {"cuda": "no CUDA device is available"}}
    text = render.to_text(env, results)
    assert "devices verified: cpu; cuda not verified (no CUDA device is available)" in text
    md = render.to_markdown(env, results, {}, quick=True)
    assert md.startswith("# Verification report (cpu)\n")
    assert "| TEN202 | `new-tensor-takes-receiver-device` | semantics | cuda | not run |" in md
    # a CPU-only run still lists the CUDA-only claims
    results = runner.run(torch, ["cpu"], ["TEN202"], quick=True)
    assert {(r.id, r.status) for r in results if r.device == "cuda"} == {
        ("new-tensor-takes-receiver-device", "not run")}


def test_a_fix_case_about_other_devices_is_listed_once_as_not_run():
    """Like a claim about other devices: a CUDA run lists TEN101's CPU case once, under cpu, not
    as a CUDA row (the GPU run of the suite found a CUDA row 'not run' among the holding ones)."""
    from flake8_tensorcopy.verify import run as runner

    results = runner.run(torch, [], ["TEN101"], quick=True, absent={"cuda": "no CUDA device"})
    rows = [(r.id, r.device, r.status) for r in results if r.kind == "fix"]
    assert len(rows) == len({r[0] for r in rows}) == 5, rows
    assert ("fix-5", "cpu", "not run") in rows and ("fix-4", "cuda", "not run") in rows
    (five,) = [r for r in results if r.id == "fix-5"]
    assert five.reason == "the case is about cpu only, which this run did not verify"
    results = runner.run(torch, ["cpu"], ["TEN101"], quick=True, absent={"cuda": "no CUDA device"})
    assert [(r.device, r.status) for r in results if r.id == "fix-5"] == [("cpu", "holds")]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the header without a GPU")
def test_verify_all_without_gpu_reports_the_devices_really_verified():
    res = tensorcopy("verify", "--quick", "--device", "all", "--rule", "TEN202", "--format", "json")
    doc = json.loads(res.stdout)
    assert doc["devices"] == ["cpu"]
    assert doc["environment"]["not_verified"] == {"cuda": "no CUDA device is available"}
    assert {c["status"] for c in doc["claims"] if c["device"] == "cuda"} == {"not run"}


def test_both_sides_raising_is_not_applicable(monkeypatch):
    from flake8_tensorcopy.rules.base import FixCase
    from flake8_tensorcopy.rules.order import CloneDetach
    from flake8_tensorcopy.verify import render, run as runner

    results = {r.id: r for r in runner.run(torch, ["cpu"], ["TEN301"], quick=True,
                                           sampler=_no_timing)}
    fix3 = results["fix-3"]  # channels_last clone: only the 4-d kind runs at all
    assert fix3.status == "holds"
    assert fix3.measured["compared"] == ["channels_last"] and len(fix3.measured["not_applicable"]) == 8
    assert "equal on 1 of 9 kinds" in render._summarize(fix3)
    # a case where every kind raises on both sides proves nothing: it does not hold
    monkeypatch.setattr(CloneDetach, "fix_cases", (
        FixCase("return t.clone(memory_format=torch.channels_last).detach()", kinds=("leaf", "plain")),))
    fix1 = {r.id: r for r in runner.run(torch, ["cpu"], ["TEN301"], quick=True, sampler=_no_timing)}["fix-1"]
    assert fix1.status == "does not hold" and fix1.measured["compared"] == []
    assert "no kind compared" in render._summarize(fix1)


def _no_timing(a, b, env, no_grad, rounds):
    return [1.0] * rounds, [1.0] * rounds


def test_no_grad_rows_time_only_the_statement(monkeypatch):
    """Grad mode is off while a no_grad row's statement runs, and the timed statement is the bare
    statement: entering `with torch.no_grad():` is not part of it."""
    import torch.utils.benchmark as bench

    from flake8_tensorcopy.verify.helper import Helper

    stmts = []

    class Recording(bench.Timer):
        def __init__(self, stmt="pass", *args, **kwargs):
            stmts.append(stmt)
            super().__init__(stmt, *args, **kwargs)

    monkeypatch.setattr(bench, "Timer", Recording)
    v = Helper(torch, "cpu", quick=True)
    for no_grad in (True, False):
        seen = []
        stmts.clear()
        v.measure("seen.append(torch.is_grad_enabled())", "t.clone()",
                  {"seen": seen, "t": torch.ones(2)}, no_grad, rounds=1)
        assert stmts == ["seen.append(torch.is_grad_enabled())", "t.clone()"]
        assert seen and set(seen) == {not no_grad}
        assert torch.is_grad_enabled()


def test_claims_run_with_the_device_as_a_parameter():
    """The CUDA-only claims' code paths run on the CPU device too (except those whose subject
    is a CUDA behaviour: the sync probe, where ``torch.tensor`` puts CUDA scalars, the
    nondeterministic overlapping shifts, ``.cpu()`` copying from CUDA)."""
    from flake8_tensorcopy.verify.helper import Helper

    v = Helper(torch, "cpu", quick=True)
    for rule in ALL_RULES:
        for claim in rule.claims:
            if claim.kind == "speed" or claim.id in ("tensor-list-syncs-per-element",
                                                     "tensor-list-lands-on-cpu",
                                                     "cuda-shifts-differ",
                                                     "cpu-copies-from-cuda"):
                continue
            holds, measured = claim.check(v)
            assert holds, (rule.code, claim.id, measured)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_verify_cuda_quick():
    res = tensorcopy("verify", "--quick", "--device", "cuda", "--format", "json")
    assert res.returncode in (0, 1), res.stdout[-3000:] + res.stderr[-2000:]
    doc = json.loads(res.stdout)
    assert doc["devices"] == ["cuda"]
    for c in doc["claims"]:
        if c["device"] != "cuda":
            assert c["status"] == "not run", c  # the CPU-only claims, listed with the reason
        elif c["kind"] == "speed":  # real timings: never a CI verdict
            assert c["status"] in ("holds", "does not hold", "not shown"), c
        else:
            assert c["status"] == "holds", c


def test_committed_cpu_report_agrees_with_the_rules():
    path = os.path.join(ROOT, "docs", "verification-cpu.md")
    text = open(path, encoding="utf-8").read()
    assert "Generated by `tensorcopy verify --device cpu --format markdown" in text  # a full run
    assert "--quick" not in text.split("\n", 3)[2]
    for rule in ALL_RULES:
        for claim in rule.claims:
            row = re.search(rf"\| {rule.code} \| `{re.escape(claim.id)}` \| {claim.kind} \| (\w+) \| ([^|]+) \|", text)
            assert row, f"{rule.code} {claim.id} missing from the report"
            if "cpu" not in claim.devices:
                assert row.group(1) == "cuda" and row.group(2).strip() == "not run"
                continue
            assert row.group(2).strip() == "yes", f"{rule.code} {claim.id} does not hold in the report"
        for i, _ in enumerate(rule.fix_cases, 1):
            assert re.search(rf"\| {rule.code} \| `fix-{i}` \| fix \| cpu \| yes \|", text)
    assert "Benjamini-Hochberg" in text and "95% CI" in text
    # every speed claim has its plot committed beside the report
    images = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", text)
    speed = [(r.code, c.id) for r in ALL_RULES for c in r.claims if c.kind == "speed"]
    assert len(images) == len(speed)
    for image in images:
        assert os.path.isfile(os.path.join(ROOT, "docs", image)), image


def test_plots_draw_the_ratio_bands(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the plot extra)")
    from flake8_tensorcopy.verify import render, run as runner
    from flake8_tensorcopy.verify.plot import draw_all

    from .test_mutations import synthetic_sampler

    results = runner.run(torch, ["cpu"], ["TEN301", "TEN302"], quick=True, sampler=synthetic_sampler)
    plots = draw_all(results, str(tmp_path / "plots"), str(tmp_path))
    assert sorted(plots) == ["TEN301/cpu", "TEN302/cpu"]
    for rel in plots.values():
        data = (tmp_path / rel).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_verify_plot_option_embeds_the_plots(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the plot extra)")
    out = tmp_path / "report.md"
    res = tensorcopy("verify", "--quick", "--rule", "TEN301", "--device", "cpu", "--format",
                     "markdown", "--output", str(out), "--plot", str(tmp_path / "plots"))
    assert res.returncode in (0, 1), res.stderr[-2000:]
    text = out.read_text()
    image = re.search(r"!\[TEN301 detach-clone-faster-when-rg \(cpu\)[^\]]*\]\((plots/[^)]+\.png)\)", text)
    assert image, text[:2000]
    assert (tmp_path / image.group(1)).read_bytes()[:4] == b"\x89PNG"


#: CUDA rows of rules added in a task that was lent no GPU: listed *not run* in
#: docs/verification-cuda.md until a lent GPU runs them (the report says so); nothing else may be
AWAITING_GPU = frozenset(
    {("TEN404", i) for i in ("cpu-copies-from-cuda", "conversions-copy-when-something-converts",
                             "write-through-conversion-reaches-source", "fix-1", "fix-2", "fix-3")}
    | {("TEN406", i) for i in ("repeated-list-is-one-tensor", "expand-row-write-is-silent",
                               "fix-1", "fix-2")}
    | {("TEN403", "fix-3"), ("TEN403", "fix-4"), ("TEN403", "fix-5"),
       ("TEN403", "fix-6"),
       ("TEN402", "fresh-optimizer-snapshot-holds-nothing-live"),
       ("TEN501", "stored-per-index-keeps-graph"), ("TEN501", "bounded-queue-keeps-graph"),
       ("TEN501", "step-closure-returns-the-loss"), ("TEN402", "shallow-snapshots-follow-step")})


def test_committed_cuda_report_agrees_with_the_rules():
    """docs/verification-cuda.md (a run on a lent GPU) lists every CUDA claim and fix case of the
    current rules; each semantic and fix claim holds there, a speed claim holds or is not shown."""
    path = os.path.join(ROOT, "docs", "verification-cuda.md")
    text = open(path, encoding="utf-8").read()
    assert "Devices verified: cuda" in text and "GPU: NVIDIA" in text
    for rule in ALL_RULES:
        for claim in rule.claims:
            if "cuda" not in claim.devices:
                continue
            row = re.search(rf"\| {rule.code} \| `{re.escape(claim.id)}` \| {claim.kind} \| cuda \| "
                            r"([\w ]+) \|", text)
            assert row, f"{rule.code} {claim.id} missing from the CUDA report"
            allowed = ("yes", "not shown") if claim.kind == "speed" else ("yes",)
            if (rule.code, claim.id) in AWAITING_GPU:
                allowed = ("not run",)
            assert row.group(1).strip() in allowed, (rule.code, claim.id, row.group(1))
        for i, case in enumerate(rule.fix_cases, 1):
            if "cuda" in case.devices:
                status = "not run" if (rule.code, f"fix-{i}") in AWAITING_GPU else "yes"
                assert re.search(rf"\| {rule.code} \| `fix-{i}` \| fix \| cuda \| {status} \|",
                                 text), (rule.code, i)
