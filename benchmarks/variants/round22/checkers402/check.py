#!/usr/bin/env python
"""Run-time confirmation of the TEN402/TEN403 labels in /tmp/r22/ten402_403.

For every `# expect: CODE`, `# either: CODE` and `# ok` line:
  * copy the whole set to a fresh temp dir (plus _ckfix.py),
  * rewrite ONLY the statement that starts on that line with the fix
      TEN402: wrap the snapshot expression in _ckfix.snap(...)   (deep copy)
      TEN403: wrap the slice source in _ckfix.clone(...)         (.clone())
  * run the program (single file: `python pNN.py`; package: `python -m pkg.main`)
  * compare stdout + exit code with the unmodified baseline.
expect -> must change; ok -> must not change; either -> reported only.
"""
import ast
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SET = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/r22/ten402_403")
HERE = Path(__file__).resolve().parent
MARK = re.compile(r"#\s*(?:(expect|either):\s*(TEN40[23])|(ok))\s*$")
LAST_ARG_FUNCS = {"setattr", "heappush", "heappushpop", "heapreplace", "insert"}


def program_files():
    out = sorted(SET.glob("p*.py"))
    for pkg in sorted(SET.glob("pkg_*")):
        out += sorted(pkg.glob("*.py"))
    only = os.environ.get("CK_ONLY")  # optional comma-separated prefixes, for iterating
    if only:
        out = [f for f in out if any(str(f.relative_to(SET)).startswith(p) for p in only.split(","))]
    return out


def run_target(path):
    rel = path.relative_to(SET)
    if len(rel.parts) == 1:
        return [sys.executable, rel.name]
    return [sys.executable, "-m", f"{rel.parts[0]}.main"]


def collect():
    marks = []
    for f in program_files():
        for i, line in enumerate(f.read_text().splitlines(), 1):
            m = MARK.search(line)
            if m:
                kind = m.group(1) or "ok"
                marks.append({"file": str(f.relative_to(SET)), "line": i, "kind": kind,
                              "code": m.group(2)})
    # rule for ok lines = rule of the file (package: rule of the package)
    unit_rule = {}
    for mk in marks:
        if mk["code"]:
            unit = mk["file"].split("/")[0]
            unit_rule.setdefault(unit, set()).add(mk["code"])
    for mk in marks:
        if mk["code"] is None:
            rules = unit_rule.get(mk["file"].split("/")[0], set())
            mk["code"] = sorted(rules)[0] if len(rules) == 1 else None
    return marks


def stmt_on_line(tree, line):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line:
            if best is None or (node.end_lineno, -node.col_offset) > (best.end_lineno, -best.col_offset):
                best = node
    return best


def targets(stmt, code):
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return)):
        v = stmt.value
        if code == "TEN403" and isinstance(v, ast.Tuple):
            return list(v.elts)
        return [v]
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        fn = call.func
        name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
        if code == "TEN403" and name == "copy_":
            return [call.args[0]]
        if name in LAST_ARG_FUNCS:
            return [call.args[-1]]
        return [call.args[0]]
    raise ValueError(f"unsupported statement {type(stmt).__name__}")


def rewrite(src, line, code):
    tree = ast.parse(src)
    stmt = stmt_on_line(tree, line)
    if stmt is None:
        raise ValueError("no statement starts on this line")
    lines = src.splitlines(keepends=True)
    helper = "snap" if code == "TEN402" else "clone"
    # insert from the back so earlier offsets stay valid
    edits = []
    for t in targets(stmt, code):
        edits.append((t.end_lineno, t.end_col_offset, ")"))
        edits.append((t.lineno, t.col_offset, f"__import__('_ckfix').{helper}("))
    for ln, col, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        b = lines[ln - 1].encode()
        lines[ln - 1] = (b[:col] + text.encode() + b[col:]).decode()
    new = "".join(lines)
    ast.parse(new)
    return new


