"""Long runs over whole corpora: torch's own source and the standard library (`pytest -m slow`).

Skipped where the corpus is not installed. Each asserts: no plugin failure, no traceback; and
`tensorcopy fix --unsafe-fixes` on a copy leaves every file parseable, changes nothing on a
second run, and changes no line that had no diagnostic.
"""
import ast
import difflib
import glob
import importlib.util
import json
import os
import shutil
import sysconfig

import pytest

from flake8_tensorcopy.syntax.source import decode

from .conftest import flake8, tensorcopy

pytestmark = pytest.mark.slow


def _torch_dir():
    spec = importlib.util.find_spec("torch")
    return os.path.dirname(spec.origin) if spec and spec.origin else None


CORPORA = {"torch": _torch_dir(), "stdlib": sysconfig.get_paths()["stdlib"]}


@pytest.fixture(params=sorted(CORPORA))
def corpus(request):
    path = CORPORA[request.param]
    if not path or not os.path.isdir(path):
        pytest.skip(f"{request.param} corpus not installed")
    return path


def test_flake8_and_check_finish_cleanly(corpus):
    res = flake8("--select", "TEN", "--jobs", "2", "--exit-zero", "--extend-exclude",
                 "site-packages", corpus)
    output = res.stdout + res.stderr
    # flake8 names a crashing plugin as "<name>[<code>]" failed; pyflakes itself can fail on
    # some third-party files, which is not this plugin's doing
    assert '[TEN]" failed' not in output and "Traceback" not in res.stderr, output[-3000:]
    assert res.returncode == 0, output[-3000:]
    res2 = tensorcopy("check", "--exit-zero", "--output-format", "concise", corpus)
    assert "Traceback" not in res2.stderr
    for line in res2.stderr.splitlines():
        assert line.startswith("tensorcopy: error: "), line


def test_fix_unsafe_on_a_copy(corpus, tmp_path):
    copy = tmp_path / "corpus"
    shutil.copytree(corpus, copy, ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyc", "*.h", "*.dylib", "site-packages", "*.a", "*.lib"))
    before = {}
    for path in glob.glob(str(copy / "**" / "*.py"), recursive=True):
        with open(path, "rb") as fh:
            before[path] = fh.read()
    # the lines the fixer may touch: those of the diagnostics `check` reports on the copy before
    # the fix (the same front end, so the same project index: outside site-packages the copy is
    # a project, and its imports are read)
    found = tensorcopy("check", "--no-cache", "--exit-zero", "--output-format", "json", str(copy))
    assert "Traceback" not in found.stderr
    reported = {}
    for d in json.loads(found.stdout):
        reported.setdefault(os.path.realpath(d["filename"]), set()).update(
            range(d["location"]["row"], d["end_location"]["row"] + 1))
    res = tensorcopy("fix", "--unsafe-fixes", "--exit-zero", str(copy))
    assert "Traceback" not in res.stderr
    changed = 0
    for path, old in before.items():
        with open(path, "rb") as fh:
            new = fh.read()
        if new == old:
            continue
        changed += 1
        text_old, text_new = decode(old).text, decode(new).text
        ast.parse(text_new)
        lines = reported.get(os.path.realpath(path), set())
        sm = difflib.SequenceMatcher(None, text_old.splitlines(), text_new.splitlines(), autojunk=False)
        for tag, i1, i2, _j1, _j2 in sm.get_opcodes():
            if tag in ("replace", "delete"):
                for line in range(i1 + 1, i2 + 1):
                    assert line in lines, (path, line)
    res2 = tensorcopy("fix", "--unsafe-fixes", "--exit-zero", str(copy))
    assert "Fixed 0 diagnostic(s)" in res2.stderr, res2.stderr[-2000:]
    assert changed >= (1 if "torch" in corpus else 0)
