"""Property-based and adversarial tests: lint never raises, fixes always parse and are idempotent."""
import ast
import time

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from flake8_tensorcopy import lint_source
from flake8_tensorcopy.engine import analyze
from flake8_tensorcopy.lint import LintError
from flake8_tensorcopy.fixes import fix_source

from .conftest import tensorcopy

# ---------------------------------------------------------------- generated tensor programs
NAMES = st.sampled_from(["t", "x", "p", "w", "out", "buf", "y", "weight", "data", "grad"])
EXPRS = st.sampled_from([
    "torch.randn(3)", "torch.zeros(2, 2)", "[1, 2]", "np.zeros(3)", "None", "cfg", "{N}.tolist()",
    "{N}.detach()", "{N}.data", "{N}.clone()", "torch.nn.Parameter(torch.ones(2))", "model(inp)",
    "{N} + 1", "{N}[0]", "torch.tensor({N})", "{N}.shape", "list(model.parameters())",
])
STMTS = st.sampled_from([
    "{N} = {E}", "{N}.data.add_(1)", "{N}.data = {E}", "{N}.data[0] = 0", "{N}.data -= 1",
    "r = torch.tensor({N})", "r = torch.tensor({N}, dtype=torch.float64, requires_grad=True)",
    "r = {N}.new_tensor({N})", "r = {N}.new_tensor({M})", "r = torch.Tensor({N})",
    "r = torch.tensor([{N}, {M}])", "r = {N}.clone().detach()",
    "r = torch.clone({N}, memory_format=torch.contiguous_format).detach()",
    "r = torch.empty_like({N}).copy_({N})", "{N}.add_(1)", "{N}[0] = 1", "{N} += 1",
    "nn.init.zeros_({N}.data)", "print({N}.data.item())", "assert isinstance({N}, torch.Tensor)",
    "a = {N}.data; b = {M}.data.mul_(2)",
])
BLOCKS = st.sampled_from([
    "if {N} is None:", "for {N} in model.parameters():", "with torch.no_grad():",
    "def f({N}: torch.Tensor, {M}):", "if isinstance({N}, torch.Tensor):", "while cond:",
    "for i, {N} in enumerate(xs):", "try:",
])


@st.composite
def programs(draw):
    header = draw(st.sampled_from([
        "import torch\nimport numpy as np\nfrom torch import nn\n",
        "import torch as th\ntorch = th\nfrom torch import nn\nimport numpy as np\n",
        "import torch\nfrom torch import nn, tensor\nimport numpy as np\n",
        '"""Doc."""\nfrom __future__ import annotations\nimport numpy as np\nimport torch\nnn = torch.nn\n',
    ]))
    lines = []
    depth = 0
    for _ in range(draw(st.integers(3, 25))):
        n, m = draw(NAMES), draw(NAMES)
        indent = "    " * depth
        if depth < 3 and draw(st.booleans()) and draw(st.booleans()):
            block = draw(BLOCKS).format(N=n, M=m)
            lines.append(indent + block)
            depth += 1
            if block == "try:":
                stmt = draw(STMTS).format(N=n, M=m, E=draw(EXPRS).format(N=m))
                lines.append("    " * depth + stmt)
                lines.append(indent + "except Exception:")
                lines.append(indent + "    pass")
                depth -= 1
                continue
            stmt = draw(STMTS).format(N=n, M=m, E=draw(EXPRS).format(N=m))
            lines.append("    " * depth + stmt)
        else:
            stmt = draw(STMTS).format(N=n, M=m, E=draw(EXPRS).format(N=m))
            lines.append(indent + stmt)
        if depth and draw(st.integers(0, 3)) == 0:
            depth -= 1
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    return (header + "\n".join(lines) + "\n").replace("\n", eol)


