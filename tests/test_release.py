"""The package as users get it: the sdist and wheel built with `python -m build`, their metadata
checked with `twine check`, the wheel installed (not editable) into a fresh virtual environment
that runs `flake8 --select TEN examples/` and `tensorcopy --version`; and the GitHub Action
(`action.yml`), whose steps run in a subprocess against that environment as a runner would."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from .conftest import ROOT, run

yaml = pytest.importorskip("yaml")
pytest.importorskip("build")

BAD = "import torch\n\n\ndef f(t: torch.Tensor):\n    return torch.tensor(t)\n"


def _version():
    with open(os.path.join(ROOT, "flake8_tensorcopy", "__init__.py"), encoding="utf-8") as fh:
        return re.search(r'__version__ = "([^"]+)"', fh.read()).group(1)


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    # a copy of the tree, so the build writes no egg-info or build/ into the checkout
    src = out / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", "__pycache__", "*.egg-info", "build", "dist", ".tensorcopy_cache", ".venv*",
        ".pytest_cache", ".hypothesis"))
    proc = run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out / "d"),
                str(src)], timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    files = sorted(os.listdir(out / "d"))
    wheel = [f for f in files if f.endswith(".whl")]
    sdist = [f for f in files if f.endswith(".tar.gz")]
    assert len(wheel) == 1 and len(sdist) == 1, files
    return out / "d" / wheel[0], out / "d" / sdist[0]


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory):
    """A fresh virtual environment with the wheel installed from its file (its dependencies,
    flake8 and libcst, from the package index; never torch)."""
    wheel, _ = dist
    home = tmp_path_factory.mktemp("venv") / "v"
    proc = run([sys.executable, "-m", "venv", str(home)], timeout=120)
    assert proc.returncode == 0, proc.stderr
    py = str(home / "bin" / "python")
    proc = run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
               timeout=600)
    if proc.returncode != 0 and ("No matching distribution" in proc.stderr
                                 or "Could not find a version" in proc.stderr):
        pytest.skip("the package index cannot be reached for flake8/libcst")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return home


def test_metadata_passes_twine_check(dist):
    proc = run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dist)], timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASSED") == 2


def test_wheel_metadata_one_version_spdx_license_and_every_python(dist):
    wheel, _ = dist
    with zipfile.ZipFile(wheel) as zf:
        meta_name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = zf.read(meta_name).decode()
        names = zf.namelist()
    assert f"\nVersion: {_version()}\n" in meta
    assert "\nLicense-Expression: MIT\n" in meta
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    for minor in range(9, 14):
        assert f"Classifier: Programming Language :: Python :: 3.{minor}\n" in meta, minor
    assert "Requires-Python: >=3.9" in meta
    assert "Project-URL: Changelog" in meta
    # torch is never a dependency of the linter (only of the `verify`/`test` extras)
    requires = [line for line in meta.splitlines() if line.startswith("Requires-Dist:")]
    assert not [r for r in requires if "torch" in r and "extra ==" not in r], requires


def test_sdist_carries_what_tests_and_readme_need(dist):
    _, sdist = dist
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for need in ("LICENSE", "CHANGELOG.md", "README.md", "action.yml", ".pre-commit-hooks.yaml",
                 "tests/conftest.py", "tests/fixtures/aliases.py", "docs/rules/TEN101.md",
                 "examples", "benchmarks/fixproof.py"):
        assert need in names or any(n.startswith(need + "/") for n in names), need
    # every relative link of the README points into the sdist
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        links = re.findall(r"\]\(((?!https?:|#|mailto:)[^)#\s]+)", fh.read())
    assert links
    missing = [link for link in links
               if link.rstrip("/") not in names and not any(n.startswith(link.rstrip("/") + "/")
                                                            for n in names)]
    assert missing == []


def test_installed_wheel_lints_the_examples_and_knows_its_version(venv):
    bin_ = venv / "bin"
    proc = run([str(bin_ / "tensorcopy"), "--version"])
    assert proc.returncode == 0 and proc.stdout.split() == ["tensorcopy", _version()], proc
    proc = run([str(bin_ / "flake8"), "--select", "TEN", "examples/"], cwd=ROOT, timeout=300)
    assert proc.returncode == 1, proc.stderr  # it finds something: every rule fires there
    codes = set(re.findall(r" (TEN\d{3}) ", proc.stdout))
    assert {"TEN101", "TEN201", "TEN301"} <= codes, proc.stdout
    # it is the installed copy that ran, not this checkout
    proc = run([str(bin_ / "python"), "-c", "import flake8_tensorcopy as m; print(m.__file__)"],
               cwd="/")
    assert str(venv) in proc.stdout and ROOT not in proc.stdout, proc.stdout
    proc = run([str(bin_ / "python"), "-c", "import torch"], cwd="/")
    assert proc.returncode != 0  # the linter installed no torch


# ---- the GitHub Action ------------------------------------------------------------------------

def _action():
    with open(os.path.join(ROOT, "action.yml"), encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _expr(text, ctx):
    """${{ inputs.x }} / ${{ github.action_path }} as GitHub substitutes them."""
    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", lambda m: ctx[m.group(1)], text)


def _condition(cond, ctx):
    if cond is None:
        return True
    inner = re.fullmatch(r"\$\{\{\s*(.*?)\s*\}\}", cond.strip()).group(1)
    inner = inner.replace("always()", "True").replace("&&", "and").replace("||", "or")
    inner = re.sub(r"inputs\.([\w-]+)", lambda m: repr(ctx["inputs." + m.group(1)]), inner)
    return eval(inner, {}, {})  # only the literal comparisons built above


def test_action_declares_inputs_and_installs_no_torch():
    action = _action()
    assert action["runs"]["using"] == "composite"
    assert {"version", "paths", "args", "sarif"} <= set(action["inputs"])
    steps = action["runs"]["steps"]
    text = "\n".join(s.get("run", "") for s in steps)
    assert "torch" not in text.replace("tensorcopy", "")
    assert "--output-format github" in text and "--output-format sarif" in text
    upload = [s for s in steps if "uses" in s]
    assert upload and upload[0]["uses"].startswith("github/codeql-action/upload-sarif@")


@pytest.mark.parametrize("sarif", ["true", "false"])
def test_action_steps_run_as_a_runner_runs_them(venv, tmp_path, sarif):
    project = tmp_path / "project"
    project.mkdir()
    (project / "bad.py").write_text(BAD)
    (project / "good.py").write_text("x = 1\n")
    output = tmp_path / "github_output"
    output.write_text("")
    ctx = {"inputs.version": "", "inputs.paths": "bad.py good.py",
           "inputs.args": "--select TEN2 --no-cache", "inputs.sarif": sarif,
           "inputs.sarif-file": "out.sarif", "github.action_path": ROOT}
    env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
               GITHUB_ACTIONS="true", GITHUB_OUTPUT=str(output), GITHUB_WORKSPACE=str(project))
    env.pop("PYTHONPATH", None)
    ran = []
    for step in _action()["runs"]["steps"]:
        if "run" not in step or not _condition(step.get("if"), ctx):
            continue
        step_env = dict(env, **{k: _expr(str(v), ctx) for k, v in step.get("env", {}).items()})
        proc = subprocess.run(["bash", "-e", "-c", _expr(step["run"], ctx)], cwd=project,
                              env=step_env, capture_output=True, text=True, timeout=600)
        ran.append((step["name"], proc))
    names = [n for n, _ in ran]
    install, check = ran[0][1], ran[1][1]
    assert install.returncode == 0, install.stderr[-3000:]
    assert check.returncode == 1  # a finding fails the job
    assert check.stdout.startswith("::warning file=bad.py,line=5,"), check.stdout
    assert "title=TEN201::TEN201" in check.stdout and "good.py" not in check.stdout
    if sarif == "true":
        assert names[-1] == "Write SARIF" and ran[-1][1].returncode == 0, ran[-1][1].stderr
        report = json.loads((project / "out.sarif").read_text())
        results = report["runs"][0]["results"]
        assert [r["ruleId"] for r in results] == ["TEN201"]
        assert "file=out.sarif" in output.read_text()
    else:
        assert "Write SARIF" not in names and not (project / "out.sarif").exists()


def test_readme_pins_the_current_release_and_the_changelog_describes_it():
    version = _version()
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    revs = re.findall(r"rev: (v\S+)", readme)
    uses = re.findall(r"uses: flake8-tensorcopy/flake8-tensorcopy@(v\S+)", readme)
    assert revs and uses and set(revs) | set(uses) == {f"v{version}"}, (revs, uses)
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as fh:
        changelog = fh.read()
    assert f"\n## {version}\n" in changelog
    assert "--index-url https://download.pytorch.org/whl/cpu" in readme  # the CPU wheel, said how
