"""Candidate sites of TEN404/TEN405/TEN406 (issue 44), found with ``ast`` alone (no linter import).

    python benchmarks/precision/candidates_issue44.py ROOT... [-o candidates.csv]

A candidate is a binding whose value may share storage with another value the code keeps using,
followed in the same scope by an in-place write to either side; labels are written by reading the
code (`labels_issue44.csv`), never by what the linter says. Shapes (column ``shape``):

- ``conversion-write`` (TEN404): ``y = x.cpu()`` / ``x.to(...)`` / ``x.float()`` / ``.double()`` /
  ``.half()`` / ``.long()`` / ``.int()`` / ``.type(...)`` / ``.contiguous()`` /
  ``torch.as_tensor(x)`` / ``x.requires_grad_(False)`` / ``x.reshape(...)``, then an in-place
  write to ``y`` (a method ending in ``_``, an item or slice assignment, an augmented
  assignment) later in the same function or module body.
- ``numpy-bridge-write`` (TEN405): ``t = torch.from_numpy(a)`` / ``torch.as_tensor(a)`` /
  ``n = t.numpy()`` / ``np.asarray(t)``, then an in-place write to either name.
- ``repeated-list`` (TEN406): ``[e] * n`` (or ``n * [e]``) where ``e`` is a call, or a list
  comprehension whose element is a name bound outside it, then an in-place write to an item, or the
  list passed to ``all_gather``/``gather``/``scatter``.
- ``expand-write`` (TEN406): ``e = x.expand(...)`` / ``expand_as`` / ``broadcast_to``, then an
  item assignment or in-place method on ``e``.

Columns: repo, path, line (1-based, the binding), column (1-based), shape, name, write_line.
"""
import argparse
import ast
import csv
import os
import sys

CONVERSIONS = {"cpu", "to", "float", "double", "half", "long", "int", "type", "contiguous",
               "requires_grad_", "reshape", "view_as", "flatten", "squeeze", "bfloat16", "cuda"}
ALIAS_FUNCS = {"as_tensor", "from_numpy", "asarray"}
EXPANDS = {"expand", "expand_as", "broadcast_to"}
COLLECTIVES = {"all_gather", "gather", "scatter", "all_to_all"}


def _name(node):
    return node.id if isinstance(node, ast.Name) else None


def _root_name(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return _name(node)


def _writes_of(nodes):
    """(line, name) of each in-place write among these nodes: name.m_(), name[...] = v, name op= v,
    name[...] op= v; and (line, name) of collective calls receiving name."""
    out = []
    for node in nodes:
        for sub in (node,):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute):
                attr = sub.func.attr
                if attr.endswith("_") and not attr.startswith("_") and attr != "requires_grad_":
                    n = _root_name(sub.func.value)
                    if n:
                        out.append((sub.lineno, n))
                if attr in COLLECTIVES and sub.args:
                    n = _name(sub.args[0])
                    if n:
                        out.append((sub.lineno, n))
            elif isinstance(sub, ast.Assign):
                for t in sub.targets:
                    if isinstance(t, ast.Subscript):
                        n = _root_name(t)
                        if n:
                            out.append((sub.lineno, n))
            elif isinstance(sub, ast.AugAssign):
                n = _root_name(sub.target)
                if n:
                    out.append((sub.lineno, n))
    return out


def _shape_of(value):
    """(shape, source name or None) for a binding's value, or None."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        attr = value.func.attr
        if attr in CONVERSIONS:
            return "conversion-write", _root_name(value.func.value)
        if attr == "numpy":
            return "numpy-bridge-write", _root_name(value.func.value)
        if attr in EXPANDS:
            return "expand-write", _root_name(value.func.value)
        if attr in ALIAS_FUNCS and value.args:
            shape = "conversion-write" if attr == "as_tensor" else "numpy-bridge-write"
            return shape, _root_name(value.args[0])
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        for side in (value.left, value.right):
            if isinstance(side, ast.List) and len(side.elts) == 1 and \
                    isinstance(side.elts[0], (ast.Call, ast.Name, ast.Attribute)):
                return "repeated-list", None
    if isinstance(value, ast.ListComp) and isinstance(value.elt, ast.Name):
        bound = {n.id for g in value.generators for n in ast.walk(g.target)
                 if isinstance(n, ast.Name)}
        if value.elt.id not in bound:
            return "repeated-list", value.elt.id
    return None


def _own_nodes(body):
    """Every node of these statements, not descending into nested functions or classes."""
    stack = [n for n in reversed(body) if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                              ast.ClassDef))]
    while stack:
        node = stack.pop()
        yield node
        for child in reversed(list(ast.iter_child_nodes(node))):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                      ast.Lambda)):
                stack.append(child)


def scan_body(body, repo, path, rows):
    """One scope (a module or function body): each binding of a candidate shape, paired with the
    first later in-place write in the same scope to its name or to its source's name."""
    nodes = list(_own_nodes(body))
    writes = _writes_of(nodes)
    for node in nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = _name(node.targets[0])
        found = _shape_of(node.value)
        if target is None or found is None:
            continue
        shape, source = found
        hits = [ln for ln, n in writes if ln > node.lineno and (n == target or (source and n == source))]
        if hits:
            rows.append((repo, path, node.lineno, node.col_offset + 1, shape, target, min(hits)))
    for node in _nested_scopes(body):
        scan_body(node.body, repo, path, rows)


def _nested_scopes(body):
    """The functions and classes directly nested in this scope (at any statement depth)."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="+")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args(argv)
    rows = []
    for root in args.roots:
        for repo in sorted(os.listdir(root)):
            base = os.path.join(root, repo)
            if not os.path.isdir(base):
                continue
            for dirpath, _, files in os.walk(base):
                for f in sorted(files):
                    if not f.endswith(".py"):
                        continue
                    full = os.path.join(dirpath, f)
                    try:
                        with open(full, "rb") as fh:
                            tree = ast.parse(fh.read())
                    except (SyntaxError, ValueError):
                        continue
                    scan_body(tree.body, repo.replace("+", "/", 1), os.path.relpath(full, base), rows)
    out = sys.stdout if args.output == "-" else open(args.output, "w", newline="")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["repo", "path", "line", "column", "shape", "name", "write_line"])
    w.writerows(sorted(set(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
