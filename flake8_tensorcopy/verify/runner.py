"""``tensorcopy verify``: run every rule's claims on the installed torch; report what holds."""
from __future__ import annotations

import datetime
import json
import platform
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

from ..rules import ALL_RULES
from .helper import ROUNDS, SIGN_THRESHOLD


@dataclass
class ClaimResult:
    rule: str
    id: str
    kind: str
    device: str
    claim: str
    holds: bool
    measured: Dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


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


def _fix_claims(torch, rule, device: str) -> List[ClaimResult]:
    from .equivalence import compare, fixed_source
    from .tensors import KINDS

    out = []
    for i, case in enumerate(rule.fix_cases):
        start = time.monotonic()
        kinds = case.kinds or KINDS
        failures = {}
        after = fixed_source(rule.code, case.body).split("\n    ", 1)[-1].strip()
        for kind in kinds:
            res = compare(torch, rule.code, case, kind, device)
            if not res.equal:
                failures[kind] = {k: [repr(a), repr(b)] for k, (a, b) in res.differences.items()}
        before = case.body.strip().replace("\n    ", "; ")
        text = f"`{before}` -> `{after.replace(chr(10) + '    ', '; ')}` is equivalent on {len(kinds)} tensor kinds"
        if case.differs:
            text += f" (documented differences: {', '.join(case.differs)})"
        out.append(ClaimResult(rule.code, f"fix-{i + 1}", "fix", device, text, not failures,
                               {"kinds": list(kinds), "failures": failures},
                               time.monotonic() - start))
    return out


def run(torch, devices: List[str], codes: Optional[List[str]], quick: bool,
        progress=None) -> List[ClaimResult]:
    from .helper import Helper

    rules = [r for r in ALL_RULES if not codes or r.code in codes]
    jobs = []
    for device in devices:
        helper = Helper(torch, device, quick)
        for rule in rules:
            for claim in rule.claims:
                if device in claim.devices:
                    jobs.append(("claim", rule, claim, device, helper))
            if rule.fix_cases:
                jobs.append(("fix", rule, None, device, helper))
    results: List[ClaimResult] = []
    for n, (what, rule, claim, device, helper) in enumerate(jobs, 1):
        if progress:
            progress(n - 1, len(jobs), f"{rule.code} {claim.id if claim else 'fixes'} ({device})")
        if what == "fix":
            results.extend(_fix_claims(torch, rule, device))
            continue
        start = time.monotonic()
        try:
            holds, measured = claim.check(helper)
        except Exception as exc:
            holds, measured = False, {
                "error": f"{type(exc).__name__}: {exc}",
                "where": traceback.format_exc(limit=-2).strip().splitlines()[-3:],
            }
        results.append(ClaimResult(rule.code, claim.id, claim.kind, device, claim.text,
                                   bool(holds), measured, time.monotonic() - start))
    if progress:
        progress(len(jobs), len(jobs), "done")
    return results


# ----------------------------------------------------------------------------- reporting
def environment(torch, devices: List[str]) -> Dict[str, Any]:
    env = {"torch": torch.__version__, "python": platform.python_version(), "devices": devices,
           "machine": f"{platform.system()} {platform.machine()}",
           "cpu_threads": torch.get_num_threads(),
           "date": datetime.date.today().isoformat()}
    if "cuda" in devices:
        env["gpu"] = torch.cuda.get_device_name(0)
        env["cuda"] = torch.version.cuda
    return env


def _summarize(measured: Dict[str, Any]) -> str:
    if "rows" in measured:
        claimed = [r for r in measured["rows"] if r.get("claimed")]
        return "; ".join(
            f"n={r['n']}, rg={r['requires_grad']}, {r['mode']}: ratio {r['ratio']:.2f}, "
            f"A slower in {r['a_slower_rounds']}/{r['rounds']}" for r in claimed)
    if "failures" in measured:
        return "all kinds equal" if not measured["failures"] else \
            "differs on " + ", ".join(measured["failures"])
    text = ", ".join(f"{k}={v}" for k, v in measured.items() if k != "where")
    return text if len(text) <= 160 else text[:157] + "..."


def to_json(env: Dict[str, Any], results: List[ClaimResult], guide=None) -> str:
    doc = {"torch": env["torch"], "python": env["python"], "devices": env["devices"],
           "environment": env, "claims": [
               {k: v for k, v in asdict(r).items() if k != "seconds"} for r in results]}
    if guide is not None:
        doc["guide"] = guide
    return json.dumps(doc, indent=2, default=str)


