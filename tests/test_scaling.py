"""The cost grows linearly with the work (issue 23): counted operations at two small sizes,
never wall-clock time. ``benchmarks/scaling.py`` times the same generated inputs at 1k-16k."""
import os
import sys

import pytest

from flake8_tensorcopy import edits, fixes, syntax
from flake8_tensorcopy.fixes import fix_source
from flake8_tensorcopy.files import PRESENT

from .conftest import flake8, tensorcopy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "benchmarks"))
from scaling import fixer_source  # noqa: E402

SMALL, LARGE = 250, 1000
#: the growth allowed from SMALL to LARGE: linear is 4x, quadratic 16x
BOUND = (LARGE / SMALL) ** 1.15


class Counted:
    """Counts what a fix run does: pairs of edits compared for conflicts, and characters
    scanned to find where lines start."""

    def __init__(self, monkeypatch):
        self.pairs = 0
        self.scanned = 0
        conflicts = edits.conflicts
        starts = syntax.source.line_starts

        def counting_conflicts(a, b):
            self.pairs += 1
            return conflicts(a, b)

        def counting_starts(text):
            self.scanned += len(text)
            return starts(text)

        monkeypatch.setattr(edits, "conflicts", counting_conflicts)
        if hasattr(fixes, "conflicts"):
            monkeypatch.setattr(fixes, "conflicts", counting_conflicts)
        monkeypatch.setattr(fixes, "line_starts", counting_starts)


def _fix(n, monkeypatch):
    counted = Counted(monkeypatch)
    src = fixer_source(n)
    result = fix_source(src)
    # the output, byte for byte: every ``clone().detach()`` became ``detach().clone()``
    assert result.source == src.replace(".clone().detach()", ".detach().clone()")
    assert result.applied["TEN301"] == n
    return counted


def test_fixer_compares_and_scans_linearly_in_the_number_of_fixes(monkeypatch):
    small = _fix(SMALL, monkeypatch)
    large = _fix(LARGE, monkeypatch)
    assert large.pairs <= max(small.pairs, SMALL) * BOUND, (small.pairs, large.pairs)
    assert large.scanned <= small.scanned * BOUND, (small.scanned, large.scanned)


@pytest.mark.parametrize("gap", ["", " ", "  # c"])
def test_fixer_keeps_nested_and_adjacent_fixes_apart(gap):
    """Fixes inside fixes: the sweep must refuse exactly the conflicting ones in a round (the
    later rounds fix them), as comparing every pair did."""
    src = "import torch\nx = torch.zeros(3)\n" + "".join(
        f"y{i} = x.clone().detach().clone().detach(){gap}\n" for i in range(30)) + \
        "z = torch.tensor(torch.tensor(x).clone().detach())\n"
    result = fix_source(src, unsafe=True)
    assert result.source == src.replace(
        "x.clone().detach().clone().detach()", "x.detach().detach().clone().clone()").replace(
        "torch.tensor(torch.tensor(x).clone().detach())",
        "x.detach().detach().detach().clone().clone().clone()")
    assert result.applied == {"TEN301": 3 * 30 + 4, "TEN201": 2}  # rounds: outer, inner, merged


# ---- the project index --------------------------------------------------------------------

class _Scan:
    """A compiled pattern that counts the characters its searches read."""

    def __init__(self, pattern, counts):
        self.pattern, self.counts = pattern, counts

    def finditer(self, text, *a):
        self.counts["scanned"] += len(text)
        return self.pattern.finditer(text, *a)


def _scanned(starts, name, text, counts):
    """``call_starts`` counting the characters its search reads."""
    counts["scanned"] += len(text)
    return starts(name, text)


def _check_counted(tmp_path, functions, calls=1):
    """``tensorcopy check`` of a generated package (in process, to count): the statements the
    index's evaluator went through, the characters its call searches read, and the modules it
    parsed; and what the check reported."""
    import ast
    import contextlib
    import io

    from flake8_tensorcopy.cli import main
    from flake8_tensorcopy.semantic.index import evaluate, facts, resolve
    from scaling import make_package

    root = tmp_path / str(functions)
    root.mkdir()
    pkg = make_package(str(root), functions, calls=calls)
    counts = {"statements": 0, "scanned": 0, "parses": 0}
    real_block, real_parse, real_starts = evaluate.Evaluator._block, ast.parse, facts.call_starts

    def counting_block(self, body, rets):
        counts["statements"] += len(body)
        return real_block(self, body, rets)

    def counting_parse(*a, **k):
        counts["parses"] += 1
        return real_parse(*a, **k)

    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(evaluate.Evaluator, "_block", counting_block)
        mp.setattr(resolve.ast, "parse", counting_parse)
        mp.setattr(facts, "call_starts", lambda name, text: _scanned(real_starts, name, text,
                                                                      counts))
        if hasattr(facts, "CALLED_ANY"):
            mp.setattr(facts, "CALLED_ANY", _Scan(facts.CALLED_ANY, counts))
        mp.chdir(root)
        mp.setattr(resolve.index(), "max_modules", resolve.index().max_modules)
        for path in list(resolve.index()._modules):  # a fresh index for each size
            resolve.index()._modules.pop(path)
        with contextlib.redirect_stdout(out):
            main(["check", "--no-cache", "--jobs", "1", "--timeout", "0", pkg])
    counts["TEN201"] = out.getvalue().count(": TEN201 ")
    return counts


