"""SARIF 2.1.0 output for code-scanning tools."""
from __future__ import annotations

import json
import os
from typing import List
from urllib.parse import quote

from .. import __version__
from ..docs import doc_url, summary
from ..rules import ALL_RULES
from .common import valid_json

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str) -> str:
    """A URI reference (RFC 3986) for ``path``: relative to the working directory below it, its
    bytes percent-encoded where a URI may not hold them (spaces, non-ASCII, a byte that is not
    UTF-8)."""
    if path == "-":
        return "stdin"
    rel = os.path.relpath(path) if not os.path.isabs(path) or path.startswith(os.getcwd()) else path
    return quote(os.fsencode(rel.replace(os.sep, "/")), safe="/")


def to_sarif(results: List) -> dict:
    index = {rule.code: i for i, rule in enumerate(ALL_RULES)}
    rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": summary(rule)},
            "fullDescription": {"text": rule.why},
            "help": {"text": f"Use instead: {rule.use_instead}"},
            "helpUri": doc_url(rule.code),
            "defaultConfiguration": {"level": "warning"},
            "properties": {"fix": rule.fix_safety or "none"},
        }
        for rule in ALL_RULES
    ]
    out = []
    for r in results:
        uri = _uri(r.path)
        for d in r.diagnostics:
            item = {
                "ruleId": d.code,
                "level": "warning",
                "message": {"text": d.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri},
                        "region": {"startLine": d.line, "startColumn": d.column + 1,
                                   "endLine": d.end_line, "endColumn": d.end_column + 1},
                    }
                }],
            }
            if d.code in index:
                item["ruleIndex"] = index[d.code]
            if d.fix is not None and not r.cells:
                item["fixes"] = [{
                    "description": {"text": f"{d.fix.description} ({d.fix.safety} fix)"},
                    "artifactChanges": [{
                        "artifactLocation": {"uri": uri},
                        "replacements": [
                            {"deletedRegion": {"charOffset": e.start, "charLength": e.end - e.start},
                             "insertedContent": {"text": e.text}}
                            for e in d.fix.edits
                        ],
                    }],
                }]
            out.append(item)
    return valid_json({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "flake8-tensorcopy",
                "version": __version__,
                "informationUri": "https://github.com/flake8-tensorcopy/flake8-tensorcopy",
                "rules": rules,
            }},
            "results": out,
        }],
    })


def render(results: List) -> str:
    return json.dumps(to_sarif(results), indent=2)
