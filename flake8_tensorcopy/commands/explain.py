"""``tensorcopy explain CODE``: print one rule's documentation."""
from __future__ import annotations

import argparse
import sys

from ..diagnostics import NOT_ANALYSED
from ..docs import NOT_ANALYSED_DOC, render
from ..rules import RULES_BY_CODE


def add_parser(sub) -> None:
    p = sub.add_parser("explain", help="print a rule's documentation (e.g. TEN101)")
    p.add_argument("code")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rule = RULES_BY_CODE.get(args.code.upper())
    if args.code.upper() == NOT_ANALYSED:
        print(NOT_ANALYSED_DOC[2], end="")
        return 0
    if rule is None:
        print(f"tensorcopy: error: unknown rule {args.code!r}; `tensorcopy rules` lists them",
              file=sys.stderr)
        return 2
    print(render(rule))
    return 0