def to_text(env: Dict[str, Any], results: List[ClaimResult]) -> str:
    lines = [f"torch {env['torch']}, Python {env['python']}, devices: {', '.join(env['devices'])}"]
    width = max((len(r.id) for r in results), default=10)
    for r in results:
        mark = "holds" if r.holds else "FAILS"
        lines.append(f"{r.rule}  {r.device:<4}  {r.kind:<9}  {r.id:<{width}}  {mark}  {_summarize(r.measured)}")
    ok = sum(r.holds for r in results)
    lines.append(f"{ok} of {len(results)} claims hold" + ("." if ok == len(results) else
                                                           f"; {len(results) - ok} fail."))
    return "\n".join(lines)


def _yn(v: Any) -> str:
    return "yes" if v is True else "no" if v is False else str(v)


def to_markdown(env: Dict[str, Any], results: List[ClaimResult], guides: Dict[str, list],
                quick: bool) -> str:
    ok = sum(r.holds for r in results)
    out = [
        f"# Verification report ({', '.join(env['devices'])})",
        "",
        "Generated by `tensorcopy verify"
        + (" --quick" if quick else "") + f" --device {'all' if len(env['devices']) > 1 else env['devices'][0]}"
        " --format markdown`. Every figure below was measured in that run.",
        "",
        f"- torch {env['torch']}, Python {env['python']}, {env['machine']}, "
        f"{env['cpu_threads']} CPU threads, {env['date']}",
    ]
    if "gpu" in env:
        out.append(f"- GPU: {env['gpu']} (CUDA {env['cuda']})")
    out += ["", f"**{ok} of {len(results)} claims hold.**", ""]
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
    speed = [r for r in results if r.kind == "speed"]
    if speed:
        out += ["## Speed", "",
                "A vs B, medians of per-round means over interleaved ABBA rounds "
                "(`torch.utils.benchmark`, CUDA synchronised). *A slower* counts the rounds in which "
                f"A was slower; a difference is called real only at {SIGN_THRESHOLD} of {ROUNDS} "
                "rounds or more (one-sided sign test, p < 0.02). Rows marked *claimed* are the "
                "claim's scope; the others are "
                "reported, not claimed.", ""]
        for r in speed:
            m = r.measured
            out += [f"### {r.rule} `{r.id}` ({r.device}): {'holds' if r.holds else 'FAILS'}", "",
                    f"A = `{m.get('a')}`, B = `{m.get('b')}`", "",
                    "| n | requires_grad | mode | A median (us) | A IQR | B median (us) | B IQR | A/B | A slower | verdict | scope |",
                    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
            for row in m.get("rows", []):
                verdict = "A slower" if row["a_slower"] else "B slower" if row["b_slower"] else "no difference"
                out.append(
                    f"| {row['n']:,} | {_yn(row['requires_grad'])} | {row['mode']} | "
                    f"{row['a_median_us']:.2f} | {row['a_iqr_us']:.2f} | {row['b_median_us']:.2f} | "
                    f"{row['b_iqr_us']:.2f} | {row['ratio']:.2f} | {row['a_slower_rounds']}/{row['rounds']} | "
                    f"{verdict} | {'claimed' if row['claimed'] else ''} |")
            if "error" in m:
                out.append(f"\nerror: {m['error']}")
            out.append("")
    out += ["## Claims", "", "| rule | claim | kind | device | holds | statement | measured |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        stmt = r.claim.replace("|", "\\|")
        meas = _summarize(r.measured).replace("|", "\\|")
        out.append(f"| {r.rule} | `{r.id}` | {r.kind} | {r.device} | {'yes' if r.holds else '**no**'} | {stmt} | {meas} |")
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


def main(args) -> int:
    try:
        import torch
    except ImportError:
        print("tensorcopy: error: `tensorcopy verify` needs PyTorch; install it with "
              "`pip install flake8-tensorcopy[verify]` (or the torch build you use)", file=sys.stderr)
        return 2
    devices = []
    want = args.device
    cuda = torch.cuda.is_available()
    if want in ("cpu", "all"):
        devices.append("cpu")
    if want == "cuda" and not cuda:
        print("tensorcopy: error: --device cuda: no CUDA device is available", file=sys.stderr)
        return 2
    if want in ("cuda", "all") and cuda:
        devices.append("cuda")
    codes = [c.upper() for c in args.rule] if args.rule else None
    if codes:
        unknown = sorted(set(codes) - {r.code for r in ALL_RULES})
        if unknown:
            print(f"tensorcopy: error: unknown rule {unknown[0]}", file=sys.stderr)
            return 2
    progress = _progress_printer(args.format == "text" and sys.stderr.isatty())
    results = run(torch, devices, codes, args.quick, progress)
    env = environment(torch, devices)
    if args.format == "json":
        text = to_json(env, results)
    elif args.format == "markdown":
        guides = {d: guide_table(torch, d) for d in devices}
        text = to_markdown(env, results, guides, args.quick)
    else:
        text = to_text(env, results)
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")
    else:
        print(text)
    return 0 if all(r.holds for r in results) else 1
