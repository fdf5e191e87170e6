"""``semantic.view_helpers``: a call of a function of the module that returns a basic-slice view
of a parameter stands for that view of its argument; anything else is no view."""
import ast

from flake8_tensorcopy.semantic.view_helpers import returned_view
from flake8_tensorcopy.syntax.build import parse_expression

MODULE = ast.parse('''
def tail(x, k):
    return x[..., k:]

def head(x, k):
    """doc"""
    return x[..., :-k]

def copied(x, k):
    return x[..., :-k].clone()

def two(x, k):
    y = x
    return y[k:]

def by_other(x, k, n):
    return x[:, k:n + k]

def index_call(x, k):
    return x[:, len(k):]

def rebound(x, k):
    return x[k:]

rebound = copied
''')


def _view(text):
    """The view's source text, or None (each tree node keeps its ``ast`` as ``_a``)."""
    got = returned_view(MODULE, parse_expression(text), lambda n: ast.unparse(n._a))
    return None if got is None else ast.unparse(got._a)


def test_a_view_of_the_argument():
    assert _view("tail(self.state, 1)") == "self.state[..., 1:]"
    assert _view("head(buf, n - 1)") == "buf[..., :-(n - 1)]"  # (a docstring first)
    assert _view("by_other(buf, 1, n)") == "buf[:, 1:n + 1]"


def test_no_view():
    assert _view("copied(buf, 1)") is None  # a copy
    assert _view("two(buf, 1)") is None  # more than a return
    assert _view("index_call(buf, ks)") is None  # a call in the index
    assert _view("rebound(buf, 1)") is None  # rebound after its def
    assert _view("tail(buf)") is None  # not every parameter handed
    assert _view("missing(buf, 1)") is None


def test_a_view_helper_of_another_module(tmp_path):
    """``from utils import window``: the project index finds the ``def`` that returns a view
    (round 18's ``rl_agent/buffers.py``); flake8 reports the overlapping write through it, not
    the cloned one."""
    from .conftest import flake8

    (tmp_path / "setup.cfg").write_text("[metadata]\nname = p\n")
    (tmp_path / "utils.py").write_text(
        "def window(t, start, stop):\n    \"\"\"A view.\"\"\"\n    return t[:, start:stop]\n")
    (tmp_path / "buffers.py").write_text(
        "import torch\n"
        "from utils import window\n\n\n"
        "class Stack:\n"
        "    def __init__(self, k):\n"
        "        self.k = k\n"
        "        self.frames = torch.zeros(2, k, 3)\n\n"
        "    def add(self, obs):\n"
        "        k = self.k\n"
        "        window(self.frames, 0, k - 1).copy_(window(self.frames, 1, k))\n"
        "        window(self.frames, 0, k - 1).copy_(window(self.frames, 1, k).clone())\n"
        "        self.frames[:, k - 1] = obs\n")
    proc = flake8("--select", "TEN403", "--format", "%(path)s:%(row)d", ".", cwd=str(tmp_path))
    assert proc.stdout.split() == ["./buffers.py:12"], proc.stdout + proc.stderr
