"""The lint path's records (``syntax/records.py``) behave as the dataclasses they replace, and an
editor's flake8 process no longer imports ``dataclasses`` for them (issue 23 item 6)."""
import copy
import pickle
import subprocess
import sys

import pytest

from flake8_tensorcopy.config import Config
from flake8_tensorcopy.diagnostics import Diagnostic, Edit, Fix, replaced
from flake8_tensorcopy.lint import FileResult
from flake8_tensorcopy.rules.base import Example, FixPlan
from flake8_tensorcopy.syntax.records import FrozenRecordError, fields

from .conftest import ROOT


def test_frozen_records_compare_hash_order_and_copy_by_value():
    fix = Fix("replace", "safe", (Edit(3, 4, "b"), Edit(1, 2, "a")))
    d = Diagnostic("TEN301", "m", 2, 0, 2, 9, fix)
    twin = Diagnostic("TEN301", "m", 2, 0, 2, 9, Fix("replace", "safe", (Edit(3, 4, "b"), Edit(1, 2, "a"))))
    assert d == twin and hash(d) == hash(twin) and len({d, twin}) == 1
    assert d != replaced(d, line=3) and replaced(d, line=3).line == 3 and d.line == 2
    assert sorted(fix.edits) == [Edit(1, 2, "a"), Edit(3, 4, "b")]
    assert Edit(1, 2, "a") < Edit(1, 3, "") and not Edit(1, 2, "a") < Edit(1, 2, "a")
    assert pickle.loads(pickle.dumps(d)) == d and copy.deepcopy(d) == d
    assert repr(Edit(1, 2, "a")) == "Edit(start=1, end=2, text='a')"
    assert fields(Diagnostic) == ("code", "message", "line", "column", "end_line", "end_column", "fix")
    assert Fix("x", "safe").edits == () and Diagnostic("A", "m", 1, 0, 1, 0).fix is None
    with pytest.raises(FrozenRecordError):
        d.line = 5
    with pytest.raises(AttributeError):
        del d.code
    with pytest.raises(TypeError):
        Diagnostic("TEN301", "m")
    with pytest.raises(TypeError):
        replaced(d, nope=1)
    assert Diagnostic("A", "m", 1, 0, 1, 0) != ("A", "m", 1, 0, 1, 0)


def test_mutable_records_get_fresh_defaults_and_no_hash():
    a, b = Config(), Config()
    a.ignore.append("TEN101")
    assert b.ignore == [] and b.select == ["TEN"] and a != b
    with pytest.raises(TypeError):
        hash(a)
    plan = FixPlan("d", "safe")
    plan.edits.append(1)
    assert FixPlan("d", "safe").edits == []
    assert Example("x = 1\n") == Example("x = 1\n", None, False, True)
    res = FileResult("p.py")
    res.notes.append("n")
    assert FileResult("p.py").notes == [] and res.path == "p.py"


def test_a_subclass_adds_its_fields_after_its_bases():
    from flake8_tensorcopy.runtime.report import RuntimeResult

    r = RuntimeResult("p.py", [Diagnostic("A", "m", 1, 0, 1, 0)])
    assert fields(RuntimeResult)[: len(fields(FileResult))] == fields(FileResult)
    assert r.path == "p.py" and len(r.diagnostics) == 1 and r.sites == [] and r.static_not_run == []
    assert RuntimeResult("q.py", sites=[1]).sites == [1] and RuntimeResult("q.py").sites == []


