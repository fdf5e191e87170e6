"""``tensorcopy COMMAND`` (also ``python -m flake8_tensorcopy``): assembles the commands.

Each command is a module of ``flake8_tensorcopy.commands`` named after it; each output format a
module of ``flake8_tensorcopy.formats``. Exit codes (as ruff): 0 nothing remains, 1 diagnostics
remain, 2 usage error or unreadable input.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from typing import Optional, Sequence

from . import __version__
from .commands import NAMES
from .config import ConfigError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tensorcopy",
        description="Find, fix and verify the ways PyTorch code copies tensors.",
        epilog="Exit status: 0 nothing to report, 1 diagnostics remain (or a claim does not "
               "hold), 2 usage error or unreadable input, 3 (verify) a claim could not be "
               "checked, 128+N (check, fix) stopped by signal N (143: SIGTERM). "
               "`tensorcopy COMMAND --help` for details.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in NAMES:
        importlib.import_module(f"{__package__}.commands.{name}").add_parser(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except ConfigError as exc:
        print(f"tensorcopy: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        print("tensorcopy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
