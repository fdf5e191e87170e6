"""TEN501's no-backward shape inside a function: reported only where every caller is visible and
runs it with grad on (issue 25), through the real CLI and flake8, and never from a stale cache
when another file starts importing the script."""
import ast
import json
import os
import shutil
import textwrap

import pytest

from flake8_tensorcopy.syntax.grad_callers import grad_on_function
from flake8_tensorcopy.semantic.index import importers

from .conftest import FIXTURES, flake8, tensorcopy

SCRIPT = textwrap.dedent("""\
    import torch
    from torch import nn


    def evaluate(model, loader):
        outputs = []
        for x in loader:
            outputs.append(model(x))
        return outputs


    def main():
        model = nn.Linear(8, 2)
        return evaluate(model, [torch.randn(4, 8) for _ in range(3)])


    if __name__ == "__main__":
        main()
    """)
LINE = 8  # ``outputs.append(model(x))``


def _project(tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    (root / "script.py").write_text(SCRIPT)
    return root


def _ten501(root):
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", "--select", "TEN501",
                      ".", cwd=str(root))
    assert proc.returncode == 0, proc.stderr
    return sorted((os.path.normpath(d["filename"]), d["location"]["row"])
                  for d in json.loads(proc.stdout))


def test_script_helper_is_reported_until_another_file_imports_the_script(tmp_path):
    root = _project(tmp_path)
    assert _ten501(root) == [("script.py", LINE)]
    # the same from flake8, and from the cache on a second run
    proc = flake8("--select", "TEN501", "script.py", cwd=str(root))
    assert f"script.py:{LINE}:" in proc.stdout and "TEN501" in proc.stdout, proc.stdout + proc.stderr
    assert _ten501(root) == [("script.py", LINE)]
    # a new file imports the script: a caller the file does not show may run it under no_grad;
    # script.py is unchanged, and no cached answer for it may survive
    (root / "other.py").write_text("import torch\nfrom script import evaluate\n\n\n"
                                   "def run(m, xs):\n    with torch.no_grad():\n"
                                   "        return evaluate(m, xs)\n")
    assert _ten501(root) == []
    (root / "other.py").unlink()
    assert _ten501(root) == [("script.py", LINE)]


def test_each_unprovable_caller_keeps_the_function_silent(tmp_path):
    cases = {
        "under no_grad": ("    with torch.no_grad():\n        return evaluate(model, xs)\n"),
        "passed as a value": ("    fns = [evaluate]\n    return fns[0](model, xs)\n"),
        "grad set off": ("    torch.set_grad_enabled(False)\n    return evaluate(model, xs)\n"),
    }
    for why, body in cases.items():
        root = tmp_path / why.replace(" ", "_")
        root.mkdir()
        (root / "setup.cfg").write_text("[metadata]\nname = p\n")
        head = SCRIPT.split("def main():")[0]
        (root / "script.py").write_text(
            head + "def main():\n    model = nn.Linear(8, 2)\n    xs = [torch.randn(4, 8)]\n"
            + body + "\n\nmain()\n")
        assert _ten501(root) == [], why


def test_the_fixture_project_agrees_between_flake8_and_check(tmp_path):
    root = tmp_path / "eval_project"
    shutil.copytree(os.path.join(FIXTURES, "eval_project"), root)
    proc = flake8("--select", "TEN501", "--format", "%(path)s|%(row)d", ".", cwd=str(root))
    from_flake8 = sorted((os.path.normpath(p), int(r)) for p, r in
                         (line.split("|") for line in proc.stdout.splitlines()))
    assert from_flake8 == _ten501(root) == [
        ("criterion_param.py", 27), ("criterion_param.py", 36), ("epoch_loop.py", 28), ("epoch_loop.py", 29),
        ("epoch_loop.py", 56),
        ("eval_metrics.py", 15), ("evaluate_script.py", 13), ("evaluate_script.py", 14),
        ("hf_eval.py", 15), ("inference_elsewhere.py", 13), ("main_block.py", 29),
        ("main_block.py", 36),
        ("main_block_outputs.py", 50), ("main_block_outputs.py", 63),
        ("parameter_updates.py", 19), ("parameter_updates.py", 40), ("parameter_updates.py", 65),
        ("parameter_updates.py", 120),
        ("phase_loop.py", 25),
        ("returned_dicts.py", 16), ("returned_dicts.py", 40), ("returned_value.py", 12),
        ("rollout_consumed.py", 40),
        ("runner_methods.py", 19), ("summed_and_stacked.py", 25), ("summed_and_stacked.py", 55),
        ("summed_and_stacked.py", 56)]


