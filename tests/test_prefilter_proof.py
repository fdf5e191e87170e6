"""TEN501's pre-filter for a loop with no ``backward`` call in it (``prefilter_proof.Proof``): the
loop is read only where the rule can tell that what it accumulates holds a graph. Either the
callers prove grad on (a plain top-level function the file calls only with grad on), or some code
proves a value attached (``PROOF_WORDS``: a differentiating call, a block turning grad on) in the
file itself or in a project module its imports reach (``ProjectIndex.reaches``). Each case checks
the pre-filtered analysis against the whole one."""
import ast
import os

import pytest

from flake8_tensorcopy.engine import analyze
from flake8_tensorcopy.lint import candidates
from flake8_tensorcopy.semantic import graph_terms
from flake8_tensorcopy.semantic.index import ProjectIndex
from flake8_tensorcopy.semantic.index.reach import import_specs
from flake8_tensorcopy.syntax import grad_callers
from flake8_tensorcopy.syntax.accumulation_shapes import PROOF_WORDS, mentions_proof
from flake8_tensorcopy.syntax.prefilter import BODYLESS, SHAPES


def _kept(src: str, path: str, name: str) -> bool:
    """Is definition ``name`` of ``src`` (at ``path``) built, not left out by the plan?"""
    planned = candidates(src, ast.parse(src), path)
    if not planned:
        return False
    fn = next(n for n in ast.walk(ast.parse(src))
              if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name)
    return not any(b <= fn.lineno <= e and k == BODYLESS for b, e, k in planned[1])


def _both(src: str, path) -> list:
    """The whole analysis's (code, line) pairs, after checking the pre-filtered one agrees."""
    whole = analyze(src, prefilter=False, filename=str(path))
    assert analyze(src, filename=str(path)) == whole, src
    return [(d.code, d.line) for d in whole]


# ---- a differentiation the text gate did not know --------------------------------------------
_AUTOGRAD = ("import torch\n\n\nclass Trainer:\n    def __init__(self):\n"
             "        self.model = torch.nn.Linear(2, 2)\n\n"
             "    def fit(self, loader, params):\n        total = 0\n"
             "        for x, y in loader:\n"
             "            loss = self.model(x).sub(y).pow(2).mean()\n"
             "            grads = torch.autograd.grad(loss, params)\n"
             "            total += loss\n        return total, grads\n")


def test_a_loop_differentiating_with_autograd_grad_is_a_candidate(tmp_path):
    """``torch.autograd.grad(loss, ...)`` differentiates ``loss`` as ``loss.backward()`` does: the
    rule reports ``total += loss``; the text gate knew only ``backward(``, so the pre-filtered
    analysis reported nothing (before: ``[]`` against the whole analysis's TEN501)."""
    path = tmp_path / "train.py"
    path.write_text(_AUTOGRAD)
    assert SHAPES.search(_AUTOGRAD) is not None
    assert _both(_AUTOGRAD, path) == [("TEN501", 13)]


def test_the_proof_words_hold_every_spelling_the_graph_facts_read():
    """Every differentiating call and every grad-on block ``semantic/graph_terms`` reads is one
    of ``PROOF_WORDS``' patterns (the pre-filter never reads the semantic core)."""
    words = {w for w, _ in PROOF_WORDS}
    assert set(graph_terms.DIFFERENTIATING) <= {"backward", "manual_backward"}
    assert all(any(w in name for w in words) for name in graph_terms.DIFFERENTIATING)
    assert set(grad_callers.GRAD_ON) <= words
    spelled = {
        "x.backward()": True, "self.manual_backward(loss)": True,
        "torch.autograd.grad(y, xs)": True, "autograd . grad (y, xs)": True,
        "with torch.enable_grad():\n    pass": True, "@torch.enable_grad\ndef f(): pass": True,
        "torch.set_grad_enabled(True)": True, "torch.inference_mode(False)": True,
        "x.register_backward_hook(h)": False, "with torch.no_grad():\n    pass": False,
        "from torch.autograd import Variable": False, "p.grad.zero_()": False,
    }
    for text, expected in spelled.items():
        assert mentions_proof(text) is expected, text
        tree = ast.parse(text)
        read = any(grad_callers.grad_effect(n) == "on" or (
            isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or
                                         getattr(n.func, "id", None)) in
            graph_terms.DIFFERENTIATING) or (
            isinstance(n, ast.Call) and graph_terms.dotted(n.func) in (
                "torch.autograd.grad", "autograd.grad")) or (
            isinstance(n, ast.FunctionDef) and graph_terms.decorated_grad(n) == "on")
            for n in ast.walk(tree))
        assert not read or expected, text  # what the facts read, the words hold


