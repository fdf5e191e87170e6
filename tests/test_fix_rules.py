"""What the rule fixes write (issue 14, items 2, 6, 7, 8), through the real CLI and flake8.

Each case is a whole file; `tensorcopy fix --unsafe-fixes` runs once over a folder of them and
every file must come out byte for byte as expected (everything outside the fix untouched).
"""
import sys

import pytest

from .conftest import flake8, run, tensorcopy

HEAD = "import torch\n\n\ndef f(t: torch.Tensor, x: torch.Tensor, feats: torch.Tensor):\n"


def _fix_all(tmp_path, cases):
    """Write ``{name: before}``, run the CLI fixer once over them, return ``{name: after}``."""
    folder = tmp_path / "cases"
    folder.mkdir()
    for name, before in cases.items():
        (folder / f"{name}.py").write_bytes(before.encode())
    res = tensorcopy("fix", "--unsafe-fixes", str(folder))
    assert "Traceback" not in res.stderr, res.stderr
    return {name: (folder / f"{name}.py").read_bytes().decode() for name in cases}, res


def _codes(path, *extra):
    res = flake8("--select", "TEN", *extra, str(path))
    return [line.split(": ", 1)[1] for line in res.stdout.splitlines()]


# ---------------------------------------------------------------- item 2: comments and layout
KEEP = {
    # the issue's own examples
    "tensor_comments": (
        HEAD + "    return torch.tensor(\n        t,  # the source\n"
        "        # must be float64 for the solver\n        dtype=torch.float64,\n    )\n",
        HEAD + "    return t.detach().to(  # the source\n"
        "        # must be float64 for the solver\n        dtype=torch.float64, copy=True,\n    )\n"),
    "like_copy_comment": (
        HEAD + "    return torch.empty_like(t).copy_(  # two-step copy\n        t\n    )\n",
        HEAD + "    return t.clone(  # two-step copy\n    )\n"),
    "like_copy_trailing_comma": (
        HEAD + "    return torch.zeros_like(t).copy_(\n        t,\n    )  # done\n",
        HEAD + "    return t.clone(\n    )  # done\n"),
    "chain_multiline": (
        HEAD + "    return (feats.sum(dim=0)\n        .clone()\n        .detach())\n",
        HEAD + "    return (feats.sum(dim=0)\n        .detach()\n        .clone())\n"),
    # trailing comments after commas, comments between arguments, parenthesised multi-line calls
    "clone_trailing_comment": (
        HEAD + "    return t.clone(\n        memory_format=torch.channels_last,  # why\n    ).detach()\n",
        HEAD + "    return t.detach().clone(\n        memory_format=torch.channels_last,  # why\n    )\n"),
    "clone_comment_between": (
        HEAD + "    return t.clone(  # c1\n        # c2\n        memory_format=torch.channels_last\n"
        "    ).detach()  # after\n",
        HEAD + "    return t.detach().clone(  # c1\n        # c2\n        memory_format=torch.channels_last\n"
        "    )  # after\n"),
    "torch_clone_comment_after_comma": (
        HEAD + "    return torch.clone(t,  # keep\n        memory_format=torch.channels_last).detach()\n",
        HEAD + "    return t.detach().clone(  # keep\n        memory_format=torch.channels_last)\n"),
    "tensor_dtype_device_multiline": (
        HEAD + "    c = torch.tensor(\n        t,\n        dtype=torch.float64,  # solver\n"
        "        device='cpu'  # host\n    )\n    return c\n",
        HEAD + "    c = t.detach().to(\n        dtype=torch.float64,  # solver\n"
        "        device='cpu', copy=True  # host\n    )\n    return c\n"),
    "tensor_argument_own_comment": (
        HEAD + "    return torch.tensor(\n        t  # the t\n        + 1,  # plus one\n    )\n",
        HEAD + "    return (t  # the t\n        + 1).detach().clone(  # plus one\n    )\n"),
    "new_tensor_comment": (
        HEAD + "    return x.new_tensor(\n        t,  # the source\n    )\n",
        HEAD + "    return t.detach().to(dtype=x.dtype, device=x.device, copy=True  # the source\n    )\n"),
    "crlf_kept": (
        (HEAD + "    return t.clone(\n        memory_format=torch.channels_last,  # why\n    ).detach()\n"
         ).replace("\n", "\r\n"),
        (HEAD + "    return t.detach().clone(\n        memory_format=torch.channels_last,  # why\n    )\n"
         ).replace("\n", "\r\n")),
}