def test_callers_proof_reads_every_binding_of_the_name():
    def proven(src, name="f"):
        return grad_on_function(ast.parse(textwrap.dedent(src)), name)

    base = "def f(m):\n    pass\n\n"
    assert proven(base + "f(1)\n")
    assert proven(base + "def g():\n    f(1)\n\ng()\n")
    assert not proven(base)  # never called: nothing to prove
    assert not proven(base + "def g():\n    f(1)\n")  # g is never called
    assert not proven(base + "@torch.no_grad()\ndef g():\n    f(1)\n\ng()\n")
    assert not proven(base + "with torch.inference_mode():\n    f(1)\n")
    assert not proven(base + "with ctx(grad=False):\n    f(1)\n")
    assert not proven(base + "f(1)\nfrom m import f\n")  # rebound by an import
    assert not proven(base + "f(1)\ntry:\n    pass\nexcept E as f:\n    pass\n")
    assert not proven(base + "f(1)\nh = lambda: f(2)\n")  # a lambda's caller is unknown
    assert not proven(base + "class C:\n    x = f(1)\n")
    assert not proven(base + "f(1)\nprint(f)\n")
    assert not proven("@dec\n" + base + "f(1)\n")
    assert not proven("async def f():\n    pass\n\nf()\n")
    assert not proven(base + "def g():\n    def f():\n        pass\n    f()\n\nf(1)\ng()\n")
    assert proven(base + "with open('x') as fh:\n    f(fh)\n")
    # a caller that calls it twice is asked about once (it had read as a cycle the second time)
    assert proven(base + "def g():\n    f(1)\n    f(2)\n\ng()\n")
    assert proven(base + "def g():\n    f(1)\n\ndef h():\n    g()\n    g()\n    f(3)\n\nh()\n")
    assert not proven(base + "def g():\n    f(1)\n    h()\n\ndef h():\n    g()\n\nh()\n")  # a cycle


_TRICKY = [
    # a use inside a multi-line f-string (positions inside one were its own before 3.12)
    'def f(m):\n    pass\n\nf(1)\nmsg = f"""\n{f}\n"""\n',
    'def f(m):\n    pass\n\nf(1)\nmsg = f"""a\n{\n  f(2) if True\n  else 0}"""\n',
    # decorators above the definition's own line, continuation lines, CR and CRLF endings
    'def f(m):\n    pass\n\n@wrap(\n    f)\ndef g():\n    pass\n\nf(1)\n',
    'def f(m):\n    pass\n\nx = 1 + \\\n    f(2)\nf(1)\n',
    'def f(m):\r    pass\r\rf(1)\rprint(\r  f)\r',
    'def f(m):\r\n    pass\r\n\r\ndef g():\r\n    f(1)\r\n\r\ng()\r\n',
    'def f(m):\n    pass\n\nwith torch.no_grad(\n):\n    pass\nf(1)\n',
]


