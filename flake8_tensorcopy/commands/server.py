"""``tensorcopy server``: the language server (LSP over standard input/output; needs pygls)."""
from __future__ import annotations

import argparse
import sys


def add_parser(sub) -> None:
    p = sub.add_parser(
        "server", help="run the language server (LSP on stdin/stdout; needs pygls)",
        description="Language server: diagnostics as you type, quick fixes, `# noqa` actions, "
                    "fix-all (source.fixAll.tensorcopy) and rule docs on hover. Speaks LSP on "
                    "standard input/output. Needs the `server` extra (pygls).")
    p.add_argument("--stdio", action="store_true",
                   help="accepted for editors that pass it; stdio is the only transport")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..server import INSTALL_HINT, missing_dependency, serve

    problem = missing_dependency()
    if problem:
        print(f"tensorcopy: error: the language server needs pygls>=2 ({problem}); "
              f"install it with: {INSTALL_HINT}", file=sys.stderr)
        return 2
    from ..lint import keep_index_warm

    keep_index_warm()  # one long process: keep more modules' facts between files
    return serve()
