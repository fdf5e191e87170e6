"""Running every rule's claims (semantics, fix equivalence, speed) on the installed torch."""
from __future__ import annotations

import datetime
import platform
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ..rules import ALL_RULES
from . import stats
from .stats import DOES_NOT_HOLD, ERROR, HOLDS, NOT_RUN

#: exit status of `tensorcopy verify`
EXIT_OK, EXIT_DOES_NOT_HOLD, EXIT_USAGE, EXIT_ERROR = 0, 1, 2, 3


@dataclass
class ClaimResult:
    rule: str
    id: str
    kind: str
    device: str
    claim: str
    #: holds / does not hold / not shown / error (a harness step failed) / not run (no device)
    status: str
    measured: Dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    reason: str = ""

    @property
    def holds(self) -> bool:
        return self.status == HOLDS


def _status(value: Any) -> str:
    if isinstance(value, str):
        if value not in stats.STATUSES:
            raise ValueError(f"a claim returned the unknown status {value!r}")
        return value
    return HOLDS if value else DOES_NOT_HOLD


def _where(exc: BaseException) -> List[str]:
    return traceback.format_exc(limit=-2).strip().splitlines()[-3:]


# the idioms every "how to copy a tensor" guide tabulates; measured on a leaf that requires grad
GUIDE = (
    ("t.clone()", "t.clone()"),
    ("t.detach()", "t.detach()"),
    ("t.data", "t.data"),
    ("t.clone().detach()", "t.clone().detach()"),
    ("t.detach().clone()", "t.detach().clone()"),
    ("torch.tensor(t)", "torch.tensor(t)"),
    ("t.new_tensor(t)", "t.new_tensor(t)"),
    ("torch.Tensor(t)", "torch.Tensor(t)"),
    ("torch.as_tensor(t)", "torch.as_tensor(t)"),
    ("torch.empty_like(t).copy_(t)", "torch.empty_like(t).copy_(t)"),
    ("copy.deepcopy(t)", "copy.deepcopy(t)"),
)