# ---- project code that differentiates nothing -----------------------------------------------
_FORWARD_ONLY = ("import torch\n\n\ndef predict(model, x):\n    return model(x).sum()\n")
_DIFFERENTIATES = ("import torch\n\n\ndef train_step(model, x):\n    loss = model(x).sum()\n"
                   "    loss.backward()\n    return loss\n")
_LOOP = ("import torch\n{imp}\n\n\nclass Runner:\n    def fit(self, net, batches):\n"
         "        acc = 0\n        for x in batches:\n            acc += {call}(net, x)\n"
         "        return acc\n")


def _project(tmp_path, files):
    (tmp_path / "setup.py").write_text("")
    for name, text in files.items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


def test_a_loop_reaching_no_differentiating_project_code_is_left_out(tmp_path):
    """A method accumulating what a project function returns, in a file that calls no
    ``backward``: where no module its imports reach differentiates anything (or turns grad on),
    no summary can say the value holds a graph and the grad mode is not proven by callers, so
    the rule cannot report; the plan leaves the method out (before: kept, walked for nothing)."""
    src = _LOOP.format(imp="from util import predict", call="predict")
    _project(tmp_path, {"util.py": _FORWARD_ONLY, "train.py": src})
    path = str(tmp_path / "train.py")
    assert not _kept(src, path, "fit")
    assert _both(src, path) == []


@pytest.mark.parametrize("how", ["direct", "re-exported", "package init", "relative",
                                 "function-level import", "cycle"])
def test_a_loop_reaching_differentiating_project_code_is_kept(tmp_path, how):
    """Where a module the file's imports reach, directly or through others, differentiates what
    it returns, the loop is kept and the pre-filtered analysis reports what the whole one does."""
    files = {"core.py": _DIFFERENTIATES}
    imp, call = "from core import train_step", "train_step"
    if how == "re-exported":
        files["util.py"] = "from core import train_step  # noqa: F401\n"
        imp = "from util import train_step"
    elif how == "package init":
        files = {"pkg/__init__.py": "from .core import train_step  # noqa: F401\n",
                 "pkg/core.py": _DIFFERENTIATES}
        imp = "from pkg import train_step"
    elif how == "relative":
        files = {"pkg/__init__.py": "", "pkg/core.py": _DIFFERENTIATES}
        imp = "from .core import train_step"
    elif how == "function-level import":
        files["util.py"] = ("def step(model, x):\n    from core import train_step\n"
                            "    return train_step(model, x)\n")
        imp, call = "from util import step", "step"
    elif how == "cycle":
        files["util.py"] = ("import train  # noqa: F401\nfrom core import train_step\n\n\n"
                            "def step(model, x):\n    return train_step(model, x)\n")
        imp, call = "from util import step", "step"
    src = _LOOP.format(imp=imp, call=call)
    where = "pkg/train.py" if how == "relative" else "train.py"
    files[where] = src
    _project(tmp_path, files)
    path = str(tmp_path / where)
    assert _kept(src, path, "fit")
    # (the summaries do not follow an import made inside a function: the plan still keeps the
    # loop, the text's imports being a superset of the index's)
    expected = [] if how == "function-level import" else [("TEN501", 9)]
    assert _both(src, path) == expected


