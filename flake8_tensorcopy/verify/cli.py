"""``tensorcopy verify``'s options checked, the run, the report written, the exit status."""
from __future__ import annotations

import os
import sys
from typing import Dict, List, Optional

from ..progress import Progress
from ..rules import ALL_RULES
from .render import to_json, to_markdown, to_text
from .run import EXIT_USAGE, environment, exit_code, guide_table, run
from .stats import NOT_RUN

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
    bar = Progress(0, "claims", getattr(args, "progress", None), min_items=0)

    def progress(done: int, total: int, label: str) -> None:
        bar.total = total
        bar.update(done, label)

    load = [_load()]
    try:
        results = run(torch, devices, codes, args.quick, progress, absent)
    finally:
        bar.close()
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
