"""List every site of the shapes flake8-tensorcopy's rules care about, without the linter.

    python benchmarks/precision/candidates.py CORPUS_DIR [--output FILE] [--repo NAME]

CORPUS_DIR is a folder made by `benchmarks/corpora.py materialise`. Output is CSV with columns
repo, commit, path, line, column, shape (line and column 1-based, as flake8 prints them; the
column is that of the node a diagnostic would start at). This is purely syntactic (`ast`): it says
where to look, never whether a site is a tensor; the labels in labels.csv say that.

Shapes
  data_read              `X.data` read (kept, returned, subscripted for reading...)
  data_member            `X.data.m` / `X.data.m(...)` where m is not an in-place method
  data_inplace           `X.data.m_(...)` (in-place method on `.data`)
  data_subscript_inplace `X.data[i]....m_(...)`
  data_subscript_store   `X.data[i] = v`
  data_augassign         `X.data op= v`, `X.data[i] op= v`
  data_assign            `X.data = v`
  data_arg               `f(X.data)` (passed straight to a call)
  torch_tensor           `torch.tensor(arg, ...)`
  as_tensor              `torch.as_tensor(arg, ...)`
  legacy_ctor            `torch.Tensor(x)`, `torch.FloatTensor(x)`, `torch.cuda.LongTensor(x)`...
  new_tensor             `x.new_tensor(arg)`
  clone_detach           `x.clone().detach()`, `torch.clone(x).detach()`
  like_copy              `torch.empty_like(t).copy_(u)` (also zeros_/ones_like); also the two
                         statements `out = torch.empty_like(t)` then `out.copy_(u)` in a row
                         (the column of the second)
  alias_write            in-place write to a name bound (at some earlier line of the same scope) to
                         `x.detach()` or `x.data`
"""
from __future__ import annotations

import argparse
import ast
import csv
import os
import sys
from typing import Dict, Iterator, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import corpora  # noqa: E402

LEGACY = {"Tensor", "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor",
          "CharTensor", "ShortTensor", "IntTensor", "LongTensor", "BoolTensor"}
LIKE = {"empty_like", "zeros_like", "ones_like"}
FIELDS = ["repo", "commit", "path", "line", "column", "shape"]


def is_inplace(name: str) -> bool:
    return name.endswith("_") and not name.startswith("__")


