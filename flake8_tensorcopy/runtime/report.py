"""Runtime sites as the linter's own ``Diagnostic``/``FileResult`` objects, side by side with the
static diagnostics of the same files (``--compare``), in every output format ``check`` has.

This module does not import torch: it reads the sites the watcher recorded (any object with
``code``, ``filename``, ``line``, ``column``, ``end_line``, ``end_column``, ``count``,
``observed`` and ``tests``), so the pytest plugin can build its report after the watcher stops.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from ..diagnostics import Diagnostic, record, selected
from ..diagnostics import field as record_field
from ..lint import FileResult

#: what each rule's pattern looks like when it is seen running (the static messages name the
#: source text, which the runtime does not have)
MESSAGES = {
    "TEN101": "`.data` of a tensor was read at runtime: it bypasses autograd (no version "
              "counter); use `.detach()`",
    "TEN102": "in-place change through `.data` ran: invisible to autograd, it can corrupt "
              "gradients silently; change the tensor under `torch.no_grad()`",
    "TEN103": "`.data` of a tensor was assigned at runtime: storage swapped behind autograd's "
              "back; use `with torch.no_grad(): t.copy_(new)` or `torch.utils.swap_tensors`",
    "TEN201": "`torch.tensor()` was given a tensor at runtime; use `t.detach().clone()`",
    "TEN202": "`new_tensor()` was given a tensor at runtime (the result takes the receiver's "
              "dtype and device); use `t.detach().to(dtype=..., device=..., copy=True)`",
    "TEN203": "a legacy constructor (`torch.Tensor(t)`, `torch.FloatTensor(t)`...) was given a "
              "tensor at runtime: an alias that keeps the graph, not a copy",
    "TEN204": "`torch.tensor()` was given a list holding tensors at runtime: the graph is "
              "dropped, one `.item()` per element; use `torch.stack(...)`",
    "TEN301": "`clone().detach()` ran: the clone is recorded in the graph, then dropped; use "
              "`detach().clone()`",
    "TEN302": "`*_like(t).copy_(t)` ran: use `t.clone()`",
    "TEN401": "in-place write to an alias made by `detach()`/`.data` while its source is alive: "
              "the write reaches the source; bind `x.detach().clone()` for a copy",
    "TEN402": "a `state_dict()` snapshot taken here was loaded or saved after its tensors "
              "changed: it holds the new values, not a copy; take `copy.deepcopy(...)`",
    "TEN404": "a conversion (`.cpu()`, `.to()`, `.float()`, `.contiguous()`, `torch.as_tensor`...) "
              "returned its own input at runtime (nothing to convert on this device, dtype and "
              "layout): one side was written in place and the other read afterwards; bind "
              "`x.cpu().clone()` (or `.to(..., copy=True)`) for a copy",
    "TEN405": "the NumPy bridge (`torch.from_numpy`, `torch.as_tensor`, `.numpy()`, "
              "`np.asarray`) shared memory at runtime: the tensor was written in place and the "
              "array read afterwards; write `torch.from_numpy(a.copy())` or `t.numpy().copy()` "
              "for a copy",
    "TEN406": "a tensor that repeats one piece of memory was written at runtime (`[t] * n` "
              "gathered into by `all_gather`, or an item assigned into an `expand`/"
              "`broadcast_to` result): every item (row) changes; make one tensor per item "
              "(`[... for _ in range(n)]`) or `.clone()` the expansion",
    "TEN501": "a tensor that `backward()` already ran on was added in place into an "
              "accumulator holding an earlier iteration's graph: every iteration's graph stays "
              "alive (memory grows each step); accumulate `loss.detach()` or `loss.item()`",
    "TEN403": "a write ran whose source overlaps its destination in memory: the result is "
              "undefined (wrong values or an error); clone the source first",
}


@dataclass
class Site:
    """One place in the user's code where one rule's pattern was seen (recorded by the watcher;
    a plain record, so that reports of several processes can be merged without torch)."""

    code: str
    filename: str
    line: int
    column: int  # 0-based
    end_line: int
    end_column: int
    count: int = 0
    observed: List[dict] = field(default_factory=list)
    tests: List[str] = field(default_factory=list)
    #: the distributed ranks (or test workers) that saw it; empty in a single process
    ranks: List[object] = field(default_factory=list)
    #: seen while running ``torch.compile``d code (the line is the one the graph was traced from)
    compiled: bool = False

    def note(self, observed: Optional[dict], test: Optional[str]) -> None:
        self.count += 1
        if observed is not None and len(self.observed) < 4 and observed not in self.observed:
            self.observed.append(observed)
        if test and len(self.tests) < 20 and test not in self.tests:
            self.tests.append(test)

    def key(self) -> tuple:
        return (self.code, self.filename, self.line, self.column)

    def to_dict(self) -> dict:
        return {"code": self.code, "filename": self.filename, "line": self.line,
                "column": self.column, "end_line": self.end_line,
                "end_column": self.end_column, "count": self.count,
                "observed": list(self.observed), "tests": list(self.tests),
                "ranks": list(self.ranks), "compiled": self.compiled}

    @classmethod
    def from_dict(cls, d: dict) -> "Site":
        return cls(str(d["code"]), str(d["filename"]), int(d["line"]), int(d["column"]),
                   int(d.get("end_line", d["line"])), int(d.get("end_column", d["column"])),
                   int(d.get("count", 0)), list(d.get("observed") or []),
                   list(d.get("tests") or []), list(d.get("ranks") or []),
                   bool(d.get("compiled", False)))


def merge(parts: Iterable[Tuple[object, Iterable[dict]]]) -> List[Site]:
    """One list of sites from several processes' (label, site dicts): a site seen by several is
    listed once, its counts summed, what was observed and the tests behind it joined, and the
    labels (ranks, workers) that saw it listed."""
    merged: Dict[tuple, Site] = {}
    for label, sites in parts:
        for d in sites:
            s = Site.from_dict(d)
            if s.count <= 0:
                continue
            have = merged.get(s.key())
            if have is None:
                have = merged[s.key()] = Site(s.code, s.filename, s.line, s.column, s.end_line,
                                              s.end_column, compiled=s.compiled)
            have.count += s.count
            for o in s.observed:
                if len(have.observed) < 4 and o not in have.observed:
                    have.observed.append(o)
            for t in s.tests:
                if len(have.tests) < 20 and t not in have.tests:
                    have.tests.append(t)
            for r in (s.ranks or ([label] if label is not None else [])):
                if r not in have.ranks:
                    have.ranks.append(r)
    for s in merged.values():
        s.ranks.sort(key=lambda r: (str(type(r)), r))
    return sorted(merged.values(), key=lambda s: (s.filename, s.line, s.column, s.code))


@record
class RuntimeResult(FileResult):
    """A file's runtime findings (``diagnostics``, one per site) and, aligned with them, the
    sites; with ``--compare`` also the static diagnostics beside them."""

    sites: List[object] = record_field(default_factory=list)
    #: per diagnostic: also flagged by ``check`` (None: not compared)
    static: List[Optional[bool]] = record_field(default_factory=list)
    #: static diagnostics on lines that ran but never showed the pattern
    static_only_ran: List[Diagnostic] = record_field(default_factory=list)
    #: static diagnostics on lines that never ran (or whose execution was not traced)
    static_not_run: List[Diagnostic] = record_field(default_factory=list)


def describe(observed: Sequence[dict]) -> str:
    parts = []
    for o in observed[:2]:
        bits = [o.get("dtype", "?"), o.get("device", "?")]
        if o.get("requires_grad"):
            bits.append("requires_grad")
        if o.get("graph"):
            bits.append(f"graph: {o['graph']}")
        parts.append(" ".join(bits))
    return "; ".join(parts)


def build(sites: Iterable, select: Optional[Sequence[str]] = None,
          ignore: Optional[Sequence[str]] = None) -> List[RuntimeResult]:
    """One RuntimeResult per file, sites in line order, selected codes only."""
    by_file: Dict[str, RuntimeResult] = {}
    for s in sorted(sites, key=lambda s: (s.filename, s.line, s.column, s.code)):
        if s.count <= 0 or not selected(s.code, select, ignore):
            continue
        r = by_file.get(s.filename)
        if r is None:
            r = by_file[s.filename] = RuntimeResult(s.filename)
        r.diagnostics.append(Diagnostic(s.code, MESSAGES[s.code], s.line, s.column, s.end_line,
                                        s.end_column))
        r.sites.append(s)
    return [by_file[k] for k in sorted(by_file)]


def write_report(path: str, text: str) -> None:
    """Write a report: atomically (a temporary file renamed over the destination, through a
    symbolic link to its target) where the destination is, or will be, a regular file; straight
    into it where it is a device, a pipe or a ``/dev``/``/proc`` name (``/dev/stdout``), which a
    rename would replace."""
    target = os.path.realpath(path)
    special = ("/dev/", "/proc/")
    if os.path.abspath(path).startswith(special) or target.startswith(special) or \
            (os.path.exists(target) and not os.path.isfile(target)):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        return
    from ..writes import atomic_write

    atomic_write(target, text.encode("utf-8"))


# ----------------------------------------------------------------------------- comparison
class StaticIndex:
    """``check``'s diagnostics per file, computed once per file through the shared lint step."""

    def __init__(self, select=None, ignore=None) -> None:
        self.select = select
        self.ignore = ignore
        self._cache: Dict[str, List[Diagnostic]] = {}

    def diagnostics(self, path: str) -> List[Diagnostic]:
        got = self._cache.get(path)
        if got is None:
            got = []
            try:
                from ..config import discover
                from ..lint import lint_path

                cfg = discover([path], None)
                r = lint_path(path, cfg, self.select or cfg.select, self.ignore or cfg.ignore)
                got = list(r.diagnostics)
            except Exception:  # an unreadable or odd file: nothing to compare with
                got = []
            self._cache[path] = got
        return got

    def lines(self, path: str) -> Set[int]:
        return {d.line for d in self.diagnostics(path)}

    def paths(self) -> List[str]:
        return list(self._cache)


