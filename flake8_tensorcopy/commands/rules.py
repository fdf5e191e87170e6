"""``tensorcopy rules``: list the rules (text or json)."""
from __future__ import annotations

import argparse
import json


def add_parser(sub) -> None:
    p = sub.add_parser("rules", help="list the rules")
    p.add_argument("--output-format", "--format", dest="format", choices=["text", "json"],
                   default="text", help="text or json (--format is the older spelling)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..docs import doc_url, summary  # the rules load here: not on every start
    from ..rules import ALL_RULES

    if args.format == "json":
        print(json.dumps([
            {"code": r.code, "name": r.name, "summary": summary(r), "message": r.message,
             "fix": r.fix_safety, "url": doc_url(r.code)} for r in ALL_RULES], indent=2))
        return 0
    width = max(len(r.name) for r in ALL_RULES)
    for r in ALL_RULES:
        print(f"{r.code}  {r.name:<{width}}  fix: {r.fix_safety or 'none':<9}  {summary(r)}")
    return 0
