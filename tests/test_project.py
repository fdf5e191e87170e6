"""The project index: facts from the project's other modules, the same for every front end."""
import json
import os
import shutil
import sys
import textwrap

import pytest

import flake8_tensorcopy
from flake8_tensorcopy import lint_source
from flake8_tensorcopy.semantic import index as project
from flake8_tensorcopy.semantic.kinds import TENSOR
from flake8_tensorcopy.fixes import fix_source

from .conftest import FIXTURES, flake8, run, tensorcopy

PROJECTS = ("pkg_project", "scripts_project")


def _copy_projects(tmp_path):
    """The fixture projects under a folder with a project marker of its own."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "setup.cfg").write_text("[metadata]\nname = proj\n")
    for name in PROJECTS:
        shutil.copytree(os.path.join(FIXTURES, name), root / name)
    return root


def _files(root):
    out = []
    for dirpath, _, names in os.walk(root):
        out.extend(os.path.relpath(os.path.join(dirpath, n), root) for n in names if n.endswith(".py"))
    return sorted(out)


def _check_json(root, *paths):
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", "--jobs", "2", *paths,
                      cwd=str(root))
    assert proc.returncode == 0, proc.stderr
    return {(os.path.normpath(d["filename"]), d["location"]["row"], d["location"]["column"],
             d["code"]) for d in json.loads(proc.stdout)}


def test_flake8_jobs_check_and_api_agree_on_every_file(tmp_path):
    root = _copy_projects(tmp_path)
    proc = flake8("--select", "TEN", "--jobs", "2", "--format",
                  "%(path)s|%(row)d|%(col)d|%(code)s", *PROJECTS, cwd=str(root))
    assert proc.returncode in (0, 1), proc.stderr
    from_flake8 = set()
    for line in proc.stdout.splitlines():
        path, row, col, code = line.split("|")
        from_flake8.add((os.path.normpath(path), int(row), int(col), code))
    from_check = _check_json(root, *PROJECTS)
    assert from_flake8 == from_check
    # diagnostics that only the other modules make possible are there (the index was used)
    train = os.path.join("pkg_project", "train.py")
    assert sum(1 for d in from_check if d[0] == train) >= 10
    assert any(d[0] == os.path.join("scripts_project", "train_gan.py") for d in from_check)
    # and the library API, given the path, sees the same
    cwd = os.getcwd()
    os.chdir(root)
    try:
        for rel in _files(root):
            with open(rel, encoding="utf-8") as fh:
                text = fh.read()
            api = {(rel, d.line, d.column + 1, d.code) for d in lint_source(text, rel)}
            assert api == {d for d in from_check if d[0] == rel}, rel
    finally:
        os.chdir(cwd)


def test_flake8_on_stdin_with_display_name_uses_the_index(tmp_path):
    root = _copy_projects(tmp_path)
    rel = os.path.join("pkg_project", "train.py")
    text = (root / rel).read_text()
    proc = flake8("--select", "TEN", "--stdin-display-name", rel, "-", input=text, cwd=str(root))
    on_disk = flake8("--select", "TEN", rel, cwd=str(root))
    assert proc.stdout == on_disk.stdout
    assert proc.stdout.count("TEN101") >= 5


def test_fixer_sees_the_index(tmp_path):
    root = _copy_projects(tmp_path)
    from_check = _check_json(root, *PROJECTS)
    proc = tensorcopy("check", "--output-format", "json", "--exit-zero", *PROJECTS, cwd=str(root))
    fixable = {os.path.normpath(d["filename"]) for d in json.loads(proc.stdout) if d.get("fix")}
    before = {rel: (root / rel).read_text() for rel in _files(root)}
    proc = tensorcopy("fix", "--unsafe-fixes", *PROJECTS, cwd=str(root))
    assert proc.returncode in (0, 1), proc.stderr
    changed = {rel for rel in before if (root / rel).read_text() != before[rel]}
    assert changed == fixable
    train = (root / "pkg_project" / "train.py").read_text()
    assert '"loss": loss.detach().item()' in train  # known to be a tensor only across files
    # what the fixer left is what check now reports
    after = _check_json(root, *PROJECTS)
    assert len(after) < len(from_check)


def test_lint_step_and_fix_source_take_the_path(tmp_path):
    root = _copy_projects(tmp_path)
    path = root / "pkg_project" / "train.py"
    text = path.read_text()
    without = {(d.line, d.code) for d in lint_source(text)}  # no path: imports unknown
    with_path = {(d.line, d.code) for d in lint_source(text, str(path))}
    assert (23, "TEN101") in with_path and (23, "TEN101") not in without
    assert (59, "TEN101") in without and (59, "TEN101") not in with_path  # Vector3's own data
    fixed = fix_source(text, path=str(path), unsafe=True)
    assert fixed.changed and "loss.detach()" in fixed.source
    assert '"loss": loss.detach()' not in fix_source(text, unsafe=True).source


def test_dependencies_lists_transitive_project_imports(tmp_path):
    root = _copy_projects(tmp_path)
    deps = project.dependencies(str(root / "pkg_project" / "train.py"))
    names = {os.path.relpath(d, root) for d in deps}
    pkg = "pkg_project" + os.sep
    assert {pkg + "geometry.py", pkg + "layers.py", pkg + "losses.py", pkg + "models.py",
            pkg + "__init__.py"} <= names
    assert all(os.path.isabs(d) for d in deps)
    assert str(root / "pkg_project" / "train.py") not in deps
    # models.py imports layers.py: reached transitively from a file that imports only models
    (root / "pkg_project" / "only_models.py").write_text("from .models import Encoder\n")
    deps = project.dependencies(str(root / "pkg_project" / "only_models.py"))
    assert str(root / "pkg_project" / "layers.py") in deps
    assert project.dependencies(str(root / "missing.py")) == []


def _write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


USER = textwrap.dedent("""\
    import torch
    from lib import Thing

    def f(x):
        t = Thing(x)
        return t.data.clone()
