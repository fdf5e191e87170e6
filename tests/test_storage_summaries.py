"""Storage summaries of project functions (``semantic/index/storage_summaries.py``): which
returned value or tuple item shares memory with which parameter, on every return path; and
TEN405 asking them at a call, through the CLI over a package of two modules."""
import ast
import textwrap

import pytest

from flake8_tensorcopy.semantic.index.storage_summaries import summarize_function
from flake8_tensorcopy.semantic.storage import ALIAS, BRIDGE, CONVERSION
from flake8_tensorcopy.syntax.storage_shapes import helper_written

from .conftest import tensorcopy


def _summary(src):
    fn = ast.parse(textwrap.dedent(src)).body[-1]
    return summarize_function(fn).items


def test_from_numpy_of_a_parameter():
    items = _summary("""
        def to_tensor(a):
            return torch.from_numpy(a)
    """)
    fact = items[None]
    assert (fact.param, fact.index, fact.how, fact.conditions) == ("a", 0, BRIDGE, ())
    assert fact.base_array and not fact.value_array


def test_tuple_items_and_paths_that_return_the_parameter_itself():
    items = _summary(PACKAGE_UTILS)  # ``cast_inputs``: the bridge on one path, ``x`` on the other
    assert items[0].how == BRIDGE and items[0].param == "x"
    assert items[1].how == ALIAS and items[1].param == "y"


def test_a_name_rebound_through_sharing_steps_and_numpy():
    items = _summary("""
        def as_array(t, detach=False):
            if detach:
                t = t.detach()
            return t.numpy()
    """)
    assert items[None].how == BRIDGE and items[None].value_array and items[None].param == "t"


def test_a_conversion_on_the_way_carries_its_condition():
    items = _summary("""
        def as_float(a):
            return torch.from_numpy(a).float()
    """)
    assert items[None].how == BRIDGE
    assert items[None].conditions == ("when it is already float32",)


def test_if_expression_both_sides():
    items = _summary("""
        def maybe(a):
            return torch.from_numpy(a) if isinstance(a, np.ndarray) else a
    """)
    assert items[None].how == BRIDGE


@pytest.mark.parametrize("src", [
    # a path that copies
    """
    def f(a, fresh):
        if fresh:
            return torch.tensor(a)
        return torch.from_numpy(a)
    """,
    # falls off the end: None on that path
    """
    def f(a):
        if a is not None:
            return torch.from_numpy(a)
    """,
    # a bare return
    """
    def f(a):
        if a is None:
            return
        return torch.from_numpy(a)
    """,
    # a generator
    """
    def f(a):
        yield 1
        return torch.from_numpy(a)
    """,
    # two parameters on two paths
    """
    def f(a, b, first):
        if first:
            return torch.from_numpy(a)
        return torch.from_numpy(b)
    """,
    # the name bound another way (a loop target)
    """
    def f(a):
        t = torch.from_numpy(a)
        for t in range(3):
            pass
        return t
    """,
    # a copy of the parameter first
    """
    def f(a):
        return torch.from_numpy(a.copy())
    """,
    # an unknown decorator may change what it returns
    """
    @cache_to_disk
    def f(a):
        return torch.from_numpy(a)
    """,
    # only a conversion, no bridge: kept out (TEN405 asks for the bridge)
    """
    def f(t):
        return t.cpu()
    """,
])
def test_no_bridge_fact(src):
    items = _summary(src)
    assert all(fact.how != BRIDGE for fact in items.values())


def test_tuple_widths_must_agree():
    assert _summary("""
        def f(a, b):
            if b:
                return torch.from_numpy(a), b
            return torch.from_numpy(a), b, 1
    """) == {}


def test_the_prefilter_gate_binds_a_helper_result_and_writes_it():
    fn = ast.parse(textwrap.dedent("""
        def prep(x, y):
            x_t, y_t = cast(x, y)
            x_t /= 2
            return x_t
    """)).body[0]
    assert helper_written(fn, frozenset({"cast"}))
    assert not helper_written(fn, frozenset({"other"}))