def test_a_loop_whose_callers_prove_grad_on_is_kept_only_where_they_do(tmp_path):
    """A plain top-level function the file calls at script level with grad on: the rule proves
    the grad mode from its callers, so its loop is kept; the same function called only under
    ``no_grad`` cannot be reported and is left out (no project import, no ``backward``)."""
    body = ("import torch\n\n\ndef collect(model, xs):\n    outs = []\n    for x in xs:\n"
            "        outs.append(model(x))\n    return outs\n\n\n"
            "net = torch.nn.Linear(2, 2)\n")
    on = body + "collect(net, torch.ones(3, 2))\n"
    off = body + "with torch.no_grad():\n    collect(net, torch.ones(3, 2))\n"
    _project(tmp_path, {"on.py": on, "off.py": off})
    assert _kept(on, str(tmp_path / "on.py"), "collect")
    assert _both(on, tmp_path / "on.py") == [("TEN501", 7)]
    assert not _kept(off, str(tmp_path / "off.py"), "collect")
    assert _both(off, tmp_path / "off.py") == []


# ---- the index's question -----------------------------------------------------------------
@pytest.mark.parametrize("text, specs", [
    ("import a.b as c, d\n", {("a.b", 0), ("d", 0)}),
    ("from . import x\n", {("", 1), ("x", 1)}),
    ("from ..p.q import (r,  # a comment (with parentheses)\n    s as t)\n",
     {("p.q", 2), ("p.q.r", 2), ("p.q.s", 2), ("p.q.t", 2)}),
    ("from a \\\n    import b\n", {("a", 0), ("a.b", 0)}),
    ("from a . b import c\n", {("a.b", 0), ("a.b.c", 0)}),
    ("x = 1; import y\nif x: import z\n", {("y", 0), ("z", 0)}),
    ("import a, \\\n    b\n", {("a", 0), ("b", 0)}),
    ("def f():\n    from m import *\n", {("m", 0)}),
    ("from_x = 1\nimported = 2\n", set()),
])
def test_import_specs_read_every_import_statement_from_the_text(text, specs):
    """A superset of the imports the index follows (``ModuleFacts`` and ``_import_specs``): what
    the text names, anywhere, in any spelling; more is harmless (a larger reach)."""
    assert specs <= set(import_specs(text))
    tree_specs = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            tree_specs |= {(a.name, 0) for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            tree_specs.add((mod, node.level))
            tree_specs |= {(f"{mod}.{a.name}" if mod else a.name, node.level)
                           for a in node.names if a.name != "*"}
    assert tree_specs <= set(import_specs(text))


def test_reaches_follows_imports_transitively_and_notices_changes(tmp_path):
    """``reaches``: through modules' imports (cycles end), parent packages included; the linted
    file's own text is not asked; a module changed on disk is read again."""
    _project(tmp_path, {"a.py": "import b\nloss.backward()\n", "b.py": "import a\nimport c\n",
                        "c.py": "x = 1\n", "pkg/__init__.py": "from . import deep\n",
                        "pkg/deep.py": "torch.autograd.grad(y, xs)\n", "pkg/mod.py": ""})
    index = ProjectIndex()
    a = str(tmp_path / "a.py")
    assert not index.reaches(a, None, mentions_proof)  # b and c: nothing; a itself not asked
    assert index.reaches(str(tmp_path / "b.py"), None, mentions_proof)  # a does
    assert not index.reaches(str(tmp_path / "c.py"), "", mentions_proof)  # its text: none
    assert index.reaches(str(tmp_path / "c.py"), "import pkg.mod\n", mentions_proof)
    c = tmp_path / "c.py"
    c.write_text("x = 1\nwith torch.enable_grad():\n    pass\n")
    os.utime(c, ns=(1, 1))
    assert index.reaches(a, None, mentions_proof)


def test_a_function_its_callers_fail_to_prove_still_asks_the_project(tmp_path):
    """A top-level function whose text looks proven by its callers (called twice, nothing turns
    grad off) but whose uses are not all grad-on calls (one inside a lambda): the plan must
    still ask whether the project differentiates, and keep the loop (a bug of this change,
    caught by the pre-filter's own invariance test: the import question was left unasked)."""
    src = ("import torch\nfrom core import train_step\n\n\ndef fit(net, batches):\n"
           "    acc = 0\n    for x in batches:\n        acc += train_step(net, x)\n"
           "    return acc\n\n\nrun = lambda: fit(1, [])\nfit(2, [])\n")
    _project(tmp_path, {"core.py": _DIFFERENTIATES, "train.py": src})
    path = str(tmp_path / "train.py")
    assert _kept(src, path, "fit")
    assert _both(src, path) == [("TEN501", 8)]


# ---- TEN405 through a project function: only where a summary can say "the bridge" -------------
_CALLER = ("import numpy as np\nfrom {mod} import to_tensor\n\n\ndef scale(a):\n"
           "    t = to_tensor(a)\n    t.mul_(2)\n    return a\n")


@pytest.mark.parametrize("helper, where, expected", [
    # ``torch.from_numpy`` in the helper's own body: a bridge fact, reported and kept
    ("import torch\n\n\ndef to_tensor(a):\n    return torch.from_numpy(a)\n", "util", True),
    # the same helper re-exported by a package's ``__init__``: reached through its imports
    ("import torch\n\n\ndef to_tensor(a):\n    return torch.from_numpy(a)\n", "pkg", True),
    # ``torch.as_tensor`` / a copy: the summary reads no bridge, the plan leaves ``scale`` out
    ("import torch\n\n\ndef to_tensor(a):\n    return torch.as_tensor(a)\n", "util", False),
    ("import torch\n\n\ndef to_tensor(a):\n    return torch.tensor(a)\n", "pkg", False),
])
def test_a_helper_written_in_place_is_read_only_where_it_may_bridge(tmp_path, helper, where,
                                                                     expected):
    """``t = to_tensor(a); t.mul_(2)``: TEN405 asks ``to_tensor``'s storage summary, which says
    "shares through the bridge" only for a body holding ``torch.from_numpy`` or ``.numpy()``
    (``BRIDGE_WORDS``); where neither this file nor a module its imports reach holds one, the
    plan leaves the definition out (before: kept, walked for nothing)."""
    files = {"util.py": helper} if where == "util" else {
        "pkg/__init__.py": "from .impl import to_tensor  # noqa: F401\n", "pkg/impl.py": helper}
    src = _CALLER.format(mod=where)
    files["main.py"] = src
    _project(tmp_path, files)
    path = str(tmp_path / "main.py")
    assert _kept(src, path, "scale") is expected
    found = _both(src, path)
    assert found == ([("TEN405", 6)] if expected else []), found


def test_the_bridge_words_hold_what_a_storage_summary_reads():
    """A storage summary finds a bridge only where ``mentions_bridge`` holds (its own body)."""
    from flake8_tensorcopy.semantic.index.storage_summaries import summarize_function
    from flake8_tensorcopy.semantic.storage import BRIDGE
    from flake8_tensorcopy.syntax.storage_shapes import mentions_bridge

    bodies = ["return torch.from_numpy(a)", "return a.numpy()", "return a.detach().numpy ()",
              "return torch.as_tensor(a)", "return np.asarray(a)", "return a.cpu()",
              "return torch.tensor(a)", "return a"]
    for body in bodies:
        src = f"def f(a):\n    {body}\n"
        bridged = any(fact.how == BRIDGE
                      for fact in summarize_function(ast.parse(src).body[0]).items.values())
        assert not bridged or mentions_bridge(src), body
        assert bridged == mentions_bridge(src), body  # (here the words are exact)


def test_a_plan_that_asks_the_project_does_not_import_the_engine(tmp_path):
    """A flake8 run whose plan asks what the project's modules hold (and then finds nothing to
    analyse) reads their paths and text only: the engine is never imported (before: it was,
    about 25 ms of an editor's run on such a file), and what flake8 made before the first file
    is out of the cyclic collector's view all the same (``parse_options``). The index, once
    loaded, takes over the finder's answers: one set of answers per process."""
    import subprocess
    import sys

    _project(tmp_path, {"util.py": _FORWARD_ONLY,
                        "train.py": _LOOP.format(imp="from util import predict", call="predict")})
    probe = ("import gc, sys\nfrom flake8.main.cli import main\n"
             "try:\n    main(['--select', 'TEN', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
             "from flake8_tensorcopy.semantic.index import finder as f\n"
             "asked = f.finder()._reach_texts\n"
             "print('flake8_tensorcopy.engine' in sys.modules, len(asked) > 0,"
             " gc.get_freeze_count() > 0)\n"
             "from flake8_tensorcopy.semantic.index import index\n"
             "print(index() is f.finder(), index()._reach_texts is asked)\n")
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "train.py")],
                         capture_output=True, text=True, cwd=str(tmp_path), timeout=120)
    assert out.stdout.split() == ["False", "True", "True", "True", "True"], \
        out.stdout + out.stderr