def test_fixes_keep_comments_line_breaks_and_layout(tmp_path):
    after, res = _fix_all(tmp_path, {k: v[0] for k, v in KEEP.items()})
    for name, (_before, expected) in KEEP.items():
        assert after[name] == expected, name
        compile(after[name], name, "exec")
    again = tensorcopy("fix", "--unsafe-fixes", str(tmp_path / "cases"))
    assert "Fixed 0 " in again.stderr, again.stderr


WITHHELD = {
    "comment_before_source": HEAD + "    return torch.tensor(  # why\n        t)\n",
    "comment_in_dropped_argument": HEAD + "    return torch.tensor(t,  # c\n        requires_grad=True)\n",
    "comment_before_comma": HEAD + "    return torch.clone(t  # c\n        , memory_format=torch.channels_last).detach()\n",
    "comment_in_like": HEAD + "    return torch.empty_like(  # c\n        t).copy_(t)\n",
}


def test_a_fix_that_would_drop_a_comment_is_withheld_and_says_so(tmp_path):
    after, _ = _fix_all(tmp_path, WITHHELD)
    for name, before in WITHHELD.items():
        assert after[name] == before, name  # not a byte changed
        path = tmp_path / "cases" / f"{name}.py"
        (msg,) = _codes(path)
        assert "fix withheld: it would drop a comment" in msg, msg
        check = tensorcopy("check", "--output-format", "concise", str(path))
        assert "fix withheld: it would drop a comment" in check.stdout, check.stdout


# ---------------------------------------------------------------- item 6: deliberate alias writes
DELIBERATE = {
    "swa_average": (
        "import torch\n\n\ndef average(swa, model, n):\n"
        "    for p_swa, p_model in zip(swa.parameters(), model.parameters()):\n"
        "        p_swa_ = p_swa.detach()\n"
        "        p_swa_.copy_(p_swa_ + (p_model.detach() - p_swa_) / (n + 1))\n"),
    "scale_weight": (
        "import torch\n\n\ndef scale(module: torch.nn.Linear, s):\n"
        "    w = module.weight.data\n    w.mul_(s)\n    return w\n"),
    "zero_through_alias": "import torch\nx = torch.randn(3)\ny = x.detach()\ny.zero_()\n",
}


def test_deliberate_alias_writes_are_not_flagged_nor_rewritten(tmp_path):
    after, _ = _fix_all(tmp_path, DELIBERATE)
    for name, before in DELIBERATE.items():
        path = tmp_path / "cases" / f"{name}.py"
        assert not [m for m in _codes(path) if m.startswith("TEN401")], name
        assert ".clone()" not in after[name], after[name]
    # the SWA average still averages in place after the fix run
    prog = after["swa_average"] + (
        "\nswa, model = torch.nn.Linear(2, 2), torch.nn.Linear(2, 2)\n"
        "expected = [(a + b) / 2 for a, b in zip(swa.parameters(), model.parameters())]\n"
        "expected = [e.detach().clone() for e in expected]\n"
        "average(swa, model, 1)\n"
        "assert all(torch.allclose(p, e) for p, e in zip(swa.parameters(), expected))\n")
    res = run([sys.executable, "-c", prog])
    assert res.returncode == 0, res.stderr


def test_a_mistaken_alias_is_still_flagged():
    src = "import torch\n\n\ndef f(x: torch.Tensor):\n    y = x.detach()\n    y.add_(1)\n    return y\n"
    res = flake8("--select", "TEN", "-", input=src)
    assert ":6:5: TEN401" in res.stdout, res.stdout