@pytest.mark.parametrize("calls", [1, 4])
def test_index_work_grows_linearly_with_the_project(tmp_path, calls):
    """20 modules whose functions call each other (and the next module's): from 240 to 1,000
    functions the statements the index goes through, the text its call searches read and the
    modules it parses grow about 4x, not 16x (each module's ``main`` calls all its functions:
    it was walked once per function asked about, and the module's text searched once per
    function)."""
    small = _check_counted(tmp_path, SMALL, calls)
    large = _check_counted(tmp_path, LARGE, calls)
    size = LARGE / (SMALL // 20 * 20)
    assert large["TEN201"] == LARGE and small["TEN201"] == SMALL // 20 * 20  # nothing lost
    for what in ("statements", "scanned", "parses"):
        assert large[what] <= small[what] * size ** 1.15, (what, small, large)
    # each of the 21 files is parsed once to be linted and at most once more by the index,
    # not again for every few files linted
    assert large["parses"] <= 2 * 21 + 1, large


def test_a_chain_too_deep_for_the_index_is_said_once_per_run(tmp_path):
    """A chain of calls deeper than Python's recursion limit cuts the index short: the finding
    that needs it goes, and ``check`` says so on stderr, once for the run; flake8's output
    stays clean."""
    (tmp_path / "pyproject.toml").write_text("")
    n = 400
    chain = ["import torch", ""] + [f"def f{i}(x):\n    return f{i + 1}(x)\n" for i in range(n)]
    chain.append(f"def f{n}(x):\n    return torch.zeros(3)\n")
    (tmp_path / "chain.py").write_text("\n".join(chain))
    for name in ("a", "b"):
        (tmp_path / f"{name}.py").write_text(
            "import torch\nfrom chain import f0\n\ny = torch.tensor(f0(1))\n")
    for jobs in (["--jobs", "1", "--timeout", "0"], []):
        got = tensorcopy("check", "--no-cache", *jobs, "a.py", "b.py", cwd=str(tmp_path))
        assert got.stderr.count("project index: a chain of calls") == 1, got.stderr
        assert "Traceback" not in got.stderr
    got = flake8("--select", "TEN", "a.py", "b.py", cwd=str(tmp_path))
    assert got.stdout == "" and got.returncode == 0


def _dependency_searches(tmp_path, files, monkeypatch):
    """Import searches (``_candidates``) made to list the dependencies of ``files`` scripts that
    each import the same chain of 12 package modules (each importing the next), in one run."""
    from flake8_tensorcopy.semantic.index import resolve, roots

    root = tmp_path / f"p{files}"
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (root / "pyproject.toml").write_text("")
    (pkg / "__init__.py").write_text("")
    for i in range(12):
        nxt = f"from pkg.m{i + 1} import f{i + 1}\n" if i < 11 else ""
        (pkg / f"m{i}.py").write_text(f"import os\nimport numpy\n{nxt}\ndef f{i}():\n    return 1\n")
    scripts = []
    for j in range(files):
        path = root / f"s{j}.py"
        path.write_text("import torch\nfrom pkg.m0 import f0\n")
        scripts.append(str(path))
    monkeypatch.setattr(roots, "TTL", 3600.0)  # one window of freshness, however slow the machine
    index = resolve.ProjectIndex()
    count = [0]
    candidates = index._candidates

    def counting(*args):
        count[0] += 1
        return candidates(*args)

    monkeypatch.setattr(index, "_candidates", counting)
    states = [index.dependency_states(s) for s in scripts]
    assert all(len([d for d, digest in st if digest and digest != PRESENT]) == 13
               for st in states), states[0]
    return count[0]


def test_dependency_listing_searches_each_import_once_per_run(tmp_path, monkeypatch):
    """The results cache's dependency list of each file follows its imports transitively: a
    module many files reach is searched once (kept as long as ``find_module``'s answers), not
    once per file (issue 23 item 5: half of a first ``check`` of the dense corpus)."""
    small = _dependency_searches(tmp_path, 10, monkeypatch)
    large = _dependency_searches(tmp_path, 40, monkeypatch)
    assert large <= small * 1.5 + 40, (small, large)


def test_the_cyclic_collector_stays_out_of_parsing_a_linted_file(monkeypatch):
    """``python_ast`` parses with the cyclic collector paused (the tree holds no cycle; each
    collection its allocations set off would walk every object a run's index keeps alive: the
    parse's cost grew with the square of the project, ``benchmarks/scaling.py``), and leaves the
    collector as it found it, on a syntax error too."""
    import ast
    import gc

    from flake8_tensorcopy.syntax import parse

    source = fixer_source(2000)
    seen = []
    real = ast.parse

    def parsing(text, *args, **kwargs):
        ran = []
        callback = lambda phase, info: ran.append(phase) if phase == "start" else None  # noqa: E731
        gc.callbacks.append(callback)
        try:
            return real(text, *args, **kwargs)
        finally:
            gc.callbacks.remove(callback)
            seen.append((gc.isenabled(), len(ran)))

    monkeypatch.setattr(parse.ast, "parse", parsing)
    threshold = gc.get_threshold()
    gc.set_threshold(10)
    try:
        assert len(parse.python_ast(source).body) > 2000
        with pytest.raises(parse.LintError):
            parse.python_ast(source + "\n)")
        assert gc.isenabled()
        gc.disable()
        parse.python_ast("x = 1\n")
        assert not gc.isenabled()  # a caller that paused it keeps it paused
    finally:
        gc.enable()
        gc.set_threshold(*threshold)
    assert seen == [(False, 0)] * 3