class Extractor:
    def __init__(self, source: bytes):
        self.lines = source.split(b"\n")
        self.tree = ast.parse(source)
        self.parent: Dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
        self.torch_names, self.torch_members = self._imports()

    def _imports(self) -> Tuple[set, Dict[str, str]]:
        mods, members = set(), {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "torch" or (a.name.startswith("torch.") and a.asname is None):
                        mods.add(a.asname or "torch")
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in (
                    "torch", "torch.cuda"):
                for a in node.names:
                    members[a.asname or a.name] = a.name
        return mods, members

    def col(self, node: ast.AST) -> Tuple[int, int]:
        raw = self.lines[node.lineno - 1][:node.col_offset]
        return node.lineno, len(raw.decode("utf-8", errors="replace")) + 1

    def torch_func(self, func: ast.AST) -> Optional[str]:
        """'tensor' for torch.tensor / an imported `tensor`, 'cuda.FloatTensor' etc."""
        if isinstance(func, ast.Name):
            return self.torch_members.get(func.id)
        parts = []
        while isinstance(func, ast.Attribute):
            parts.append(func.attr)
            func = func.value
        if isinstance(func, ast.Name) and func.id in self.torch_names:
            return ".".join(reversed(parts))
        return None

    def sites(self) -> Iterator[Tuple[int, int, str]]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Attribute) and node.attr == "data":
                yield (*self.col(node), self.data_shape(node))
            elif isinstance(node, ast.Call):
                shape = self.call_shape(node)
                if shape:
                    yield (*self.col(node), shape)
        yield from self.alias_writes()

    def data_shape(self, node: ast.Attribute) -> str:
        p = self.parent.get(node)
        if isinstance(p, ast.Assign) and node in p.targets:
            return "data_assign"
        if isinstance(p, ast.AugAssign) and p.target is node:
            return "data_augassign"
        if isinstance(node.ctx, ast.Store):  # tuple targets, for targets, with-as
            return "data_assign"
        if isinstance(p, ast.Call) and node in p.args or isinstance(p, ast.keyword):
            return "data_arg"
        if isinstance(p, ast.Attribute):
            gp = self.parent.get(p)
            if isinstance(gp, ast.Call) and gp.func is p and is_inplace(p.attr):
                return "data_inplace"
            return "data_member"
        if isinstance(p, ast.Subscript) and p.value is node:
            if isinstance(p.ctx, ast.Store):
                gp = self.parent.get(p)
                return "data_augassign" if isinstance(gp, ast.AugAssign) else "data_subscript_store"
            # X.data[i].m_(...) possibly through further subscripts / attributes
            cur = p
            while True:
                up = self.parent.get(cur)
                if isinstance(up, ast.Subscript) and up.value is cur:
                    cur = up
                    continue
                if isinstance(up, ast.Attribute) and up.value is cur:
                    call = self.parent.get(up)
                    if isinstance(call, ast.Call) and call.func is up and is_inplace(up.attr):
                        return "data_subscript_inplace"
                break
        return "data_read"

    def call_shape(self, node: ast.Call) -> Optional[str]:
        name = self.torch_func(node.func)
        if name == "tensor" and node.args:
            return "torch_tensor"
        if name == "as_tensor" and node.args:
            return "as_tensor"
        if name is not None and name.split(".")[-1] in LEGACY and name.split(".")[0] in (
                name.split(".")[-1], "cuda") and node.args:
            return "legacy_ctor"
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "new_tensor" and node.args:
            return "new_tensor"
        if isinstance(f, ast.Attribute) and f.attr == "detach" and isinstance(f.value, ast.Call):
            inner = f.value
            if isinstance(inner.func, ast.Attribute) and inner.func.attr == "clone" and (
                    not isinstance(inner.func.value, ast.Name)
                    or inner.func.value.id not in self.torch_names):
                return "clone_detach"
            if self.torch_func(inner.func) == "clone":
                return "clone_detach"
        if isinstance(f, ast.Attribute) and f.attr == "copy_" and isinstance(f.value, ast.Call):
            if self.torch_func(f.value.func) in LIKE:
                return "like_copy"
        if isinstance(f, ast.Attribute) and f.attr == "copy_" and isinstance(f.value, ast.Name):
            stmt = self.parent.get(node)
            block = self.parent.get(stmt)
            if isinstance(stmt, ast.Expr) and block is not None:
                for field in ("body", "orelse", "finalbody"):
                    body = getattr(block, field, None)
                    if type(body) is list and stmt in body and body.index(stmt) > 0:
                        prev = body[body.index(stmt) - 1]
                        if isinstance(prev, ast.Assign) and len(prev.targets) == 1 and \
                                isinstance(prev.targets[0], ast.Name) and \
                                prev.targets[0].id == f.value.id and \
                                isinstance(prev.value, ast.Call) and \
                                self.torch_func(prev.value.func) in LIKE:
                            return "like_copy"
        return None

    def alias_writes(self) -> Iterator[Tuple[int, int, str]]:
        scopes = [self.tree] + [n for n in ast.walk(self.tree)
                                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
        for scope in scopes:
            binds: Dict[str, List[Tuple[int, bool]]] = {}
            writes: List[Tuple[str, ast.AST]] = []
            for n in self._scope_nodes(scope):
                if isinstance(n, ast.Assign):
                    alias = self._is_alias(n.value)
                    for t in n.targets:
                        if isinstance(t, ast.Name):
                            binds.setdefault(t.id, []).append((n.lineno, alias))
                elif isinstance(n, (ast.AnnAssign, ast.For)) and isinstance(n.target, ast.Name):
                    binds.setdefault(n.target.id, []).append((n.lineno, False))
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and is_inplace(
                        n.func.attr):
                    root = n.func.value
                    while isinstance(root, ast.Subscript):
                        root = root.value
                    if isinstance(root, ast.Name):
                        writes.append((root.id, n))
                elif isinstance(n, ast.AugAssign):
                    t = n.target
                    while isinstance(t, ast.Subscript):
                        t = t.value
                    if isinstance(t, ast.Name):
                        writes.append((t.id, n))
                elif isinstance(n, ast.Assign):
                    for t in n.targets:
                        if isinstance(t, ast.Subscript):
                            r = t.value
                            while isinstance(r, ast.Subscript):
                                r = r.value
                            if isinstance(r, ast.Name):
                                writes.append((r.id, n))
            for name, w in writes:
                # any earlier alias binding in the scope (a later conditional rebinding may not
                # run: `q = p.data; if half: q = q.float(); q.add_(...)`)
                earlier = [b for b in binds.get(name, []) if b[0] < w.lineno]
                if any(alias for _, alias in earlier):
                    node = w.target if isinstance(w, ast.AugAssign) else w
                    if isinstance(w, ast.Assign):
                        node = w
                    yield (*self.col(node), "alias_write")

    @staticmethod
    def _is_alias(value: ast.AST) -> bool:
        if isinstance(value, ast.Attribute) and value.attr == "data":
            return True
        return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and value.func.attr == "detach" and not value.args)

    @staticmethod
    def _scope_nodes(scope: ast.AST) -> Iterator[ast.AST]:
        stack = list(ast.iter_child_nodes(scope))
        while stack:
            n = stack.pop()
            yield n
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            stack.extend(ast.iter_child_nodes(n))


