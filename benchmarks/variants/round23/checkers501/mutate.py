#!/usr/bin/env python
"""Mutation check for check.py: copy the set, break a few labels / programs,
and confirm the checker reports a DISAGREE on exactly the mutated lines."""
import os, re, shutil, subprocess, sys

SRC = "/tmp/r23/ten501"
DST = "/tmp/r23/checkers501/mut_root"
HERE = os.path.dirname(os.path.abspath(__file__))

# (file, old, new, description)
MUTATIONS = [
    ("p01_basic_loop.py", "running_loss += loss  # expect: TEN501", "running_loss += loss  # ok",
     "flip expect -> ok"),
    ("p05_gan.py", "pool.append(fake.detach())  # ok", "pool.append(fake.detach())  # expect: TEN501",
     "flip ok -> expect"),
    ("p04_vae.py", "kl_hist.append(kl)  # expect: TEN501", "kl_hist.append(kl.detach())  # expect: TEN501",
     "add .detach() at expect site"),
    ("p15_contrastive.py", "bank.push(z1)  # expect: TEN501", "bank.push(z1.detach())  # expect: TEN501",
     "add .detach() at expect site (helper class)"),
    ("trainkit/engine.py", 'tracker.update("loss", loss)  # expect: TEN501',
     'tracker.update("loss", loss.detach())  # expect: TEN501', "add .detach() in package engine"),
    ("p31_row_logger.py", 'logger_ok.log_dict({"loss": loss.item(), "lr": lr})  # ok',
     'logger_ok.log_dict({"loss": loss, "lr": lr})  # ok', "remove .item() at ok site"),
    ("p13_replay_buffer.py", "    with torch.no_grad():\n        target = reward",
     "    with torch.enable_grad():\n        target = reward", "no_grad -> enable_grad before ok site"),
    ("p20_partial_lambda.py", "record(loss)  # expect: TEN501", "record(loss.item())  # expect: TEN501",
     "use .item() at partial() expect site"),
]


def main():
    if os.path.exists(DST):
        shutil.rmtree(DST)
    shutil.copytree(SRC, DST, ignore=shutil.ignore_patterns("__pycache__"))
    expected = set()
    for rel, old, new, desc in MUTATIONS:
        p = os.path.join(DST, rel)
        s = open(p).read()
        assert s.count(old) == 1, (rel, old)
        s = s.replace(old, new)
        open(p, "w").write(s)
        # line of the labeled statement that should now disagree
        marker_line = [l for l in new.splitlines() if "#" in l][0] if "#" in new else None
        if marker_line is None:  # mutation changes context; the ok line below it should flip
            marker_line = "target_vals.append(target)  # ok"
        lineno = [i for i, l in enumerate(s.splitlines(), 1) if marker_line.strip() in l]
        if not lineno:
            lineno = [i for i, l in enumerate(s.splitlines(), 1) if "target_vals.append(target)" in l]
        expected.add((rel, lineno[0], desc))
    targets = sorted({("trainkit" if r.startswith("trainkit") else r) for r, _, _, _ in MUTATIONS})
    env = dict(os.environ, OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, os.path.join(HERE, "check.py"), "--fast", "--root", DST] + targets,
                       capture_output=True, text=True, env=env)
    out = r.stdout
    dis = set()
    for l in out.splitlines():
        m = re.match(r"\s+(\S+):(\d+) \[\w+\] DISAGREE", l)
        if m:
            dis.add((m.group(1), int(m.group(2))))
    report = ["MUTATION CHECK (%d mutations)" % len(MUTATIONS)]
    ok = True
    for rel, line, desc in sorted(expected):
        hit = (rel, line) in dis
        ok &= hit
        report.append("  %-8s %s:%d  %s" % ("CAUGHT" if hit else "MISSED", rel, line, desc))
    extra = dis - {(r, l) for r, l, _ in expected}
    for rel, line in sorted(extra):
        ok = False
        report.append("  UNEXPECTED DISAGREE %s:%d" % (rel, line))
    report.append("MUTATION RESULT: %s" % ("all mutations caught, no other disagreements" if ok else "PROBLEM"))
    report.append("---- checker output on mutated copy ----")
    report.append(out)
    text = "\n".join(report)
    print(text)
    with open(os.path.join(HERE, "mutation_results.txt"), "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