def test_grad_off_is_read_from_the_code_not_from_its_words():
    import ast as _ast

    from flake8_tensorcopy.syntax.grad_callers import grad_off_in

    def off(src, inference=True):
        return grad_off_in(src, _ast.parse(src), inference)

    # words in a docstring or a comment, a new tensor or parameter made without grad: no freeze
    assert not off('"""freeze with requires_grad=False"""\nx = 1  # p.requires_grad_(False)\n')
    assert not off("pe = nn.Parameter(t, requires_grad=False)\ns = torch.ones(3, requires_grad=False)\n")
    assert not off("p.requires_grad_()\np.requires_grad_(True)\np.requires_grad = True\n")
    # the code freezing a parameter or setting grad mode: off (in a file whose text names one of
    # them: ``GRAD_OFF_TEXT`` stays the gate, a flag alone is not read, as before)
    for src in ("p.requires_grad_(False)", "p.requires_grad = False",
                "set_requires_grad(net, requires_grad=False)", "torch.set_grad_enabled(False)",
                "p.requires_grad_(False)\nq.requires_grad = flag"):
        assert off(src), src
    assert off("mode = torch.inference_mode()\nmode.__enter__()\n")
    # a block entered with a grad mode is a region, not a switch of the file's mode; so is a
    # function ``inference_mode`` decorates, and a ``with`` of it, as ``no_grad`` makes them
    assert not off("with torch.set_grad_enabled(phase == 'train'):\n    pass\n")
    assert not off("with torch.inference_mode():\n    pass\n")
    assert not off("@torch.inference_mode()\ndef f():\n    pass\n")
    assert not off("@torch.inference_mode\ndef f():\n    pass\n")
    assert off("with torch.set_grad_enabled(flag):\n    pass\ntorch.set_grad_enabled(False)\n")
    assert off("@torch.set_grad_enabled(False)\ndef f():\n    pass\n")
    assert not off("with torch.inference_mode():\n    pass\n", inference=False)
    # no tree: the text decides, as before
    assert grad_off_in('"requires_grad=False"', None)


