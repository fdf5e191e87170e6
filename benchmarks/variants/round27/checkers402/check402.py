"""Run-time checker for TEN402 labels.

For every marked site (expect/ok/either) the program is re-run with ONLY that
statement fixed: the snapshot value is wrapped in __snapfix__(...) (deepcopy,
falling back to recursive clone).  expect => stdout must change; ok => stdout
must be identical.  either => recorded only.

usage: python check402.py SETDIR [RESULTS.json]
"""
import ast, json, os, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import markers, stmt_at, program_units

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "runner402.py")
ENV = dict(os.environ, OMP_NUM_THREADS="1", PYTHONHASHSEED="0")


def value_node(stmt):
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.Return)):
        return stmt.value
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        fname = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        if fname in ("heappush", "heappushpop", "heapreplace") and len(call.args) > 1:
            return call.args[1]
        if fname == "save" and call.args:
            return call.args[0]
        if fname == "setattr":
            return call.args[2]
        if call.args:
            return call.args[-1]
        if call.keywords:
            return call.keywords[-1].value
    raise ValueError("no snapshot value in statement %s" % type(stmt).__name__)


def patch_source(src, lineno):
    tree = ast.parse(src)
    stmt = stmt_at(tree, lineno)
    if stmt is None:
        raise ValueError("no statement at line %d" % lineno)
    v = value_node(stmt)
    lines = src.splitlines(keepends=True)
    # operate on bytes per line (col offsets are utf-8 byte offsets)
    blines = [l.encode() for l in lines]
    sl, sc, el, ec = v.lineno - 1, v.col_offset, v.end_lineno - 1, v.end_col_offset
    if sl == el:
        b = blines[sl]
        blines[sl] = b[:sc] + b"__snapfix__(" + b[sc:ec] + b")" + b[ec:]
    else:
        blines[el] = blines[el][:ec] + b")" + blines[el][ec:]
        blines[sl] = blines[sl][:sc] + b"__snapfix__(" + blines[sl][sc:]
    return b"".join(blines).decode()


def run(spec, override=None):
    """override: (relpath_in_unit, new_source) or None."""
    tmp = tempfile.mkdtemp(prefix="c402_", dir="/tmp/r27/checkers402/tmp")
    try:
        if spec[0] == "path":
            dst = os.path.join(tmp, os.path.basename(spec[1]))
            shutil.copy(spec[1], dst)
            if override:
                open(dst, "w").write(override[1])
            cmd = [sys.executable, RUNNER, dst]
        else:
            pkg = spec[2].split(".")[0]
            shutil.copytree(os.path.join(spec[1], pkg), os.path.join(tmp, pkg),
                            ignore=shutil.ignore_patterns("__pycache__"))
            if override:
                open(os.path.join(tmp, pkg, override[0]), "w").write(override[1])
            cmd = [sys.executable, RUNNER, "-m", tmp, spec[2]]
        p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120, cwd=tmp)
        return p.returncode, p.stdout, p.stderr[-2000:]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check_unit(unit):
    name, files, spec = unit
    rc, base, err = run(spec)
    res = {"unit": name, "baseline_rc": rc, "sites": []}
    if rc != 0:
        res["error"] = err
        return res
    for f in files:
        src = open(f).read()
        for ln, kind in markers(f):
            site = {"file": os.path.relpath(f, os.path.dirname(os.path.dirname(f)) if spec[0] == "mod" else os.path.dirname(f)),
                    "line": ln, "label": kind}
            try:
                new = patch_source(src, ln)
            except Exception as e:
                site.update(verdict="FAIL", why="patch error: %s" % e)
                res["sites"].append(site)
                continue
            rc2, out2, err2 = run(spec, (os.path.basename(f), new))
            changed = (rc2 != 0) or (out2 != base)
            site["fixed_changes_output"] = changed
            if rc2 != 0:
                site["fixed_rc"] = rc2
                site["fixed_err"] = err2[-300:]
            if kind == "expect":
                site["verdict"] = "PASS" if changed and rc2 == 0 else "FAIL"
            elif kind == "ok":
                site["verdict"] = "PASS" if not changed else "FAIL"
            else:
                site["verdict"] = "INFO"
            res["sites"].append(site)
    return res


def main():
    setdir = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else None
    os.makedirs("/tmp/r27/checkers402/tmp", exist_ok=True)
    units = program_units(setdir)
    only = os.environ.get("ONLY")
    if only:
        units = [u for u in units if u[0] in only.split(",")]
    with ThreadPoolExecutor(int(os.environ.get("JOBS", "2"))) as ex:
        results = list(ex.map(check_unit, units))
    npass = nfail = ninfo = 0
    for r in results:
        if r.get("error"):
            print("ERROR", r["unit"], r["error"][-500:])
            nfail += 1
        for s in r["sites"]:
            tag = s["verdict"]
            npass += tag == "PASS"; nfail += tag == "FAIL"; ninfo += tag == "INFO"
            print("%-4s %-34s %4d %-6s fixed_changes_output=%s %s" % (
                tag, r["unit"] + ":" + s["file"], s["line"], s["label"],
                s.get("fixed_changes_output"), s.get("why", "")))
    print("TOTAL pass=%d fail=%d either_info=%d" % (npass, nfail, ninfo))
    if out:
        json.dump(results, open(out, "w"), indent=1)
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
