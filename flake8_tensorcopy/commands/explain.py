"""``tensorcopy explain CODE``: print one rule's documentation."""
from __future__ import annotations

import argparse
import sys

from ..diagnostics import NOT_ANALYSED


def add_parser(sub) -> None:
    p = sub.add_parser("explain", help="print a rule's documentation (e.g. TEN101)")
    p.add_argument("code")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..docs import NOT_ANALYSED_DOC, render  # the rules load here: only here
    from ..rules import RULES_BY_CODE

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