def python_sources(root: str) -> Iterator[Tuple[str, bytes]]:
    """(path relative to ``root`` with ``/``, bytes) of every ``*.py`` file under ``root``, in a
    fixed order (the candidate lists of both labeling rounds walk repositories so)."""
    for dirpath, dirs, names in os.walk(root):
        dirs.sort()
        for fn in sorted(names):
            if fn.endswith(".py"):
                full = os.path.join(dirpath, fn)
                with open(full, "rb") as fh:
                    yield os.path.relpath(full, root).replace(os.sep, "/"), fh.read()


def extract(corpus: str, repos: List[Dict]) -> List[Dict]:
    rows = []
    for r in repos:
        root = os.path.join(corpus, corpora.slug(r["name"]))
        if not os.path.isdir(root):
            raise corpora.CorpusError(f"{root} is not materialised")
        for rel, src in python_sources(root):
            try:
                ex = Extractor(src)
            except (SyntaxError, ValueError):
                continue  # Python 2 files and the like: no candidate
            for line, col, shape in sorted(set(ex.sites())):
                rows.append(dict(repo=r["name"], commit=r["commit"], path=rel, line=line,
                                 column=col, shape=shape))
    return rows


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--output", "-o")
    ap.add_argument("--repo", action="append", help="only this repository (repeatable)")
    ap.add_argument("--manifest", default=corpora.MANIFEST, help="manifest TOML (default: corpora.toml)")
    args = ap.parse_args(argv)
    try:
        repos = corpora.load_manifest(args.manifest)
        if args.repo:
            repos = [r for r in repos if r["name"] in args.repo]
        rows = extract(args.corpus, repos)
    except (corpora.CorpusError, OSError, corpora.tomllib.TOMLDecodeError) as exc:
        print(f"candidates.py: {exc}", file=sys.stderr)
        return 1
    out = open(args.output, "w", newline="") if args.output else sys.stdout
    w = csv.DictWriter(out, FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    if args.output:
        out.close()
    counts: Dict[str, int] = {}
    for row in rows:
        counts[row["shape"]] = counts.get(row["shape"], 0) + 1
    print(f"{len(rows)} candidate sites: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