def _check_fix_properties(src):
    try:
        diags = analyze(src, prefilter=False)
    except LintError:
        return
    # the pre-filters never change results (TEN001, "valid Python too deep to walk", is
    # reported only where the tree is built: where a rule could fire)
    assert [d for d in analyze(src) if d.code != "TEN001"] == \
        [d for d in diags if d.code != "TEN001"]
    if any(d.code == "TEN001" for d in diags):  # valid Python that cannot be walked: left alone
        try:
            fix_source(src, unsafe=True)
        except LintError:
            return
        raise AssertionError("fix_source accepted a file that could not be analysed")
    result = fix_source(src, unsafe=True)
    ast.parse(result.source)
    again = fix_source(result.source, unsafe=True)
    assert again.source == result.source, "fix is not idempotent"
    # only lines that had a diagnostic, or that a reported diagnostic's own fix edits (the
    # binding TEN401 rewrites, the statement a no_grad block wraps, an import), change
    flagged = {d.line for d in diags} | {d.end_line for d in diags}
    for d in diags:
        for e in (d.fix.edits if d.fix else ()):
            flagged.update(range(src.count("\n", 0, e.start) + 1, src.count("\n", 0, e.end) + 2))
    # every other line is still there, in its order (a subsequence of the result's lines:
    # ``difflib``'s alignment may pair a repeated line with a later copy of it and call the
    # lines between changed, as for ``x.data[0] = 0`` fixed in one place and kept in another)
    after = iter(result.source.splitlines())
    for line, text in enumerate(src.splitlines(), 1):
        if line in flagged or any(d.line <= line <= d.end_line for d in diags):
            continue
        assert any(text == kept for kept in after), (line, src)


#: a program whose fix ``difflib`` aligned with a later copy of a repeated line (lines 15-17
#: taken for changed): the check reads the other lines in order instead
_REPEATED_LINE = ("import torch\nimport numpy as np\nfrom torch import nn\n" +
                  "t = torch.randn(3)\n" * 9 + "def f(x: torch.Tensor, t):\n    x.data[0] = 0\n"
                  "if t is None:\n    t.data.add_(1)\n    x.data[0] = 0\n")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
@example(_REPEATED_LINE)
def test_generated_tensor_programs(src):
    _check_fix_properties(src)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
@given(st.data())
def test_hypothesmith_programs(data):
    import hypothesmith

    src = data.draw(hypothesmith.from_grammar())
    assert isinstance(lint_source(src), list)
    _check_fix_properties("import torch\n" + src if not src.startswith("from __future__") else src)


# ---------------------------------------------------------------------- adversarial files
def test_adversarial_files_give_an_error_or_nothing(tmp_path):
    cases = {
        "empty.py": b"",
        "one_mb_line.py": b"import torch\nx = [" + b"1, " * 350_000 + b"]\n",
        "nul.py": b"import torch\nx = 1\x00\n",
        "bad_utf8.py": b"import torch\ns = '\xc3\x28'\n",
        "not_python.py": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "json.py": b'{"a": [1, 2, {"b": null}]}\n',
        "chain.py": b"import torch\nx = a" + b".b" * 5000 + b".data\n",
        "nested.py": b"import torch\nx = " + b"f(" * 100 + b"t.clone().detach()" + b")" * 100 + b"\n",
        "deep_parens.py": b"import torch\nx = " + b"(" * 2000 + b"1" + b")" * 2000 + b"\n",
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    start = time.monotonic()
    res = tensorcopy("check", "--output-format", "concise", str(tmp_path))
    assert time.monotonic() - start < 300
    assert "Traceback" not in res.stderr
    for name in ("nul.py", "bad_utf8.py", "not_python.py"):
        assert f"{name}:" in res.stderr, res.stderr
    assert "nested.py:2:205: TEN301" in res.stdout
    for line in res.stderr.splitlines():
        assert line.startswith("tensorcopy: error: ") and line.count("\n") == 0
    res = tensorcopy("fix", "--unsafe-fixes", str(tmp_path))
    assert "Traceback" not in res.stderr
    assert (tmp_path / "not_python.py").read_bytes() == cases["not_python.py"]
    assert (tmp_path / "one_mb_line.py").read_bytes() == cases["one_mb_line.py"]


def test_per_file_time_budget(tmp_path):
    src = "".join(f"import torch\ndef f{i}(t: torch.Tensor):\n    return torch.tensor(t)\n" for i in range(3000))
    (tmp_path / "big.py").write_text(src)
    res = tensorcopy("check", "--timeout", "0.05", str(tmp_path / "big.py"))
    assert res.returncode == 2
    assert "big.py: analysis exceeded the 0.05 s per-file budget; skipped" in res.stderr
    assert "Traceback" not in res.stderr
