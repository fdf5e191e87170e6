"""The package's layering, as README's "Architecture" draws it: no import cycle among its
modules (lazy imports inside functions count too); front ends reach the engine only through the
door (``lint.diagnose``, ``fixes``); arrows go one way, front ends -> door -> engine -> rules ->
semantic -> syntax; no module imports another module's private name; no module over 700 lines
but the generated torch table."""
import ast
import os

import pytest

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "flake8_tensorcopy")


def _module_name(path):
    rel = os.path.relpath(path, os.path.dirname(PKG))[:-3].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def import_graph(with_names=False):
    """{module: {imported package modules}} from every import statement, at any depth. With
    ``with_names``, also {module: [(imported module, name)]} for every ``from M import name``
    and every ``M.name`` read on a module bound by an import."""
    modules = {}
    for dirpath, _, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                modules[_module_name(path)] = path
    graph = {}
    names = {}
    for name, path in modules.items():
        is_pkg = path.endswith("__init__.py")
        package = name if is_pkg else name.rsplit(".", 1)[0]
        deps = set()
        used = names[name] = []
        bound = {}  # local name -> package module, for ``M.name`` reads
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in bound:
                used.append((bound[node.value.id], node.attr))
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                # ``from pkg import mod`` imports the submodule; ``from mod import name`` the module
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod
                           for a in node.names]
                for a, target in zip(node.names, targets):
                    if target == mod and mod in modules:
                        used.append((mod, a.name))
                    elif target in modules:
                        bound[a.asname or a.name] = target
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname and a.name in modules:
                        bound[a.asname] = a.name
            for t in targets:
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    deps.add(t)
        graph[name] = deps
    return (graph, names) if with_names else graph


def find_cycle(graph):
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle)


def test_cycle_finder_finds_a_planted_cycle():
    graph = import_graph()
    graph["flake8_tensorcopy.engine"] = graph["flake8_tensorcopy.engine"] | {"flake8_tensorcopy.lint"}
    assert find_cycle(graph) is not None


@pytest.mark.parametrize("low", ["flake8_tensorcopy.lint", "flake8_tensorcopy.engine",
                                 "flake8_tensorcopy.semantic.infer", "flake8_tensorcopy.notebook",
                                 "flake8_tensorcopy.fixes", "flake8_tensorcopy.edits",
                                 "flake8_tensorcopy.noqa", "flake8_tensorcopy.semantic.index"])
def test_lower_layers_import_no_front_end(low):
    graph = import_graph()
    seen, todo = set(), [low]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo.extend(graph.get(n, ()))
    front = {n for n in seen if n == "flake8_tensorcopy.cli" or n.startswith(
        ("flake8_tensorcopy.commands", "flake8_tensorcopy.plugin", "flake8_tensorcopy.server",
         "flake8_tensorcopy.runtime"))}
    assert not front, f"{low} reaches front ends {sorted(front)}"


def test_each_command_and_format_is_a_module_named_after_it():
    from flake8_tensorcopy import commands, formats

    for name in commands.NAMES:
        assert os.path.exists(os.path.join(PKG, "commands", f"{name}.py")), name
    for name in formats.NAMES:
        if name != "concise":  # a variant of text
            assert os.path.exists(os.path.join(PKG, "formats", f"{name}.py")), name



# ---- the layers ---------------------------------------------------------------------------------

P = "flake8_tensorcopy."
FRONT = tuple(P + m for m in ("plugin", "cli", "__main__", "codemod", "commands", "server",
                              "runtime", "formats", "verify", "docs", "progress"))
DOOR = (P + "lint", P + "fixes")
#: what a front end may import besides the door: the catalog of rules, configuration, files, the
#: results cache, notebooks, the Diagnostic, ``# noqa``, text helpers (decoding, lines) and
#: atomic writes
FRONT_MAY = DOOR + tuple(P + m for m in (
    "rules", "config", "files", "cache", "notebook", "diagnostics", "noqa", "syntax.source",
    "writes"))


def _in(module, prefixes):
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _package(graph):
    return {m: {d for d in deps if d != "flake8_tensorcopy"} for m, deps in graph.items()}


def layer_violations(graph):
    """Every import that breaks an arrow of README's picture, as 'A -> B: why'."""
    out = []
    for mod, deps in sorted(_package(graph).items()):
        for dep in sorted(deps):
            why = None
            if dep == P + "engine" and mod not in DOOR:
                why = "only lint.py and fixes.py import the engine"
            elif _in(mod, FRONT) and not _in(dep, FRONT) and not _in(dep, FRONT_MAY):
                why = "front ends enter through the door"
            elif not _in(mod, FRONT) and _in(dep, FRONT) and mod != "flake8_tensorcopy":
                why = "nothing imports a front end"
            elif _in(mod, (P + "semantic",)) and _in(dep, (P + "rules", P + "engine", P + "lint",
                                                            P + "fixes", P + "edits")):
                why = "the semantic core knows no rule and no pipeline"
            elif _in(mod, (P + "syntax",)) and not _in(dep, (P + "syntax",)):
                why = "syntax knows no meaning"
            elif _in(mod, (P + "rules",)) and _in(dep, (P + "engine", P + "lint", P + "fixes",
                                                         P + "edits")):
                why = "rules know no pipeline"
            elif mod in (P + "semantic.infer", P + "semantic.scope", P + "semantic.kinds") \
                    and _in(dep, (P + "semantic.index",)):
                why = "the project index is handed to the analysis as a value"
            elif mod in (P + m for m in ("config", "files", "cache", "notebook", "diagnostics",
                                         "noqa")) and _in(dep, (P + "engine", P + "semantic",
                                                               P + "rules", P + "edits")):
                why = "config, files, cache and noqa know no engine"
            if why:
                out.append(f"{mod} -> {dep}: {why}")
    return out


