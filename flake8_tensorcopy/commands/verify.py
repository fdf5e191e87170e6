"""``tensorcopy verify``: run every rule's claims on the installed torch (imports torch)."""
from __future__ import annotations

import argparse
import sys


def add_parser(sub) -> None:
    p = sub.add_parser("verify", help="run every rule's claims on the installed torch",
                       description="Execute each rule's semantic, fix-equivalence and speed claims.")
    p.add_argument("--device", choices=["cpu", "cuda", "all"], default="all",
                   help="cpu, cuda, or all available (default)")
    p.add_argument("--rule", action="append", metavar="CODE", help="only this rule (repeatable)")
    p.add_argument("--quick", action="store_true",
                   help="all semantic and fix claims, and a reduced speed check (< 1 min on 2 cores)")
    p.add_argument("--format", choices=["text", "json", "markdown"], default="text")
    p.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..verify.runner import main as verify_main
    except ImportError as exc:  # pragma: no cover
        print(f"tensorcopy: error: verify unavailable: {exc}", file=sys.stderr)
        return 2
    return verify_main(args)
