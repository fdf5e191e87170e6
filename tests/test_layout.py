"""The package's layering: no import cycle among its modules (lazy imports inside functions
count too), and the front ends sit above the shared lint step, never below it."""
import ast
import os

import pytest

PKG = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "flake8_tensorcopy")


def _module_name(path):
    rel = os.path.relpath(path, os.path.dirname(PKG))[:-3].replace(os.sep, ".")
    return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel


def import_graph():
    """{module: {imported package modules}} from every import statement, at any depth."""
    modules = {}
    for dirpath, _, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                modules[_module_name(path)] = path
    graph = {}
    for name, path in modules.items():
        is_pkg = path.endswith("__init__.py")
        package = name if is_pkg else name.rsplit(".", 1)[0]
        deps = set()
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
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
            for t in targets:
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    deps.add(t)
        graph[name] = deps
    return graph


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
                                 "flake8_tensorcopy.inference", "flake8_tensorcopy.notebook",
                                 "flake8_tensorcopy.fixes"])
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