def run_in_copy(rel_file=None, new_text=None, target=None):
    with tempfile.TemporaryDirectory(prefix="ck402_") as td:
        dst = Path(td) / "set"
        shutil.copytree(SET, dst, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
        shutil.copy(HERE / "_ckfix.py", dst / "_ckfix.py")
        if rel_file is not None:
            (dst / rel_file).write_text(new_text)
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
        if os.environ.get("CK_THREADS", "1") != "default":  # CK_THREADS=default: torch's own choice
            env["OMP_NUM_THREADS"] = os.environ.get("CK_THREADS", "1")
        p = subprocess.run(target, cwd=dst, capture_output=True, text=True, timeout=180, env=env)
        return p.returncode, p.stdout, p.stderr


def main():
    marks = collect()
    files = program_files()
    units = {}
    for f in files:
        units.setdefault(tuple(run_target(f)), f)
    # baselines, run twice to check determinism
    base = {}
    with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        futs = {ex.submit(run_in_copy, None, None, list(t)): (t, k) for t in units for k in (0, 1)}
        res = {}
        for fu in cf.as_completed(futs):
            res[futs[fu]] = fu.result()
    problems = []
    for t in units:
        r0, r1 = res[(t, 0)], res[(t, 1)]
        base[t] = r0
        if r0[0] != 0:
            problems.append(f"BASELINE rc={r0[0]} {' '.join(t[1:])}: {r0[2][-400:]}")
        if r0[:2] != r1[:2]:
            problems.append(f"NONDETERMINISTIC {' '.join(t[1:])}")

    def job(mk):
        f = SET / mk["file"]
        t = tuple(run_target(f))
        if mk["code"] is None:
            return mk, "NO-RULE", ""
        try:
            new = rewrite(f.read_text(), mk["line"], mk["code"])
        except Exception as e:  # noqa: BLE001
            return mk, "REWRITE-FAILED", str(e)
        rc, out, err = run_in_copy(mk["file"], new, list(t))
        if rc != 0:
            return mk, "FIX-CRASHED", err[-300:]
        changed = (out != base[t][1]) or (rc != base[t][0])
        if mk["kind"] == "expect":
            return mk, "CONFIRMED" if changed else "UNCONFIRMED", ""
        if mk["kind"] == "ok":
            return mk, "CONFIRMED" if not changed else "CONTRADICTED", ""
        return mk, "changed" if changed else "unchanged", ""

    results = []
    with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for mk, status, info in ex.map(job, marks):
            results.append({**mk, "status": status, "info": info})
    results.sort(key=lambda r: (r["file"], r["line"]))
    lines = []
    for r in results:
        lines.append(f"{r['file']}:{r['line']}: {r['kind']} {r['code']} -> {r['status']}"
                     + (f"  [{r['info'].strip().splitlines()[-1] if r['info'].strip() else ''}]" if r["info"] else ""))
    summary = {}
    for r in results:
        key = f"{r['kind']} {r['code']}"
        summary.setdefault(key, {}).setdefault(r["status"], 0)
        summary[key][r["status"]] += 1
    report = "\n".join(lines) + "\n\nSUMMARY\n" + "\n".join(
        f"  {k}: {v}" for k, v in sorted(summary.items())) + "\n\nPROGRAM PROBLEMS\n" + (
        "\n".join("  " + p for p in problems) or "  none") + "\n"
    tag = os.environ.get("CK_TAG", "")
    (HERE / f"results{tag}.txt").write_text(report)
    (HERE / f"results{tag}.json").write_text(json.dumps({"results": results, "problems": problems}, indent=1))
    print(report)
    bad = [r for r in results if r["status"] in ("UNCONFIRMED", "CONTRADICTED", "FIX-CRASHED",
                                                   "REWRITE-FAILED", "NO-RULE")]
    sys.exit(1 if bad or problems else 0)


if __name__ == "__main__":
    main()
