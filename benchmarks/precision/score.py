"""Score flake8-tensorcopy against the hand-labeled sites of real PyTorch code.

    python benchmarks/precision/score.py CORPUS_DIR [--write benchmarks/PRECISION.md]
        [--diagnostics FILE.json] [--save-diagnostics FILE.json] [--tolerance 2]
        [--draw-sample N --seed S]

CORPUS_DIR is a folder made by `python benchmarks/corpora.py materialise CORPUS_DIR`. The linter
runs once per repository (`python -m flake8_tensorcopy check --output-format json --jobs 1`, in
the repository's folder, so a project index sees that repository as the project; `--no-cache`
when the CLI has it). Diagnostics are matched to labels by (repo, path, line, column within
--tolerance); each label and each diagnostic is matched at most once (same code first, then the
nearest column).

labels.csv (every candidate site that candidates.py lists, labeled by reading the code):
  expected = TENxxx: a true positive when the linter reports that code there, otherwise a miss
             (and, when it reports another code there, also a false alarm of that code)
  expected = none:   a false alarm when the linter reports anything there
  expected = unknown: not scored
Precision and recall are given per rule family (1xx `.data`, 2xx construction, 3xx order,
4xx alias) and overall. Diagnostics at positions that no label covers are counted and listed
apart ("unlabeled"); the random sample covers those.

diagnostic_sample.csv: diagnostics drawn at random (fixed seed) from what the linter reported
when the sample was drawn, each labeled by reading the code (`reported` is what was reported
then, `expected` what should be reported there, `none` when nothing should). Its precision is
computed over the sampled diagnostics the current linter still reports.
"""
from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import random
import subprocess
import sys
from collections import Counter, defaultdict
from typing import Dict, Iterable, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import corpora  # noqa: E402

LABELS = os.path.join(HERE, "labels.csv")
SAMPLE = os.path.join(HERE, "diagnostic_sample.csv")
FAMILIES = [("1xx", ".data"), ("2xx", "construction"), ("3xx", "copy order"), ("4xx", "alias")]
FIELDS = ["repo", "commit", "path", "line", "column", "shape", "expected", "reason"]
SAMPLE_FIELDS = FIELDS + ["reported"]

Diag = Tuple[str, str, int, int, str]  # repo, path, line, column, code


def family(code: str) -> str:
    return code[3] + "xx"


