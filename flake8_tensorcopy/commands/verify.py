"""``tensorcopy verify``: run every rule's claims on the installed torch (imports torch)."""
from __future__ import annotations

import argparse
import sys

from .. import progress


def add_parser(sub) -> None:
    p = sub.add_parser("verify", help="run every rule's claims on the installed torch",
                       description="Execute each rule's semantic, fix-equivalence and speed claims.",
                       epilog="Exit status: 0 every claim holds or is not shown, 1 a claim does not "
                              "hold, 3 a claim could not be checked (a step of the harness "
                              "failed), 2 usage error.")
    p.add_argument("--device", choices=["cpu", "cuda", "all"], default="all",
                   help="cpu, cuda, or all available (default)")
    p.add_argument("--rule", action="append", metavar="CODE", help="only this rule (repeatable)")
    p.add_argument("--quick", action="store_true",
                   help="all semantic and fix claims, and a reduced speed check (< 1 min on 2 cores)")
    p.add_argument("--output-format", "--format", dest="format", choices=["text", "json", "markdown"],
                   default="text", help="report format (--format is the older spelling)")
    p.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--plot", metavar="DIR",
                   help="draw the speed ratios with their 95%% intervals into DIR (needs "
                        "matplotlib); the markdown report embeds them")
    progress.add_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..verify.cli import main as verify_main
    except ImportError as exc:  # pragma: no cover
        print(f"tensorcopy: error: verify unavailable: {exc}", file=sys.stderr)
        return 2
    return verify_main(args)
