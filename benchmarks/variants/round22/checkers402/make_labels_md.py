"""Writes /tmp/r22/ten402_403/LABELS.md from the hand-written sections below,
the grep totals (counts.sh) and the checker results (results.txt, results_default_threads.txt)."""
import subprocess
from pathlib import Path

SET = Path("/tmp/r22/ten402_403")
CK = Path("/tmp/r22/checkers402")

totals = subprocess.run(["sh", str(CK / "counts.sh"), str(SET)], capture_output=True, text=True).stdout


def section(path):
    p = CK / path
    if not p.exists():
        return "(not run)\n"
    txt = p.read_text()
    return txt.split("SUMMARY", 1)[1].strip("\n") + "\n"


per_file = []
for f in sorted(SET.glob("p*.py")) + sorted(SET.glob("pkg_*/*.py")):
    rel = f.relative_to(SET)
    txt = f.read_text().splitlines()
    c = lambda pat: sum(1 for line in txt if line.rstrip().endswith(pat))
    per_file.append(f"| {rel} | {c('# expect: TEN402')} | {c('# expect: TEN403')} | "
                    f"{c('# either: TEN402')} | {c('# either: TEN403')} | {c('# ok')} |")

index = (CK / "results.txt").read_text().split("\n\nSUMMARY")[0]

body = (CK / "labels_body.md").read_text()
body = body.replace("@@TOTALS@@", totals.strip())
body = body.replace("@@PERFILE@@", "| file | expect 402 | expect 403 | either 402 | either 403 | ok |\n|---|---|---|---|---|---|\n" + "\n".join(per_file))
body = body.replace("@@RESULTS1@@", section("results.txt"))
body = body.replace("@@RESULTS2@@", section("results_default_threads.txt"))
body = body.replace("@@INDEX@@", index)
(SET / "LABELS.md").write_text(body)
print("wrote", SET / "LABELS.md")