def cli_has_no_cache(python: str) -> bool:
    out = subprocess.run([python, "-m", "flake8_tensorcopy", "check", "--help"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    return "--no-cache" in out


def linter_identity(python: str) -> str:
    """Where the linter that runs is installed, and its git commit when it is a checkout."""
    out = subprocess.run([python, "-c", "import os, flake8_tensorcopy as m; print(os.path.dirname(m.__file__))"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
    if not out:
        return "flake8_tensorcopy (not importable)"
    sha = subprocess.run(["git", "-C", out, "log", "-1", "--format=%h %s"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", out, "status", "--porcelain", "--", "."], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True).stdout.strip()
    return f"{out}" + (f" at {sha[:80]}" if sha else "") + (" (uncommitted changes)" if dirty else "")


def run_linter(corpus: str, repos: List[Dict], python: str) -> List[Diag]:
    extra = ["--no-cache"] if cli_has_no_cache(python) else []
    diags: List[Diag] = []
    for r in repos:
        folder = os.path.join(corpus, corpora.slug(r["name"]))
        if not os.path.isfile(os.path.join(folder, corpora.MARKER)):
            raise corpora.CorpusError(f"{folder} is not materialised "
                                      f"(run: python benchmarks/corpora.py materialise {corpus})")
        proc = subprocess.run(
            [python, "-m", "flake8_tensorcopy", "check", "--output-format", "json", "--jobs", "1",
             "--exit-zero", *extra, "."], cwd=folder, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        try:
            items = json.loads(proc.stdout or "[]")
        except json.JSONDecodeError:
            raise corpora.CorpusError(f"linter output on {r['name']} is not JSON: "
                                      f"{(proc.stderr or proc.stdout).strip()[-300:]}") from None
        for d in items:
            path = os.path.normpath(d["filename"]).replace(os.sep, "/")
            diags.append((r["name"], path, int(d["location"]["row"]),
                          int(d["location"]["column"]), d["code"]))
    return sorted(set(diags))


def read_csv(path: str) -> List[Dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def match(sites: List[Dict], diags: List[Diag], tol: int, code_key: str
          ) -> Tuple[Dict[int, Diag], List[Diag]]:
    """Pair sites with diagnostics one to one: same line, |column| <= tol; same code first."""
    by_line: Dict[Tuple[str, str, int], List[int]] = defaultdict(list)
    for i, d in enumerate(diags):
        by_line[(d[0], d[1], d[2])].append(i)
    cands = []
    for si, s in enumerate(sites):
        for di in by_line.get((s["repo"], s["path"], int(s["line"])), []):
            dist = abs(diags[di][3] - int(s["column"]))
            if dist <= tol:
                cands.append((diags[di][4] != s.get(code_key), dist, si, di))
    cands.sort()
    used_s, used_d, pairs = set(), set(), {}
    for _, _, si, di in cands:
        if si in used_s or di in used_d:
            continue
        used_s.add(si)
        used_d.add(di)
        pairs[si] = diags[di]
    rest = [d for i, d in enumerate(diags) if i not in used_d]
    return pairs, rest


def ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


class Report:
    def __init__(self, labels: List[Dict], sample: List[Dict], diags: List[Diag], tol: int):
        self.labels = [l for l in labels if l["expected"] != "unknown"]
        self.unknown = len(labels) - len(self.labels)
        pairs, self.unlabeled = match(self.labels, diags, tol, "expected")
        self.tp: Counter = Counter()
        self.fp: Counter = Counter()
        self.fn: Counter = Counter()
        self.misses: List[Tuple[Dict, Optional[str]]] = []
        self.false_alarms: List[Tuple[Dict, str]] = []
        for i, lab in enumerate(self.labels):
            exp = lab["expected"]
            got = pairs.get(i)
            code = got[4] if got else None
            if exp != "none":
                if code == exp:
                    self.tp[family(exp)] += 1
                else:
                    self.fn[family(exp)] += 1
                    self.misses.append((lab, code))
            if code and code != exp:
                self.fp[family(code)] += 1
                self.false_alarms.append((lab, code))
        self.n_diags = len(diags)
        # the random sample of diagnostics
        self.sample = sample
        spairs, _ = match(sample, diags, tol, "reported")
        self.sample_still = 0
        self.sample_right = 0
        self.sample_wrong: List[Tuple[Dict, str]] = []
        for i, s in enumerate(sample):
            got = spairs.get(i)
            if not got or s["expected"] == "unknown":
                continue
            self.sample_still += 1
            if got[4] == s["expected"]:
                self.sample_right += 1
            else:
                self.sample_wrong.append((s, got[4]))
        self.sample_unknown = sum(1 for s in sample if s["expected"] == "unknown")
        sampled = {(s["repo"], s["path"], int(s["line"])) for s in sample}
        self.unlabeled_unsampled = [d for d in self.unlabeled if (d[0], d[1], d[2]) not in sampled]

    def totals(self, fams: Iterable[str]) -> Tuple[int, int, int]:
        fams = list(fams)
        return (sum(self.tp[f] for f in fams), sum(self.fp[f] for f in fams),
                sum(self.fn[f] for f in fams))

    def rows(self) -> List[Tuple[str, int, int, int, int, str, str]]:
        out = []
        for fam, name in FAMILIES:
            tp, fp, fn = self.totals([fam])
            pos = sum(1 for l in self.labels if l["expected"] != "none" and family(l["expected"]) == fam)
            out.append((f"{fam} {name}", pos, tp, fp, fn, ratio(tp, tp + fp), ratio(tp, tp + fn)))
        tp, fp, fn = self.totals(f for f, _ in FAMILIES)
        pos = sum(1 for l in self.labels if l["expected"] != "none")
        out.append(("overall", pos, tp, fp, fn, ratio(tp, tp + fp), ratio(tp, tp + fn)))
        return out

    def text(self) -> str:
        lines = [f"labeled sites: {len(self.labels)} scored ({self.unknown} unknown, not scored); "
                 f"linter diagnostics: {self.n_diags} ({len(self.unlabeled)} at no labeled site)",
                 f"{'family':22} {'positives':>9} {'TP':>5} {'FP':>4} {'FN':>4} {'precision':>9} {'recall':>7}"]
        for name, pos, tp, fp, fn, p, r in self.rows():
            lines.append(f"{name:22} {pos:9d} {tp:5d} {fp:4d} {fn:4d} {p:>9} {r:>7}")
        lines.append(f"random sample: {len(self.sample)} diagnostics drawn; {self.sample_still} still "
                     f"reported (excluding {self.sample_unknown} unknown), {self.sample_right} right: "
                     f"precision {ratio(self.sample_right, self.sample_still)}")
        lines.append(f"misses ({len(self.misses)}):")
        lines += [f"  {fmt(l)} expected {l['expected']}, got {c or 'nothing'}: {l['reason']}"
                  for l, c in self.misses]
        lines.append(f"false alarms ({len(self.false_alarms)}):")
        lines += [f"  {fmt(l)} got {c}, expected {l['expected']}: {l['reason']}"
                  for l, c in self.false_alarms]
        lines.append(f"sampled diagnostics now wrong ({len(self.sample_wrong)}):")
        lines += [f"  {fmt(s)} got {c}, expected {s['expected']}: {s['reason']}"
                  for s, c in self.sample_wrong]
        lines.append(f"unlabeled diagnostics, not in the sample ({len(self.unlabeled_unsampled)}):")
        lines += [f"  {d[0]} {d[1]}:{d[2]}:{d[3]} {d[4]}" for d in self.unlabeled_unsampled]
        return "\n".join(lines)

    def markdown(self, repos: List[Dict], title_note: str) -> str:
        shapes = Counter(l["shape"] for l in self.labels)
        exp = Counter(l["expected"] for l in self.labels)
        per_repo = Counter(l["repo"] for l in self.labels)
        out = ["# Precision and recall on labeled public PyTorch code", "",
               title_note, "",
               "Produced by `python benchmarks/precision/score.py CORPUS --write benchmarks/PRECISION.md` "
               "after `python benchmarks/corpora.py materialise CORPUS`. Labels were decided by reading "
               "the code, independently of the linter (`benchmarks/precision/labels.csv`, "
               "`benchmarks/precision/diagnostic_sample.csv`).", "",
               "## Repositories", "",
               "| repository | commit | kind | lines | dense | labeled sites |",
               "| --- | --- | --- | ---: | --- | ---: |"]
        for r in repos:
            out.append(f"| {r['name']} | `{r['commit']}` | {r.get('kind', '')} | {r.get('lines', '?')} | "
                       f"{'yes' if r.get('dense') else 'no'} | {per_repo.get(r['name'], 0)} |")
        tot = sum(int(r.get("lines", 0)) for r in repos)
        dense = sum(int(r.get("lines", 0)) for r in repos if r.get("dense"))
        out += ["", f"{len(repos)} repositories, {tot:,} lines of Python; dense subset {dense:,} lines.", "",
                "## Labeled sites", "",
                f"{len(self.labels)} sites scored ({self.unknown} labeled `unknown`, not scored).", "",
                "| shape | sites |", "| --- | ---: |"]
        out += [f"| {k} | {v} |" for k, v in sorted(shapes.items())]
        out += ["", "| expected | sites |", "| --- | ---: |"]
        out += [f"| {k} | {v} |" for k, v in sorted(exp.items())]
        out += ["", "## Precision and recall per rule family", "",
                "| family | positives | TP | FP | FN | precision | recall |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        out += [f"| {n} | {pos} | {tp} | {fp} | {fn} | {p} | {r} |" for n, pos, tp, fp, fn, p, r in self.rows()]
        out += ["", "Per candidate shape (all families):", "",
                "| shape | positives | TP | FP | FN | precision | recall |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for shape in sorted({l["shape"] for l in self.labels}):
            pos = sum(1 for l in self.labels if l["shape"] == shape and l["expected"] != "none")
            fn = sum(1 for l, _ in self.misses if l["shape"] == shape)
            fp = sum(1 for l, _ in self.false_alarms if l["shape"] == shape)
            tp = pos - fn
            out.append(f"| {shape} | {pos} | {tp} | {fp} | {fn} | {ratio(tp, tp + fp)} | {ratio(tp, tp + fn)} |")
        out += ["", "Per repository (all families):", "",
                "| repository | positives | TP | FP | FN | precision | recall |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for r in repos:
            pos = sum(1 for l in self.labels if l["repo"] == r["name"] and l["expected"] != "none")
            fn = sum(1 for l, _ in self.misses if l["repo"] == r["name"])
            fp = sum(1 for l, _ in self.false_alarms if l["repo"] == r["name"])
            tp = pos - fn
            out.append(f"| {r['name']} | {pos} | {tp} | {fp} | {fn} | {ratio(tp, tp + fp)} | {ratio(tp, tp + fn)} |")
        out += ["", f"Linter diagnostics on the corpus: {self.n_diags}; {len(self.unlabeled)} of them at "
                f"no labeled site (outside the candidate shapes).", "",
                "## Random sample of the linter's diagnostics", "",
                f"{len(self.sample)} diagnostics drawn at random (fixed seed) from the linter's output when "
                f"the sample was drawn, each labeled by reading the code. Still reported now: "
                f"{self.sample_still} (excluding {self.sample_unknown} `unknown`); right: {self.sample_right}; "
                f"precision **{ratio(self.sample_right, self.sample_still)}**.", ""]
        if self.sample_wrong:
            out += ["Sampled diagnostics that are wrong:", ""]
            out += [f"- {fmt(s)} reported {c}, should be {s['expected']}: {s['reason']}"
                    for s, c in self.sample_wrong]
            out.append("")
        out += [f"## Misses and false alarms grouped by idiom ({len(self.misses)} misses, "
                f"{len(self.false_alarms)} false alarms)", "",
                "The reason column of the labels names the idiom that makes each site a tensor (or not).", "",
                "| misses | false alarms | expected | reported | idiom (label reason) |",
                "| ---: | ---: | --- | --- | --- |"]
        groups: Counter = Counter()
        for l, c in self.misses:
            groups[(l["reason"], l["expected"], c or "nothing", "miss")] += 1
        for l, c in self.false_alarms:
            if l["expected"] == "none":
                groups[(l["reason"], l["expected"], c, "fa")] += 1
        for (reason, exp, got, kind), n in sorted(groups.items(), key=lambda kv: -kv[1]):
            out.append(f"| {n if kind == 'miss' else ''} | {n if kind == 'fa' else ''} | {exp} | {got} | {reason} |")
        out += ["", "(A site reported with the wrong code counts as a miss of the expected code and a false "
                "alarm of the reported one; it is listed once above, as a miss.)", ""]
        out += [f"## Misses ({len(self.misses)})", ""]
        out += [f"- {fmt(l)} `{l['shape']}`: expected {l['expected']}, got {c or 'nothing'}; {l['reason']}"
                for l, c in self.misses]
        out += ["", f"## False alarms ({len(self.false_alarms)})", ""]
        out += [f"- {fmt(l)} `{l['shape']}`: got {c}, expected {l['expected']}; {l['reason']}"
                for l, c in self.false_alarms]
        out += ["", f"## Unlabeled diagnostics not in the sample ({len(self.unlabeled_unsampled)})", ""]
        out += [f"- {d[0]} {d[1]}:{d[2]}:{d[3]} {d[4]}" for d in self.unlabeled_unsampled]
        return "\n".join(out) + "\n"


def fmt(l: Dict) -> str:
    return f"{l['repo']} {l['path']}:{l['line']}:{l['column']}"


def draw_sample(diags: List[Diag], n: int, seed: int, labels: List[Dict], tol: int,
                repos: List[Dict]) -> List[Dict]:
    """Rows for a new sample; `expected`/`reason` prefilled from a matching label (to be checked
    by reading), empty otherwise."""
    picked = sorted(random.Random(seed).sample(diags, min(n, len(diags))))
    commits = {r["name"]: r["commit"] for r in repos}
    rows = [dict(repo=d[0], commit=commits[d[0]], path=d[1], line=d[2], column=d[3], shape="",
                 expected="", reason="", reported=d[4]) for d in picked]
    pairs, _ = match([dict(l, line=str(l["line"])) for l in rows],
                     [(l["repo"], l["path"], int(l["line"]), int(l["column"]), l["expected"])
                      for l in labels], tol, "reported")
    for i, lab in pairs.items():
        rows[i]["shape"] = next(l["shape"] for l in labels if (l["repo"], l["path"], int(l["line"]),
                                int(l["column"]), l["expected"]) == lab)
        rows[i]["expected"] = lab[4]
    return rows


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--labels", default=LABELS)
    ap.add_argument("--manifest", default=corpora.MANIFEST, help="manifest TOML (default: corpora.toml)")
    ap.add_argument("--sample", default=SAMPLE)
    ap.add_argument("--tolerance", type=int, default=2, help="column tolerance (default 2)")
    ap.add_argument("--python", default=sys.executable, help="interpreter that has the linter")
    ap.add_argument("--diagnostics", help="read diagnostics from this JSON (from --save-diagnostics)")
    ap.add_argument("--save-diagnostics", help="save the linter's diagnostics as JSON")
    ap.add_argument("--write", help="write the figures as Markdown to this file")
    ap.add_argument("--note", default="", help="a line to put under the Markdown title")
    ap.add_argument("--draw-sample", type=int, metavar="N",
                    help="draw N diagnostics at random into --sample (then label them by reading)")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--repo", action="append", help="only this repository (repeatable; faster iteration)")
    args = ap.parse_args(argv)
    try:
        repos = corpora.load_manifest(args.manifest)
        if args.repo:
            unknown = set(args.repo) - {r["name"] for r in repos}
            if unknown:
                raise corpora.CorpusError(f"not in the manifest: {', '.join(sorted(unknown))}")
            repos = [r for r in repos if r["name"] in args.repo]
        if args.diagnostics:
            with open(args.diagnostics) as fh:
                diags = [tuple(d) for d in json.load(fh)]
        else:
            diags = run_linter(args.corpus, repos, args.python)
        if args.save_diagnostics:
            with open(args.save_diagnostics, "w") as fh:
                json.dump(diags, fh)
        names = {r["name"] for r in repos}
        commits = {r["name"]: r["commit"] for r in repos}
        labels = [l for l in read_csv(args.labels) if l["repo"] in names]
        stale = [l for l in labels if l["commit"] != commits[l["repo"]]]
        if stale:  # the manifest moved a repository to another commit: those labels no longer apply
            print(f"score.py: {len(stale)} labels are for other commits than the manifest's "
                  f"({', '.join(sorted({l['repo'] for l in stale}))}); not scored", file=sys.stderr)
            labels = [l for l in labels if l["commit"] == commits[l["repo"]]]
        if args.diagnostics:
            diags = [d for d in diags if d[0] in names]
        if args.draw_sample:
            rows = draw_sample(diags, args.draw_sample, args.seed, labels, args.tolerance, repos)
            with open(args.sample, "w", newline="") as fh:
                w = csv.DictWriter(fh, SAMPLE_FIELDS, lineterminator="\n")
                w.writeheader()
                w.writerows(rows)
            print(f"score.py: drew {len(rows)} diagnostics into {args.sample}", file=sys.stderr)
            return 0
        sample = [s for s in (read_csv(args.sample) if os.path.exists(args.sample) else [])
                  if s["repo"] in names]
    except (corpora.CorpusError, OSError, ValueError, KeyError, corpora.tomllib.TOMLDecodeError) as exc:
        print(f"score.py: {exc}", file=sys.stderr)
        return 1
    rep = Report(labels, sample, diags, args.tolerance)
    if args.write:
        note = args.note or f"Measured {datetime.date.today()}."
        if not args.diagnostics:
            note += f" Linter: `{linter_identity(args.python)}`."
        with open(args.write, "w") as fh:
            fh.write(rep.markdown(repos, note))
    try:
        print(rep.text())
    except BrokenPipeError:  # `| head`
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
