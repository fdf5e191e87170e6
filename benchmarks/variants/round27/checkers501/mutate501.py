"""Build mutants of the labeled programs and re-run the checker on them.

src mutants  (dir mutants/src):  every single-line labeled statement is rewritten in place
   expect -> `with torch.no_grad(): <stmt with every stored value passed through _det()>`
             (the graph is no longer kept: checker must now say NO_GRAPH => disagree with label)
   ok     -> `with torch.enable_grad(): <stmt with .item()/.detach()/.tolist()/float() removed>`
             (the protection is removed: checker must now say KEEPS_GRAPH => disagree), unless
             the value never had a graph (labels, argmax counts, frozen teacher...) -> "equivalent"
flip mutants (dir mutants/flip): for every program, the first expect and the first ok label are
   swapped in the source text; checker must report both as disagreeing.
"""
import ast, os, re, shutil, sys

SRC = "/tmp/r27/ten501"
OUT = "/tmp/r27/checkers501/mutants"
MARK = re.compile(r"\s*#\s*(expect: TEN501|ok|either: TEN501)\s*$")


class Det(ast.NodeTransformer):
    def _wrap(self, e):
        return ast.Call(ast.Name("_det", ast.Load()), [e], [])

    def visit_Call(self, node):
        self.generic_visit(node)
        node.args = [a if isinstance(a, ast.Starred) else self._wrap(a) for a in node.args]
        for k in node.keywords:
            k.value = self._wrap(k.value)
        return node


class Strip(ast.NodeTransformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr in ("item", "detach", "tolist") and not node.args:
            return f.value
        if isinstance(f, ast.Name) and f.id in ("float", "int") and len(node.args) == 1:
            return node.args[0]
        return node


def det_value(st):
    if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        st.value = ast.Call(ast.Name("_det", ast.Load()), [Det().visit(st.value)], [])
        return st
    return Det().visit(st)


def mutate_file(path, mode):
    src = open(path).read()
    lines = src.split("\n")
    tree = ast.parse(src)
    starts = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.stmt):
            p = starts.get(n.lineno)
            if p is None or n.end_lineno - n.lineno < p.end_lineno - p.lineno:
                starts[n.lineno] = n
    log = []
    flipped = {"expect": False, "ok": False}
    for i, line in enumerate(lines, 1):
        m = MARK.search(line)
        if not m:
            continue
        kind = {"expect: TEN501": "expect", "ok": "ok"}.get(m.group(1), "either")
        st = starts[i]
        indent = line[: len(line) - len(line.lstrip())]
        if mode == "flip":
            if kind in ("expect", "ok") and not flipped[kind]:
                flipped[kind] = True
                new_mark = "# ok" if kind == "expect" else "# expect: TEN501"
                lines[i - 1] = line[: m.start()] + "  " + new_mark
                log.append((i, kind, "flipped"))
            continue
        if kind == "either":
            continue
        if st.end_lineno != st.lineno:
            log.append((i, kind, "skipped-multiline"))
            continue
        if kind == "expect":
            body = ast.unparse(det_value(st))
            lines[i - 1] = f"{indent}with torch.no_grad(): {body}  # expect: TEN501"
        else:
            body = ast.unparse(Strip().visit(st))
            lines[i - 1] = f"{indent}with torch.enable_grad(): {body}  # ok"
        log.append((i, kind, "mutated"))
    open(path, "w").write("\n".join(lines))
    return log


def build(mode):
    d = os.path.join(OUT, mode)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(SRC, d, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
    logs = {}
    for root, _, files in os.walk(d):
        for fn in files:
            if fn.endswith(".py"):
                p = os.path.join(root, fn)
                logs[os.path.relpath(p, d)] = mutate_file(p, mode)
    return logs


if __name__ == "__main__":
    import json
    res = {m: build(m) for m in ("src", "flip")}
    json.dump(res, open(os.path.join(OUT, "mutation_plan.json"), "w"), indent=1)
    print({m: sum(len(v) for v in r.values()) for m, r in res.items()})
