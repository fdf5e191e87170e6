"""Where a line of a ``torch.compile``d graph came from in the user's code (imports no torch)."""
from __future__ import annotations

import linecache
import re
from typing import Optional, Tuple

_TRACE_LINE = re.compile(r'^\s*File "(?P<file>.*)", line (?P<line>\d+), in ')


def traced_from(frame, is_user) -> Optional[Tuple[str, int, int, int, int]]:
    """The user's position recorded in the FX graph node that a generated line runs: the last
    ``File "...", line N`` of the node's stack trace, columns from its ``^^^`` marks."""
    try:
        gm = frame.f_locals.get("self")
        lineno_map = getattr(gm, "_lineno_map", None)
        graph = getattr(gm, "graph", None)
        if not lineno_map or graph is None:
            return None
        idx = lineno_map.get(frame.f_lineno - frame.f_code.co_firstlineno)
        if idx is None:
            return None
        node = list(graph.nodes)[idx]
        trace = (node.meta.get("stack_trace") or "").splitlines()
    except Exception:
        return None
    for i in range(len(trace) - 1, -1, -1):
        m = _TRACE_LINE.match(trace[i])
        if m is None:
            continue
        filename, line = m.group("file"), int(m.group("line"))
        if not is_user(filename):
            continue
        text = linecache.getline(filename, line)
        indent = len(text) - len(text.lstrip())
        col, end = indent, len(text.rstrip())
        marks = trace[i + 2] if i + 2 < len(trace) else ""
        if marks.strip() and set(marks.strip()) <= set("^~"):
            start = len(marks) - len(marks.lstrip())
            col = indent + start - 4
            end = indent + len(marks.rstrip()) - 4
        return (filename, line, max(col, 0), line, max(end, 0))
    return None
