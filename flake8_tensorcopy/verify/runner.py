"""``tensorcopy verify``: run every rule's claims on the installed torch; report what holds."""
from __future__ import annotations

import datetime
import json
import os
import platform
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

from ..rules import ALL_RULES
from . import stats
from .helper import ROUNDS
from .stats import DOES_NOT_HOLD, ERROR, HOLDS, NOT_RUN, NOT_SHOWN

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
            if rule.fix_cases:
                if device in devices:
                    jobs.append(("fix", rule, None, device))
                else:
                    for i, case in enumerate(rule.fix_cases):
                        skipped.append(ClaimResult(
                            rule.code, f"fix-{i + 1}", "fix", device,
                            _fix_text(rule, case, None, len(case.kinds or KINDS)), NOT_RUN,
                            reason=absent[device]))
    for rule in rules:  # claims about no device of this run
        for claim in rule.claims:
            if not set(claim.devices) & set(devices) and not set(claim.devices) & set(absent):
                skipped.append(ClaimResult(
                    rule.code, claim.id, claim.kind, claim.devices[0], claim.text, NOT_RUN,
                    reason=f"the claim is about {', '.join(claim.devices)} only, which this run "
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


def _ci(row: Dict[str, Any]) -> str:
    return f"{row['ratio']:.2f} [{row['ratio_low']:.2f}, {row['ratio_high']:.2f}]"


def _summarize(r: ClaimResult) -> str:
    measured = r.measured
    if r.status == NOT_RUN:
        return f"not run: {r.reason}"
    if r.status == ERROR:
        text = f"error: {r.reason or measured.get('error', '')}"
        return text if len(text) <= 200 else text[:197] + "..."
    if "rows" in measured:
        claimed = [row for row in measured["rows"] if row.get("claimed")]
        return "; ".join(
            f"n={row['n']}, rg={row['requires_grad']}, {row['mode']}: A/B {_ci(row)} "
            f"(95% CI; needs >= {1 + measured.get('min_effect', stats.MIN_EFFECT):.2f}): "
            f"{row.get('verdict', '')}" for row in claimed)
    if "failures" in measured:
        na = measured.get("not_applicable", [])
        compared = measured.get("compared", [])
        if measured["failures"]:
            return "differs on " + ", ".join(measured["failures"])
        text = f"equal on {len(compared)} of {len(measured.get('kinds', []))} kinds"
        if na:
            text += f"; not applicable (both sides raise) on {len(na)}: {', '.join(na)}"
        if not compared:
            text += "; no kind compared"
        return text
    text = ", ".join(f"{k}={v}" for k, v in measured.items() if k != "where")
    return text if len(text) <= 160 else text[:157] + "..."


def _counts(results: List[ClaimResult]) -> Dict[str, int]:
    return {s: sum(r.status == s for r in results) for s in stats.STATUSES}


def _count_line(results: List[ClaimResult]) -> str:
    c = _counts(results)
    checked = len(results) - c[NOT_RUN]
    parts = [f"{c[HOLDS]} of {checked} claims hold"]
    for s in (DOES_NOT_HOLD, NOT_SHOWN, ERROR):
        if c[s]:
            parts.append(f"{c[s]} {'could not be checked (error)' if s == ERROR else s}")
    if c[NOT_RUN]:
        parts.append(f"{c[NOT_RUN]} not run (device not verified)")
    return "; ".join(parts) + "."


def to_json(env: Dict[str, Any], results: List[ClaimResult], guide=None) -> str:
    claims = []
    for r in results:
        d = {k: v for k, v in asdict(r).items() if k != "seconds"}
        d["holds"] = r.holds
        claims.append(d)
    doc = {"torch": env["torch"], "python": env["python"], "devices": env["devices"],
           "environment": env, "counts": _counts(results), "claims": claims}
    if guide is not None:
        doc["guide"] = guide
    return json.dumps(doc, indent=2, default=str)


def _devices_line(env: Dict[str, Any]) -> str:
    text = f"devices verified: {', '.join(env['devices']) or 'none'}"
    for d, why in env.get("not_verified", {}).items():
        text += f"; {d} not verified ({why})"
    return text


def to_text(env: Dict[str, Any], results: List[ClaimResult]) -> str:
    lines = [f"torch {env['torch']}, Python {env['python']}, {_devices_line(env)}"]
    width = max((len(r.id) for r in results), default=10)
    marks = {HOLDS: "holds", DOES_NOT_HOLD: "FAILS", NOT_SHOWN: "not shown", ERROR: "ERROR",
             NOT_RUN: "not run"}
    for r in results:
        lines.append(f"{r.rule}  {r.device:<4}  {r.kind:<9}  {r.id:<{width}}  "
                     f"{marks[r.status]:<9}  {_summarize(r)}")
    lines.append(_count_line(results))
    return "\n".join(lines)


def _yn(v: Any) -> str:
    return "yes" if v is True else "no" if v is False else str(v)


def _p(p: float) -> str:
    return f"{p:.4f}" if p >= 0.0001 else f"{p:.1e}"


def _rounds(speed: List[ClaimResult]) -> str:
    counts = sorted({row["rounds"] for r in speed for row in r.measured.get("rows", [])})
    return "/".join(str(c) for c in counts) or str(ROUNDS)


def _md_status(status: str) -> str:
    return {HOLDS: "yes", DOES_NOT_HOLD: "**no**", NOT_SHOWN: "not shown", ERROR: "**error**",
            NOT_RUN: "not run"}[status]


def to_markdown(env: Dict[str, Any], results: List[ClaimResult], guides: Dict[str, list],
                quick: bool, command: Optional[str] = None,
                plots: Optional[Dict[str, str]] = None) -> str:
    plots = plots or {}
    if command is None:
        command = ("tensorcopy verify" + (" --quick" if quick else "")
                   + f" --device {'all' if len(env['devices']) > 1 else (env['devices'] or ['cpu'])[0]}"
                   " --format markdown")
    out = [
        f"# Verification report ({', '.join(env['devices']) or 'no device'})",
        "",
        f"Generated by `{command}`. Every figure below was measured in that run.",
        "",
        f"- torch {env['torch']}, Python {env['python']}, {env['machine']}, "
        f"{env['cpu_threads']} CPU threads, {env['date']}"
        + (f"; 1-minute load average {env['load_average'][0]} at the start, "
           f"{env['load_average'][1]} at the end (other processes on the machine widen the speed "
           "intervals)" if "load_average" in env else ""),
        f"- {_devices_line(env).capitalize()}",
    ]
    if "gpu" in env:
        out.append(f"- GPU: {env['gpu']} (CUDA {env['cuda']})")
    out += ["", f"**{_count_line(results)}**", "",
            "Statuses: *yes* (holds), ***no*** (does not hold), *not shown* (a speed interval "
            "straddles the claimed minimum effect), ***error*** (a step of the harness failed, "
            "the claim could not be checked), *not run* (the claim's device is not present). "
            "`tensorcopy verify` exits 1 when a claim does not hold, otherwise 3 when one could "
            "not be checked, otherwise 0.", ""]
    for device, rows in guides.items():
        out += [f"## What each copy idiom does ({device}, measured on a leaf with requires_grad=True)",
                "", "| method | requires_grad | graph kept | memory shared | version counter shared | warns |",
                "| --- | --- | --- | --- | --- | --- |"]
        for row in rows:
            if "error" in row:
                out.append(f"| `{row['method']}` | error: {row['error']} | | | | |")
                continue
            same = " (same object)" if row["same_object"] else ""
            out.append(f"| `{row['method']}`{same} | {_yn(row['requires_grad'])} | {_yn(row['graph_kept'])} | "
                       f"{_yn(row['memory_shared'])} | {_yn(row['version_shared'])} | {_yn(row['warns'])} |")
        out.append("")
    speed = [r for r in results if r.kind == "speed" and r.status != NOT_RUN]
    if speed:
        unclaimed = sum(1 for r in speed for row in r.measured.get("rows", []) if not row.get("claimed"))
        cost = env.get("no_grad_entry")
        out += ["## Speed", "",
                f"A vs B over {_rounds(speed)} interleaved ABBA rounds (`torch.utils.benchmark`; "
                "CPU rows in process CPU time, so time spent waiting for a CPU while other "
                "processes run is not counted, and for tensors large enough for intra-op parallelism "
                "it sums the work of every thread, so those rows compare CPU cost, not latency; "
                "CUDA rows in wall time, device synchronised); each round gives one paired A and B time (the smaller of its "
                "two runs of each: interference only ever adds time). *A/B* is the Hodges-Lehmann estimate of the per-round ratios with its "
                "exact 95% confidence interval (Wilcoxon signed-rank, inverted: no resampling, no "
                "seed); *A-B* the same for the paired difference in microseconds. Medians and "
                "IQRs of the rounds are given for scale.", "",
                f"- **Claimed rows** (*scope*): a claim says A is slower than B by at least its "
                f"minimum effect (A/B >= {1 + stats.MIN_EFFECT:.2f} unless stated). A row holds only "
                "when the whole interval is at or past that bound, does not hold when the whole "
                "interval is short of it, and is *not shown* when the interval straddles it. A "
                "claim holds when every claimed row holds (an intersection-union test: no "
                "multiplicity correction is needed).",
                f"- **Unclaimed rows** are many tests at once: their exact signed-rank p-values "
                f"(no difference) are adjusted with Benjamini-Hochberg over all {unclaimed} "
                f"unclaimed rows of this run, and a difference is reported only at a false "
                f"discovery rate of {stats.FDR_Q:g}. They are reported, not claimed.",
                "- `no_grad` rows time only the statement: grad mode is switched off around the "
                "timer, not inside the timed statement."
                + (f" Entering `with torch.no_grad():` costs {cost['entry_cost_us']:.2f} us here "
                   f"({cost['with_no_grad_us']:.2f} us vs {cost['bare_us']:.3f} us for `pass`); "
                   "that cost is excluded." if cost else ""),
                ""]
        for r in speed:
            m = r.measured
            out += [f"### {r.rule} `{r.id}` ({r.device}): {_md_status(r.status)}", "",
                    r.claim, "",
                    f"A = `{m.get('a')}`, B = `{m.get('b')}`; minimum effect "
                    f"{m.get('min_effect', stats.MIN_EFFECT):.0%}", ""]
            plot = plots.get(f"{r.rule}/{r.device}")
            if plot and not plot.startswith("!"):
                out += [f"![{r.rule} {r.id} ({r.device}): A/B against tensor size]({plot})", ""]
            out += ["| n | requires_grad | mode | A median (us) | A IQR | B median (us) | B IQR | "
                    "A/B [95% CI] | A-B us [95% CI] | p (adj.) | verdict | scope |",
                    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
            for row in m.get("rows", []):
                p = _p(row["p"]) + (f" ({_p(row['p_adjusted'])})" if "p_adjusted" in row else "")
                out.append(
                    f"| {row['n']:,} | {_yn(row['requires_grad'])} | {row['mode']} | "
                    f"{row['a_median_us']:.2f} | {row['a_iqr_us']:.2f} | {row['b_median_us']:.2f} | "
                    f"{row['b_iqr_us']:.2f} | {_ci(row)} | "
                    f"{row['diff_us']:.2f} [{row['diff_low_us']:.2f}, {row['diff_high_us']:.2f}] | "
                    f"{p} | {row.get('verdict', '')} | {'claimed' if row['claimed'] else ''} |")
            if "error" in m:
                out.append(f"\nerror: {m['error']}")
            out.append("")
    out += ["## Claims", "", "| rule | claim | kind | device | holds | statement | measured |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        stmt = r.claim.replace("|", "\\|")
        meas = _summarize(r).replace("|", "\\|")
        out.append(f"| {r.rule} | `{r.id}` | {r.kind} | {r.device} | {_md_status(r.status)} | {stmt} | {meas} |")
    out.append("")
    return "\n".join(out)


def _progress_printer(enabled: bool):
    if not enabled:
        return None
    width = 30

    def show(done: int, total: int, label: str) -> None:
        filled = int(width * done / max(total, 1))
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[:40]:<40}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _usage_error(message: str) -> int:
    print(f"tensorcopy: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def check_output(path: str) -> Optional[str]:
    """Why ``path`` cannot be written (checked before anything is measured), or None."""
    if os.path.isdir(path):
        return f"--output {path}: is a directory"
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        return f"--output {path}: directory {parent} does not exist"
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return f"--output {path}: file is not writable"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"--output {path}: directory {parent} is not writable"
    return None


def check_plot_dir(path: str) -> Optional[str]:
    if os.path.exists(path) and not os.path.isdir(path):
        return f"--plot {path}: not a directory"
    target = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(target):
        return f"--plot {path}: directory {target} does not exist"
    if not os.access(target, os.W_OK | os.X_OK):
        return f"--plot {path}: directory {target} is not writable"
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return ("--plot needs matplotlib; install it with `pip install flake8-tensorcopy[plot]` "
                "(or `pip install matplotlib`)")
    return None


def _load() -> Optional[float]:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):  # pragma: no cover - not on every platform
        return None


def main(args) -> int:
    output = getattr(args, "output", None)
    plot_dir = getattr(args, "plot", None)
    if output:
        problem = check_output(output)
        if problem:
            return _usage_error(problem)
    if plot_dir:
        problem = check_plot_dir(plot_dir)
        if problem:
            return _usage_error(problem)
    try:
        import torch
    except ImportError:
        return _usage_error("`tensorcopy verify` needs PyTorch; install it with "
                            "`pip install flake8-tensorcopy[verify]` (or the torch build you use)")
    devices: List[str] = []
    absent: Dict[str, str] = {}
    want = args.device
    cuda = torch.cuda.is_available()
    if want in ("cpu", "all"):
        devices.append("cpu")
    if want == "cuda" and not cuda:
        return _usage_error("--device cuda: no CUDA device is available")
    if want in ("cuda", "all"):
        if cuda:
            devices.append("cuda")
        else:
            absent["cuda"] = "no CUDA device is available"
    codes = [c.upper() for c in args.rule] if args.rule else None
    if codes:
        unknown = sorted(set(codes) - {r.code for r in ALL_RULES})
        if unknown:
            return _usage_error(f"unknown rule {unknown[0]}")
    progress = _progress_printer(args.format == "text" and sys.stderr.isatty())
    load = [_load()]
    results = run(torch, devices, codes, args.quick, progress, absent)
    load.append(_load())
    cost = None
    if any(r.kind == "speed" and r.status != NOT_RUN for r in results):
        from .helper import Helper
        cost = Helper(torch, "cpu", args.quick).no_grad_entry_cost()
    env = environment(torch, devices, absent, cost)
    if None not in load:
        env["load_average"] = load
    plots: Dict[str, str] = {}
    if plot_dir:
        from .plot import draw_all
        base = os.path.dirname(os.path.abspath(output)) if output else os.getcwd()
        plots = draw_all(results, plot_dir, base)
    if args.format == "json":
        text = to_json(env, results)
    elif args.format == "markdown":
        guides = {d: guide_table(torch, d) for d in devices}
        command = ("tensorcopy verify" + (" --quick" if args.quick else "")
                   + f" --device {want}" + "".join(f" --rule {c}" for c in codes or ())
                   + " --format markdown" + (f" --output {output}" if output else "")
                   + (f" --plot {plot_dir}" if plot_dir else ""))
        text = to_markdown(env, results, guides, args.quick, command, plots)
    else:
        text = to_text(env, results)
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")
    else:
        print(text)
    return exit_code(results)