def compare(results: List[RuntimeResult], index: StaticIndex,
            ran: Optional[Dict[str, Set[int]]]) -> List[RuntimeResult]:
    """Mark each runtime finding as also flagged statically or not; list static diagnostics on
    lines that ran without the pattern (``ran``: executed lines that hold a static diagnostic,
    per file; None when lines were not traced)."""
    by_path = {r.path: r for r in results}
    paths = set(by_path) | set(ran or {})
    for path in sorted(paths):
        if not os.path.isfile(path):
            continue
        static = index.diagnostics(path)
        r = by_path.get(path)
        if r is None:
            if not static:
                continue
            r = by_path[path] = RuntimeResult(path)
        seen = {(d.code, d.line) for d in r.diagnostics}
        static_keys = {(d.code, d.line) for d in static}
        r.static = [(d.code, d.line) in static_keys for d in r.diagnostics]
        lines = (ran or {}).get(path, set())
        for d in static:
            if (d.code, d.line) in seen:
                continue
            (r.static_only_ran if d.line in lines else r.static_not_run).append(d)
    return [by_path[k] for k in sorted(by_path)]


def summary(results: List[RuntimeResult], compared: bool, traced_lines: bool) -> dict:
    sites = sum(len(r.diagnostics) for r in results)
    out = {
        "sites": sites,
        "occurrences": sum(s.count for r in results for s in r.sites),
    }
    if compared:
        both = sum(1 for r in results for st in r.static if st)
        out.update({
            "also_static": both,
            "runtime_only": sites - both,
            "static_only_ran": sum(len(r.static_only_ran) for r in results)
            if traced_lines else None,
            "static_not_run": sum(len(r.static_not_run) for r in results),
        })
    return out