def test_the_editor_run_imports_no_dataclasses():
    """What flake8 imports for a file with candidates (the plugin, the door, the engine, the
    rules) leaves ``dataclasses`` out: it cost about 7 ms of an editor's per-save process (13
    classes built from code compiled method by method); flake8 does not import it itself."""
    code = ("import sys\nimport flake8_tensorcopy.plugin, flake8_tensorcopy.lint, "
            "flake8_tensorcopy.engine, flake8_tensorcopy.config\n"
            "print('dataclasses' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_node_inits_are_generated_and_current():
    """The node classes' ``__init__`` functions come compiled from ``node_inits.py`` (compiling
    them at import cost 3-5 ms of every editor run); the module is what ``nodes`` generates."""
    import os

    from flake8_tensorcopy.syntax import nodes

    path = os.path.join(ROOT, "flake8_tensorcopy", "syntax", "node_inits.py")
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == nodes.init_source(), \
            "regenerate: python -m flake8_tensorcopy.syntax.nodes > flake8_tensorcopy/syntax/node_inits.py"
    made = [c for c in vars(nodes).values() if isinstance(c, type) and issubclass(c, nodes.Node)
            and c is not nodes.Node]
    assert len(made) > 100
    assert {c.__init__.__module__ for c in made} == {"flake8_tensorcopy.syntax.node_inits"}
    call = nodes.Call(None, nodes.Name(None, "f"), [])
    assert call.func.value == "f" and call.args == [] and call._a is None


def test_record_inits_are_generated_and_current():
    """The lint path's record classes take their ``__init__`` code from ``record_inits.py``
    (compiling 13 of them at import cost about 1.2 ms of every editor run); the module is what
    ``records.init_source`` generates in a fresh process, and a record of a shape it lacks is
    still made (compiled on the spot) with the same behaviour."""
    import os

    from flake8_tensorcopy.syntax import records

    code = "from flake8_tensorcopy.syntax.records import init_source; print(init_source(), end='')"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    path = os.path.join(ROOT, "flake8_tensorcopy", "syntax", "record_inits.py")
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == out.stdout, "regenerate: " + records.REGENERATE
    code = ("import flake8_tensorcopy.plugin, flake8_tensorcopy.lint, flake8_tensorcopy.engine, "
            "flake8_tensorcopy.config, flake8_tensorcopy.rules\n"
            "from flake8_tensorcopy.syntax import records\n"
            "import gc\n"
            "made = [c for c in gc.get_objects() if isinstance(c, type) and "
            "'_record_fields' in c.__dict__]\n"
            "print(len(made), sorted({c.__init__.__code__.co_filename.rsplit('/', 1)[-1] "
            "for c in made}))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    count, files = out.stdout.split(" ", 1)
    assert int(count) >= 13 and files.strip() == "['record_inits.py']", out.stdout

    @records.record
    class Odd:
        zeta: int
        eta: list = records.field(default_factory=list)
        theta: str = "t"

    a, b = Odd(1), Odd(2, [3], theta="u")
    assert (a.zeta, a.eta, a.theta) == (1, [], "t") and (b.zeta, b.eta, b.theta) == (2, [3], "u")
    assert Odd(1).eta is not a.eta and Odd(1) == a and Odd.__init__.__name__ == "__init__"
    assert Odd.__init__.__code__.co_filename != path


def test_the_plugin_pauses_the_collector_only_while_it_works(monkeypatch):
    """The plugin's engine import and analysis run with the cyclic collector paused, and the
    collector is on again afterwards, also when the analysis fails."""
    import ast
    import gc

    from flake8_tensorcopy import lint
    from flake8_tensorcopy.plugin import TensorCopyChecker

    src = "import torch\nx = torch.randn(3)\ny = x.clone().detach()\n"
    seen = []
    real = lint.diagnose

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(lint, "diagnose", spy)
    assert gc.isenabled()
    out = list(TensorCopyChecker(ast.parse(src), src.splitlines(True), "t.py").run())
    assert [o[2][:6] for o in out] == ["TEN301"] and seen == [False] and gc.isenabled()

    def broken(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(lint, "diagnose", broken)
    # the failure is reported (TEN001 naming it), and the collector is on again
    assert [o[2] for o in TensorCopyChecker(ast.parse(src), src.splitlines(True), "t.py").run()] \
        == ["TEN001 file could not be analysed, no TEN rule was checked: internal error "
            "(ValueError: boom)"]
    assert gc.isenabled()
    gc.disable()
    try:  # paused by the caller: left paused
        monkeypatch.setattr(lint, "diagnose", real)
        assert len(list(TensorCopyChecker(ast.parse(src), src.splitlines(True), "t.py").run())) == 1
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_plugin_keeps_the_engine_out_of_later_collections(tmp_path):
    """An editor's flake8 process imports the engine for one file: what exists once it is
    imported (its classes, functions and tables, flake8's own objects) is moved out of the
    cyclic collector's view, once, so that no later collection walks it again; what the analyses
    make afterwards is collected as usual. Run as flake8 runs the plugin: in a fresh process."""
    import subprocess
    import sys

    script = tmp_path / "run.py"
    script.write_text(
        "import ast, gc, sys, weakref\n"
        "from flake8_tensorcopy.plugin import TensorCopyChecker\n"
        "assert 'flake8_tensorcopy.engine' not in sys.modules\n"
        "assert gc.get_freeze_count() == 0\n"
        "src = 'import torch\\nx = torch.randn(3)\\ny = x.clone().detach()\\n'\n"
        "def run():\n"
        "    return [o[2][:6] for o in TensorCopyChecker(ast.parse(src), src.splitlines(True),"
        " 't.py').run()]\n"
        "assert run() == ['TEN301'] and gc.isenabled()\n"
        "from flake8_tensorcopy import engine\n"
        "frozen = gc.get_freeze_count()\n"
        "assert frozen > 1000, frozen\n"
        "assert not any(o is engine.Walker for o in gc.get_objects())\n"
        "assert run() == ['TEN301'] and gc.get_freeze_count() <= frozen  # not frozen again\n"
        "class Cycle:\n"
        "    pass\n"
        "c = Cycle(); c.me = c; gone = weakref.ref(c); del c\n"
        "gc.collect()\n"
        "assert gone() is None\n"
        "print('ok')\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == "ok\n", out.stderr
