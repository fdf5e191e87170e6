"""Bad input never crashes or hangs the linter: a diagnostic list or nothing."""
import time

import pytest

from flake8_tensorcopy import lint_source
from flake8_tensorcopy.engine import analyze
from flake8_tensorcopy.lint import LintError

from .conftest import flake8, tensorcopy


@pytest.mark.parametrize("source", [
    "",
    "\n\n",
    "def f(:\n",
    "print 'python 2'\n",
    "import torch\nx = torch.tensor(\n",
    "\tif True:\n  pass\n",
    "import torch\nclass A:\n\tdef f(self, t: torch.Tensor):\n\t\treturn torch.tensor(t)\n",
    "x = 1 +* 2\n",
    "import torch\n" + "(" * 200 + "x" + ")" * 200 + "\n",
])
def test_odd_sources_never_raise(source):
    assert isinstance(lint_source(source), list)


def test_tabs_are_fine():
    src = "import torch\nclass A:\n\tdef f(self, t: torch.Tensor):\n\t\treturn torch.tensor(t)\n"
    (d,) = lint_source(src)
    assert (d.line, d.column) == (4, 9)


def test_crlf_positions_match_lf():
    src = "import torch\nt = torch.ones(2)\nc = torch.tensor(t)\n"
    lf = [(d.code, d.line, d.column) for d in lint_source(src)]
    crlf = [(d.code, d.line, d.column) for d in lint_source(src.replace("\n", "\r\n"))]
    assert lf == crlf == [("TEN201", 3, 4)]


def test_deeply_nested_calls():
    inner = "t"
    for _ in range(100):
        inner = f"f({inner})"
    src = f"import torch\nt = torch.ones(1)\nx = torch.tensor({inner}.clone().detach())\n"
    start = time.monotonic()
    result = lint_source(src)
    assert time.monotonic() - start < 20
    assert isinstance(result, list)


def test_very_long_attribute_chain():
    src = "import torch\nx = a" + ".b" * 3000 + ".data\n"
    assert isinstance(lint_source(src), list)


def test_twenty_thousand_lines():
    block = "import torch\n\ndef f{i}(t: torch.Tensor):\n    return torch.tensor(t)\n\n"
    src = "".join(block.format(i=i) for i in range(4000))
    assert src.count("\n") >= 20000
    start = time.monotonic()
    diags = lint_source(src)
    assert len(diags) == 4000
    assert time.monotonic() - start < 120


def test_syntax_error_raises_lint_error_in_engine():
    with pytest.raises(LintError):
        analyze("import torch\ndef f(:\n  torch.tensor(x)\n")


def test_non_utf8_with_coding_cookie(write):
    src = "# -*- coding: latin-1 -*-\nimport torch\nname = 'caf\xe9'\nt = torch.ones(1)\nc = torch.tensor(t)\n"
    path = write("latin.py", src.encode("latin-1"), mode="wb")
    res = flake8("--select", "TEN", str(path))
    assert ":5:5: TEN201" in res.stdout, res.stdout + res.stderr
    res = tensorcopy("check", str(path))
    assert ":5:5: TEN201" in res.stdout and res.returncode == 1


def test_invalid_utf8_and_null_bytes_are_clear_errors(write):
    bad = write("bad.py", b"import torch\nx = '\xff\xfe'\n", mode="wb")
    nul = write("nul.py", b"import torch\x00\n", mode="wb")
    res = tensorcopy("check", str(bad), str(nul))
    assert res.returncode == 2
    assert "bad.py" in res.stderr and "nul.py" in res.stderr
    assert "Traceback" not in res.stderr
    # before Python 3.11.4 (or so), compile() raises ValueError on a null byte and flake8 itself
    # crashes before any plugin runs: check the null-byte file with flake8 only where it can
    try:
        compile("x = 1\0", "<probe>", "exec")
    except SyntaxError:
        handled = [str(bad), str(nul)]
    except ValueError:
        handled = [str(bad)]
    res = flake8("--select", "TEN", *handled)
    assert "Traceback" not in res.stderr