def test_what_a_module_text_holds_is_read_once_per_question(tmp_path, monkeypatch):
    """The finder keeps each question's answer about a module's text while the file is
    unchanged: the pre-filter's question and a rule's about the same modules, asked in turn
    (as the plan and then the rules of each file do), read each module once per question, not
    once per time asked (before: the second question's answer took the first one's place)."""
    import builtins

    from flake8_tensorcopy.semantic.index import finder as found
    from flake8_tensorcopy.syntax.accumulation_shapes import mentions_proof
    from flake8_tensorcopy.syntax.storage_shapes import mentions_bridge

    _project(tmp_path, {"a.py": "import b\n", "b.py": "import torch\nx = 1\n",
                        "main.py": "import a\n"})
    main = str(tmp_path / "main.py")
    reads = []
    real = builtins.open

    def counting(path, *args, **kwargs):
        reads.append(os.path.basename(str(path)))
        return real(path, *args, **kwargs)

    where = found.ModuleFinder()
    monkeypatch.setattr(found, "open", counting, raising=False)
    for question in (mentions_proof, mentions_bridge, mentions_proof, mentions_bridge):
        assert where.reaches(main, "import a\n", question) is False
    assert sorted(reads) == ["a.py", "a.py", "b.py", "b.py"], reads
    (tmp_path / "b.py").write_text("import torch\nt = torch.from_numpy(x)\n")  # changed
    assert where.reaches(main, "import a\n", mentions_bridge) is True
    assert reads[4:] == ["b.py"], reads
