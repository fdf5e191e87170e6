"""One analysis, one answer (issue 45): ``check``'s JSON, ``check --fix``, ``fix`` and the
language server give the same diagnostics and the same fixes for every file of the fixtures,
the examples and generated programs (most of those over 2,000 characters, where the lint view
leaves candidate-free definitions unbuilt)."""
import json
import os
import random
import shutil
import sys

import pytest

from flake8_tensorcopy.config import Config
from flake8_tensorcopy.server.core import fixable, lint_document

from .conftest import FIXTURES, ROOT, tensorcopy

sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import fixproof  # noqa: E402

N_GENERATED = 40


def _corpus(tmp_path):
    """Copies of every fixture and example, and generated programs, flat in one folder."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    names = []
    for base in (FIXTURES, os.path.join(ROOT, "examples")):
        for root, _, files in os.walk(base):
            for f in sorted(files):
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(root, f), ROOT).replace(os.sep, "_")
                    shutil.copy(os.path.join(root, f), folder / rel)
                    names.append(rel)
    rng = random.Random(45)
    for i in range(N_GENERATED):
        program, _ = fixproof.make_program(rng, i)
        if i % 2:  # over 2,000 characters with a candidate-free definition (left unbuilt)
            program += '\n\ndef unrelated(a):\n    """%s"""\n    return [a] * 3\n' % ("pad " * 160)
        (folder / f"generated_{i:03d}.py").write_text(program)
        names.append(f"generated_{i:03d}.py")
    # every pattern of the grammar once, on a plain tensor in straight-line code (where the
    # patterns with a safe fix get one: the draws above rarely give a closed-world one)
    for i, pattern in enumerate(sorted(fixproof.PATTERNS)):
        (folder / f"pattern_{i:03d}.py").write_text(fixproof.render(pattern, "straight", "plain"))
        names.append(f"pattern_{i:03d}.py")
    return folder, names


def _key(code, row, col, fix):
    if fix is None:
        return (code, row, col, None, ())
    return (code, row, col, fix[0], tuple(sorted(fix[1])))


def test_check_fix_and_server_agree(tmp_path):
    folder, names = _corpus(tmp_path)
    assert sum(len((folder / n).read_text()) > 2000 for n in names) > 20
    res = tensorcopy("check", "--no-cache", "--jobs", "1", "--output-format", "json",
                     str(folder), cwd=tmp_path)
    assert res.returncode in (0, 1), res.stderr
    by_file = {}
    for d in json.loads(res.stdout):
        fix = d["fix"]
        by_file.setdefault(os.path.basename(d["filename"]), set()).add(_key(
            d["code"], d["location"]["row"], d["location"]["column"] - 1,
            (fix["applicability"], [(e["start"], e["end"], e["content"]) for e in fix["edits"]])
            if fix else None))
    cfg = Config()
    differ = []
    safe = 0
    for name in names:
        path = str(folder / name)
        text = (folder / name).read_text()
        lint = {_key(d.code, d.line, d.column, (d.fix.safety, [(e.start, e.end, e.text)
                                                              for e in d.fix.edits])
                     if d.fix else None) for d in lint_document(path, text, cfg).diagnostics}
        fixer = {_key(d.code, d.line, d.column, (d.fix.safety, [(e.start, e.end, e.text)
                                                               for e in d.fix.edits])
                      if d.fix else None) for d in fixable(path, text, cfg)}
        json_view = by_file.get(name, set())
        safe += sum(1 for k in fixer if k[3] == "safe")
        if not (lint == fixer == json_view):
            differ.append((name, sorted(lint ^ fixer, key=repr),
                           sorted(json_view ^ fixer, key=repr)))
    assert not differ, differ
    assert safe >= 5  # the comparison covers safe fixes, not only their absence

    # ``check --fix`` and ``fix`` write the same files
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(folder, a)
    shutil.copytree(folder, b)
    r1 = tensorcopy("fix", "--no-cache", "--jobs", "1", str(a), cwd=tmp_path)
    r2 = tensorcopy("check", "--fix", "--no-cache", "--jobs", "1", str(b), cwd=tmp_path)
    assert r1.returncode in (0, 1) and r2.returncode in (0, 1), (r1.stderr, r2.stderr)
    changed = 0
    for name in names:
        assert (a / name).read_text() == (b / name).read_text(), name
        changed += (a / name).read_text() != (folder / name).read_text()
    assert changed >= 5