# ----------------------------------------------------------------------------- formats
def _static_json(r, d: Diagnostic) -> dict:
    from ..formats.json import item

    return item(r, d)


def render(fmt: str, results: List[RuntimeResult], compared: bool = False,
           traced_lines: bool = False) -> str:
    """The report in ``fmt`` (text, concise, json, github, sarif): ``check``'s formats, plus the
    count and what was observed per site (and, compared, the static side)."""
    from .. import formats

    runtime_only = [r for r in results if r.diagnostics]
    if fmt in ("text", "concise"):
        from ..formats.text import lines

        out = []
        for r in runtime_only:
            for line, s, st in zip(lines([r], fmt == "concise"), r.sites, _flags(r)):
                extra = f" [{s.count}x{_where_seen(s)}; {describe(s.observed)}]" \
                    if fmt == "text" else f" [{s.count}x]"
                if st is not None:
                    extra += " (also flagged by check)" if st else " (runtime only)"
                out.append(line + extra)
        if compared and fmt == "text":
            from ..formats.common import location, rel

            for r in results:
                for d in r.static_only_ran:
                    out.append(f"{rel(r.path)}:{location(r, d)}: {d.code} [static only: the "
                               f"line ran, the pattern was never seen] {d.message}")
            s = summary(results, True, traced_lines)
            out.append(
                f"compare: {s['sites']} runtime site(s): {s['also_static']} also flagged by "
                f"check, {s['runtime_only']} runtime only; static diagnostics on lines that "
                f"ran without the pattern: "
                + (str(s["static_only_ran"]) if traced_lines else "not traced")
                + f"; on lines that never ran: {s['static_not_run']}")
        return "\n".join(out)
    if fmt == "json":
        items = []
        for r in runtime_only:
            for d, s, st in zip(r.diagnostics, r.sites, _flags(r)):
                item = _static_json(r, d)
                item.update({"count": s.count, "observed": list(s.observed),
                             "source": "runtime"})
                if s.tests:
                    item["tests"] = list(s.tests)
                if getattr(s, "ranks", None):
                    item["ranks"] = list(s.ranks)
                if getattr(s, "compiled", False):
                    item["compiled"] = True
                if st is not None:
                    item["static"] = st
                items.append(item)
        if compared:
            for r in results:
                for ran, diags in ((True, r.static_only_ran), (False, r.static_not_run)):
                    if not traced_lines and not ran:
                        continue  # unknown whether those lines ran
                    for d in diags:
                        item = _static_json(r, d)
                        item.update({"count": 0, "observed": [], "source": "static",
                                     "static": True, "ran": ran})
                        items.append(item)
        return json.dumps(items, indent=2)
    if fmt == "sarif":
        from ..formats.sarif import to_sarif

        doc = to_sarif(runtime_only)
        flat = [(s, st) for r in runtime_only for s, st in zip(r.sites, _flags(r))]
        for res, (s, st) in zip(doc["runs"][0]["results"], flat):
            props = {"count": s.count, "observed": list(s.observed), "source": "runtime"}
            if getattr(s, "ranks", None):
                props["ranks"] = list(s.ranks)
            if st is not None:
                props["static"] = st
            res["properties"] = props
        doc["runs"][0]["tool"]["driver"]["name"] = "flake8-tensorcopy (runtime)"
        return json.dumps(doc, indent=2)
    if fmt == "github":
        return formats.render("github", runtime_only)
    raise ValueError(f"unknown format {fmt!r}")


