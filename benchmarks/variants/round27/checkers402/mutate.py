"""Mutation tests for check402.py / check403.py.

Two kinds of mutants, at most one mutated site per program unit, made in a
copy of the set under checkers402/mut/:
  flip  : the label is flipped (expect <-> ok) -> the checker must report FAIL there
  break : the CODE is changed, label kept:
          ok site whose line has `.clone()` -> `.clone()` removed (now aliasing/overlapping)
          expect site -> the snapshot / source is fixed (wrapped in a copy)
          -> the checker must report FAIL there
usage: python mutate.py 402|403 flip|break
"""
import ast, json, os, re, shutil, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import markers, stmt_at, program_units
from check402 import patch_source

HERE = os.path.dirname(os.path.abspath(__file__))
SETROOT = "/tmp/r27/ten402_403"


def fix403_source(src, ln):
    tree = ast.parse(src)
    st = stmt_at(tree, ln)
    if isinstance(st, ast.Assign):
        v = st.value.elts[0] if isinstance(st.value, ast.Tuple) else st.value
    elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
        v = st.value.args[0]
    else:
        raise ValueError("cannot fix")
    lines = src.splitlines(keepends=True)
    l = lines[v.lineno - 1]
    assert v.lineno == v.end_lineno
    lines[v.lineno - 1] = l[:v.col_offset] + "(" + l[v.col_offset:v.end_col_offset] + ").clone()" + l[v.end_col_offset:]
    return "".join(lines)


def main():
    rule, kind = sys.argv[1], sys.argv[2]
    src_set = os.path.join(SETROOT, "ten" + rule)
    dst_root = os.path.join(HERE, "mut", f"{rule}_{kind}")
    shutil.rmtree(dst_root, ignore_errors=True)
    dst_set = os.path.join(dst_root, "ten" + rule)
    shutil.copytree(src_set, dst_set, ignore=shutil.ignore_patterns("__pycache__"))
    mutants = []
    units = program_units(dst_set)
    for ui, (name, files, spec) in enumerate(units):
        if ui % 3 != (0 if kind == "flip" else 1):   # every third unit, different units per kind
            continue
        done = False
        for f in files:
            if done:
                break
            src = open(f).read()
            lines = src.splitlines(keepends=True)
            ms = markers(f)
            if kind == "break" and (ui // 3) % 2 == 0:   # half the units: prefer ok sites with .clone()
                ms = sorted(ms, key=lambda m: not (m[1] == "ok" and ".clone()" in lines[m[0] - 1]))
            for ln, lab in ms:
                line = lines[ln - 1]
                if kind == "flip" and lab in ("expect", "ok"):
                    if lab == "expect":
                        lines[ln - 1] = re.sub(r"# expect: TEN40\d(\s*)$", r"# ok\1", line)
                    else:
                        lines[ln - 1] = re.sub(r"# ok(\s*)$", r"# expect: TEN%s\1" % rule, line)
                    open(f, "w").write("".join(lines))
                    mutants.append(dict(unit=name, file=os.path.relpath(f, dst_set), line=ln,
                                        mutation="label %s -> %s" % (lab, "ok" if lab == "expect" else "expect")))
                    done = True
                    break
                if kind == "break":
                    if lab == "ok" and ".clone()" in line:
                        lines[ln - 1] = line.replace(".clone()", "", 1)
                        open(f, "w").write("".join(lines))
                        mutants.append(dict(unit=name, file=os.path.relpath(f, dst_set), line=ln,
                                            mutation="ok site: .clone() removed"))
                        done = True
                        break
                    if lab == "expect":
                        try:
                            new = patch_source(src, ln) if rule == "402" else fix403_source(src, ln)
                        except Exception:
                            continue
                        open(f, "w").write(new)
                        mutants.append(dict(unit=name, file=os.path.relpath(f, dst_set), line=ln,
                                            mutation="expect site: code fixed (%s)" % ("deepcopy" if rule == "402" else "source cloned")))
                        done = True
                        break
    only = ",".join(sorted(set(m["unit"] for m in mutants)))
    out_json = os.path.join(dst_root, "checker_results.json")
    env = dict(os.environ, ONLY=only)
    p = subprocess.run([sys.executable, os.path.join(HERE, "check%s.py" % rule), dst_set, out_json],
                       capture_output=True, text=True, env=env, cwd=dst_root)
    res = json.load(open(out_json))
    verdicts = {}
    for r in res:
        for s in r["sites"]:
            verdicts[(r["unit"], s["file"].split("/")[-1], s["line"])] = s["verdict"]
    caught = 0
    for m in mutants:
        v = verdicts.get((m["unit"], m["file"].split("/")[-1], m["line"]), "MISSING")
        m["checker_verdict"] = v
        m["caught"] = v == "FAIL"
        caught += m["caught"]
        print("%-7s %-34s %4d %-45s checker=%s" % ("CAUGHT" if m["caught"] else "MISSED", m["file"], m["line"],
                                                 m["mutation"], v))
    other_fail = sum(1 for r in res for s in r["sites"] if s["verdict"] == "FAIL") - caught
    print(f"rule TEN{rule} {kind}: mutants={len(mutants)} caught={caught} other_fails={other_fail}")
    json.dump(mutants, open(os.path.join(dst_root, "mutants.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
