"""Mutation-check the checker: flip a few labels in a copy of the set and make
sure check.py reports a disagreement for every flipped label (and only those)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC = "/tmp/r23/ten402_403"
HERE = os.path.dirname(os.path.abspath(__file__))
# (file, line, new marker)
FLIPS = [
    ("t402_early_stopping.py", 20, "# ok"),             # expect -> ok
    ("t402_shallow_copies.py", 14, "# expect: TEN402"), # ok -> expect
    ("ckptpkg/store.py", 9, "# ok"),                    # expect (in helper module) -> ok
    ("t403_frame_stack.py", 21, "# expect: TEN403"),    # ok -> expect
    ("t403_kv_cache.py", 25, "# ok"),                   # expect -> ok
    ("shiftpkg/buffers.py", 13, "# expect: TEN403"),    # ok (helper module) -> expect
]
MARK = re.compile(r"#\s*(expect|ok|either)(?::\s*TEN40[0-9])?\s*$")

tmp = tempfile.mkdtemp(prefix="mut402_")
root = os.path.join(tmp, "ten402_403")
shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__"))
for rel, line, new in FLIPS:
    p = os.path.join(root, rel)
    lines = open(p).read().split("\n")
    old = lines[line - 1]
    assert MARK.search(old), (rel, line, old)
    lines[line - 1] = MARK.sub(new, old)
    open(p, "w").write("\n".join(lines))
    print(f"flipped {rel}:{line}: {MARK.search(old).group(0)!r} -> {new!r}")
only = sorted({rel.split("/")[0] if "/" in rel else rel for rel, _, _ in FLIPS})
disagree = set()
for o in only:
    r = subprocess.run([sys.executable, os.path.join(HERE, "check.py"), "--root", root, "--only", o],
                       capture_output=True, text=True)
    for ln in r.stdout.splitlines():
        m = re.match(r"DISAGREE (\S+):(\d+)", ln)
        if m:
            disagree.add((m.group(1), int(m.group(2))))
            print(ln)
expected = {(rel, line) for rel, line, _ in FLIPS}
print("flipped:", sorted(expected))
print("reported:", sorted(disagree))
ok = disagree == expected
print("MUTATION CHECK", "PASSED" if ok else "FAILED")
shutil.rmtree(tmp)
sys.exit(0 if ok else 1)
