"""``tensorcopy server``: the language server front end (LSP over stdio, built on pygls).

It only translates: editor buffers go through the one lint step (``lint.py``) and the fixer
(``fixes.py``), and the Diagnostics come back as LSP diagnostics, code actions and hovers.
``core`` holds the editor-independent part (configuration per project, positions, noqa edits,
notebook cells) and never imports pygls; ``actions`` builds code actions (lsprotocol types) from
core's views; ``lsp`` wires both to pygls and is imported only when the server starts, so
``tensorcopy --help`` and ``check`` never need pygls.
"""
from __future__ import annotations

from typing import Optional

INSTALL_HINT = "pip install 'flake8-tensorcopy[server]'"


def missing_dependency() -> Optional[str]:
    """Why the server cannot start here (pygls is absent or too old), or None."""
    try:
        import lsprotocol.types  # noqa: F401
        from pygls.lsp.server import LanguageServer  # noqa: F401  (pygls >= 2)
    except ImportError as exc:
        return f"{exc.name or 'pygls'} is not installed or too old" if isinstance(
            exc, ModuleNotFoundError) else f"pygls>=2 is required ({exc})"
    return None


def serve() -> int:
    """Run the server on standard input/output until the client says ``exit`` (or the input
    ends). The status is 0 when ``shutdown`` came first, 1 otherwise (as the LSP spec says)."""
    import sys

    from .lsp import create_server

    # the lint worker is a Python thread: hand the interpreter back to the connection's thread
    # within 1 ms (not 5) so requests are answered while a large file is analysed
    sys.setswitchinterval(0.001)
    server = create_server()
    server.start_io()
    return 0 if server.shut_down else 1
