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
