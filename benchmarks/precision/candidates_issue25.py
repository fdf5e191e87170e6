"""Candidate sites of issue 25's three shapes, found without the linter (purely syntactic).

    python benchmarks/precision/candidates_issue25.py ROOT [--repo OWNER+NAME ...] [--output FILE]

ROOT holds materialised repositories (``<owner>+<name>/``, as `benchmarks/corpora.py materialise`
writes them). Output is CSV: repo folder, path, line, column (1-based), shape. It says where to
look, never whether a site is a bug; labels_issue25.csv says that, one site at a time.

Shapes
  snapshot-binding  a binding (name, attribute, subscript, ``append``) of a shallow state_dict
                    snapshot: ``X.state_dict()``, ``.copy()`` of it, ``dict(...)``,
                    ``OrderedDict(...)``, ``copy.copy(...)``, a dict comprehension over its
                    ``.items()``
  state-dict-call   any other ``X.state_dict()`` call
  overlap-write     ``N[a] = ...N[b]...`` / ``N[a] op= ...N[b]...`` / ``N[a].copy_(N[b])``
                    where both subscripts of the same name hold a slice
  accumulator       inside a ``for``/``while`` loop: ``X += Y``, ``X = X + Y``, ``L.append(Y)``,
                    ``d[k].append(Y)`` where Y is a loss/output-like name (or arithmetic on one),
                    not passed through ``.item()``/``.detach()`` or a Python number conversion
"""
from __future__ import annotations

import argparse
import ast
import csv
import os
import re
import sys
from typing import Iterator, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from candidates import python_sources  # noqa: E402  (round 1's walk of a repository)

FIELDS = ["repo", "path", "line", "column", "shape"]
TENSORISH = re.compile(r"(^|_)(loss|losses|out|outs|output|outputs|pred|preds|prediction|logits?|"
                       r"y_hat|yhat|score|scores|recon|energy)($|_|\d)", re.I)
WRAPPERS = {"dict", "OrderedDict", "copy"}


def _is_state_dict_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "state_dict" and not node.args)


def is_snapshot(value: ast.AST) -> bool:
    if _is_state_dict_call(value):
        return True
    if isinstance(value, ast.Call):
        f = value.func
        if isinstance(f, ast.Attribute) and f.attr == "copy" and _is_state_dict_call(f.value):
            return True
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
        if name in WRAPPERS and len(value.args) == 1 and _is_state_dict_call(value.args[0]):
            return name != "copy" or isinstance(f, ast.Attribute)
    if isinstance(value, ast.DictComp) and len(value.generators) == 1:
        it = value.generators[0].iter
        return (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute)
                and it.func.attr == "items" and _is_state_dict_call(it.func.value))
    return False


def _sliced(sub: ast.AST) -> bool:
    s = sub.slice
    parts = s.elts if isinstance(s, ast.Tuple) else [s]
    return any(isinstance(p, ast.Slice) for p in parts)


def _subscripts_of(node: ast.AST, name: str) -> List[ast.Subscript]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Subscript)
            and isinstance(n.value, ast.Name) and n.value.id == name and _sliced(n)]


def tensorish(expr: ast.AST) -> bool:
    """A loss/output-like name (or attribute), or arithmetic on one, with no conversion."""
    if isinstance(expr, ast.Name):
        return bool(TENSORISH.search(expr.id))
    if isinstance(expr, ast.Attribute):
        return bool(TENSORISH.search(expr.attr))
    if isinstance(expr, ast.BinOp):
        return tensorish(expr.left) or tensorish(expr.right)
    if isinstance(expr, ast.UnaryOp):
        return tensorish(expr.operand)
    return False


class Finder(ast.NodeVisitor):
    def __init__(self) -> None:
        self.loops = 0
        self.out: List[Tuple[int, int, str]] = []
        self.bindings: set = set()

    def add(self, node: ast.AST, shape: str) -> None:
        self.out.append((node.lineno, node.col_offset + 1, shape))

    def visit_For(self, node: ast.AST) -> None:
        self.loops += 1
        self.generic_visit(node)
        self.loops -= 1

    visit_While = visit_AsyncFor = visit_For

    def visit_FunctionDef(self, node: ast.AST) -> None:
        saved, self.loops = self.loops, 0
        self.generic_visit(node)
        self.loops = saved

    visit_AsyncFunctionDef = visit_Lambda = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        if is_snapshot(node.value):
            self.add(node, "snapshot-binding")
            self.bindings.add(id(node.value))
        for t in node.targets:
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and _sliced(t) \
                    and _subscripts_of(node.value, t.value.id):
                self.add(node, "overlap-write")
                break
        if self.loops and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Add) \
                and isinstance(node.value.left, ast.Name) \
                and node.value.left.id == node.targets[0].id and tensorish(node.value.right):
            self.add(node, "accumulator")
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None and is_snapshot(node.value):
            self.add(node, "snapshot-binding")
            self.bindings.add(id(node.value))
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        t = node.target
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and _sliced(t) \
                and _subscripts_of(node.value, t.value.id):
            self.add(node, "overlap-write")
        elif self.loops and isinstance(node.op, ast.Add) and tensorish(node.value):
            self.add(node, "accumulator")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "append" and len(node.args) == 1:
            if is_snapshot(node.args[0]):
                self.add(node, "snapshot-binding")
                self.bindings.add(id(node.args[0]))
            elif self.loops and tensorish(node.args[0]):
                self.add(node, "accumulator")
        if isinstance(f, ast.Attribute) and f.attr == "copy_" and node.args \
                and isinstance(f.value, ast.Subscript) and isinstance(f.value.value, ast.Name) \
                and _sliced(f.value) and _subscripts_of(node.args[0], f.value.value.id):
            self.add(node, "overlap-write")
        if _is_state_dict_call(node) and id(node) not in self.bindings:
            # not the snapshot itself (nor the inner call of a wrapped one)
            self.add(node, "state-dict-call")
        self.generic_visit(node)


def wrapped_calls(tree: ast.AST) -> set:
    """state_dict() calls that are the inner call of a recognised snapshot."""
    inner = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.expr) and not _is_state_dict_call(n) and is_snapshot(n):
            for m in ast.walk(n):
                if _is_state_dict_call(m):
                    inner.add((m.lineno, m.col_offset + 1))
    return inner


def sites(source: bytes) -> Iterator[Tuple[int, int, str]]:
    tree = ast.parse(source)
    f = Finder()
    f.visit(tree)
    inner = wrapped_calls(tree)
    snap_lines = {ln for ln, _, s in f.out if s == "snapshot-binding"}
    for line, col, shape in sorted(set(f.out)):
        if shape == "state-dict-call" and ((line, col) in inner or line in snap_lines):
            continue
        yield line, col, shape


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("--repo", action="append", help="only this <owner>+<name> folder")
    ap.add_argument("--output", "-o")
    args = ap.parse_args(argv)
    repos = args.repo or sorted(d for d in os.listdir(args.root)
                                if os.path.isdir(os.path.join(args.root, d)))
    rows = []
    for repo in repos:
        for rel, src in python_sources(os.path.join(args.root, repo)):
            try:
                found = list(sites(src))
            except (SyntaxError, ValueError):
                continue
            rows += [dict(repo=repo, path=rel, line=ln, column=c, shape=s)
                     for ln, c, s in found]
    out = open(args.output, "w", newline="") if args.output else sys.stdout
    w = csv.DictWriter(out, FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    if args.output:
        out.close()
    counts: dict = {}
    for r in rows:
        counts[r["shape"]] = counts.get(r["shape"], 0) + 1
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"{len(rows)} candidate sites: {summary}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