PACKAGE_UTILS = """
import numpy as np


def cast_inputs(x, y=None):
    import torch
    if isinstance(x, np.ndarray):
        x_tensor = torch.from_numpy(x)
    else:
        x_tensor = x
    return x_tensor, y
"""

PACKAGE_DETECTOR = """
from pkg.utils import cast_inputs


class Detector:
    def preprocess(self, x, y=None):
        import torch
        norm = self.clip_values[1]
        x_tensor, y_tensor = cast_inputs(x, y)
        if not self.channels_first:
            x_tensor = torch.permute(x_tensor, (0, 3, 1, 2))
        x_tensor /= norm
        return x_tensor, y_tensor

    def preprocess_fixed(self, x, y=None):
        norm = self.clip_values[1]
        x_tensor, y_tensor = cast_inputs(x, y)
        x_tensor = x_tensor / norm
        return x_tensor, y_tensor

    def preprocess_reshaped(self, x, y=None):
        x_tensor, y_tensor = cast_inputs(x, y)
        x_tensor = x_tensor.reshape(-1)
        x_tensor /= 2
        return x_tensor
"""


def test_cli_reports_the_callers_array_written_through_a_helper_of_another_module(write):
    write("pkg/__init__.py", "")
    write("pkg/utils.py", PACKAGE_UTILS)
    path = write("pkg/detector.py", PACKAGE_DETECTOR)
    r = tensorcopy("check", "--no-cache", "--select", "TEN405", str(path.parent))
    lines = [line for line in r.stdout.splitlines() if "TEN405" in line]
    assert len(lines) == 1, r.stdout + r.stderr
    assert "detector.py:9:" in lines[0]
    assert "`x_tensor, y_tensor = cast_inputs(x, y)` shares memory with `x` through " \
           "`x_tensor`" in lines[0]
    assert "the caller's argument" in lines[0] and "`x_tensor = x_tensor / norm`" in lines[0]


@pytest.mark.parametrize("write,fixed", [
    ("t.clamp_(0, 1)", "`t = t.clamp(0, 1)`"),
    ("t //= 2", "`t = t // 2`"),
    ("t.zero_()", "`t = t.clone()`"),  # no ``zero()``: a copy before the write
])
def test_the_message_names_the_out_of_place_form(write, fixed):
    from flake8_tensorcopy import lint_source
    src = ("import torch\n\n\ndef to_tensor(a):\n    return torch.from_numpy(a)\n\n\n"
           f"def f(a):\n    t = to_tensor(a)\n    {write}\n    return t\n")
    found = [d for d in lint_source(src, "m.py") if d.code == "TEN405"]
    assert len(found) == 1 and found[0].line == 9
    assert fixed in found[0].message


@pytest.mark.parametrize("imports,call", [
    ("from pkg import utils", "utils.to_tensor(a)"),
    ("import pkg.utils as utils", "utils.to_tensor(a)"),
])
def test_a_helper_of_a_module_imported_whole_is_followed(write, imports, call):
    """``utils.to_tensor(a)``, a function of a project module, is followed as ``to_tensor(a)``
    is (before: only a helper called by name); a function of that module that copies, and a
    method of an instance, are not reports."""
    write("pkg/__init__.py", "")
    write("pkg/utils.py", "import torch\n\n\ndef to_tensor(a):\n    return torch.from_numpy(a)\n"
                          "\n\ndef copied(a):\n    return torch.from_numpy(a.copy())\n")
    path = write("pkg/prep.py", f"{imports}\n\n\ndef scale(a):\n    t = {call}\n    t /= 255\n"
                                "    return t\n\n\ndef scale_copy(a):\n"
                                "    t = utils.copied(a)\n    t /= 255\n    return t\n")
    r = tensorcopy("check", "--no-cache", "--select", "TEN405", str(path))
    lines = [line for line in r.stdout.splitlines() if "TEN405" in line]
    assert len(lines) == 1 and "prep.py:5:" in lines[0], r.stdout + r.stderr
    assert "the caller's argument" in lines[0] and "`t = t / 255`" in lines[0]
