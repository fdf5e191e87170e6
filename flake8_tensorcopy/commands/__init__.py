"""The ``tensorcopy`` commands, one module each, named after the command.

Each module exposes ``add_parser(subparsers)`` (declares the command and its options and sets
``func``) and ``run(args) -> int`` (the exit status). ``cli.py`` only assembles them.
"""
from __future__ import annotations

#: command modules in the order ``tensorcopy --help`` lists them
NAMES = ("check", "fix", "rules", "explain", "verify", "server", "trace")
