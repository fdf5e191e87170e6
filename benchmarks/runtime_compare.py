"""`tensorcopy trace --compare` on real training scripts from public repositories.

    python benchmarks/runtime_compare.py --root CHECKOUTS [--output FILE]

The scripts are not part of this repository. Check them out at the pinned commits below (for
example from the `fetch` mirror: ``git clone --no-checkout --shared MIRROR DIR`` then
``git -C DIR checkout COMMIT -- PATHS``) into ``ROOT/<name>``. Each script runs in a scratch
copy of its directory, on data it generates itself or that this driver generates (no network):
a random word corpus for ``word_language_model``. ``matplotlib`` is replaced by a stub that
accepts every call (the tutorials plot; plotting is not what is measured). Not part of the
test suite.

For each script the report counts runtime sites also flagged by ``check``, runtime-only sites,
static diagnostics on lines that ran without showing the pattern, and static diagnostics on
lines that never ran (in the files that ran); then lists every site that only one side saw.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

REPOS = {
    "examples": ("https://github.com/pytorch/examples", "77f55b912142e11fcfdf5b530231fb9c52f181e8"),
    "morvan": ("https://github.com/MorvanZhou/PyTorch-Tutorial",
               "dbe154a9e56635e51c6b0c2ccea8ae36cfb585a7"),
}

# (repo, directory, script, arguments, preparation)
SCRIPTS = [
    ("examples", "regression", "main.py", [], None),
    ("examples", "time_sequence_prediction", "train.py", ["--steps", "1"], "sine"),
    ("examples", "word_language_model", "main.py",
     ["--data", "corpus", "--epochs", "1", "--emsize", "16", "--nhid", "16", "--bptt", "10",
      "--batch_size", "8", "--log-interval", "50", "--save", "model.pt"], "corpus"),
    ("examples", "word_language_model", "main.py",
     ["--data", "corpus", "--model", "Transformer", "--epochs", "1", "--emsize", "16",
      "--nhid", "16", "--nhead", "2", "--bptt", "10", "--batch_size", "8", "--log-interval",
      "50", "--save", "model.pt"], "corpus"),
] + [("morvan", "tutorial-contents", f"{name}.py", [], None) for name in (
    "201_torch_numpy", "202_variable", "203_activation", "301_regression", "302_classification",
    "303_build_nn_quickly", "304_save_reload", "305_batch_train", "306_optimizer",
    "403_RNN_regressor", "406_GAN", "406_conditional_GAN", "501_why_torch_dynamic_graph",
    "503_dropout", "504_batch_normalization")]

MPL_STUB = '''"""A stand-in for matplotlib: every attribute and call returns another stand-in."""
class _Any:
    def __call__(self, *a, **k):
        return _Any()
    def __getattr__(self, name):
        return _Any()
    def __getitem__(self, key):
        return _Any()
    def __iter__(self):
        return iter((_Any(), _Any()))
def __getattr__(name):
    return _Any()
'''


def prepare(kind, work: str) -> None:
    if kind == "sine":
        subprocess.run([sys.executable, "generate_sine_wave.py"], cwd=work, check=True,
                       capture_output=True, timeout=300)
    elif kind == "corpus":
        rng = random.Random(0)
        words = [f"w{i}" for i in range(60)]
        os.makedirs(os.path.join(work, "corpus"), exist_ok=True)
        for name, n in (("train.txt", 400), ("valid.txt", 60), ("test.txt", 60)):
            with open(os.path.join(work, "corpus", name), "w") as fh:
                for _ in range(n):
                    fh.write(" ".join(rng.choice(words) for _ in range(12)) + "\n")


def run_one(root: str, stub: str, repo: str, folder: str, script: str, args: List[str],
            prep, timeout: int, fast: bool = False) -> dict:
    src = os.path.join(root, repo, folder)
    work = tempfile.mkdtemp(prefix=f"tc-{repo}-")
    dst = os.path.join(work, folder)
    shutil.copytree(src, dst)
    prepare(prep, dst)
    out = os.path.join(work, "report.json")
    # time_sequence_prediction saves a NumPy array with torch.save: torch >= 2.6 loads only
    # weights by default, so let torch.load read it as the script expects
    env = dict(os.environ, PYTHONPATH=stub + os.pathsep + ROOT, MPLBACKEND="Agg",
               TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD="1")
    # --fail-on-findings: the exit column keeps its meaning (1 with findings, 0 without, or the
    # script's own failure); by default `trace` exits with the program's own status
    cmd = [sys.executable, "-m", "flake8_tensorcopy", "trace", "--compare", "--fail-on-findings",
           *(["--fast"] if fast else []), "--output-format", "json", "--output", out, script,
           *args]
    try:
        res = subprocess.run(cmd, cwd=dst, env=env, capture_output=True, text=True,
                             timeout=timeout)
        status = res.returncode
        tail = res.stderr.strip().splitlines()[-1:] if res.returncode not in (0, 1) else []
    except subprocess.TimeoutExpired:
        status, tail = "timeout", []
    items = json.load(open(out)) if os.path.exists(out) and os.path.getsize(out) else []
    for it in items:
        path = it["filename"]
        path = path if os.path.isabs(path) else os.path.join(dst, path)
        it["filename"] = os.path.relpath(path, work)
    shutil.rmtree(work, ignore_errors=True)
    runtime = [i for i in items if i["source"] == "runtime"]
    return {
        "script": f"{repo}/{folder}/{script} {' '.join(args)}".strip(),
        "status": status, "error": tail,
        "both": [i for i in runtime if i.get("static")],
        "runtime_only": [i for i in runtime if not i.get("static")],
        "static_only_ran": [i for i in items if i["source"] == "static" and i["ran"]],
        "static_not_run": sum(1 for i in items if i["source"] == "static" and not i["ran"]),
    }


def render(rows: List[dict]) -> str:
    out = ["| script | exit | runtime sites | also flagged by check | runtime only | "
           "static, line ran, not seen | static, line never ran |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    tot = [0, 0, 0, 0, 0]
    for r in rows:
        n = len(r["both"]) + len(r["runtime_only"])
        vals = [n, len(r["both"]), len(r["runtime_only"]), len(r["static_only_ran"]),
                r["static_not_run"]]
        tot = [a + b for a, b in zip(tot, vals)]
        out.append(f"| `{r['script']}` | {r['status']} | " + " | ".join(map(str, vals)) + " |")
    out.append("| **total** | | " + " | ".join(f"**{v}**" for v in tot) + " |")
    out += ["", "Runtime-only sites (the static linter missed them):", ""]
    for r in rows:
        for i in r["runtime_only"]:
            obs = i["observed"][0] if i["observed"] else {}
            out.append(f"- `{i['filename']}:{i['location']['row']}` {i['code']} x{i['count']} "
                       f"({obs.get('dtype')}, rg={obs.get('requires_grad')}): {i.get('message', '')}")
    out += ["", "Static diagnostics on lines that ran without the pattern:", ""]
    for r in rows:
        for i in r["static_only_ran"]:
            out.append(f"- `{i['filename']}:{i['location']['row']}` {i['code']}: {i.get('message', '')}")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="directory holding the checkouts")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--only", help="run only scripts whose name contains this")
    ap.add_argument("--output", help="write the markdown report here")
    ap.add_argument("--fast", action="store_true",
                    help="trace with the watcher's fast mechanism (`tensorcopy trace --fast`)")
    args = ap.parse_args(argv)
    stub = tempfile.mkdtemp(prefix="tc-stub-")
    os.makedirs(os.path.join(stub, "matplotlib"))
    for name in ("__init__.py", "pyplot.py", "cm.py"):
        with open(os.path.join(stub, "matplotlib", name), "w") as fh:
            fh.write(MPL_STUB)
    commits: Dict[str, str] = {}
    for name, (url, commit) in REPOS.items():
        head = subprocess.run(["git", "-C", os.path.join(args.root, name), "rev-parse", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        if head != commit:
            print(f"runtime_compare: {name}: expected {url} at {commit}, found {head or 'nothing'}",
                  file=sys.stderr)
            return 2
        commits[name] = commit
    rows = []
    for repo, folder, script, sargs, prep in SCRIPTS:
        if args.only and args.only not in f"{folder}/{script}":
            continue
        row = run_one(args.root, stub, repo, folder, script, sargs, prep, args.timeout,
                      args.fast)
        print(f"{row['script']}: exit {row['status']}, {len(row['both'])} both, "
              f"{len(row['runtime_only'])} runtime only, {len(row['static_only_ran'])} static "
              f"only (ran), {row['static_not_run']} static (never ran) {row['error']}",
              file=sys.stderr)
        rows.append(row)
    head = "\n".join(f"- {REPOS[n][0]} at `{c}`" for n, c in commits.items())
    text = head + "\n\n" + render(rows)
    print(text)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    shutil.rmtree(stub, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