def _where_seen(s) -> str:
    out = ""
    if getattr(s, "ranks", None):
        out += "; ranks " + ",".join(str(r) for r in s.ranks)
    if getattr(s, "compiled", False):
        out += "; in torch.compile'd code"
    return out


def _flags(r: RuntimeResult) -> List[Optional[bool]]:
    return list(r.static) if len(r.static) == len(r.diagnostics) else [None] * len(r.diagnostics)


# ----------------------------------------------------------------------------- executed lines
class LineTracer:
    """Records which lines holding a static diagnostic ran (``--compare``), through
    ``sys.settrace`` on the user's own files only (torch, libraries and the standard library are
    not traced). Off when another tracer (a debugger, coverage) is already installed."""

    def __init__(self, index: StaticIndex, skip_dirs: Tuple[str, ...]) -> None:
        self.index = index
        self.skip = skip_dirs
        #: per user file that ran: its executed lines that hold a static diagnostic
        self.ran: Dict[str, Set[int]] = {}
        self._codes: Dict[object, Optional[Set[int]]] = {}
        self.active = False

    def start(self) -> bool:
        if sys.gettrace() is not None:
            return False
        sys.settrace(self._call)
        self.active = True
        return True

    def stop(self) -> None:
        if self.active:
            sys.settrace(None)
            self.active = False

    def _call(self, frame, event, arg):
        code = frame.f_code
        try:
            wanted = self._codes[code]
        except KeyError:
            wanted = self._codes[code] = self._wanted(code)
        if not wanted:
            return None
        ran = self.ran.setdefault(code.co_filename, set())

        def local(frame, event, arg, wanted=wanted, ran=ran):
            if event == "line" and frame.f_lineno in wanted:
                ran.add(frame.f_lineno)
            return local
        return local

    def _wanted(self, code) -> Optional[Set[int]]:
        try:
            fn = code.co_filename
            if fn.startswith("<") or fn.startswith(self.skip) or not os.path.isfile(fn):
                return None
            lines = self.index.lines(fn)
            if not lines:
                return None
            self.ran.setdefault(fn, set())  # the file ran, whether or not those lines do
            mine = {ln for _, _, ln in code.co_lines() if ln is not None}
            return (lines & mine) or None
        except Exception:
            return None
