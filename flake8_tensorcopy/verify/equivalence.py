"""Run a rule's fix cases before and after the real fix; compare everything observable."""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Tuple

from ..fixes import fix_source
from .tensors import KINDS, make, receiver

HEADER = "import torch\n\n\ndef f(t: torch.Tensor, x: torch.Tensor):\n    "


def case_source(body: str) -> str:
    return HEADER + body + "\n"


def fixed_source(rule_code: str, body: str) -> str:
    before = case_source(body)
    result = fix_source(before, unsafe=True, select=(rule_code,))
    return result.source


def _storage_ptr(torch, t) -> int:
    try:
        return t.untyped_storage().data_ptr()
    except Exception:  # pragma: no cover
        return t.data_ptr()


class HarnessError(Exception):
    """One of the harness's own steps (backward, the version probe) failed: the case could not
    be checked. Distinct from "the two sides differ"."""

    def __init__(self, step: str, exc: BaseException) -> None:
        super().__init__(f"{step} failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
        self.step = step


def _storage_range(torch, t) -> Tuple[int, int]:
    try:
        s = t.untyped_storage()
        return s.data_ptr(), s.data_ptr() + s.nbytes()
    except Exception:  # pragma: no cover
        return t.data_ptr(), t.data_ptr() + t.numel() * t.element_size()


def _observe_array(obs: Dict[str, Any], torch, out, t) -> None:
    """A NumPy result: values, dtype, shape, strides and whether it shares ``t``'s memory."""
    obs["type"] = "ndarray"
    obs["np_dtype"] = str(out.dtype)
    obs["shape"] = tuple(out.shape)
    obs["np_strides"] = tuple(out.strides)
    obs["values"] = (str(out.dtype), tuple(out.shape), tuple(out.reshape(-1).tolist()))
    lo, hi = _storage_range(torch, t)
    ptr = out.__array_interface__["data"][0]
    obs["shares_memory"] = out.nbytes > 0 and lo <= ptr < hi


def observe(torch, src: str, kind: str, device: str) -> Dict[str, Any]:
    """Everything we compare, for one run of ``f`` from ``src`` on a fresh ``t`` of ``kind``.

    Raises HarnessError when a step of the harness itself (not ``f``) fails.
    """
    ns: Dict[str, Any] = {}
    exec(compile(src, "<fix-case>", "exec"), ns)
    t, leaf = make(torch, kind, device)
    x = receiver(torch, device)
    before_version = t._version
    before_values = t.detach().clone()
    obs: Dict[str, Any] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = ns["f"](t, x)
        except Exception as exc:  # both sides must fail the same way
            obs["error"] = type(exc).__name__
            obs["error_message"] = str(exc).split("\n")[0]
            obs["warning"] = sorted({str(w.category.__name__) for w in caught})
            return obs
    obs["warning"] = sorted({str(w.category.__name__) for w in caught})
    obs["input_values"] = _values(torch, t)
    obs["input_version"] = t._version - before_version
    obs["input_type"] = type(t).__name__
    obs["input_requires_grad"] = t.requires_grad
    if isinstance(out, torch.Tensor):
        obs["is_input"] = out is t
        obs["type"] = type(out).__name__
        obs["values"] = _values(torch, out)
        obs["dtype"] = str(out.dtype)
        obs["device"] = out.device.type
        obs["shape"] = tuple(out.shape)
        obs["stride"] = out.stride()
        obs["requires_grad"] = out.requires_grad
        obs["is_leaf"] = out.is_leaf
        obs["grad_fn"] = out.grad_fn is not None
        obs["shares_memory"] = _storage_ptr(torch, out) == _storage_ptr(torch, t)
        if out.requires_grad and out.is_floating_point() and leaf is not None:
            try:
                out.sum().backward(retain_graph=False)
            except Exception as exc:
                raise HarnessError("backward", exc) from exc
            obs["grad"] = None if leaf.grad is None else _values(torch, leaf.grad)
        else:
            obs["grad"] = None
        # does a tracked write to the input move the result's version counter?
        v = out._version
        if not obs["is_input"]:
            try:
                with torch.no_grad():
                    t.add_(0) if not t.is_leaf or not t.requires_grad else t.mul_(1)
            except Exception as exc:
                raise HarnessError("version probe", exc) from exc
            obs["vc_shared"] = out._version != v
        else:
            obs["vc_shared"] = True
    elif type(out).__module__ == "numpy" and hasattr(out, "__array_interface__"):
        _observe_array(obs, torch, out, t)
    else:
        obs["type"] = repr(type(out))
        if isinstance(out, (bool, int, float, complex, str, tuple, list, type(None))):
            obs["result"] = repr(out)
    del before_values
    return obs


def _values(torch, t) -> Tuple:
    c = t.detach().to("cpu")
    return (str(c.dtype), tuple(c.shape), tuple(c.reshape(-1).tolist()))


@dataclass
class CaseResult:
    rule: str
    body: str
    kind: str
    device: str
    after: str
    equal: bool
    differences: Dict[str, Tuple[Any, Any]] = field(default_factory=dict)
    allowed: Tuple[str, ...] = ()
    #: False when both sides raise the same kind of error: the kind proves nothing
    applicable: bool = True


def compare(torch, rule_code: str, case, kind: str, device: str) -> CaseResult:
    before = case_source(case.body)
    after = fixed_source(rule_code, case.body)
    if not getattr(case, "fixed", True):  # no fix may be offered: the body must stay as it is
        diffs = {} if after == before else {"fix": ("not applied", "applied")}
        return CaseResult(rule_code, case.body, kind, device, after, not diffs, diffs,
                          case.differs)
    if after == before:
        return CaseResult(rule_code, case.body, kind, device, after, False,
                          {"fix": ("applied", "not applied")}, case.differs)
    a = observe(torch, before, kind, device)
    b = observe(torch, after, kind, device)
    diffs = {}
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key) and key not in case.differs:
            diffs[key] = (a.get(key), b.get(key))
    applicable = not ("error" in a and "error" in b and a["error"] == b["error"])
    return CaseResult(rule_code, case.body, kind, device, after, not diffs, diffs, case.differs,
                      applicable)


def rejected_differences(torch, case, kind: str, device: str) -> Dict[str, Tuple[Any, Any]]:
    """How ``case.rejected`` (the rewrite no fix may write) behaves differently from the body."""
    a = observe(torch, case_source(case.body), kind, device)
    b = observe(torch, case_source(case.rejected), kind, device)
    return {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


def run_all(torch, rules, devices: List[str]) -> List[CaseResult]:
    out = []
    for rule in rules:
        for case in rule.fix_cases:
            for kind in case.kinds or KINDS:
                for device in devices:
                    out.append(compare(torch, rule.code, case, kind, device))
    return out
