import os, re, shutil, subprocess, sys, glob
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ten402_403")
W = os.environ.get("WORK", "/tmp/r20-work")

def run(target, cwd):
    if target.endswith(".py") and "/" not in target:
        cmd = ["python", target]
    else:
        cmd = ["python", "-m", target.split("/")[0] + ".main"]
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout

def fix(line):
    m = re.match(r"^(\s*)(.*?)\s+# (expect: TEN40[23]|either)\s*$", line)
    ind, code, tag = m.groups()
    if "assign=True" in code:
        return ind + code.replace("student.state_dict()", "__import__('copy').deepcopy(student.state_dict())"), tag
    if code.startswith("return "):
        return ind + "return __import__('copy').deepcopy(" + code[7:] + ")", tag
    if ".append(" in code and code.endswith(")") and " = " not in code:
        i = code.index(".append(")
        return ind + code[:i] + ".append(__import__('copy').deepcopy(" + code[i+8:-1] + "))", tag
    if ".copy_(" in code:
        i = code.rindex(".copy_(")
        return ind + code[:i] + ".copy_((" + code[i+7:-1] + ").clone())", tag
    if ", count = " in code:
        return ind + code.replace("x[:, :-1], count", "x[:, :-1].clone(), count"), tag
    lhs, rhs = code.split(" = ", 1)
    if "TEN402" in tag or ("either" in tag and ("state_dict" in rhs or "detach" in rhs)):
        return ind + lhs + " = __import__('copy').deepcopy(" + rhs + ")", tag
    return ind + lhs + " = (" + rhs + ").clone()", tag

files = sorted(glob.glob(ROOT + "/p*.py")) + sorted(glob.glob(ROOT + "/pkg_*/*.py"))
for f in files:
    rel = os.path.relpath(f, ROOT)
    target = rel if "/" not in rel else rel
    lines = open(f).read().split("\n")
    sites = [i for i, l in enumerate(lines) if re.search(r"# (expect: TEN40[23]|either)\s*$", l)]
    if not sites:
        continue
    shutil.rmtree(W, ignore_errors=True); shutil.copytree(ROOT, W)
    rc0, out0 = run(target, W)
    for i in sites:
        shutil.rmtree(W, ignore_errors=True); shutil.copytree(ROOT, W)
        new, tag = fix(lines[i])
        mod = lines[:]; mod[i] = new
        open(os.path.join(W, rel), "w").write("\n".join(mod))
        rc1, out1 = run(target, W)
        changed = out1 != out0
        print(f"{rel}:{i+1} [{tag}] rc={rc0}/{rc1} output_changes_when_fixed={changed}")
        if rc1 != 0:
            print("   FIXED VERSION FAILED:", new.strip())
