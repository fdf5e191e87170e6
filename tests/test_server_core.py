"""The language server's editor-independent half (no pygls needed): positions in UTF-16 / UTF-8 /
code points, noqa edits, the minimal fix-all edit, per-project configuration reload."""
import ast
import os
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from flake8_tensorcopy.engine import analyze
from flake8_tensorcopy.noqa import filter_noqa
from flake8_tensorcopy.fixes import apply_edits
from flake8_tensorcopy.server.core import (UTF8, UTF16, UTF32, Configs, TextIndex, lint_document,
                                           minimal_edit, noqa_edit)

SRC = "import torch\n\n\ndef f(a):\n    b = torch.tensor(a.clone().detach())\n    return b\n"


def test_positions_round_trip_in_every_encoding():
    text = 'x = "\U0001F600é"; y = 1\r\nz = "ü"\rw = 2\n'
    index = TextIndex(text)
    for enc in (UTF8, UTF16, UTF32):
        for offset in range(len(text)):
            line, col = index.line_col(offset)
            if col > len(index.line_text(line - 1)):
                continue  # inside a line ending
            lsp = index.to_lsp(line, col, enc)
            assert index.from_lsp(*lsp, enc) == (line, col), (enc, offset)
    # the emoji counts 2 in UTF-16, 4 in UTF-8, 1 as a code point
    after = text.index("é")
    assert index.to_lsp(1, after, UTF16)[1] == after + 1
    assert index.to_lsp(1, after, UTF8)[1] == after + 3
    assert index.to_lsp(1, after, UTF32)[1] == after


def test_positions_past_the_end_are_clamped():
    index = TextIndex("a = 1\n")
    assert index.from_lsp(99, 0) == (2, 0)
    assert index.from_lsp(0, 99) == (1, 5)


def _silenced(text, code, line):
    return not [d for d in filter_noqa(analyze(text), text) if d.code == code and d.line == line]


def test_noqa_new_comment_and_merge():
    edit = noqa_edit(SRC, 5, "TEN201")
    new = apply_edits(SRC, [edit])
    assert new.splitlines()[4].endswith(")  # noqa: TEN201")
    assert _silenced(new, "TEN201", 5) and not _silenced(new, "TEN301", 5)
    merged = apply_edits(new, [noqa_edit(new, 5, "TEN301")])
    assert merged.splitlines()[4].endswith("# noqa: TEN201, TEN301")
    assert _silenced(merged, "TEN301", 5)


def test_noqa_refused_where_it_cannot_help_or_would_break():
    bare = SRC.replace("detach())\n", "detach())  # noqa\n")
    assert noqa_edit(bare, 5, "TEN201") is None  # a bare noqa already silences everything
    # a statement continued by a backslash, a string over two lines: flake8 searches the
    # whole token run, so the comment goes to the run's last line
    continued = SRC.replace("detach())\n", "detach()) + \\\n        1\n")
    in_string = 'import torch\n\n\ndef f(a):\n    b = (torch.tensor(a.detach()), """x\ny""")\n'
    for text in (continued, in_string):
        new = apply_edits(text, [noqa_edit(text, 5, "TEN201")])
        assert new.splitlines()[5].endswith("  # noqa: TEN201"), new
        assert new.splitlines()[:5] == text.splitlines()[:5]
        ast.parse(new)
        assert "TEN201" in {d.code for d in analyze(text) if d.line == 5}
        assert "TEN201" not in {d.code for d in filter_noqa(analyze(new), new) if d.line == 5}
    quoted = SRC.replace("detach())\n", 'detach()); s = "# noqa: E501"\n')
    assert noqa_edit(quoted, 5, "TEN201") is None
    assert noqa_edit(SRC, 99, "TEN201") is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_minimal_edit_turns_old_into_new(old, new):
    edit = minimal_edit(old, new)
    if old == new:
        assert edit is None
    else:
        assert apply_edits(old, [edit]) == new


def test_config_is_reread_when_pyproject_changes(tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.tensorcopy]\nignore = ["TEN301"]\n')
    path = str(tmp_path / "m.py")
    configs = Configs()
    cfg, error = configs.for_path(path)
    assert error is None
    assert [d.code for d in lint_document(path, SRC, cfg).diagnostics] == ["TEN201"]
    pyproject.write_text('[tool.tensorcopy]\nignore = ["TEN2"]\n')
    later = time.time() + 5
    os.utime(pyproject, (later, later))  # a distinct mtime even on coarse clocks
    cfg, _ = configs.for_path(path)
    assert [d.code for d in lint_document(path, SRC, cfg).diagnostics] == ["TEN301"]
    pyproject.write_text('[tool.tensorcopy]\nignore = "TEN2"\n')
    os.utime(pyproject, (later + 5, later + 5))
    cfg, error = configs.for_path(path)
    assert "ignore must be a list" in error and cfg.ignore == []


def test_lint_document_never_raises_on_broken_or_deep_text():
    assert lint_document("m.py", "def f(:\n", Configs().for_path(None)[0]).diagnostics == []
    deep = "x = " + "(" * 5000 + ")" * 5000 + "\n"
    assert lint_document("m.py", deep, Configs().for_path(None)[0]).diagnostics == []
    ast.parse(SRC)


def test_notebook_fix_all_edits_each_cell_like_fix_source():
    from flake8_tensorcopy.config import Config
    from flake8_tensorcopy.fixes import fix_source
    from flake8_tensorcopy.server.core import join_notebook, notebook_fix_all

    cells = [("c1", "import torch\n%matplotlib inline\nx = torch.ones(3)"),
             ("c2", "y = x.clone().detach()\n!ls\nz = torch.tensor(y)"),
             ("c3", "w = torch.empty_like(z).copy_(z)\n"),
             ("c4", "print(w)")]
    per_cell = notebook_fix_all("nb.ipynb", cells, Config())
    assert set(per_cell) == {"c2", "c3"}
    new_cells = [(u, apply_edits(t, per_cell.get(u, []))) for u, t in cells]
    assert new_cells[0] == cells[0] and new_cells[3] == cells[3]
    assert "!ls" in new_cells[1][1] and not new_cells[2][1].endswith("\n\n")
    assert join_notebook(new_cells)[0] == fix_source(join_notebook(cells)[0]).source