def guide_table(torch, device: str) -> List[Dict[str, Any]]:
    import copy
    import warnings

    rows = []
    for label, expr in GUIDE:
        if expr == "torch.Tensor(t)" and device != "cpu":
            continue  # the legacy constructor only accepts CPU tensors
        t = torch.randn(3, device=device, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                r = eval(expr, {"torch": torch, "t": t, "copy": copy})
            except Exception as exc:  # pragma: no cover - reported in the table
                rows.append({"method": label, "error": f"{type(exc).__name__}"})
                continue
        graph = False
        if r.requires_grad:
            t.grad = None
            (r * 1.0).sum().backward()
            graph = t.grad is not None
        v0 = r._version
        with torch.no_grad():
            t.add_(0)
        rows.append({
            "method": label,
            "same_object": r is t,
            "requires_grad": r.requires_grad,
            "graph_kept": graph,
            "memory_shared": r.untyped_storage().data_ptr() == t.untyped_storage().data_ptr(),
            "version_shared": r._version != v0,
            "warns": any(issubclass(w.category, UserWarning) for w in caught),
        })
    return rows


def _fix_text(rule, case, after: Optional[str], n_kinds: int) -> str:
    before = case.body.strip().replace("\n    ", "; ")
    shown = "?" if after is None else after.replace(chr(10) + "    ", "; ")
    text = (f"`{before}` -> `{shown}` is equivalent on every tensor kind where either side runs "
            f"({n_kinds} kinds tried, at least one compared)")
    if case.differs:
        text += f" (documented differences: {', '.join(case.differs)})"
    return text


def _fix_claims(torch, rule, device: str) -> List[ClaimResult]:
    """One result per fix case. A kind where both sides raise the same error is not applicable;
    a case holds only when every applicable kind is equal and at least one kind was compared."""
    from . import equivalence
    from .tensors import KINDS

    out = []
    for i, case in enumerate(rule.fix_cases):
        if device not in case.devices:  # listed once, by ``run``, as a claim about other devices
            continue
        start = time.monotonic()
        kinds = case.kinds or KINDS
        failures: Dict[str, Any] = {}
        compared: List[str] = []
        not_applicable: List[str] = []
        after = None
        try:
            after = equivalence.fixed_source(rule.code, case.body).split("\n    ", 1)[-1].strip()
            for kind in kinds:
                res = equivalence.compare(torch, rule.code, case, kind, device)
                if not res.equal:
                    failures[kind] = {k: [repr(a), repr(b)] for k, (a, b) in res.differences.items()}
                elif res.applicable:
                    compared.append(kind)
                else:
                    not_applicable.append(kind)
        except Exception as exc:  # a harness step failed: this case could not be checked
            out.append(ClaimResult(rule.code, f"fix-{i + 1}", "fix", device,
                                   _fix_text(rule, case, after, len(kinds)), ERROR,
                                   {"kinds": list(kinds), "error": f"{type(exc).__name__}: {exc}",
                                    "where": _where(exc)},
                                   time.monotonic() - start, reason=f"{type(exc).__name__}: {exc}"))
            continue
        status = HOLDS if not failures and compared else DOES_NOT_HOLD
        measured = {"kinds": list(kinds), "compared": compared, "not_applicable": not_applicable,
                    "failures": failures}
        out.append(ClaimResult(rule.code, f"fix-{i + 1}", "fix", device,
                               _fix_text(rule, case, after, len(kinds)), status, measured,
                               time.monotonic() - start))
    return out


def run(torch, devices: List[str], codes: Optional[List[str]], quick: bool,
        progress=None, absent: Optional[Dict[str, str]] = None,
        sampler=None) -> List[ClaimResult]:
    """Run the claims of the selected rules on ``devices``.

    ``absent`` maps a device that was asked for but is not present to the reason; its claims are
    listed as not run. A claim about none of ``devices`` (a CUDA-only claim in a CPU run) is
    listed as not run too, never left out. ``sampler`` replaces the real timer (tests).
    """
    from .helper import Helper
    from .tensors import KINDS

    absent = dict(absent or {})
    rules = [r for r in ALL_RULES if not codes or r.code in codes]
    helpers = {d: Helper(torch, d, quick, sampler) for d in devices}
    jobs = []
    skipped: List[ClaimResult] = []
    for device in list(devices) + [d for d in absent if d not in devices]:
        for rule in rules:
            for claim in rule.claims:
                if device not in claim.devices:
                    continue
                if device in devices:
                    jobs.append(("claim", rule, claim, device))
                else:
                    skipped.append(ClaimResult(rule.code, claim.id, claim.kind, device, claim.text,
                                               NOT_RUN, reason=absent[device]))
            if any(device in case.devices for case in rule.fix_cases):
                if device in devices:
                    jobs.append(("fix", rule, None, device))
                else:
                    for i, case in enumerate(rule.fix_cases):
                        if device in case.devices:
                            skipped.append(ClaimResult(
                                rule.code, f"fix-{i + 1}", "fix", device,
                                _fix_text(rule, case, None, len(case.kinds or KINDS)), NOT_RUN,
                                reason=absent[device]))
    asked = set(devices) | set(absent)
    for rule in rules:  # claims and fix cases about no device of this run: listed once each
        for claim in rule.claims:
            if not set(claim.devices) & asked:
                skipped.append(ClaimResult(
                    rule.code, claim.id, claim.kind, claim.devices[0], claim.text, NOT_RUN,
                    reason=f"the claim is about {', '.join(claim.devices)} only, which this run "
                           f"did not verify"))
        for i, case in enumerate(rule.fix_cases):
            if not set(case.devices) & asked:
                skipped.append(ClaimResult(
                    rule.code, f"fix-{i + 1}", "fix", case.devices[0],
                    _fix_text(rule, case, None, len(case.kinds or KINDS)), NOT_RUN,
                    reason=f"the case is about {', '.join(case.devices)} only, which this run "
                           f"did not verify"))
    results: List[ClaimResult] = []
    for n, (what, rule, claim, device) in enumerate(jobs, 1):
        if progress:
            progress(n - 1, len(jobs), f"{rule.code} {claim.id if claim else 'fixes'} ({device})")
        if what == "fix":
            results.extend(_fix_claims(torch, rule, device))
            continue
        start = time.monotonic()
        reason = ""
        try:
            value, measured = claim.check(helpers[device])
            status = _status(value)
        except Exception as exc:  # a step of the check itself failed: could not be checked
            status, reason = ERROR, f"{type(exc).__name__}: {exc}"
            measured = {"error": reason, "where": _where(exc)}
        results.append(ClaimResult(rule.code, claim.id, claim.kind, device, claim.text,
                                   status, measured, time.monotonic() - start, reason))
    if progress:
        progress(len(jobs), len(jobs), "done")
    rows = [row for r in results if r.kind == "speed" for row in r.measured.get("rows", [])]
    stats.apply_fdr(rows)
    return results + skipped


def exit_code(results: List[ClaimResult]) -> int:
    """1 if a claim does not hold; otherwise 3 if a claim could not be checked; else 0."""
    statuses = {r.status for r in results}
    if DOES_NOT_HOLD in statuses:
        return EXIT_DOES_NOT_HOLD
    if ERROR in statuses:
        return EXIT_ERROR
    return EXIT_OK


# ----------------------------------------------------------------------------- reporting
def environment(torch, devices: List[str], absent: Optional[Dict[str, str]] = None,
                no_grad_cost: Optional[Dict[str, float]] = None) -> Dict[str, Any]:
    env = {"torch": torch.__version__, "python": platform.python_version(), "devices": devices,
           "not_verified": dict(absent or {}),
           "machine": f"{platform.system()} {platform.machine()}",
           "cpu_threads": torch.get_num_threads(),
           "date": datetime.date.today().isoformat()}
    if "cuda" in devices:
        env["gpu"] = torch.cuda.get_device_name(0)
        env["cuda"] = torch.version.cuda
    if no_grad_cost:
        env["no_grad_entry"] = no_grad_cost
    return env
