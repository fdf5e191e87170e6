"""The real-code evaluation tools under benchmarks/ (corpora.py, candidates.py, score.py).

They run on public repositories that CI cannot fetch, so these tests build a tiny git mirror and
corpus of their own and check the parts whose mistakes would silently skew the figures: which
files are materialised, that candidate positions are the positions the linter reports (1-based
character columns, as flake8 prints them), and how matches become precision and recall.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT, run, tensorcopy

BENCH = os.path.join(ROOT, "benchmarks")
CORPORA = os.path.join(BENCH, "corpora.py")
CANDIDATES = os.path.join(BENCH, "precision", "candidates.py")
SCORE = os.path.join(BENCH, "precision", "score.py")

SAMPLE_SRC = '''\
import torch
import torch.nn as nn
from torch import tensor


class Adam(torch.optim.Optimizer):
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                grad = p.grad.data
                grad.add_(p.data, alpha=1)
                p.data.addcdiv_(grad, grad)


def init(m):
    if isinstance(m, nn.Linear):
        nn.init.zeros_(m.bias.data)
        m.weight.data[0].zero_()
        m.weight.data = torch.zeros(2, 2)
        m.weight.data += 1


lin = nn.Linear(2, 2)
w = lin.weight.clone().detach()
s = "é"; y = lin.weight.data
a = torch.tensor(lin.weight)
b = tensor([1, 2])
c = torch.FloatTensor([1.0])
d = lin.weight.new_tensor([1.0])
e = torch.empty_like(w).copy_(w)
batches = torch.utils.data.DataLoader([])
'''

EXPECTED_SHAPES = {
    (10, 24, "data_read"), (11, 17, "alias_write"), (11, 27, "data_arg"), (12, 17, "data_inplace"),
    (17, 24, "data_arg"), (18, 9, "data_subscript_inplace"), (19, 9, "data_assign"),
    (20, 9, "data_augassign"), (24, 5, "clone_detach"), (25, 14, "data_read"),
    (26, 5, "torch_tensor"), (27, 5, "torch_tensor"), (28, 5, "legacy_ctor"), (29, 5, "new_tensor"),
    (30, 5, "like_copy"), (31, 11, "data_member"),
}


def git(*args, cwd=None):
    res = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


@pytest.fixture
def mirror(tmp_path):
    """A bare mirror of a small repository; returns (mirror root, commit)."""
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "train.py").write_text(SAMPLE_SRC, encoding="utf-8")
    (src / "pkg" / "notes.txt").write_text("not python\n")
    (src / "other.py").write_text("x = 1\n")
    git("init", "-q", str(src))
    git("add", "-A", cwd=src)
    git("commit", "-qm", "one", cwd=src)
    commit = git("rev-parse", "HEAD", cwd=src)
    root = tmp_path / "mirror"
    (root / "own+proj").mkdir(parents=True)
    git("clone", "-q", "--bare", str(src), str(root / "own+proj" / "repo"))
    return root, commit


def manifest(tmp_path, commit, subdirs='["pkg"]'):
    path = tmp_path / "corpora.toml"
    path.write_text(f'[[repo]]\nname = "own/proj"\ncommit = "{commit}"\nsubdirs = {subdirs}\n'
                    'dense = true\nlines = 31\n')
    return str(path)


def materialise(tmp_path, mirror_root, man):
    corpus = tmp_path / "corpus"
    res = run([sys.executable, CORPORA, "materialise", str(corpus), "--mirror", str(mirror_root),
               "--manifest", man])
    assert res.returncode == 0, res.stderr
    return corpus, res


def test_materialise_writes_only_python_files_of_the_subfolders_and_is_idempotent(tmp_path, mirror):
    root, commit = mirror
    man = manifest(tmp_path, commit)
    corpus, res = materialise(tmp_path, root, man)
    repo = corpus / "own+proj"
    files = sorted(str(p.relative_to(repo)) for p in repo.rglob("*") if p.is_file())
    assert files == [".commit", os.path.join("pkg", "train.py")]
    assert (repo / "pkg" / "train.py").read_text(encoding="utf-8") == SAMPLE_SRC
    assert "wrote" in res.stderr
    _, again = materialise(tmp_path, root, man)
    assert "kept" in again.stderr and "wrote" not in again.stderr
    count = run([sys.executable, CORPORA, "count", str(corpus), "--manifest", man])
    assert count.returncode == 0 and f"{SAMPLE_SRC.count(chr(10))} lines" in count.stdout
    # a file changed in place (a fixer run on the corpus) makes the labels' positions stale:
    # materialise writes the repository again
    (repo / "pkg" / "train.py").write_text(SAMPLE_SRC.replace("p.data", "p"), encoding="utf-8")
    _, third = materialise(tmp_path, root, man)
    assert "wrote" in third.stderr
    assert (repo / "pkg" / "train.py").read_text(encoding="utf-8") == SAMPLE_SRC


def test_materialise_fetches_the_pinned_commit_from_a_git_url_without_a_mirror(tmp_path, mirror):
    """The default path: no local mirror, the repository fetched by URL (here a file:// URL laid
    out as <base>/<owner>/<name>.git, as on GitHub) into a cache, once."""
    root, commit = mirror
    base = tmp_path / "hosting"
    (base / "own").mkdir(parents=True)
    os.rename(root / "own+proj" / "repo", base / "own" / "proj.git")
    man = manifest(tmp_path, commit)
    cache = tmp_path / "cache"
    env = dict(os.environ)
    env.pop("TENSORCOPY_MIRROR", None)
    args = [sys.executable, CORPORA, "materialise", str(tmp_path / "corpus"), "--manifest", man,
            "--git-base", (base.as_uri() + "/"), "--cache", str(cache)]
    res = run(args, env=env)
    assert res.returncode == 0, res.stderr
    repo = tmp_path / "corpus" / "own+proj"
    assert (repo / "pkg" / "train.py").read_text(encoding="utf-8") == SAMPLE_SRC
    assert (cache / "own+proj.git" / "HEAD").is_file()
    # the cache serves it again with the hosting gone
    os.rename(base, tmp_path / "gone")
    (repo / "pkg" / "train.py").write_text("changed\n")
    again = run(args, env=env)
    assert again.returncode == 0 and "wrote" in again.stderr, again.stderr
    assert (repo / "pkg" / "train.py").read_text(encoding="utf-8") == SAMPLE_SRC


def test_committed_reports_name_corpora_never_local_paths():
    """RESULTS.md, PRECISION.md and runtime_compare.md report corpora by name and pinned commit:
    no absolute path of the machine they ran on."""
    import re

    bad = []
    for rel in ("RESULTS.md", "PRECISION.md", "runtime_compare.md",
                os.path.join("precision", "README.md")):
        with open(os.path.join(BENCH, rel), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if re.search(r"(?<![\w.])/(work|root|home|tmp|Users)/", line):
                    bad.append(f"{rel}:{n}: {line.strip()[:100]}")
    assert bad == []


def test_missing_mirror_or_commit_fails_with_one_line(tmp_path, mirror):
    root, commit = mirror
    for man, mirror_root in ((manifest(tmp_path, commit), tmp_path / "nowhere"),
                             (manifest(tmp_path, "f" * 40), root)):
        res = run([sys.executable, CORPORA, "materialise", str(tmp_path / "c"), "--mirror",
                   str(mirror_root), "--manifest", man])
        assert res.returncode == 1
        assert len(res.stderr.strip().splitlines()) == 1 and res.stderr.startswith("corpora.py: ")
        assert "Traceback" not in res.stderr


def candidates(corpus, man):
    res = run([sys.executable, CANDIDATES, str(corpus), "--manifest", man])
    assert res.returncode == 0, res.stderr
    return list(csv.DictReader(res.stdout.splitlines()))


def test_candidates_find_every_shape_at_flake8_columns(tmp_path, mirror):
    root, commit = mirror
    man = manifest(tmp_path, commit)
    corpus, _ = materialise(tmp_path, root, man)
    rows = candidates(corpus, man)
    got = {(int(r["line"]), int(r["column"]), r["shape"]) for r in rows}
    assert got == EXPECTED_SHAPES
    assert {r["commit"] for r in rows} == {commit} and {r["path"] for r in rows} == {"pkg/train.py"}
    # every diagnostic the linter reports sits on a candidate position (same line and column)
    res = tensorcopy("check", "--output-format", "json", "--jobs", "1", "--exit-zero", ".",
                     cwd=str(corpus / "own+proj"))
    diags = json.loads(res.stdout)
    assert diags, res.stderr
    positions = {(line, col) for line, col, _ in got}
    for d in diags:
        assert (d["location"]["row"], d["location"]["column"]) in positions, d


def write_csv(path, fields, rows):
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def test_score_counts_hits_misses_false_alarms_and_the_sample(tmp_path, mirror):
    root, commit = mirror
    man = manifest(tmp_path, commit)
    corpus, _ = materialise(tmp_path, root, man)
    # the linter's own diagnostics, given to score.py as a file so the counts below are exact
    diags = [["own/proj", "pkg/train.py", 12, 17, "TEN102"],   # right
             ["own/proj", "pkg/train.py", 24, 6, "TEN301"],    # right, column within tolerance
             ["own/proj", "pkg/train.py", 31, 11, "TEN101"],   # false alarm (a module path)
             ["own/proj", "pkg/train.py", 18, 9, "TEN101"],    # wrong code: TEN102 expected
             ["own/proj", "pkg/train.py", 5, 1, "TEN101"]]     # at no labeled site
    dfile = tmp_path / "diags.json"
    dfile.write_text(json.dumps(diags))
    base = dict(repo="own/proj", commit=commit, path="pkg/train.py", reason="r")
    labels = [dict(base, line=12, column=17, shape="data_inplace", expected="TEN102"),
              dict(base, line=24, column=5, shape="clone_detach", expected="TEN301"),
              dict(base, line=31, column=11, shape="data_member", expected="none"),
              dict(base, line=18, column=9, shape="data_subscript_inplace", expected="TEN102"),
              dict(base, line=10, column=24, shape="data_read", expected="TEN101"),  # missed
              dict(base, line=26, column=5, shape="torch_tensor", expected="unknown")]
    fields = ["repo", "commit", "path", "line", "column", "shape", "expected", "reason"]
    write_csv(tmp_path / "labels.csv", fields, labels)
    sample = [dict(base, line=12, column=17, shape="data_inplace", expected="TEN102", reported="TEN102"),
              dict(base, line=31, column=11, shape="data_member", expected="none", reported="TEN101"),
              dict(base, line=29, column=5, shape="new_tensor", expected="none", reported="TEN202")]
    write_csv(tmp_path / "sample.csv", fields + ["reported"], sample)
    out_md = tmp_path / "PRECISION.md"
    res = run([sys.executable, SCORE, str(corpus), "--manifest", man, "--diagnostics", str(dfile),
               "--labels", str(tmp_path / "labels.csv"), "--sample", str(tmp_path / "sample.csv"),
               "--write", str(out_md)])
    assert res.returncode == 0, res.stderr
    lines = {l.split()[0]: l.split() for l in res.stdout.splitlines() if l[:3] in ("1xx", "3xx", "ove")}
    # 1xx: TP 1 (12:17), FP 2 (31:11 none, 18:9 wrong code), FN 2 (18:9, 10:24)
    assert lines["1xx"][-5:] == ["1", "2", "2", "0.333", "0.333"]
    assert lines["3xx"][-5:] == ["1", "0", "0", "1.000", "1.000"]
    assert lines["overall"][-5:] == ["2", "2", "2", "0.500", "0.500"]
    assert "labeled sites: 5 scored (1 unknown" in res.stdout
    assert "(1 at no labeled site)" in res.stdout
    # sample: 2 of 3 still reported, 1 of them right
    assert "3 diagnostics drawn; 2 still reported (excluding 0 unknown), 1 right: precision 0.500" in res.stdout
    md = out_md.read_text()
    assert "| 1xx .data | 3 | 1 | 2 | 2 | 0.333 | 0.333 |" in md and commit in md
    assert "own/proj pkg/train.py:5:1 TEN101" in md  # the unlabeled diagnostic is listed apart


def test_score_refuses_an_unknown_repository_in_one_line(tmp_path, mirror):
    root, commit = mirror
    man = manifest(tmp_path, commit)
    res = run([sys.executable, SCORE, str(tmp_path), "--manifest", man, "--repo", "no/such"])
    assert res.returncode == 1 and res.stderr.strip() == "score.py: not in the manifest: no/such"


# --- issue 25: candidates_issue25.py and score_issue25.py -------------------------------------

CANDIDATES25 = os.path.join(BENCH, "precision", "candidates_issue25.py")
SCORE25 = os.path.join(BENCH, "precision", "score_issue25.py")

ISSUE25_SRC = '''\
import copy
import torch
from collections import OrderedDict


class EarlyStopping:
    def __call__(self, loss, model):
        self.best = model.state_dict()

    def restore(self, model):
        model.load_state_dict(self.best)


def snapshots(model, opt, hist):
    a = dict(model.state_dict())
    b = OrderedDict(model.state_dict())
    c = copy.copy(model.state_dict())
    d = {k: v for k, v in model.state_dict().items()}
    hist.append(opt.state_dict().copy())
    torch.save(model.state_dict(), "m.pt")
    e = copy.deepcopy(model.state_dict())


def writes(x, n):
    x[:, 1:] = x[:, :-1]
    x[..., 1:] += x[..., :-1]
    x[:, 1:].copy_(x[:, :-1])
    x[0] = x[1]


def train(model, opt, loader):
    total = 0
    losses = []
    for xb in loader:
        loss = model(xb).sum()
        loss.backward()
        total += loss
        total = total + loss
        losses.append(loss)
        losses.append(loss.item())
        total += loss.item()
    last = total + loss
'''

ISSUE25_EXPECTED = {
    (8, 9, "snapshot-binding"), (15, 5, "snapshot-binding"), (16, 5, "snapshot-binding"),
    (17, 5, "snapshot-binding"), (18, 5, "snapshot-binding"), (19, 5, "snapshot-binding"),
    (20, 16, "state-dict-call"), (21, 23, "state-dict-call"),
    (25, 5, "overlap-write"), (26, 5, "overlap-write"), (27, 5, "overlap-write"),
    (37, 9, "accumulator"), (38, 9, "accumulator"), (39, 9, "accumulator"),
}


def test_issue25_candidates_find_each_shape_once(tmp_path):
    """Each shallow snapshot form is one binding (its inner state_dict() call is not counted
    again); deepcopy and torch.save are other calls; slice writes of one name overlap; loop
    accumulations of a loss name are found, `.item()` ones and those after the loop are not."""
    repo = tmp_path / "own+proj" / "pkg"
    repo.mkdir(parents=True)
    (repo / "train.py").write_text(ISSUE25_SRC, encoding="utf-8")
    out = tmp_path / "cand.csv"
    res = run([sys.executable, CANDIDATES25, str(tmp_path), "-o", str(out)])
    assert res.returncode == 0, res.stderr
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    got = {(int(r["line"]), int(r["column"]), r["shape"]) for r in rows}
    assert got == ISSUE25_EXPECTED
    assert {(r["repo"], r["path"]) for r in rows} == {("own+proj", "pkg/train.py")}


def test_issue25_score_counts_hits_false_alarms_misses_and_unlabeled(tmp_path):
    """The scorer runs the real linter and sorts each diagnostic by its label: the EarlyStopping
    snapshot labeled TEN402 is a hit, a labeled positive it does not report is a miss, and a
    code this linter lacks is left out with a note instead of failing the run."""
    repo = tmp_path / "corpus" / "own+proj"
    repo.mkdir(parents=True)
    (repo / "train.py").write_text(ISSUE25_SRC, encoding="utf-8")
    labels = tmp_path / "labels.csv"
    rows = [("train.py", 8, "snapshot-binding", "TEN402"), ("train.py", 15, "snapshot-binding", "none"),
            ("train.py", 16, "snapshot-binding", "TEN402")]
    with open(labels, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["repo", "commit", "path", "line", "column", "shape", "expected", "reason"])
        for path, line, shape, exp in rows:
            w.writerow(["own/proj", "0" * 40, path, line, 0, shape, exp, "test"])
    res = run([sys.executable, SCORE25, "--codes", "TEN402,TEN999", "--labels", str(labels),
               str(tmp_path / "corpus")])
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "has no TEN999" in out
    assert "TEN402: 1 diagnostics, 1 true, 0 false; 2 labeled positives; precision 1.00, " \
           "recall 0.50" in out, out
    assert "miss: own+proj train.py:16" in out
    assert "false alarm" not in out and "unlabeled" not in out


def test_issue25_labels_are_complete_and_pinned():
    """Every labeled site names a pinned repository (corpora.toml, corpora_issue25.toml or torch's
    own source) at its pinned commit, a known shape, an expected code or none, and a reason."""
    sys.path.insert(0, BENCH)
    try:
        import corpora
    finally:
        sys.path.remove(BENCH)
    pins = {r["name"]: r["commit"] for man in ("corpora.toml", "corpora_issue25.toml")
            for r in corpora.load_manifest(os.path.join(BENCH, man))}
    with open(os.path.join(BENCH, "precision", "labels_issue25.csv"), encoding="utf-8") as fh:
        labels = list(csv.DictReader(fh))
    assert len(labels) >= 300
    for r in labels:
        assert r["expected"] in {"none", "TEN402", "TEN403", "TEN501"}, r
        assert r["shape"] in {"snapshot-binding", "state-dict-call", "overlap-write",
                              "accumulator"}, r
        assert r["reason"].strip() and int(r["line"]) > 0, r
        if not r["repo"].startswith("pytorch/pytorch"):
            assert pins.get(r["repo"]) == r["commit"], r
    assert sum(r["shape"] == "accumulator" for r in labels) >= 20


def _bench_run_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_run", os.path.join(BENCH, "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("slower, verdict", [(1.05, "met"), (1.30, "not met"), (1.10, "not shown")])
def test_run_py_pairs_give_the_ratio_with_its_interval_and_a_verdict_from_the_whole_interval(
        slower, verdict):
    """The dense ratio is judged on its paired 95% interval: met only when the whole interval is
    within 1.10, not met only when the whole interval is past it."""
    bench = _bench_run_module()
    alone = [20.0, 18.0, 23.0, 19.5, 21.0, 17.0, 22.0, 20.5]  # the machine's drift, shared
    noise = [1.0, 0.99, 1.01, 1.0, 0.995, 1.005, 1.0, 1.002]
    with_it = [a * slower * n for a, n in zip(alone, noise)]
    pairs = {"dense: flake8": [bench.Run(a, a, 40, 0) for a in alone],
             "dense: flake8 + tensorcopy": [bench.Run(w, w, 48, 0) for w in with_it]}
    tf = {"dense: flake8 + TorchFix": [bench.Run(180.0, 180.0, 130, 0)] * 2,
          "dense: flake8": [bench.Run(20.0, 20.0, 40, 0)] * 3}
    rows = bench.paired_rows(pairs, tf, True)
    ratio = rows[0].split(" | ")
    est = float(ratio[1].split()[0])
    assert abs(est - slower) < 0.02, rows[0]
    assert ratio[-1].rstrip(" |") == f"{verdict} / {verdict}", rows[0]
    own = rows[2].split(" | ")
    assert abs(float(own[1].split()[0]) - (slower - 1) * 20.25 / 160) < 0.01, rows[2]
    assert bench.paired_rows({k: v[:1] for k, v in pairs.items()}, tf, True) == []


def test_run_py_editor_rows_pair_the_interleaved_runs():
    bench = _bench_run_module()
    alone = [0.30, 0.45, 0.28, 0.41, 0.33, 0.39, 0.26, 0.44]  # this machine: 0.26 to 0.45 s
    with_it = [a * 1.02 for a in alone]
    row = bench.editor_row("no candidate", [bench.Run(w, w, 23, 0) for w in with_it],
                           [bench.Run(a, a, 22, 0) for a in alone], 1.05)
    assert len(row) == 1 and row[0].startswith("| editor, no candidate: with / without the plugin "
                                               "(8 pairs) | 1.020 [1.020, 1.020] |"), row
    assert row[0].endswith("| <= 1.05 | met / met |"), row
    assert bench.editor_row("x", [bench.Run(1, 1, 1, 0)] * 5, [bench.Run(1, 1, 1, 0)] * 5, 1.05) == []
    # a full run makes 30 editor pairs: the verifier's exact p-value stops at 20 (it once
    # ended a 40-minute run at its last line); the interval needs no p-value
    many = bench.editor_row("training script", [bench.Run(a * 1.3, a * 1.3, 24, 0) for a in alone * 4],
                            [bench.Run(a, a, 22, 0) for a in alone * 4], 1.15)
    assert "(32 pairs) | 1.300 [1.300, 1.300] |" in many[0] and many[0].endswith("not met / not met |")


def _two_module_project(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "b.py").write_text("import torch\n\n\ndef make():\n    return torch.zeros(3)\n\n\n"
                               "def unused():\n    return 1\n")
    (proj / "a.py").write_text("import torch\nfrom b import make\n\n\n"
                               "def f():\n    return torch.tensor(make())\n")
    return proj


def test_own_cost_times_this_checkout_against_another(tmp_path):
    """The plain comparison (``--other``) still runs after ``--bounds`` was added beside it."""
    proj = _two_module_project(tmp_path)
    got = subprocess.run([sys.executable, os.path.join(BENCH, "own_cost.py"), str(proj),
                          "--other", ROOT, "--runs", "1"], capture_output=True, text=True,
                         timeout=300)
    assert got.returncode == 0, got.stderr
    assert "this checkout: 1 diagnostics" not in got.stderr  # one line per run, as below
    assert got.stderr.count(", 1 diagnostics, 2 files") == 2, got.stderr
    assert got.stdout.splitlines()[-1].startswith("ratio of mins (this / other): "), got.stdout


def test_own_cost_bounds_run_the_plugin_without_the_index_and_without_its_parsing(tmp_path):
    """``own_cost.py --bounds``: the diagnostic that needs the project index (a ``torch.tensor``
    of another module's function's result) is lost without it and kept when the index's
    parsing is done before the clock; the counted run sees the one module the index read."""
    proj = _two_module_project(tmp_path)
    got = subprocess.run([sys.executable, os.path.join(BENCH, "own_cost.py"), str(proj),
                          "--bounds", "--runs", "1"], capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    found = {line.split(":")[0]: int(re.search(r"(\d+) diagnostics;", line).group(1))
             for line in lines[:3]}
    assert found == {"shipped": 1, "no-index": 0, "parse-free": 1}, got.stdout
    # b.py: 9 lines, ``make`` (2 lines) looked up, ``unused`` never
    assert lines[3] == "index: 1 modules read, 9 lines; the definitions looked up in them: " \
                       "2 lines (22%)", got.stdout


IN_ORDER = ["flake8 alone", "flake8 + plugin", "flake8 + plugin, no index"]


def test_own_cost_in_flake8_runs_flake8_with_and_without_the_index(tmp_path):
    """``own_cost.py --in-flake8``: real flake8 processes; the run with the index switched off
    loses the diagnostic that needs another module. (Here "flake8 alone" is this interpreter,
    plugin included: the test checks the runs, not the ratios.)"""
    proj = _two_module_project(tmp_path)
    # the interpreter given as a relative path, as typed from a checkout (flake8 itself runs
    # from the corpus's folder): this interpreter's own path, relative to the folder above its
    # ``bin`` (a link to it elsewhere would leave a virtual environment: no pyvenv.cfg beside
    # the link, so no flake8)
    interpreter = os.path.abspath(sys.executable)
    here = os.path.dirname(os.path.dirname(interpreter))
    relative = os.path.relpath(interpreter, here)
    assert not os.path.isabs(relative) and not os.path.exists(os.path.join(str(proj), relative))
    # the same environment (a link outside a venv runs the base interpreter: another prefix)
    prefix = subprocess.run([relative, "-c", "import sys; print(sys.prefix)"], cwd=here,
                            capture_output=True, text=True, timeout=60)
    assert prefix.stdout.strip() == sys.prefix, prefix.stderr
    got = subprocess.run([sys.executable, os.path.join(BENCH, "own_cost.py"), str(proj),
                          "--in-flake8", relative, "--runs", "1"],
                         capture_output=True, text=True, timeout=300, cwd=here)
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert [line.split(": median")[0] for line in lines[:3]] == [
        "flake8 alone", "flake8 + plugin", "flake8 + plugin, no index"], got.stdout
    assert [line.rsplit(", ", 1)[1] for line in lines[:3]] == [
        "1 TEN diagnostics", "1 TEN diagnostics", "0 TEN diagnostics"], got.stdout
    # one round: no interval yet (0 to infinity), said as such
    assert re.match(r"flake8 \+ plugin / flake8 alone: median ([\d.]+), estimate \1 "
                    r"\[0\.000, inf\] \(rounds: \1\)$", lines[3]), got.stdout
    assert lines[4].startswith("flake8 + plugin, no index / flake8 alone: median "), got.stdout
    # the collector, timed inside each flake8 process: a line per way, numbers that add up
    assert [line.split(": collector")[0] for line in lines[5:8]] == [
        "flake8 alone", "flake8 + plugin", "flake8 + plugin, no index"], got.stdout
    for line in lines[5:8]:
        m = re.search(r"collector median ([\d.]+) s \(young ([\d.]+), middle ([\d.]+), full "
                      r"([\d.]+) s in (\d+) full collections\)$", line)
        assert m, line
        total, young, middle, full = (float(m.group(i)) for i in range(1, 5))
        assert abs(total - (young + middle + full)) <= 0.011, line
        cpu = float(re.search(r"median ([\d.]+) s CPU", lines[IN_ORDER.index(
            line.split(": collector")[0])]).group(1))
        assert total <= cpu, (line, cpu)
    assert len(lines) == 8, got.stdout
    both = subprocess.run([sys.executable, os.path.join(BENCH, "own_cost.py"), str(proj),
                           "--in-flake8", sys.executable, "--bounds"], capture_output=True,
                          text=True, timeout=60)
    assert both.returncode == 2 and "not both" in both.stderr.splitlines()[-1], both.stderr


def _checkout_that_finds_nothing(tmp_path):
    """A copy of this package whose plugin returns before its analysis (``--other``'s side)."""
    other = tmp_path / "other"
    shutil.copytree(os.path.join(ROOT, "flake8_tensorcopy"), str(other / "flake8_tensorcopy"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    plugin = other / "flake8_tensorcopy" / "plugin.py"
    text = plugin.read_text()
    line = "            planned = candidates(source, tree, self.filename or None, " \
        "type(self).options[2])\n"
    assert line in text
    plugin.write_text(text.replace(line, "            return\n"))
    return other


def test_own_cost_in_flake8_runs_another_checkouts_plugin_beside(tmp_path):
    """``--in-flake8 PYTHON --other CHECKOUT``: the other checkout's plugin is a fourth way in
    the rotation (its own diagnostics counted: here a copy of this package that finds nothing),
    and this plugin over it gets its per-round estimate."""
    proj = _two_module_project(tmp_path)
    other = _checkout_that_finds_nothing(tmp_path)
    got = subprocess.run([sys.executable, os.path.join(BENCH, "own_cost.py"), str(proj),
                          "--in-flake8", sys.executable, "--other", str(other), "--runs", "2"],
                         capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert [line.split(": median")[0] for line in lines[:4]] == IN_ORDER + [
        "flake8 + plugin, other checkout"], got.stdout
    assert [line.rsplit(", ", 1)[1] for line in lines[:4]] == [
        "1 TEN diagnostics", "1 TEN diagnostics", "0 TEN diagnostics", "0 TEN diagnostics"]
    assert [line.split(": median")[0] for line in lines[4:8]] == [
        "flake8 + plugin / flake8 alone", "flake8 + plugin, no index / flake8 alone",
        "flake8 + plugin, other checkout / flake8 alone",
        "flake8 + plugin / flake8 + plugin, other checkout"], got.stdout
    assert re.search(r"estimate [\d.]+ \[[\d.]+, (inf|[\d.]+)\] \(rounds: [\d.]+, [\d.]+\)$",
                     lines[7]), lines[7]
    assert len(lines) == 12, got.stdout


def test_own_cost_share_times_the_plugin_inside_its_flake8_process(tmp_path):
    """``--in-flake8 PYTHON --share``: each process times the plugin's own work (its import,
    its checker per file, its run) inside flake8, and gives flake8 with it over flake8's work in
    the same process; with ``--other`` a copy of the plugin that stops before its analysis is
    one more way, whose own time is less. (Here "flake8 alone" is this interpreter, whose flake8
    loads the plugin too but times nothing of it: the test checks the runs, not the ratios.)"""
    proj = _two_module_project(tmp_path)
    other = _checkout_that_finds_nothing(tmp_path)
    got = subprocess.run([sys.executable, os.path.join(BENCH, "own_cost.py"), str(proj),
                          "--in-flake8", sys.executable, "--share", "--other", str(other),
                          "--runs", "2"], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert got.returncode == 0, got.stderr
    # both sides' bytecode written before the clock (none on either side would be compiled
    # in every process, and counted as the plugin's own time)
    assert os.listdir(str(other / "flake8_tensorcopy" / "semantic" / "index" / "__pycache__"))
    lines = got.stdout.splitlines()
    way = re.compile(r"(.+): median ([\d.]+) s CPU, own ([\d.]+) s, collector ([\d.]+) s \(2 runs\); "
                     r"diagnostics (\{.*\})$")
    rows = [way.match(line) for line in lines[:3]]
    assert all(rows), got.stdout
    assert [r.group(1) for r in rows] == ["flake8 alone", "flake8 + plugin",
                                          "flake8 + plugin, other checkout"]
    assert float(rows[0].group(3)) == 0.0 < float(rows[1].group(3)) <= float(rows[1].group(2))
    assert "'TEN': 1" in rows[1].group(5) and "TEN" not in rows[2].group(5), got.stdout
    assert float(rows[2].group(3)) < float(rows[1].group(3))  # stops before the engine's import
    ratio = re.compile(r"(.+): whole / flake8's work in the same process, estimate ([\d.]+) "
                       r"\[[\d.]+, (inf|[\d.]+)\] \(rounds: ([\d.]+), ([\d.]+)\)$")
    assert [ratio.match(line).group(1) for line in lines[3:5]] == [
        "flake8 + plugin", "flake8 + plugin, other checkout"], got.stdout
    assert all(float(ratio.match(line).group(4)) > 1.0 for line in lines[3:5])
    assert lines[5].startswith("plugin's own / the other checkout's, per round, estimate ")
    assert len(lines) == 6, got.stdout
    for argv, said in ((["--share"], "--share needs --in-flake8"),
                       (["--in-flake8", sys.executable, "--torchfix", sys.executable],
                        "--torchfix goes with --share")):
        bad = subprocess.run([sys.executable, os.path.join(BENCH, "own_cost.py"), str(proj)] + argv,
                             capture_output=True, text=True, timeout=60)
        assert bad.returncode == 2 and said in bad.stderr.splitlines()[-1], bad.stderr
