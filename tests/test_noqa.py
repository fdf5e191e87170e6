"""``# noqa`` read exactly as flake8 reads it: one file with every spelling, linted by flake8 and
by ``tensorcopy check`` (and ``lint_source``, the language server core and the runtime twin's
reader), must leave the same diagnostics."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from flake8_tensorcopy.noqa import silences

#: (comment, what flake8 does with a TEN201 on that line), checked against flake8 below
SPELLINGS = [
    "# noqa",
    "# NOQA",
    "# NoQa",
    "#noqa",
    "#  noqa",
    "# noqa:TEN201",
    "# noqa: TEN201",
    "# noqa:  TEN201",
    "# NOQA:TEN101",
    "# noqa:TEN201,",
    "# noqa: TEN101,TEN201",
    "# noqa: TEN101, TEN201",
    "# noqa: TEN101 TEN201",
    "# noqa: TEN201 because it is intended",
    "# noqa: TEN101 because TEN201",
    "# noqa: TEN2",
    "# noqa: TEN",
    "# noqa:ten201",
    "# noqa: E501",
    "# noqa:because",
    "# noqa : TEN201",
    "# type: ignore # noqa: TEN201",
    "# something else # noqa",
    "# not a noqa: TEN201",
]


def _source(comments):
    lines = ["import torch", "t = torch.ones(2)"]
    for c in comments:
        lines.append(f"a = torch.tensor(t)  {c}")
    # a statement continued by a backslash: flake8 reads the comment on its last line for all
    lines.append("b = torch.tensor(t) + \\")
    lines.append("    1  # noqa: TEN201")
    # and a string over several lines
    lines.append('c = (torch.tensor(t), """')
    lines.append('""")  # noqa: TEN201')
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    d = tmp_path_factory.mktemp("noqa")
    f = d / "m.py"
    f.write_text(_source(SPELLINGS))
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "TEN", "m.py"],
                            cwd=str(d), capture_output=True, text=True, timeout=120)
    check = subprocess.run([sys.executable, "-m", "flake8_tensorcopy", "check", "--no-cache",
                            "--output-format", "json", "m.py"], cwd=str(d), capture_output=True,
                           text=True, timeout=120)
    theirs = sorted((int(l.split(":")[1]), l.split(": ")[1].split()[0])
                    for l in flake8.stdout.splitlines())
    ours = sorted((x["location"]["row"], x["code"]) for x in json.loads(check.stdout))
    return f, theirs, ours


def test_check_silences_exactly_what_flake8_silences(both):
    _, theirs, ours = both
    assert ours == theirs
    # the check can fail: flake8 itself leaves some and silences others
    kept = {line for line, _ in theirs}
    assert 0 < len(kept) < len(SPELLINGS)


def test_every_reader_agrees_with_flake8(both):
    from flake8_tensorcopy import lint_source
    from flake8_tensorcopy.config import Config
    from flake8_tensorcopy.server.core import lint_document

    f, theirs, _ = both
    text = f.read_text()
    assert sorted((d.line, d.code) for d in lint_source(text, str(f))) == theirs
    assert sorted((d.line, d.code) for d in lint_document(str(f), text, Config()).diagnostics) \
        == theirs
    # the runtime twin reads one physical line at a time with the same parser
    lines = text.splitlines()
    one_line = sorted((i + 3, "TEN201") for i, c in enumerate(SPELLINGS)
                      if not silences(lines[i + 2], "TEN201"))
    assert one_line == [x for x in theirs if x[0] < len(SPELLINGS) + 3]


@pytest.mark.parametrize("comment, silenced", [
    ("# noqa: TEN201 because x", True),
    ("# noqa:TEN101,", False),
    ("# NOQA:TEN201", True),
    ("# noqa:ten201", False),
    ("# noqa: TEN", True),   # no code reads as one: a bare noqa
    ("#noqa", False),
])
def test_the_parser(comment, silenced):
    assert silences(f"x = 1  {comment}\n", "TEN201") is silenced


@pytest.mark.parametrize("comment", ["# noqa: E501 because it is long", "# noqa:E501,",
                                     "# NOQA: E501  # and more"])
def test_the_language_servers_disable_action_writes_what_flake8_reads(tmp_path, comment):
    from flake8_tensorcopy.edits import apply_edits
    from flake8_tensorcopy.server.core import noqa_edit

    text = f"import torch\nt = torch.ones(2)\na = torch.tensor(t)  {comment}\n"
    edit = noqa_edit(text, 3, "TEN201")
    assert edit is not None
    new = apply_edits(text, [edit])
    assert "E501, TEN201" in new
    f = tmp_path / "m.py"
    f.write_text(new)
    res = subprocess.run([sys.executable, "-m", "flake8", "--select", "TEN", str(f)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout == "", res.stdout