""")


def test_cache_follows_the_dependency_contents(tmp_path):
    root = tmp_path / "p"
    _write(root, "pyproject.toml", "")
    user = _write(root, "user.py", USER)
    _write(root, "lib.py", """\
        import torch
        class Thing(torch.Tensor):
            pass
    """)
    assert [d.code for d in lint_source(user.read_text(), str(user))] == ["TEN101"]
    # the same process, the class changes to one with its own data: the index re-reads it
    lib = _write(root, "lib.py", """\
        class Thing:
            def __init__(self, x):
                self.data = x
    """)
    st = os.stat(lib)
    os.utime(lib, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert lint_source(user.read_text(), str(user)) == []


def test_unknown_and_broken_modules_are_unknown(tmp_path):
    root = tmp_path / "p"
    _write(root, "pyproject.toml", "")
    _write(root, "broken.py", "class Thing(:\n")
    user = _write(root, "user.py", USER.replace("from lib", "from broken") + textwrap.dedent("""\
        from nowhere import Other
        from . import sibling
        def g(p):
            return p.data.clone()
    """))
    diags = lint_source(user.read_text(), str(user))
    assert [d.code for d in diags] == ["TEN101", "TEN101"]  # heuristics only, no crash
    proc = tensorcopy("check", str(user), cwd=str(root))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


OWN_DATA = "class Thing:\n    def __init__(self, x):\n        self.data = x\n"


def test_files_outside_the_project_are_never_read(tmp_path):
    root = tmp_path / "p"
    _write(root, "pyproject.toml", "")
    user = _write(root, "user.py", USER)
    _write(root, "lib.py", OWN_DATA)
    assert lint_source(user.read_text(), str(user)) == []  # read: Thing has its own data
    os.remove(root / "lib.py")
    # the same module beside the project (as site-packages would be) is not consulted
    _write(tmp_path, "lib.py", OWN_DATA)
    assert [d.code for d in lint_source(user.read_text(), str(user))] == ["TEN101"]
    assert project.dependencies(str(user)) == []
    # a package installed in site-packages: its siblings there are not its project
    site = tmp_path / "venv" / "lib" / "site-packages"
    _write(site, "lib.py", OWN_DATA)
    _write(site, "pkg/__init__.py", "")
    inside = _write(site, "pkg/user.py", USER)
    assert project.find_root(str(inside)) == str(site / "pkg")
    assert project.dependencies(str(inside)) == []
    assert [d.code for d in lint_source(inside.read_text(), str(inside))] == ["TEN101"]


def test_source_roots_from_config(tmp_path):
    root = tmp_path / "p"
    _write(root, "pyproject.toml", '[tool.tensorcopy]\nsource-roots = ["../vendor"]\n')
    _write(tmp_path, "vendor/lib.py", "import torch\nclass Thing(torch.Tensor):\n    pass\n")
    user = _write(root, "user.py", USER)
    proc = tensorcopy("check", "user.py", cwd=str(root))
    assert "TEN101" in proc.stdout, proc.stdout + proc.stderr
    proc = tensorcopy("check", "user.py", cwd=str(root), env={
        **os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert "TEN101" in proc.stdout


def test_linter_and_index_never_import_torch(tmp_path):
    root = _copy_projects(tmp_path)
    code = (
        "import sys, flake8_tensorcopy as F\n"
        "p = 'pkg_project/train.py'\n"
        "d = F.lint_source(open(p).read(), p)\n"
        "from flake8_tensorcopy.semantic import index as project\n"
        "project.dependencies(p)\n"
        "assert d, d\n"
        "print('torch' in sys.modules)\n")
    proc = run([sys.executable, "-c", code], cwd=str(root))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"


def test_an_installed_package_gets_no_project_index(tmp_path):
    """A file that lives under site-packages (torch's own source, a dependency) is linted
    without the index: the same tree elsewhere is a project, and there the index is used."""
    models = ("import torch\nfrom torch import nn\n\n\nclass Gen(nn.Module):\n"
              "    def forward(self, z):\n        return torch.tanh(z)\n")
    train = ("import torch\nfrom .models import Gen\n\n\ndef step(z):\n    g = Gen()\n"
             "    out = g(z)\n    return out.data\n")
    found = {}
    for where in ("proj", os.path.join("lib", "site-packages")):
        pkg = tmp_path / where / "pkg"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "models.py").write_text(models)
        (pkg / "train.py").write_text(train)
        (tmp_path / "proj" / "pyproject.toml").write_text("") if where == "proj" else None
        found[where] = [d.code for d in lint_source(train, str(pkg / "train.py"))]
    assert found["proj"] == ["TEN101"]
    assert found[os.path.join("lib", "site-packages")] == []


# ---- the text shortcuts of the index: a superset of what the tree holds, never less ----------

def _python_files():
    pkg = os.path.dirname(flake8_tensorcopy.__file__)
    roots = [pkg, FIXTURES, os.path.dirname(__file__)]
    for root in roots:
        for dirpath, _, names in os.walk(root):
            for name in sorted(names):
                if name.endswith(".py"):
                    yield os.path.join(dirpath, name)


def _facts(path: str):
    import ast

    with open(path, "rb") as fh:
        data = fh.read()
    try:
        tree = ast.parse(data)
        text = data.decode("utf-8")
    except (SyntaxError, ValueError):
        return None, None
    return tree, project.ModuleFacts(path, tree, project.index(), text)


def test_call_lines_hold_every_call_of_a_bare_name():
    """``call_lines`` (from the text) decides which functions the index evaluates for call-site
    parameter kinds: every real call ``name(...)`` of the tree must be in it, on its line."""
    import ast

    checked = 0
    extra = textwrap.dedent('''\
        def f(a): return a
        (f)(1)
        ( f  # a comment ) )
          )(2)
        f \\
            (3)
        g = [f(x) for x in y]
        def h(): return f (4)
        ''')
    files = list(_python_files())
    for path in files + [None]:
        if path is None:
            tree = ast.parse(extra)
            facts = project.ModuleFacts("<extra>", tree, project.index(), extra)
        else:
            tree, facts = _facts(path)
            if facts is None:
                continue
        if facts.text is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.lineno in facts.call_lines(node.func.id), (
                    path, node.func.id, node.func.lineno)
                checked += 1
    assert checked > 1000


def test_call_starts_are_the_calls_pattern_without_a_pattern_per_name(monkeypatch):
    """``call_starts`` finds where a bare name may be called as the pattern of the rule would
    (the name never after a dot or a word character, then blanks, closing parentheses, line
    continuations or comments, then ``(``; a call found, the search goes on after it), over
    every word of tricky texts and of this package's modules, with no pattern compiled per name
    (one was compiled for each function asked about)."""
    import re

    import flake8_tensorcopy.semantic.index.evaluate as evaluate

    def pattern(name):
        word = re.escape(name)
        return re.compile(word + r"(?<![\w.]" + word + r")(?=((?:[\s)]|\\\n|#[^\n]*)*))\1\(")

    texts = ["f(f(f))", "ff(f (x.f( f\\\n(", "(f)(1) ( f # c ) )\n )(2) _f(3) f2(4) f", "fff(",
             "f # f(\n(", "é f( éf( fé( f)( f))\n(", "f" * 5 + "(", "f#\n#\n(f \t\f("]
    top = os.path.dirname(flake8_tensorcopy.__file__)
    for folder, _, names in os.walk(top):
        texts += [open(os.path.join(folder, n), encoding="utf-8").read()
                  for n in sorted(names) if n.endswith(".py")]
    compiled = [0]
    real = re.compile

    def counted(*args, **kwargs):
        compiled[0] += 1
        return real(*args, **kwargs)

    checked = 0
    for text in texts:
        for name in sorted(set(re.findall(r"[^\W\d]\w*", text)))[:60]:
            want = [m.start() for m in pattern(name).finditer(text)]
            monkeypatch.setattr(re, "compile", counted)
            assert list(evaluate.call_starts(name, text)) == want, (text[:60], name)
            monkeypatch.setattr(re, "compile", real)
            checked += 1
    assert checked > 3000 and compiled == [0]


def test_call_lines_leave_out_definitions_and_attribute_calls():
    import ast

    text = "def train(model):\n    return model.train()\nclass A:\n    def train(self): pass\n"
    facts = project.ModuleFacts("<t>", ast.parse(text), project.index(), text)
    assert facts.call_lines("train") == []
    text2 = text + "train(1)\n"
    facts2 = project.ModuleFacts("<t>", ast.parse(text2), project.index(), text2)
    assert facts2.call_lines("train") == [5]


def test_call_lines_on_comment_runs_do_not_backtrack(tmp_path):
    """A name followed by many comment lines full of blanks and parentheses once made the call
    search backtrack exponentially (the linter hung); it must finish at once."""
    src = "x = y\nfoo" + "  # ) )   \n" * 300 + "z\n"  # with the first pattern 6 such lines took 0.09 s, 8 took 4.4 s
    script = ("import ast, sys; from flake8_tensorcopy.semantic import index as project; t = sys.stdin.read(); "
              "print(len(project.ModuleFacts('<t>', ast.parse(t), project.index(), t)"
              ".call_lines('foo')))")
    import subprocess

    out = subprocess.run([sys.executable, "-c", script], input=src, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0"


def test_word_lines_find_every_register_call():
    import ast

    checked = 0
    for path in _python_files():
        tree, facts = _facts(path)
        if facts is None:
            continue
        spots = facts.word_lines("register_")
        if spots is None:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("register_buffer", "register_parameter"):
                assert node.func.end_lineno in spots or node.lineno in spots, (path, node.lineno)
                checked += 1
    assert checked > 5


def test_index_memory_is_bounded_and_results_do_not_depend_on_it(tmp_path):
    """The index forgets the least recently used modules between files (never during one):
    a tiny bound gives the same diagnostics as an unbounded index, in a fresh process each."""
    root = _copy_projects(tmp_path)
    files = sorted(str(p) for p in root.rglob("*.py"))
    script = textwrap.dedent("""\
        import sys
        from flake8_tensorcopy import lint_source
        from flake8_tensorcopy.semantic import index as project
        project.index().max_modules = int(sys.argv[1])
        out = []
        for path in sys.argv[2:]:
            text = open(path, encoding="utf-8").read()
            out += [(path, d.line, d.column, d.code) for d in lint_source(text, path)]
            assert len(project.index()._modules) <= project.index().max_modules + 64
        project.index().trim()
        assert len(project.index()._modules) <= project.index().max_modules
        print(len(out), sorted(out))
    """)
    got = {}
    for bound in (1, 10_000):
        res = run([sys.executable, "-c", script, str(bound)] + files)
        assert res.returncode == 0, res.stderr
        got[bound] = res.stdout
    assert got[1] == got[10_000]
    assert int(got[1].split()[0]) > 10


def test_linting_leaves_no_reference_cycles(tmp_path):
    """What one file's analysis builds (its tree, the index's facts of it and of the modules it
    imports) is freed by reference counting as soon as it is let go: a cycle would keep whole
    ``ast`` trees for the garbage collector's full passes, which cost flake8 itself time
    (benchmarks/RESULTS.md). Run in a fresh process with the collector off and no module kept
    between files, so the index lets every module go while the files are linted."""
    root = _copy_projects(tmp_path)
    # shapes that point back at their own class: an attribute that is an instance of it, a
    # method and a function that return one, asked for from another module and from itself
    (root / "nodes.py").write_text(textwrap.dedent("""\
        import torch


        class Node:
            def __init__(self):
                self.next = Node()
                self.value = torch.zeros(1)

            def copy(self):
                return Node()


        def make():
            return Node()


        def use():
            n = make()
            return n.next.copy().value.data
    """))
    (root / "user.py").write_text(textwrap.dedent("""\
        import torch
        from nodes import Node, make

        n = make()
        m = n.copy().next
        x = m.value.data
        y = torch.tensor(m.next.value)
    """))
    files = sorted(str(p) for p in root.rglob("*.py"))
    script = textwrap.dedent("""\
        import ast, gc, sys
        from flake8_tensorcopy import lint_source
        from flake8_tensorcopy.semantic import index as project
        project.index().max_modules = 0
        texts = [(p, open(p, encoding="utf-8").read()) for p in sys.argv[1:]]
        lint_source(texts[0][1], texts[0][0])  # imports done before the window
        gc.collect()
        gc.disable()
        found = 0
        for path, text in texts:
            found += len(lint_source(text, path))
        project.index().trim()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        ours = sorted({type(o).__module__ + "." + type(o).__qualname__ for o in gc.garbage
                       if isinstance(o, ast.AST)
                       or type(o).__module__.startswith("flake8_tensorcopy")})
        print(found, len(gc.garbage), ours)
    """)
    res = run([sys.executable, "-c", script] + files)
    assert res.returncode == 0, res.stderr
    found, garbage, ours = res.stdout.split(" ", 2)
    assert int(found) > 10
    assert ours.strip() == "[]", ours
    assert int(garbage) == 0


def test_a_definition_outlives_its_module_and_reads_it_again(tmp_path):
    """Definitions reach their module through a weak reference (no cycle). One that another
    module's facts still hold after the index let its module go reads the module again, as an
    import of it would; a module that cannot be read any more defines nothing."""
    import gc

    (tmp_path / "setup.cfg").write_text("[metadata]\nname = p\n")
    lib = tmp_path / "lib.py"
    lib.write_text(textwrap.dedent("""\
        import torch
        from torch import nn


        def make():
            return torch.zeros(3)


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.w = make()

            def forward(self, x):
                return self.w
    """))
    idx = project.ProjectIndex()
    idx.max_modules = 0
    module = idx.load_path(str(lib))
    net = module.defs["Net"]
    forward = net.methods["forward"]
    del module
    idx.trim()
    gc.collect()
    assert not idx._modules  # let go by the index: nothing else holds the module
    # the class still answers, from the module read again
    again = net.module
    assert again.path == os.path.abspath(str(lib))
    assert isinstance(again.defs["Net"], project.ClassFacts)
    assert net.category() == "module"
    assert net.attr("w") is TENSOR
    assert forward.cls is net
    # a method whose class is gone finds the class of that name at that line
    lone = again.defs["Net"].methods["forward"]
    del again, net
    idx.trim()
    gc.collect()
    cls = lone.cls
    assert isinstance(cls, project.ClassFacts) and cls.name == "Net"
    assert cls.attr("w") is TENSOR
    # the file is gone: the module defines nothing, and nothing breaks
    del cls
    idx.trim()
    gc.collect()
    lib.unlink()
    assert lone.module.defs == {}
    assert lone.cls is None
    assert lone.returns() is None


@pytest.mark.parametrize("where", ["lib.py", "lib/__init__.py", "pkg/lib.py"])
def test_a_module_created_later_is_found_once_the_answer_expires(tmp_path, monkeypatch, where):
    """"Not found" answers (and the folder listings behind them) are kept for ``_TTL``, never
    longer: a module written meanwhile, in a folder that did not exist, is read after that."""
    from flake8_tensorcopy.semantic.index import resolve, roots

    root = tmp_path / "p"
    _write(root, "pyproject.toml", "")
    user = USER.replace("from lib", "from pkg.lib") if where.startswith("pkg/") else USER
    user_path = _write(root, "user.py", user)
    assert [d.code for d in lint_source(user, str(user_path))] == ["TEN101"]  # Thing unknown
    if where.startswith("pkg/"):
        _write(root, "pkg/__init__.py", "")
    _write(root, where, OWN_DATA)
    clock = [resolve.time.monotonic()]
    monkeypatch.setattr(resolve.time, "monotonic", lambda: clock[0])
    clock[0] += roots.TTL / 2
    # within the TTL the index may still answer from what it saw: either answer is allowed
    assert [d.code for d in lint_source(user, str(user_path))] in (["TEN101"], [])
    clock[0] += roots.TTL
    assert lint_source(user, str(user_path)) == []  # Thing has its own .data: silent


_NODES_HELD = """
def nodes_held(start):
    # the ast nodes reachable from ``start`` through containers and this package's objects
    import ast, gc
    seen, todo, found = set(), [start], 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, ast.AST):
            found += 1
            continue
        if isinstance(obj, (dict, list, tuple, set, frozenset)) or \\
                type(obj).__module__.startswith("flake8_tensorcopy"):
            todo.extend(gc.get_referents(obj))
    return found
