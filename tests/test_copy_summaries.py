"""``semantic.index.copy_summaries``: what a project function writes into one of its
parameters from another, in place, on every call (TEN403's writers handed two views of one
tensor)."""
import ast
import json
import os

import pytest

from flake8_tensorcopy.semantic.index import FileContext
from flake8_tensorcopy.semantic.index.copy_summaries import writes_from

SOURCE = """\
def copy_into(dst, src):
    dst.copy_(src)


def fill_from(scale, dst, src):
    dst[:] = src[:]
    dst.mul_(scale)


def maybe(dst, src, enabled):
    if enabled:
        dst.copy_(src)


def rebound(dst, src):
    src = src.clone()
    dst.copy_(src)


def early(dst, src):
    return None
    dst.copy_(src)


def part(dst, src):
    dst[1:] = src


def from_itself(dst):
    dst.copy_(dst)


@staticmethod
def decorated(dst, src):
    dst.copy_(src)


class Box:
    def put(self, dst, src):
        dst.copy_(src)
"""


@pytest.fixture
def defs(tmp_path):
    path = tmp_path / "writers.py"
    path.write_text(SOURCE)
    ctx = FileContext(str(path), ast.parse(SOURCE), SOURCE)
    yield ctx.facts().defs
    ctx.release()


@pytest.mark.parametrize("name, pairs", [
    ("copy_into", {(0, 1)}),
    ("fill_from", {(1, 2)}),
    ("maybe", set()),  # only on some calls
    ("rebound", set()),  # the read is a copy by then
    ("early", set()),  # never reached
    ("part", set()),  # a part of the parameter: the caller's view is not the one written
    ("from_itself", set()),
    ("decorated", set()),
])
def test_the_parameters_a_function_writes_from_others(defs, name, pairs):
    assert set(writes_from(defs[name])) == pairs


def test_a_method_is_not_summarised(defs):
    assert writes_from(defs["Box"].method("put")) == frozenset()


def test_a_writer_of_another_module_handed_overlapping_views_through_the_cli(tmp_path):
    """``ops.copy_into(ring[1:], ring[:-1])`` with ``copy_into`` in another module of the
    project: reported at the call, with an unsafe fix; a cloned read and disjoint halves not."""
    from .conftest import tensorcopy

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "ops.py").write_text("def copy_into(dst, src):\n    dst.copy_(src)\n")
    (pkg / "main.py").write_text(
        "import torch\n\nfrom . import ops\n\n\ndef main():\n"
        "    ring = torch.arange(6.0)\n"
        "    ops.copy_into(ring[1:], ring[:-1])\n"
        "    ops.copy_into(ring[1:], ring[:-1].clone())\n"
        "    ops.copy_into(ring[:3], ring[3:])\n")
    proc = tensorcopy("check", "--no-cache", "--output-format", "json", "--exit-zero", ".",
                      cwd=str(tmp_path))
    got = [(os.path.basename(d["filename"]), d["location"]["row"], d["code"],
            d["fix"]["applicability"] if d.get("fix") else None)
           for d in json.loads(proc.stdout)]
    assert got == [("main.py", 8, "TEN403", "unsafe")], proc.stdout
