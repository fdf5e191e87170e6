"""The plugin as flake8 users meet it: a real flake8 subprocess every time."""
import sys

from .conftest import FIXTURES, flake8, run

SRC = (
    "import torch\n"
    "\n"
    "def f(t: torch.Tensor, model):\n"
    "    a = torch.tensor(t)\n"
    "    for p in model.parameters():\n"
    "        p.data.add_(1)\n"
    "    return a, t.clone().detach()  # noqa: TEN301\n"
)


def _lines(out):
    return sorted(line for line in out.splitlines() if line.strip())


def test_file_run_reports_1_based_columns(write):
    path = write("m.py", SRC)
    res = flake8("--select", "TEN", str(path))
    assert res.returncode == 1, res.stderr
    assert _lines(res.stdout) == sorted([
        f"{path}:4:9: TEN201 `torch.tensor(t)` on a tensor copies it with a UserWarning; use `t.detach().clone()`",
        f"{path}:6:9: TEN102 in-place change through `p.data` is invisible to autograd and can "
        "corrupt gradients silently; change `p` under `torch.no_grad()`",
    ])
    assert res.stderr == ""


def test_stdin_gives_the_same_results_and_uses_the_buffer(write):
    path = write("m.py", "x = 1\n")  # what is on disk is stale: the buffer is what counts
    res = flake8("--select", "TEN", "--stdin-display-name", str(path), "-", input=SRC)
    on_disk = write("n.py", SRC)
    res2 = flake8("--select", "TEN", str(on_disk))
    assert _lines(res.stdout) == _lines(res2.stdout.replace(str(on_disk), str(path)))
    assert len(_lines(res.stdout)) == 2


def test_noqa_on_reported_line_silences(write):
    path = write("m.py", SRC.replace("a = torch.tensor(t)", "a = torch.tensor(t)  # noqa: TEN201"))
    res = flake8("--select", "TEN", str(path))
    assert "TEN201" not in res.stdout and "TEN102" in res.stdout
    path = write("k.py", "import torch\nt = torch.ones(1)\nc = (\n    torch.tensor(t)  # noqa: TEN201\n)\n")
    assert flake8("--select", "TEN", str(path)).stdout == ""


def test_extend_ignore_and_select(write):
    path = write("m.py", SRC)
    res = flake8("--select", "TEN", "--extend-ignore", "TEN102", str(path))
    assert "TEN201" in res.stdout and "TEN102" not in res.stdout
    res = flake8("--select", "TEN1", str(path))
    assert "TEN201" not in res.stdout and "TEN102" in res.stdout


def test_default_checks_run_alongside(write):
    path = write("m.py", SRC + "import os\n")
    res = flake8(str(path))
    assert "TEN201" in res.stdout and "F401" in res.stdout


def test_jobs_over_the_fixture_corpus_matches_serial():
    serial = flake8("--select", "TEN", "--jobs", "1", FIXTURES)
    parallel = flake8("--select", "TEN", "--jobs", "2", FIXTURES)
    assert serial.returncode == parallel.returncode == 1
    assert _lines(serial.stdout) == _lines(parallel.stdout)
    assert len(_lines(serial.stdout)) >= 100


def test_syntax_error_gives_only_e999(write):
    path = write("bad.py", "import torch\ndef f(:\n    return torch.tensor(t)\n")
    res = flake8(str(path))
    assert "E999" in res.stdout
    assert "TEN" not in res.stdout and "Traceback" not in res.stderr


def test_python2_file_does_not_crash(write):
    path = write("py2.py", "import torch\nprint 'hello'\nexec 'x = 1'\n")
    res = flake8("--select", "TEN,E999", str(path))
    assert "Traceback" not in res.stderr and "TEN" not in res.stdout


def test_plugin_is_registered_under_ten():
    res = flake8("--version")
    assert "flake8-tensorcopy" in res.stdout


def test_linter_does_not_import_torch(write):
    path = write("m.py", SRC)
    code = (
        "import sys\n"
        "from flake8.main.cli import main\n"
        "import flake8_tensorcopy.plugin, flake8_tensorcopy.cli, flake8_tensorcopy.fixes\n"
        "import flake8_tensorcopy.codemod\n"
        "from flake8_tensorcopy import lint_source\n"
        f"lint_source(open({str(path)!r}).read())\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
        "print('ok')\n"
    )
    res = run([sys.executable, "-c", code])
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "ok"


def test_an_internal_error_reports_the_file_not_analysed_instead_of_looking_clean(write):
    """A bug inside the analysis (here: a rule that raises) costs that one file, and flake8
    users see it, as ``tensorcopy check`` shows an error line: TEN001 at 1:1 naming the error,
    never a traceback, never a file that silently looks clean. (A merge once made TEN501 raise
    ``ValueError`` on some files: the plugin dropped every diagnostic of those files without a
    word.) The other files of the run keep their diagnostics."""
    bad = write("bad.py", "import torch\nfor b in range(3):\n    t = torch.ones(1)\n    x = t.data\n")
    good = write("good.py", SRC)
    code = (
        "import sys\n"
        "from flake8.main.cli import main\n"
        "from flake8_tensorcopy.rules.data import DataRead\n"
        "orig = DataRead.check\n"
        "def check(self, node, ctx):\n"
        "    if 'range(3)' in ctx.source:\n"
        "        raise ValueError('boom\\nsecond line')\n"
        "    return orig(self, node, ctx)\n"
        "DataRead.check = check\n"
        "main(['--select', 'TEN', sys.argv[1], sys.argv[2]])\n")
    res = run([sys.executable, "-c", code, str(bad), str(good)])
    assert "Traceback" not in res.stderr, res.stderr
    lines = _lines(res.stdout)
    assert f"{bad}:1:1: TEN001 file could not be analysed, no TEN rule was checked: internal " \
           "error (ValueError: boom)" in lines, lines
    assert [line for line in lines if line.startswith(str(bad))] == \
        [f"{bad}:1:1: TEN001 file could not be analysed, no TEN rule was checked: internal "
         "error (ValueError: boom)"]
    assert any(line.startswith(f"{good}:4:9: TEN201") for line in lines), lines