def test_arrows_go_one_way():
    assert layer_violations(import_graph()) == []


@pytest.mark.parametrize("low, high", [
    ("flake8_tensorcopy.server.core", "flake8_tensorcopy.engine"),
    ("flake8_tensorcopy.plugin", "flake8_tensorcopy.semantic.infer"),
    ("flake8_tensorcopy.semantic.infer", "flake8_tensorcopy.rules.base"),
    ("flake8_tensorcopy.syntax.nodes", "flake8_tensorcopy.semantic.kinds"),
    ("flake8_tensorcopy.rules.data", "flake8_tensorcopy.lint"),
    ("flake8_tensorcopy.semantic.infer", "flake8_tensorcopy.semantic.index.facts"),
    ("flake8_tensorcopy.engine", "flake8_tensorcopy.commands.check"),
    ("flake8_tensorcopy.cache", "flake8_tensorcopy.engine"),
    ("flake8_tensorcopy.fixes", "flake8_tensorcopy.server.core"),
])
def test_a_planted_wrong_arrow_is_found(low, high):
    graph = import_graph()
    graph[low] = graph[low] | {high}
    assert any(v.startswith(f"{low} -> {high}:") for v in layer_violations(graph))


def _reach(graph, start):
    seen, todo = set(), [start]
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(graph.get(n, ()))
    return seen


def _imports_torch(module):
    rel = module[len(P):].replace(".", os.sep) if module != "flake8_tensorcopy" else "__init__"
    path = os.path.join(PKG, rel + ".py")
    if not os.path.exists(path):
        path = os.path.join(PKG, rel, "__init__.py")
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "torch" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and not node.level and \
                (node.module or "").split(".")[0] == "torch":
            return True
    return False


@pytest.mark.parametrize("start", ["flake8_tensorcopy.plugin", "flake8_tensorcopy.lint",
                                   "flake8_tensorcopy.fixes", "flake8_tensorcopy.commands.check",
                                   "flake8_tensorcopy.commands.fix", "flake8_tensorcopy.server.core"])
def test_the_lint_path_imports_no_torch_and_no_runtime(start):
    reached = _reach(import_graph(), start)
    assert not {m for m in reached if _in(m, (P + "runtime", P + "verify"))}, start
    assert not [m for m in reached if _imports_torch(m)], start


def private_imports(names):
    """``from M import _x`` / ``M._x`` across modules (dunders and a module's own names aside)."""
    out = []
    for mod, used in sorted(names.items()):
        for target, name in used:
            if target != mod and name.startswith("_") and not name.startswith("__"):
                out.append(f"{mod} uses {target}.{name}")
    return out


def test_no_module_imports_another_modules_private_name():
    _, names = import_graph(with_names=True)
    assert private_imports(names) == []


def test_a_planted_private_import_is_found():
    _, names = import_graph(with_names=True)
    names["flake8_tensorcopy.server.core"].append(("flake8_tensorcopy.noqa", "_PATTERN"))
    assert private_imports(names) == [
        "flake8_tensorcopy.server.core uses flake8_tensorcopy.noqa._PATTERN"]


GENERATED = {os.path.join("semantic", "torch_api", "table.py")}


def test_no_module_over_700_lines():
    long = []
    for dirpath, _, files in os.walk(PKG):
        for f in files:
            path = os.path.join(dirpath, f)
            if f.endswith(".py") and os.path.relpath(path, PKG) not in GENERATED:
                with open(path, encoding="utf-8") as fh:
                    n = sum(1 for _ in fh)
                if n > 700:
                    long.append(f"{os.path.relpath(path, PKG)}: {n}")
    assert long == []


def test_every_module_compiles_without_a_warning():
    """An invalid escape such as ``"\\s"`` in a docstring warns on every Python (a
    SyntaxWarning from 3.12); users running with ``-W error`` would see the plugin fail."""
    import warnings

    roots = [PKG, os.path.join(os.path.dirname(PKG), "tests"),
             os.path.join(os.path.dirname(PKG), "benchmarks")]
    noisy = []
    for root in roots:
        for dirpath, _, files in os.walk(root):
            if ".work" in dirpath.split(os.sep):
                continue
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(dirpath, f)
                    with open(path, encoding="utf-8") as fh:
                        text = fh.read()
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        compile(text, path, "exec")
                    noisy += [f"{os.path.relpath(path, os.path.dirname(PKG))}: {w.message}"
                              for w in caught]
    assert noisy == []
