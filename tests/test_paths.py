"""One convention for file names in reports (issue 26 item 5): every format of `check`, `trace`
and `pytest --tensorcopy` names a file relative to the working directory when it lies below it
(as flake8's own output and check's text, github and sarif formats do), absolute otherwise."""
from __future__ import annotations

import json
import os
import sys

import pytest

from .conftest import ROOT, run, tensorcopy

SRC = "import torch\n\nx = torch.ones(3)\ny = x.clone().detach()\n"
TEST = "import torch\n\n\ndef test_a():\n    x = torch.ones(3)\n    y = x.clone().detach()\n"


def test_check_json_names_files_below_the_cwd_relatively(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(SRC)
    for arg in ("pkg/m.py", str(tmp_path / "pkg" / "m.py")):
        res = tensorcopy("check", "--output-format", "json", "--no-cache", arg, cwd=str(tmp_path))
        assert [i["filename"] for i in json.loads(res.stdout)] == [os.path.join("pkg", "m.py")]
        text = tensorcopy("check", "--no-cache", arg, cwd=str(tmp_path))
        assert text.stdout.startswith(os.path.join("pkg", "m.py") + ":4:5: TEN301")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    res = tensorcopy("check", "--output-format", "json", "--no-cache",
                     str(tmp_path / "pkg" / "m.py"), cwd=str(outside))
    assert [i["filename"] for i in json.loads(res.stdout)] == [str(tmp_path / "pkg" / "m.py")]


def test_trace_and_the_pytest_plugin_name_files_as_check_does(tmp_path):
    pytest.importorskip("torch")
    (tmp_path / "s.py").write_text(SRC)
    (tmp_path / "test_s.py").write_text(TEST)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    res = tensorcopy("trace", "--output-format", "json", "--output", "t.json", "s.py",
                     cwd=str(tmp_path), env=env)
    assert res.returncode == 0, res.stderr
    traced = json.loads((tmp_path / "t.json").read_text())
    assert [i["filename"] for i in traced] == ["s.py"]
    res = run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tensorcopy",
               "--tensorcopy-report", "r.json", "test_s.py"], cwd=str(tmp_path), env=env,
              timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    runtime = [i for i in report if i.get("source") == "runtime"]
    assert [i["filename"] for i in runtime] == ["test_s.py"]