def test_a_fix_run_never_introduces_a_diagnostic_check_did_not_report(tmp_path):
    # TEN101's fix (`p.data` -> `p.detach()`) would reveal a write through the alias (TEN401),
    # which check never reported; the run must not fix it, nor leave it behind
    src = "import torch\n\n\ndef f(p):\n    w = p.data\n    w.mul_(2)\n    return w\n"
    path = tmp_path / "m.py"
    path.write_text(src)
    before = set(_codes(path))
    assert [m[:6] for m in before] == ["TEN101"]
    res = tensorcopy("fix", "--unsafe-fixes", str(path))
    assert "Traceback" not in res.stderr
    after_codes = set(_codes(path))
    assert after_codes <= before, (after_codes, path.read_text())
    assert "clone()" not in path.read_text()


# ---------------------------------------------------------------- item 7: the write alone
def test_no_grad_wrap_only_for_the_write_alone(tmp_path):
    head = "import torch\n\n\ndef f(p: torch.Tensor, w):\n"
    untouched = {
        "uses_result": head + "    y = p.data.mul_(2) * w\n    return y\n",
        "returns_it": head + "    return p.data.mul_(2)\n",
        "yields_it": head + "    yield p.data.add_(1)\n",
        "binds_init": head + "    v = torch.nn.init.zeros_(p.data)\n    return v\n",
        "chained": head + "    p.data.mul_(2).add_(1)\n",
    }
    fixed = {
        "alone": (head + "    p.data.mul_(2)  # halve\n",
                  head + "    with torch.no_grad():\n        p.mul_(2)  # halve\n"),
        "init_alone": (head + "    torch.nn.init.zeros_(p.data)\n",
                       head + "    torch.nn.init.zeros_(p)\n"),
        "store": (head + "    p.data[0] = 1\n", head + "    with torch.no_grad():\n        p[0] = 1\n"),
    }
    after, _ = _fix_all(tmp_path, {**untouched, **{k: v[0] for k, v in fixed.items()}})
    for name, before in untouched.items():
        assert after[name] == before, name
        assert [m[:6] for m in _codes(tmp_path / "cases" / f"{name}.py")] == ["TEN102"], name
    for name, (_, expected) in fixed.items():
        assert after[name] == expected, name


# ---------------------------------------------------------------- item 8: a torch bound at run time
def test_no_grad_uses_a_torch_name_bound_at_run_time(tmp_path):
    body = "    for p in model.parameters():\n        p.data.mul_(0.5)\n"
    call = ("\nm = __import__('torch').nn.Linear(2, 2)\nw = m.weight.detach().clone()\n"
            "f(m)\nassert (m.weight * 2 - w).abs().max() < 1e-6\n")
    cases = {
        "type_checking": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import torch\n\n\n"
                         "def f(model: 'torch.nn.Module'):\n" + body,
        "typing_attr": "import typing\n\nif typing.TYPE_CHECKING:\n    import torch\n\n\n"
                       "def f(model: 'torch.nn.Module'):\n" + body,
        "alias_in_other_function": "def g():\n    import torch as th\n    return th\n\n\n"
                                   "def f(model):\n" + body,
        "star_import": "from torch import *\n\n\ndef f(model):\n" + body,
        "alias_in_same_function": "def f(model):\n    import torch as th\n" + body,
    }
    after, _ = _fix_all(tmp_path, cases)
    for name in ("type_checking", "typing_attr", "alias_in_other_function", "star_import"):
        assert after[name].count("import torch\n") >= 1 and "with torch.no_grad():" in after[name], name
        assert "th.no_grad" not in after[name], name
    assert "with th.no_grad():" in after["alias_in_same_function"]
    assert after["alias_in_same_function"].count("import torch") == 1  # only `import torch as th`
    for name, text in after.items():
        res = run([sys.executable, "-c", text + call])
        assert res.returncode == 0, (name, text, res.stderr)


@pytest.mark.parametrize("src", [
    "import torch\n\n\ndef f(model, torch):\n    for p in model.parameters():\n        p.data.add_(1)\n",
    "import torch\n\n\ndef f(model):\n    torch = make()\n    for p in model.parameters():\n        p.data.add_(1)\n",
], ids=["parameter", "local"])
def test_no_fix_where_torch_is_shadowed(tmp_path, src):
    path = tmp_path / "m.py"
    path.write_text(src)
    res = tensorcopy("fix", "--unsafe-fixes", str(path))
    assert path.read_text() == src, res.stderr
    assert [m[:6] for m in _codes(path)] == ["TEN102"]
