"""Shared helpers: marker parsing and statement lookup (AST based)."""
import ast, os, re

MARK_RE = re.compile(r"#\s*(expect: (TEN40[23])|ok|either: (TEN40[23]))\s*$")


def markers(path):
    """Return [(lineno, kind)] where kind in expect/ok/either."""
    out = []
    with open(path) as fh:
        for i, line in enumerate(fh, 1):
            m = MARK_RE.search(line.rstrip("\n"))
            if m:
                kind = m.group(1).split(":")[0]
                out.append((i, kind))
    return out


def stmt_at(tree, lineno):
    """Innermost simple statement starting at lineno (or any stmt)."""
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == lineno:
            if best is None or (node.end_lineno - node.lineno) <= (best.end_lineno - best.lineno):
                best = node
    return best


def program_units(setdir):
    """Yield (name, files, run_spec). run_spec: ('path', file) or ('mod', pkgparent, modname)."""
    units = []
    for entry in sorted(os.listdir(setdir)):
        p = os.path.join(setdir, entry)
        if entry.endswith(".py"):
            units.append((entry, [p], ("path", p)))
        elif os.path.isdir(p) and os.path.exists(os.path.join(p, "main.py")):
            files = sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".py"))
            units.append((entry, files, ("mod", setdir, entry + ".main")))
    return units