def test_callers_proof_reads_only_the_statements_holding_the_name(monkeypatch):
    """The proof reads a name's uses in the statements whose lines hold it (found in the text),
    not in the whole module: the answers are those of a walk of every node, over every name of
    tricky sources and of every module of this package, and a function called from script level
    in a module of 300 other functions costs a few nodes."""
    import flake8_tensorcopy
    from flake8_tensorcopy.syntax import grad_callers as callers

    sources = list(_TRICKY)
    top = os.path.dirname(flake8_tensorcopy.__file__)
    for folder, _, names in os.walk(top):
        sources += [open(os.path.join(folder, n), encoding="utf-8").read()
                    for n in sorted(names) if n.endswith(".py")]
    compared = 0
    for text in sources:
        tree = ast.parse(text)
        whole, pruned = callers.Uses(tree), callers.Uses(tree, text)
        assert pruned._starts is not None or not text.isascii()
        for name in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | whole.plain:
            assert pruned.of(name) == whole.of(name), (text[:80], name)
            compared += 1
    assert compared > 5000
    assert [grad_on_function(ast.parse(t), "f", t) for t in _TRICKY] == [
        False, True, False, True, False, True, True]

    others = "".join(f"def g{i}(x):\n    y = x + {i}\n    return [y, y * 2]\n\n\n"
                     for i in range(300))
    text = others + "def f(m):\n    pass\n\n\nf(1)\nf(2)\n"
    visits = [0]
    real = callers._Walk.visit

    def counted(self, *args, **kwargs):
        visits[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(callers._Walk, "visit", counted)
    assert grad_on_function(ast.parse(text), "f", text)
    assert visits[0] < 320, visits  # the 303 statements looked at, 5 entered; not 4,000 nodes


def imported_elsewhere(path, root):
    importers._READ.clear()  # each question reads the project afresh (answers live 1 s)
    return importers.imported_elsewhere(path, root)


def test_imports_are_read_from_text_and_computed_imports_spoil_the_answer(tmp_path):
    root = tmp_path
    script = root / "script.py"
    script.write_text("x = 1\n")
    assert not imported_elsewhere(str(script), str(root))
    (root / "a.py").write_text("from pkg import (\n    other,\n    script,\n)\n")
    assert imported_elsewhere(str(script), str(root))
    (root / "a.py").write_text("import os; import script as s\n")
    assert imported_elsewhere(str(script), str(root))
    (root / "a.py").write_text("# the word script in a comment\nname = 'script'\n")
    assert not imported_elsewhere(str(script), str(root))
    (root / "a.py").write_text("import importlib\nm = importlib.import_module(name)\n")
    assert imported_elsewhere(str(script), str(root))
    (root / "a.py").unlink()
    (root / "nb.ipynb").write_text('{"cells": [{"source": ["from script import f\\n"]}]}')
    assert imported_elsewhere(str(script), str(root))


def test_an_analysis_leaves_no_cyclic_garbage():
    """Everything an analysis makes is freed when it returns, by reference counting: a cycle
    (TEN501's loop search was a closure calling itself) kept the whole analysed tree alive until
    the cyclic collector ran, which flake8's run then paid for."""
    import gc

    from flake8_tensorcopy import lint_source

    path = os.path.join(FIXTURES, "graph_accumulators.py")
    with open(path, encoding="utf-8") as fh:
        source = fh.read()
    assert lint_source(source, path)  # the rule's loops were searched
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        assert any(d.code == "TEN501" for d in lint_source(source, path))
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


TRAINED = textwrap.dedent("""\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    def validate(model, loader):
        model.eval()
        preds = []
        for x, y in loader:
            preds.append(model(x))
        return preds


    def chunks(model, xs):
        model.train()
        outs = []
        for x in xs:
            outs.append(model(x))
        return torch.cat(outs)


    def quiet(model, loader):
        model.eval()
        kept = []
        for x, y in loader:
            kept.append(model(x))
        return kept


    def train(model, loader, val_loader, opt, epochs):
        criterion = nn.CrossEntropyLoss()
        for epoch in range(epochs):
            model.train()
            for xs, y in loader:
                out = chunks(model, xs)
                loss = criterion(out, y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            validate(model, val_loader)
            with torch.no_grad():
                quiet(model, val_loader)


    class Trainer:
        def __init__(self, model, loader, val_loader):
            self.model = model
            self.loader = loader
            self.val_loader = val_loader
            self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

        def evaluate(self):
            self.model.eval()
            outs = []
            for x, y in self.val_loader:
                outs.append(self.model(x))
            return outs

        def collect(self, xs):
            self.model.train()
            outs = []
            for x in xs:
                outs.append(self.model(x))
            return torch.cat(outs)

        def fit(self, epochs):
            for epoch in range(epochs):
                self.model.train()
                for xs, y in self.loader:
                    loss = F.mse_loss(self.collect(xs), y)
                    self.opt.zero_grad()
                    loss.backward()
                    self.opt.step()
                self.evaluate()
    """)


def test_callers_whose_backward_proves_grad_on(tmp_path):
    """An evaluation function or method without ``no_grad``, called where the caller's own
    differentiation proves grad on (a ``backward`` in the same grad region), keeps every
    batch's graph; not where the caller differentiates what the call returns (chunks of a
    forward pass collected for one loss), nor a call under ``no_grad``."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    (root / "train.py").write_text(TRAINED)
    lines = TRAINED.splitlines()
    want = [("train.py", i) for i, text in enumerate(lines, 1)
            if text.strip() in ("preds.append(model(x))",)] + \
        [("train.py", i) for i, text in enumerate(lines, 1)
         if text.strip() == "outs.append(self.model(x))"][:1]
    assert len(want) == 2
    assert _ten501(root) == sorted(want)
    proc = flake8("--select", "TEN501", "train.py", cwd=str(root))
    assert sorted(int(line.split(":")[1]) for line in proc.stdout.splitlines()) == \
        sorted(n for _, n in want), proc.stdout + proc.stderr


@pytest.mark.parametrize("src, want", [
    ("for p in teacher.parameters():\n    p.requires_grad_(False)\n", {"teacher"}),
    ("for n, p in self.ema.named_parameters():\n    p.requires_grad = False\n", {"self.ema"}),
    ("model.backbone.requires_grad_(False)\nx.requires_grad_(True)\n", {"model.backbone"}),
    ("net = torch.nn.Parameter(pe, requires_grad=False)\n", set()),
    ("def f(m):\n    m.requires_grad_(False)\n", {"m (in f)"}),
    ("for p in params:\n    p.requires_grad = False\n", None),  # a loop over what?
    ("frozen = student\nfrozen.requires_grad_(False)\n", None),  # an alias
    ("torch.set_grad_enabled(False)\n", None),
    ("f(model, requires_grad=False)\n", None),
    ("get()[0].requires_grad_(False)\n", None),
    # a module a constructor or a deep copy makes, frozen as it is bound (also through
    # ``.eval()``/``.to()``): that new module, not the one it copies
    ("self.q_target = QNet().requires_grad_(False)\n", {"self.q_target"}),
    ("ema = copy.deepcopy(model).eval().requires_grad_(False)\n", {"ema"}),
    ("t = nn.Linear(2, 2).to(dev).requires_grad_(False)\n", {"t"}),
    ("t = make_model().requires_grad_(False)\n", None),  # may return a module kept elsewhere
    # a module's own methods return it: both names are that module
    ("t = model.float().requires_grad_(False)\n", {"model", "t"}),
    ("def f(m):\n    k = m.eval().requires_grad_(False)\n", {"k", "m (in f)"}),
    # ``__init__``'s parameter kept on ``self`` frozen: the attribute's module, not any module
    ("class D:\n    def __init__(self, teacher):\n"
     "        self.teacher = teacher.eval().requires_grad_(False)\n", {"self.teacher"}),
])
def test_frozen_targets_names_each_frozen_module(src, want):
    from flake8_tensorcopy.syntax.grad_callers import frozen_targets

    got = frozen_targets(ast.parse(src))
    assert (got if got is None else {d + (f" (in {fn.name})" if fn else "")
                                     for d, fn in got}) == want



def test_an_episode_rollout_emptied_for_each_update_is_no_growing_accumulator(tmp_path):
    """Round 19's pkg_b/main.py (a held-out program, copied as it is): the inner loop over an
    episode's steps differentiates nothing, but ``buf.add(dist.log_prob(a), v, r)`` keeps one
    episode's graph, which another module's ``learn(model, opt, buf)`` differentiates before
    ``buf.clear()`` empties it on every turn around it (``accumulate_turns.one_rollout``): no
    growing accumulator. The losses kept across episodes are reported still."""
    src = os.path.join(os.path.dirname(FIXTURES), "..", "benchmarks", "variants", "round19",
                       "ten501", "pkg_b")
    root = tmp_path / "proj"
    shutil.copytree(src, root / "pkg_b")
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    got = [row for path, row in _ten501(root) if path == os.path.join("pkg_b", "main.py")]
    assert 23 not in got and 33 in got, got


def test_a_buffer_written_in_a_step_method_names_that_method(tmp_path):
    """A tensor attribute written a slot at a time in a method that runs ``backward()`` itself
    (a DQN's ``self.priorities[i] = td.abs().mean()`` in ``learn``) is reported as that step's,
    not as Lightning's ``training_step`` (the review of the twenty-sixth session: the message
    named Lightning for any step found before a caller's)."""
    shutil.copy(os.path.join(FIXTURES, "graph_buffer_slots.py"), tmp_path / "slots.py")
    out = tensorcopy("check", "--no-cache", str(tmp_path / "slots.py")).stdout
    learn = [line for line in out.splitlines() if "`self.priorities`" in line]
    assert len(learn) == 1, out
    assert "in `learn()`, which calls `backward()`" in learn[0], learn[0]
    assert "Lightning" not in out, out


def test_a_rollout_that_the_differentiating_update_empties_is_no_growing_accumulator(tmp_path):
    """An actor-critic's episode loop (no ``backward()``) keeps ``(log_prob, value)`` tuples in
    ``model.saved_actions``; ``update()``, called once per episode, builds its loss from them,
    differentiates it and runs ``del model.saved_actions[:]`` (``grad_callers.emptied_by_updates``):
    no graph outlives its episode (round 15's ``a2c_actor_critic.py``, whose namedtuple entries
    the twenty-seventh session's records made visible). In its own project, as users run it."""
    src = os.path.join(FIXTURES, "graph_rollout_emptied_by_update.py")
    text = open(src, encoding="utf-8").read()
    shutil.copy(src, tmp_path / "a2c.py")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "emptied by update" in t)
    out = tensorcopy("check", "--no-cache", "--select", "TEN501", str(tmp_path / "a2c.py")).stdout
    assert f"a2c.py:{line}:" not in out, out
    # the same list, never emptied: kept across episodes, reported
    (tmp_path / "kept.py").write_text(text.replace("    del model.saved_actions[:]\n", ""))
    out = tensorcopy("check", "--no-cache", "--select", "TEN501", str(tmp_path / "kept.py")).stdout
    assert f"kept.py:{line}:" in out, out


def test_an_evaluation_of_the_module_s_own_model_kept_by_a_caller_with_grad_on(tmp_path):
    """``evaluate(val)`` without ``no_grad``, running ``model(x)`` and ``criterion(out, y)`` of
    the module's own top-level ``model = Net()`` and ``criterion = nn.MSELoss()``, called in a
    loop with grad on: its sum keeps each batch's graph, and the caller keeps each call's value
    (the index's summary reads a top-level name's module: ``IndexOracle.global_call``). The
    fixture in a project of its own, as users run it; its traps stay silent there too."""
    src = os.path.join(FIXTURES, "graph_global_model_evaluations.py")
    text = open(src, encoding="utf-8").read()
    shutil.copy(src, tmp_path / "lm.py")
    lines = text.splitlines()
    want = sorted(i for i, t in enumerate(lines, 1)
                  if "expect: TEN501" in t or "in a project of its own: TEN501" in t)
    out = tensorcopy("check", "--no-cache", "--select", "TEN501", "--output-format", "json",
                     str(tmp_path / "lm.py")).stdout
    got = sorted(d["location"]["row"] for d in json.loads(out))
    assert len(want) == 2 and got == want, out


def test_an_average_kept_in_a_list_handed_on_every_call_grows_a_graph(tmp_path):
    """``ema_update(shadow, model)`` once per step with grad on, ``shadow`` a list of tensors
    made before the loop and zipped with ``model.parameters()``: each call's in-place add
    records a graph the list keeps (round 25's ``q09_ema_weights.py``). Not a list made afresh
    for each call, nor an update under ``no_grad`` or of detached values. In a project of its
    own, as users run it (the file is also longer than the pre-filter's masking size)."""
    src = os.path.join(FIXTURES, "graph_ema_handed_list.py")
    text = open(src, encoding="utf-8").read()
    shutil.copy(src, tmp_path / "ema.py")
    want = sorted(i for i, t in enumerate(text.splitlines(), 1)
                  if "in a project of its own: TEN501" in t)
    out = tensorcopy("check", "--no-cache", "--select", "TEN501", "--output-format", "json",
                     str(tmp_path / "ema.py")).stdout
    got = sorted(d["location"]["row"] for d in json.loads(out))
    assert len(want) == 2 and got == want, out
    assert all("the tensors it is handed" in d["message"] for d in json.loads(out)), out
    proc = flake8("--select", "TEN501", "ema.py", cwd=str(tmp_path))
    assert sorted(int(line.split(":")[1]) for line in proc.stdout.splitlines()) == want, \
        proc.stdout


def test_a_hand_written_soft_update_into_a_dict_on_self_grows_a_graph(tmp_path):
    """``self.shadow[n] = tau * p + (1 - tau) * self.shadow[n]`` (the accumulator scaled by
    arithmetic of settings), in a method the script's loop calls each step with grad on, where
    the file also freezes a target network its constructor makes (``QNet().requires_grad_(
    False)``: a new module, not the trained one): each call's graph stays reachable from
    ``self`` (round 25's ``q10_target_network.py``); the message names the parameter as the
    leaf, not the setting ``self.tau``. In a project of its own, as users run it."""
    src = os.path.join(FIXTURES, "graph_target_shadow_average.py")
    text = open(src, encoding="utf-8").read()
    shutil.copy(src, tmp_path / "agent.py")
    want = sorted(i for i, t in enumerate(text.splitlines(), 1)
                  if "in a project of its own: TEN501" in t)
    out = json.loads(tensorcopy("check", "--no-cache", "--select", "TEN501", "--output-format",
                                "json", str(tmp_path / "agent.py")).stdout)
    assert len(want) == 2 and sorted(d["location"]["row"] for d in out) == want, out
    assert all("from `p`, which requires grad" in d["message"] for d in out), out
