"""``tensorcopy verify --plot DIR``: the speed ratios with their 95% intervals, as PNG files.

One figure per rule with speed claims and per device: A/B against the tensor size (log scale),
one line per grad mode (and requires_grad), the confidence band shaded, a line at 1.0 (no
difference) and a dashed one at the claim's minimum effect. Needs matplotlib (the ``plot`` extra).
"""
from __future__ import annotations

import os
from typing import Dict, List

from .stats import MIN_EFFECT, NOT_RUN


def plot_name(rule: str, claim_id: str, device: str) -> str:
    return f"{rule}-{claim_id}-{device}.png"


def draw(result, path: str) -> None:
    """Draw one speed result (a ClaimResult with measured rows) into ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = result.measured
    rows = m.get("rows", [])
    groups: Dict[tuple, List[dict]] = {}
    for row in rows:
        groups.setdefault((row["mode"], row["requires_grad"]), []).append(row)
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    marked = False
    for (mode, rg), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], not kv[0][1])):
        rs = sorted(rs, key=lambda r: r["n"])
        xs = [r["n"] for r in rs]
        label = f"{mode}, requires_grad={rg}"
        line, = ax.plot(xs, [r["ratio"] for r in rs], marker="o", label=label)
        ax.fill_between(xs, [r["ratio_low"] for r in rs], [r["ratio_high"] for r in rs],
                        color=line.get_color(), alpha=0.2, linewidth=0)
        claimed = [r for r in rs if r.get("claimed")]
        if claimed:
            ax.scatter([r["n"] for r in claimed], [r["ratio"] for r in claimed], s=90,
                       facecolors="none", edgecolors="black", zorder=3,
                       label=None if marked else "claimed (scope of the claim)")
            marked = True
    ax.axhline(1.0, color="black", linewidth=1)
    ax.axhline(1.0 + m.get("min_effect", MIN_EFFECT), color="gray", linestyle="--", linewidth=1,
               label=f"claimed minimum effect ({1.0 + m.get('min_effect', MIN_EFFECT):.2f})")
    ax.set_xscale("log")
    ax.set_xlabel("elements (list length for TEN204)" if result.rule == "TEN204" else "elements")
    ax.set_ylabel("A / B time (95% CI band)")
    ax.set_title(f"{result.rule} {result.id} ({result.device})\nA = {m.get('a')}, B = {m.get('b')}",
                 fontsize=9)
    ax.legend(fontsize=7, loc="best")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def draw_all(results, directory: str, relative_to: str) -> Dict[str, str]:
    """Draw every speed result; returns ``{"RULE/device": path relative to relative_to}``.

    A figure that cannot be drawn maps to ``"!reason"`` instead (the report then has no image).
    """
    os.makedirs(directory, exist_ok=True)
    out: Dict[str, str] = {}
    for r in results:
        if r.kind != "speed" or r.status == NOT_RUN or not r.measured.get("rows"):
            continue
        path = os.path.join(directory, plot_name(r.rule, r.id, r.device))
        try:
            draw(r, path)
        except Exception as exc:  # pragma: no cover - reported, the run goes on
            out[f"{r.rule}/{r.device}"] = f"!{type(exc).__name__}: {exc}"
            continue
        out[f"{r.rule}/{r.device}"] = os.path.relpath(path, relative_to).replace(os.sep, "/")
    return out
