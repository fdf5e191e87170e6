"""``json``: a list of diagnostics with location, end location, fix edits and doc URL."""
from __future__ import annotations

import json
from typing import List, Optional

from ..diagnostics import Diagnostic
from ..docs import doc_url
from .common import cell_of, rel, valid_json


def fix_json(d: Diagnostic) -> Optional[dict]:
    if d.fix is None:
        return None
    return {
        "applicability": d.fix.safety,
        "message": d.fix.description,
        "edits": [{"start": e.start, "end": e.end, "content": e.text} for e in d.fix.edits],
    }


def item(r, d: Diagnostic) -> dict:
    """One diagnostic of FileResult ``r`` as a JSON object."""
    out = {
        "code": d.code,
        "message": d.message,
        "filename": rel(r.path),  # as every format and front end: relative below the cwd
        "location": {"row": d.line, "column": d.column + 1},
        "end_location": {"row": d.end_line, "column": d.end_column + 1},
        "fix": fix_json(d),
        "url": doc_url(d.code),
    }
    if r.cells:
        out["cell"] = cell_of(r, d.line)[0]
    return valid_json(out)


def render(results: List) -> str:
    return json.dumps([item(r, d) for r in results for d in r.diagnostics], indent=2)