"""


def test_flake8_keeps_facts_and_no_tree_between_files(tmp_path):
    """In flake8's process the index keeps the facts of the modules it read between files,
    but no tree: once the run is over (and after each file), no ``ast`` node is held by the
    index, neither a module's nor the last linted file's, while the cross-module answer was
    given (lib's ``Thing`` has its own ``data``: silent) and lib was read once. The facts of
    the three files linted are kept too, from the trees flake8 parsed (four modules)."""
    root = tmp_path / "p"
    _write(root, "pyproject.toml", "")
    _write(root, "lib.py", OWN_DATA)
    _write(root, "user.py", USER)
    _write(root, "user2.py", USER.replace("def f(", "def f2("))
    _write(root, "z_later.py", "import torch\n\n\ndef g(p):\n    return p.data.clone()\n")
    code = _NODES_HELD + textwrap.dedent("""\
        import ast, sys
        from flake8_tensorcopy.semantic.index import resolve
        reads = []
        real = resolve.ast.parse
        def counted(data, *a, **k):
            if isinstance(data, bytes):
                reads.append(1)
            return real(data, *a, **k)
        resolve.ast.parse = counted
        from flake8.main.cli import main
        try:
            main(sys.argv[1:])
        except SystemExit:
            pass
        idx = resolve.index()
        print("kept", len(idx._modules), idx._recent is None, nodes_held(idx), len(reads))
    """)
    proc = run([sys.executable, "-c", code, "--jobs", "1", "--exit-zero", "--select", "TEN",
                "."], cwd=str(root))
    lines = proc.stdout.splitlines()
    assert lines and lines[-1] == "kept 4 True 0 1", proc.stdout + proc.stderr
    assert not [line for line in lines if "user" in line], proc.stdout
    assert [line.split(": ")[1].split()[0] for line in lines if "z_later.py" in line] == [
        "TEN101"], proc.stdout


def test_what_a_file_read_is_freed_when_its_analysis_ends(tmp_path, monkeypatch):
    """With facts kept and trees not (``keep_facts_only``, flake8's process), the trees one
    file's analysis read are let go when it ends, freed by reference counting: with the
    collector paused all along, none of their nodes is left for it to find, while the
    module's facts stay."""
    import ast
    import gc

    from flake8_tensorcopy.semantic.index import resolve

    _fresh_index(monkeypatch)
    idx = resolve.index()
    idx.keep_facts_only()
    root = tmp_path / "p"
    _write(root, "pyproject.toml", "")
    _write(root, "lib.py", OWN_DATA.replace("class Thing", "class ThingOfLib"))
    user = _write(root, "user.py", USER.replace("Thing", "ThingOfLib"))
    was = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        assert lint_source(user.read_text(), str(user)) == []  # lib was read: silent
        left = [o for o in gc.get_objects() if isinstance(o, ast.ClassDef)
                and o.name == "ThingOfLib"]
        assert left == [] and idx._recent is None
        kept = {os.path.basename(m[2].path): m[2] for m in idx._modules.values()
                if m[2] is not None}
        assert sorted(kept) == ["lib.py", "user.py"]  # the linted file's facts stay too
        assert kept["lib.py"]._tree is None and kept["lib.py"].defs["ThingOfLib"]._node is None
        assert kept["user.py"]._tree is None and kept["user.py"].defs["f"]._node is None
    finally:
        if was:
            gc.enable()


def test_facts_kept_without_their_tree_answer_as_with_it(tmp_path, monkeypatch):
    """A module whose tree was let go (``drop_tree``) reads it again from the same bytes when
    a question needs a node: the answers are those of a module that kept its tree, even when
    the file changed on disk meanwhile (what was read is what is asked)."""
    from flake8_tensorcopy.semantic.index import resolve

    src = textwrap.dedent("""\
        import torch
        from torch import nn
        Base = nn.Module


        class Net(Base):
            def __init__(self):
                super().__init__()
                self.register_buffer("mask", torch.ones(3))
                self.w = nn.Parameter(torch.zeros(3))
                self.n = 3

            @property
            def scale(self):
                return self.w * 2

            def forward(self, x):
                return x * self.w


        def make():
            return torch.zeros(2)


        def fill(t, v):
            t.copy_(v)
    """)
    path = tmp_path / "lib.py"
    path.write_text(src)

    def answers(facts):
        net, make, fill = facts.defs["Net"], facts.defs["make"], facts.defs["fill"]
        return (net.category(), net.attr("mask"), net.attr("w"), net.attr("n"),
                net.method("scale").is_property(), net.method("forward").returns(),
                make.returns(), sorted(map(str, fill.written_params())),
                repr(facts.lookup("Base")), net.own_data, net.has_own_data())

    expected = answers(resolve.ProjectIndex().load_path(str(path)))
    assert expected[0] == "module" and expected[2] is TENSOR and expected[4] is True
    idx = resolve.ProjectIndex()
    idx.keep_facts_only()
    facts = idx.load_path(str(path))
    idx.after_file()
    assert facts._tree is None and facts.defs["Net"]._node is None
    assert facts.defs["Net"].methods["forward"]._node is None
    path.write_text("x = 1\n")  # changed meanwhile: the facts are of the bytes read
    assert answers(facts) == expected
    assert facts._tree is not None  # read again for the questions; let go after the file
    idx.after_file()
    assert facts._tree is None and facts.defs["Net"]._node is None


def test_index_keeps_modules_within_a_count_and_a_size_of_source(tmp_path):
    """Between files the index keeps at most ``max_modules`` modules and, past the most recent
    one, ``max_bytes`` of their source, the least recently used going first; the language
    server keeps more, whatever their size."""
    from flake8_tensorcopy.semantic.index.resolve import ProjectIndex

    paths = {}
    for name, size in (("a", 100), ("b", 100), ("big", 5000), ("c", 100), ("d", 100), ("e", 100)):
        path = tmp_path / f"{name}.py"
        path.write_text("x = 1\n" + "#" * (size - 7) + "\n")
        assert path.stat().st_size == size
        paths[name] = str(path)
    idx = ProjectIndex()
    idx.max_modules, idx.max_bytes = 3, 1000

    def kept_after(*names):
        for name in names:
            assert idx.load_path(paths[name]) is not None
        idx.trim()
        return [os.path.basename(p)[:-3] for p in idx._modules]

    assert kept_after("a", "b") == ["a", "b"]
    # over the size: the older go, the most recent stays whatever its size
    assert kept_after("big") == ["big"]
    # over the count: the least recently used goes
    assert kept_after("c", "d", "e") == ["c", "d", "e"]
    assert kept_after("a") == ["d", "e", "a"]
    idx.keep_warm()
    assert kept_after("big", "b", "c") == ["d", "e", "a", "big", "b", "c"]


def test_call_sites_are_collected_only_for_a_function_whose_parameters_take_them(tmp_path,
                                                                              monkeypatch):
    """A parameter's kind from the call sites is worked out only for a function with a
    parameter that has no annotation and no ``*args``/``**kwargs`` (which take nothing from
    the sites): collecting the call sites is most of that work (issue 23)."""
    from flake8_tensorcopy.semantic.index import evaluate

    src = textwrap.dedent("""\
        import torch


        def annotated(x: torch.Tensor, n: int):
            return x.add_(n)


        def starred(x, *rest):
            return x.add_(1)


        def keywords(x, **kw):
            return x.add_(1)


        def plain(x):
            y = x.data
            return y.add_(1)


        t = torch.zeros(3, requires_grad=True)
        annotated(t, 1)
        starred(t)
        keywords(t)
        plain(t)
    """)
    path = tmp_path / "m.py"
    path.write_text(src)
    collected = []
    real = evaluate.collect_call_sites

    def counting(module, target, spans=None):
        collected.append(target)
        return real(module, target, spans)

    monkeypatch.setattr(evaluate, "collect_call_sites", counting)
    lint_source(src, str(path))
    assert collected == ["plain"]


_LINTED_B = ("import torch\n\nw = torch.zeros(2).clone().detach()\n\n\n"
             "def make():\n    return {value}\n")
_IMPORTER_A = "import torch\nfrom b import make\n\nx = torch.tensor(make())\n"


def _fresh_index(monkeypatch):
    """A new project index for this test."""
    from flake8_tensorcopy.semantic.index import resolve

    monkeypatch.setattr(resolve, "_INDEX", resolve.ProjectIndex())


@pytest.mark.parametrize("policy", ["bounded", "keep_facts_only"])
def test_the_index_reads_what_the_file_holds_not_the_text_last_linted_from_it(
        tmp_path, monkeypatch, policy):
    """A module linted and then changed on disk, or linted from an editor's unsaved text:
    what its importer sees is the file's bytes (in flake8's process too, where the linted
    file's facts are kept for its importers while the file holds the text linted)."""
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = p\n")
    b, a = tmp_path / "b.py", tmp_path / "a.py"
    a.write_text(_IMPORTER_A)

    def fresh():
        _fresh_index(monkeypatch)
        if policy == "keep_facts_only":
            project.index().keep_facts_only()

    fresh()
    # linted as a list, then changed on disk to a tensor: the importer sees the tensor
    b.write_text(_LINTED_B.format(value="[1, 2]"))
    lint_source(b.read_text(), str(b))
    b.write_text(_LINTED_B.format(value="torch.zeros(3)"))
    os.utime(b, ns=(1, 1))  # another mtime whatever the clock's resolution
    assert [d.code for d in lint_source(a.read_text(), str(a))] == ["TEN201"]
    # an editor's unsaved text (a tensor) over a file that returns a list: the file counts
    fresh()
    b.write_text(_LINTED_B.format(value="[1, 2]"))
    lint_source(_LINTED_B.format(value="torch.zeros(3)"), str(b))
    assert lint_source(a.read_text(), str(a)) == []


@pytest.mark.parametrize("first", ["imported", "importer"])
def test_flake8s_process_reads_a_linted_module_once_for_its_importers(
        tmp_path, monkeypatch, first):
    """In flake8's process (``keep_facts_only``) the facts of a file being linted are the
    index's facts of that module while the file holds the text linted: linted before its
    importer, the module is not parsed again for it; read for its importer first, its own
    analysis takes those facts (and what was worked out in them), with the tree it was
    given. Either way the index parses no byte of it, and the answers are the same."""
    from flake8_tensorcopy.semantic.index import resolve

    (tmp_path / "setup.cfg").write_text("[metadata]\nname = p\n")
    b, a = tmp_path / "b.py", tmp_path / "a.py"
    a.write_text(_IMPORTER_A)
    # its own call of ``make`` asks for its facts (an analysis that never asks makes none)
    b.write_text(_LINTED_B.format(value="torch.zeros(3)") + "\n\nv = make()\n")
    _fresh_index(monkeypatch)
    idx = project.index()
    idx.keep_facts_only()
    parsed = []
    real = resolve.ast.parse

    def counted(data, *args, **kwargs):
        if isinstance(data, bytes) and b"def make" in data:
            parsed.append(len(data))  # the whole module read from its bytes
        return real(data, *args, **kwargs)

    monkeypatch.setattr(resolve.ast, "parse", counted)
    order = [b, a] if first == "imported" else [a, b]
    got = {p.name: [d.code for d in lint_source(p.read_text(), str(p))] for p in order}
    assert got == {"a.py": ["TEN201"], "b.py": ["TEN301"]}
    assert parsed == ([] if first == "imported" else [len(b.read_bytes())])
    kept = idx._modules[str(b)][2]
    assert kept is not None and kept.data == b.read_bytes() and kept._tree is None


_A_CALLS_B = "from b import g\n\n\ndef f():\n    return g()\n"
_USER_OF_A = "import torch\nfrom a import f\n\nx = torch.tensor(f())\n"
_B_LIST = "import torch\n\n\ndef g():\n    return [1, 2]\n"
_B_TENSOR = "import torch\n\n\ndef g():\n    return torch.zeros(2)\n"


@pytest.mark.parametrize("policy", ["bounded", "keep_warm", "keep_facts_only"])
@pytest.mark.parametrize("change", ["changed", "created", "created-in-new-package"])
def test_what_kept_modules_worked_out_from_another_is_forgotten_when_it_changes(
        tmp_path, monkeypatch, policy, change):
    """``a.f`` returns what ``b.g`` returns: worked out once and kept with ``a``'s facts. When
    ``b`` changes on disk, or is created where ``a``'s import looks for it, an analysis that
    starts more than ``_TTL`` later sees the new ``b`` through ``a`` too, whatever the index
    keeps between files (the check's bounds, the language server's, flake8's facts)."""
    from flake8_tensorcopy.semantic.index import resolve, roots

    _fresh_index(monkeypatch)
    idx = resolve.index()
    if policy != "bounded":
        getattr(idx, policy)()
    clock = [resolve.time.monotonic()]
    monkeypatch.setattr(resolve.time, "monotonic", lambda: clock[0])
    root = tmp_path / "p"
    _write(root, "pyproject.toml", "")
    package = change == "created-in-new-package"
    _write(root, "a.py", _A_CALLS_B.replace("from b", "from pkg.sub.b") if package else _A_CALLS_B)
    user = _write(root, "user.py", _USER_OF_A)
    b = root / "b.py"
    if change == "changed":
        _write(root, "b.py", _B_LIST)
    assert lint_source(user.read_text(), str(user)) == []  # a list (or nothing known): silent
    if change == "changed":
        before = b.stat().st_mtime_ns
        b.write_text(_B_TENSOR)
        os.utime(b, ns=(before + 10**9, before + 10**9))
    elif package:  # folders that did not exist: the root, where they are created, changes
        _write(root, "pkg/__init__.py", "")
        _write(root, "pkg/sub/__init__.py", "")
        _write(root, "pkg/sub/b.py", _B_TENSOR)
        os.utime(root, ns=(root.stat().st_mtime_ns + 10**9,) * 2)
    else:
        _write(root, "b.py", _B_TENSOR)
        os.utime(root, ns=(root.stat().st_mtime_ns + 10**9,) * 2)
    clock[0] += roots.TTL + 0.1
    assert [d.code for d in lint_source(user.read_text(), str(user))] == ["TEN201"]


def test_the_check_looks_once_at_a_folder_watched_for_many(tmp_path, monkeypatch):
    """Most folders an import looks in do not exist (``src/pickle`` for ``import pickle``): the
    check between files watches the nearest existing parent for each, and looks at a folder
    watched for many once. It once stat'ed each of them: 1,766 on the dense corpus, 5 ms a
    check. Creating one of them is still seen (the test above)."""
    from flake8_tensorcopy.semantic.index import resolve, roots

    _fresh_index(monkeypatch)
    idx = resolve.index()
    clock = [resolve.time.monotonic()]
    monkeypatch.setattr(resolve.time, "monotonic", lambda: clock[0])
    for i in range(50):
        idx._listing(str(tmp_path / "absent" / f"m{i}"))
    idx._listing(str(tmp_path))
    looked = []
    real = resolve.mtime
    monkeypatch.setattr(resolve, "mtime", lambda path: looked.append(path) or real(path))
    clock[0] += roots.TTL + 0.1
    idx.begin()
    idx.end()
    assert sorted(looked) == [str(tmp_path)]  # the parent of ``absent``, and itself


def test_package_homes_list_each_ancestor_once_for_every_name(tmp_path, monkeypatch):
    """Looking for an absolute import's package above the importer (``package_homes``) asks
    each ancestor and its ``src`` for ``<name>/__init__.py``: each folder is listed once for
    every name looked for there (most names, ``numpy``, ``cv2``, are not in it), not once per
    name. It listed ``<ancestor>/<name>`` for each name: 1.6% of the plugin's time on the dense
    corpus. A package found that way is still found."""
    from flake8_tensorcopy.semantic.index import resolve

    _fresh_index(monkeypatch)
    idx = resolve.index()
    deep = tmp_path / "a" / "b" / "c"
    _write(tmp_path / "a", "mypkg/__init__.py", "")
    _write(tmp_path / "a", "mypkg/util.py", "def f():\n    return 1\n")
    importer = str(_write(deep, "script.py", "import mypkg.util\n"))
    listed = []
    real = resolve.os.listdir
    monkeypatch.setattr(resolve.os, "listdir", lambda path: listed.append(path) or real(path))
    names = [f"absent{i}" for i in range(40)]
    for name in names:
        assert idx._homes(importer, name + ".x") == []
    assert len(listed) == len(set(listed)) <= 2 * roots_levels() + 2, listed
    assert idx._homes(importer, "mypkg.util") == [str(tmp_path / "a")]


def roots_levels():
    from flake8_tensorcopy.semantic.index.roots import HOME_LEVELS

    return HOME_LEVELS


def test_project_roots_look_for_markers_only_where_a_folder_lists_them(tmp_path, monkeypatch):
    """The root of a file is its nearest ancestor holding a project marker: the index finds it
    in the listings it keeps, shared by every folder below (40 folders of one project: each
    ancestor listed once, a marker stat-ed only where it is listed), with the answers of a
    search that stats every marker of every ancestor."""
    from flake8_tensorcopy.semantic.index import resolve, roots

    (tmp_path / "setup.cfg").write_text("[metadata]\nname = p\n")
    files = []
    for i in range(40):
        folder = tmp_path / "src" / f"pkg{i % 4}" / f"sub{i}"
        folder.mkdir(parents=True)
        (folder / "m.py").write_text("x = 1\n")
        files.append(str(folder / "m.py"))
    (tmp_path / "src" / "pkg3" / "pyproject.toml").write_text("")
    want = [roots.find_root(f) for f in files]
    assert want.count(str(tmp_path / "src" / "pkg3")) == 10 and want.count(str(tmp_path)) == 30
    stats = []
    real = os.path.exists

    def counted(path):
        stats.append(path)
        return real(path)

    monkeypatch.setattr(roots.os.path, "exists", counted)
    idx = resolve.ProjectIndex()
    assert [idx.root_of(f) for f in files] == want
    # one stat per folder asked about: the marker found (500 before, every marker of every
    # ancestor up to the one holding one)
    assert len(stats) == 40, stats


def test_one_analysis_asks_for_the_working_directory_once(tmp_path, monkeypatch):
    """Roots found through the working directory hold while it does not change: one file's
    analysis looks at it once (``begin``), not at every question about a root (one
    ``getcwd`` per ``root_of``: 0.4% of the plugin's time on the dense corpus). A change
    between analyses still forgets the roots."""
    from flake8_tensorcopy.semantic.index import resolve

    _fresh_index(monkeypatch)
    idx = resolve.index()
    importer = str(_write(tmp_path / "p", "m.py", "x = 1\n"))
    _write(tmp_path / "p", "pyproject.toml", "")
    asked = []
    real = resolve.os.getcwd
    monkeypatch.setattr(resolve.os, "getcwd", lambda: asked.append(1) or real())
    idx.begin()
    for _ in range(100):
        assert idx.root_of(importer) == str(tmp_path / "p")
    idx.end()
    assert len(asked) <= 2
    idx._roots[str(tmp_path / "p")] = "stale"
    monkeypatch.setattr(resolve.os, "getcwd", lambda: str(tmp_path))  # moved
    idx.begin()
    assert idx.root_of(importer) == str(tmp_path / "p")
    idx.end()


def test_the_kept_modules_know_their_total_size():
    """``trim`` reads the kept modules' total size from ``Kept.bytes`` instead of summing every
    entry twice per file: the total stays right through every way the mapping changes."""
    import random

    from flake8_tensorcopy.semantic.index.roots import Kept

    kept, rng = Kept(), random.Random(7)
    for _ in range(2000):
        op, path = rng.randrange(6), f"m{rng.randrange(20)}.py"
        if op <= 1:
            kept[path] = (0, rng.randrange(1000), None)
        elif op == 2:
            kept.pop(path, None)
        elif op == 3 and path in kept:
            del kept[path]
        elif op == 4 and kept:
            kept.popitem(last=rng.random() < 0.5)
        elif op == 5 and path in kept:
            kept.move_to_end(path)
        assert kept.bytes == sum(entry[1] for entry in kept.values())
    kept.clear()
    assert kept.bytes == 0


_ALONE_SOURCES = {
    "plain": (
        "import torch\n\n\n"
        "@decorate(\n    1,\n    2)\n@other\ndef f(x):\n    '''doc\nat column 0\n'''\n"
        "    return x  # trailing\n\n\n"
        "async def g():\n    return torch.zeros(2); y = 1\n\n\n"
        "class Net(Base, metaclass=M):\n    '''doc'''\n\n    @property\n    def w(self):\n"
        "        return self._w \\\n            * 2\n\n    async def run(self): pass\n\n"
        "    class Inner:\n        def m(self):\n            return 1\n\n\n"
        "if TYPE_CHECKING:\n    def hidden(a): return a\nelse:\n    class Alt:\n        def k(self): ...\n"
        "try:\n    @dec\n    def guarded():\n        return 2\nexcept ImportError:\n    pass\n"
        "def last(): return 'é' + \"ü\"  # non-ASCII before the end"),
    "crlf": "import torch\r\n\r\ndef f(x):\r\n    return x\r\n\r\nclass C:\r\n    def m(self):\r\n"
            "        return 1\r\n",
    "cr": "import torch\r\rdef f(x):\r    return x\r\rclass C:\r    def m(self):\r        return 1\r",
    "tabs": "if True:\n\tdef f(x):\n\t\treturn x\n\tclass C:\n\t\tdef m(self):\n\t\t\treturn 1\n",
    "formfeed": "import torch\n\x0c\ndef f(x):\n    return x\n\x0cclass C:\n    def m(self):\n"
                "        return 1\n",
    "unicode lines": "s = 'a\u2028b'\n\ndef f(x):\n    '''\u2028\x0b\x1c'''\n    return x\n",
    "declared utf-8": "#!/usr/bin/env python\n# -*- coding: UTF8 -*-\ndef f():\n    return 'café'\n\n\n"
                      "class C:\n    def m(self):\n        return 1\n",
}


def _read_and_let_go(tmp_path, data):
    """An index as flake8's process keeps it, the facts of module ``data`` read and its tree
    let go, and the whole tree ``ast`` gives for the same bytes."""
    import ast

    from flake8_tensorcopy.semantic.index import resolve

    path = tmp_path / "lib.py"
    path.write_bytes(data)
    idx = resolve.ProjectIndex()
    idx.keep_facts_only()
    facts = idx.load_path(str(path))
    idx.after_file()
    return idx, facts, ast.parse(data)


def _defs_with_nodes(facts, tree):
    import ast

    by_place = {(type(n), n.name, n.lineno): n for n in ast.walk(tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    for d in facts.defs.values():
        found = [d] + list(getattr(d, "methods", {}).values())
        for one in found:
            yield one, [n for (t, name, line), n in by_place.items()
                        if name == one.name and line == one._line]


@pytest.mark.parametrize("name", sorted(_ALONE_SOURCES))
def test_a_definition_read_again_alone_is_the_node_the_whole_tree_holds(tmp_path, name):
    """Once the tree was let go, a definition asked for its node reads only its own lines
    (``ModuleFacts._read_alone``: a function's return shape, a class's bases must not cost the
    whole module again), and gets the node the whole tree holds: the same fields, lines and
    columns (decorators over several lines, methods, definitions in ``if``/``try`` blocks,
    docstrings at column 0, tabs, CRLF, CR and form feeds, non-ASCII text, no newline at the
    end, line breaks ``ast`` does not count)."""
    import ast

    idx, facts, tree = _read_and_let_go(tmp_path, _ALONE_SOURCES[name].encode("utf-8"))
    asked = 0
    for d, same in _defs_with_nodes(facts, tree):
        assert len(same) == 1, (d, same)
        assert facts._tree is None
        node = facts.node_of(d)
        assert ast.dump(node, include_attributes=True) == \
            ast.dump(same[0], include_attributes=True), d
        assert facts._tree is None, f"{d}: the whole module was read again"
        asked += 1
    assert asked == {"plain": 8, "unicode lines": 1}.get(name, 3)
    idx.after_file()
    assert all(d._node is None for d in facts.defs.values())


@pytest.mark.parametrize("head", [
    b"# -*- coding: latin-1 -*-\n", b"#!/usr/bin/env python\n# vim: set fileencoding=latin-1 :\n",
    b"# coding=latin-1\n# coding: utf-8\n", b"\xef\xbb\xbf"])
def test_a_definition_whose_text_may_not_be_its_bytes_is_read_with_the_whole_tree(tmp_path, head):
    """Where the UTF-8 text may not stand for what ``ast`` reads from the bytes (an encoding
    declaration, a byte order mark), a definition is read again with the whole tree: the
    same node either way."""
    import ast

    _, facts, tree = _read_and_let_go(tmp_path, head + b"def f():\n    return 'caf\xc3\xa9'\n\n\n"
                                      b"class C:\n    def m(self):\n        return 1\n")
    for d, same in _defs_with_nodes(facts, tree):
        assert ast.dump(facts.node_of(d), include_attributes=True) == \
            ast.dump(same[0], include_attributes=True), d
    assert facts._tree is not None


def test_every_definition_of_this_package_reads_alone_as_in_the_whole_tree(tmp_path):
    """Real code: every top-level definition and method of every module of this package, read
    again alone after its module's tree was let go, is the node ``ast`` gives in the whole
    module, fields and positions (6,765 definitions of the dense corpus, this package,
    ``torch.nn`` and ``torch.optim`` were compared the same way when this was written)."""
    import ast

    from flake8_tensorcopy.semantic.index import resolve

    package = os.path.dirname(flake8_tensorcopy.__file__)
    compared = 0
    for folder, _, names in os.walk(package):
        for name in sorted(n for n in names if n.endswith(".py")):
            path = os.path.join(folder, name)
            with open(path, "rb") as fh:
                tree = ast.parse(fh.read())
            idx = resolve.ProjectIndex()
            idx.keep_facts_only()
            facts = idx.load_path(path)
            idx.after_file()
            for d, same in _defs_with_nodes(facts, tree):
                node = facts._read_alone(d)
                assert node is not None, d
                assert any(ast.dump(node, include_attributes=True) ==
                           ast.dump(n, include_attributes=True) for n in same), d
                compared += 1
            assert facts._tree is None
            idx.after_file()
    assert compared > 1000


_ATTRS_SOURCE = (
    "import torch\n\n\n"
    "class Net(torch.nn.Module):\n"
    "    def __init__(self, n):\n"
    "        self.a = torch.zeros(n)\n"
    "        self.register_buffer('buf', torch.ones(n))\n"
    "        self.register_buffer('empty', None)\n"
    "        self.count = 0\n\n"
    "    def reset(self):\n"
    "        self.b = torch.ones(2)\n"
    "        self.count = 1\n\n"
    "    def grow(me):\n"
    "        me.b = [me.a]\n"
    "        if me.count:\n"
    "            me.data = me.a.clone()\n\n"
    "    def forward(self, x):\n"
    "        return x * self.a\n")


@pytest.mark.parametrize("first", ["a", "buf", "none"])
def test_an_attribute_asked_after_the_tree_was_let_go_reads_only_the_methods_binding_it(
        tmp_path, first):
    """Once a class's methods were scanned for ``self.x = ...`` and the tree let go, the
    class keeps which methods bind which attribute and what each buffer is: an attribute
    asked in a later file reads again only the methods binding it (none for a buffer or an
    attribute no method binds), and its shape is the one a fresh index gives."""
    from flake8_tensorcopy.semantic.index import facts as facts_mod
    from flake8_tensorcopy.semantic.index import resolve

    def shapes(cls):
        return {name: cls.attr(name) for name in ("a", "b", "count", "buf", "empty", "data",
                                                  "zz")}

    fresh_idx = resolve.ProjectIndex()
    (tmp_path / "lib.py").write_text(_ATTRS_SOURCE)
    expected = shapes(fresh_idx.load_path(str(tmp_path / "lib.py")).defs["Net"])

    idx, facts, _ = _read_and_let_go(tmp_path, _ATTRS_SOURCE.encode())
    net = facts.defs["Net"]
    if first != "none":
        net.attr(first)  # a first file asks one attribute: every method is scanned
    net.base_shape(0)  # (what the base is stays known too: an attribute no method binds asks it)
    idx.after_file()
    read = []
    real = facts_mod.ModuleFacts._read_alone

    def counted(self, d):
        read.append(d.name)
        return real(self, d)

    facts_mod.ModuleFacts._read_alone = counted
    try:
        net._attrs = {}  # the shapes worked out are forgotten (the scan's findings are not)
        got = {}
        for name in ("zz", "buf", "empty", "a", "count", "data", "b"):
            del read[:]
            got[name] = net.attr(name)
            if first == "none":
                continue
            want = {"zz": [], "buf": [], "empty": [], "b": ["reset", "grow"],
                    "data": ["grow"], "a": ["__init__"], "count": ["__init__", "reset"]}[name]
            assert read == want, (name, read)
            idx.after_file()
        assert net.own_data
    finally:
        facts_mod.ModuleFacts._read_alone = real
    assert got == expected
    assert {k: str(v) for k, v in expected.items()}["buf"] != "None"
    assert expected["empty"] is None and expected["zz"] is None


def test_the_folder_of_the_file_whose_imports_are_resolved_is_worked_out_once(tmp_path,
                                                                              monkeypatch):
    """Each import of a file asks where the file is (its absolute folder: where absolute
    imports are looked for first, its root, its package homes): worked out once per analysis
    (``ProjectIndex.folder_of``), not once per import and question."""
    (tmp_path / "helpers.py").write_text("import torch\n\n\ndef make():\n"
                                         "    return torch.zeros(2)\n")
    src = "".join(f"import mod{i}\n" for i in range(30)) + (
        "import torch\nfrom helpers import make\n\n\ndef f(w: torch.Tensor):\n"
        + "".join(f"    a{i} = mod{i}.run(w.data)\n" for i in range(30))
        + "    t = make()\n    return torch.tensor(t)\n")
    path = tmp_path / "main.py"
    path.write_text(src)
    import posixpath

    real = posixpath.abspath
    asked = []

    def counted(p):
        if os.fspath(p).endswith("main.py"):
            asked.append(p)
        return real(p)

    monkeypatch.setattr(os.path, "abspath", counted)
    found = lint_source(src, str(path))
    assert "TEN201" in {d.code for d in found}
    assert 0 < len(asked) <= 10, len(asked)  # 30 imports: 129 before


def test_collecting_call_sites_does_not_evaluate_what_the_callers_return(tmp_path,
                                                                          monkeypatch):
    """A caller walked for the calls it makes (``Evaluator.collect``) is not asked what it
    returns or yields: those values are not evaluated; the sites are the same."""
    from flake8_tensorcopy.semantic.index import evaluate, resolve

    src = ("import torch\n\n\ndef train(model):\n    return model\n\n\n"
           "def main(flag):\n    model = torch.nn.Linear(2, 2)\n    if flag:\n"
           "        return torch.zeros(3).sum().item() + len([1, 2])\n    train(model)\n\n\n"
           "def gen():\n    yield torch.ones(2).abs()\n    train(torch.nn.Linear(1, 1))\n")
    path = tmp_path / "m.py"
    path.write_text(src)
    evaluated = []
    real = evaluate.Evaluator.eval

    def counted(self, node):
        evaluated.append(node)
        return real(self, node)

    monkeypatch.setattr(evaluate.Evaluator, "eval", counted)
    facts = resolve.ProjectIndex().load_path(str(path))
    assert set(facts.param_shapes("train")) == {"model"}
    lines = {getattr(n, "lineno", None) for n in evaluated}
    assert 11 not in lines and 16 not in lines and 12 in lines and 17 in lines, sorted(lines)


def test_flake8s_index_makes_no_digest_and_refuses_dependency_states(tmp_path, monkeypatch):
    """In flake8's process (``keep_facts_only``) nothing asks what an analysis depended on:
    no SHA-256 of what the index reads is made, and ``dependency_states`` says it cannot
    answer instead of answering from the disk now; the results cache's index still makes
    them."""
    from flake8_tensorcopy.semantic.index import resolve

    (tmp_path / "lib.py").write_text("import torch\n\n\ndef make():\n    return torch.zeros(2)\n")
    made = []
    real = resolve.digest
    monkeypatch.setattr(resolve, "digest", lambda data: made.append(len(data)) or real(data))
    for only_facts in (True, False):
        idx = resolve.ProjectIndex()
        if only_facts:
            idx.keep_facts_only()
        assert idx.load_path(str(tmp_path / "lib.py")) is not None
        if only_facts:
            assert not made
            with pytest.raises(RuntimeError):
                idx.dependency_states(str(tmp_path / "lib.py"))
        else:
            assert made


def test_a_field_the_class_body_annotates_is_the_instance_attribute_no_method_binds(tmp_path):
    """``obs: torch.Tensor`` in a dataclass (or any class body): ``instance.obs`` is a tensor
    where no method binds it; a method's ``self.x = ...`` wins over the annotation; a field
    annotated with a non-tensor class is not a tensor; one with no annotation stays unknown."""
    from flake8_tensorcopy.semantic.index import resolve

    (tmp_path / "rec.py").write_text(textwrap.dedent("""\
        from dataclasses import dataclass
        import torch


        @dataclass
        class Rollout:
            obs: torch.Tensor
            steps: int
            seen = 0


        class Mixed:
            x: torch.Tensor

            def __init__(self):
                self.x = [1, 2]
        """))
    facts = resolve.ProjectIndex().load_path(str(tmp_path / "rec.py"))
    assert facts.defs["Rollout"].attr("obs") is TENSOR
    assert facts.defs["Rollout"].attr("steps") is not TENSOR
    assert facts.defs["Rollout"].attr("seen") is None
    assert facts.defs["Mixed"].attr("x") is not TENSOR


def test_call_lines_and_sites_through_a_loop_over_a_display_of_functions(tmp_path):
    """``for fn in (a, b): fn(x)`` calls each function listed (twenty-second session: round 16's
    ``history_buffers.py``): ``call_lines`` holds the loop's call for each, and the call sites
    give each the loop call's arguments; a loop that binds its name again in its body, and a
    display holding anything but plain names, stand for no call."""
    import ast

    from flake8_tensorcopy.semantic.index import resolve

    text = ("import torch\n\n\ndef a(x):\n    return x\n\n\ndef b(x):\n    return x\n\n\n"
            "def c(x):\n    return x\n\n\n"
            "def main():\n    t = torch.zeros(2)\n    for fn in (a, b):\n        fn(t)\n"
            "    for g in [c]:\n        g = print\n        g(t)\n")
    facts = project.ModuleFacts("<t>", ast.parse(text), project.index(), text)
    assert facts.call_lines("a") == facts.call_lines("b") == [19]
    assert facts.call_lines("c") == [22]  # (the text's superset: the rebinding is told later)
    path = tmp_path / "m.py"
    path.write_text(text)
    facts = resolve.ProjectIndex().load_path(str(path))
    assert set(facts.param_shapes("a")) == set(facts.param_shapes("b")) == {"x"}
    assert facts.param_shapes("c") == {}
    mixed = tmp_path / "n.py"
    mixed.write_text(text.replace("(a, b)", "(a, b.__call__)"))
    facts = resolve.ProjectIndex().load_path(str(mixed))
    assert facts.param_shapes("a") == {}
