"""Each fix, executed: before and after run on real tensors of many kinds and must agree.

Compared: result values, dtype, device, shape, strides, type, requires_grad, is_leaf, grad_fn
presence, the gradients reaching the input, memory and version-counter sharing with the input,
the input's values and version afterwards, warnings and errors. Only the properties a rule's
fix documents as changed (its ``differs``) may differ.
"""
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed; fix execution tests need it")

from flake8_tensorcopy.rules import ALL_RULES  # noqa: E402
from flake8_tensorcopy.verify.equivalence import compare  # noqa: E402
from flake8_tensorcopy.verify.tensors import KINDS  # noqa: E402

CASES = [(rule.code, case, kind) for rule in ALL_RULES for case in rule.fix_cases
         for kind in (case.kinds or KINDS)]
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def test_every_rule_with_a_fix_has_execution_cases():
    for rule in ALL_RULES:
        if rule.fix_safety is not None:
            assert rule.fix_cases, rule.code


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("code,case,kind", CASES,
                         ids=[f"{c}-{i}-{k}" for i, (c, _, k) in enumerate(CASES)])
def test_fix_is_equivalent(code, case, kind, device):
    result = compare(torch, code, case, kind, device)
    assert result.equal, f"{code} on {kind}: {result.differences}\n{result.after}"


def test_documented_differences_are_real():
    """The unsafe parts are not hypothetical: each listed difference shows on some tensor kind."""
    from flake8_tensorcopy.verify.equivalence import case_source, fixed_source, observe

    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for rule in ALL_RULES:
        for case in rule.fix_cases:
            # warnings may be WARN_ONCE per process, error texts only differ on failing kinds; a
            # device change (TEN204 on CUDA) shows only where a GPU is present
            interesting = [d for d in case.differs if d not in ("error_message", "warning")
                           and (d != "device" or "cuda" in devices)]
            seen = set()
            for device in devices:
                if device not in case.devices:
                    continue
                for kind in case.kinds or KINDS:
                    a = observe(torch, case_source(case.body), kind, device)
                    b = observe(torch, fixed_source(rule.code, case.body), kind, device)
                    seen |= {k for k in interesting if a.get(k) != b.get(k)}
            assert seen == set(interesting), (rule.code, case.body, set(interesting) - seen)


def test_every_fix_case_is_compared_on_some_kind():
    """A kind where both sides raise the same error proves nothing; each case needs one that runs."""
    for rule in ALL_RULES:
        for case in rule.fix_cases:
            ran = [k for k in (case.kinds or KINDS) if compare(torch, rule.code, case, k, "cpu").applicable]
            assert ran, (rule.code, case.body)


def test_numpy_results_are_compared_by_value_and_memory():
    """`.numpy()` results: a zeroed or copied array is a difference, not just the same type."""
    from flake8_tensorcopy.rules.base import FixCase
    from flake8_tensorcopy.verify.equivalence import case_source, observe

    case = FixCase("return t.data.numpy()")
    a = observe(torch, case_source("return t.data.numpy()"), "plain", "cpu")
    assert a["type"] == "ndarray" and a["shares_memory"] is True and a["np_dtype"] == "float32"
    for body in ("return t.detach().numpy() * 0", "return t.detach().numpy().copy()",
                 "return t.detach().numpy().astype('float64')", "return t.detach().numpy().T"):
        b = observe(torch, case_source(body), "plain", "cpu")
        assert a != b, body
    assert compare(torch, "TEN101", case, "plain", "cpu").equal


def test_withheld_fixes_would_change_behaviour():
    """A case marked ``fixed=False`` gets no fix (checked above); its ``rejected`` rewrite, the one
    a careless fix would write, behaves differently on some tensor kind: the reason for no fix."""
    from flake8_tensorcopy.verify.equivalence import rejected_differences

    withheld = [(rule.code, case) for rule in ALL_RULES for case in rule.fix_cases
                if not case.fixed]
    assert {code for code, _ in withheld} >= {"TEN102", "TEN401"}
    for code, case in withheld:
        assert case.rejected, (code, case.body)
        assert any(rejected_differences(torch, case, kind, "cpu") for kind in case.kinds or KINDS), \
            (code, case.body)
