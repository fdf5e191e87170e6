"""Rule documentation, generated from the rule classes (the single source).

``python -m flake8_tensorcopy.docs [DIR]`` rewrites ``docs/rules/``; a test fails when it is stale.
"""
from __future__ import annotations

import os
import sys
from typing import Dict

from .diagnostics import NOT_ANALYSED
from .rules import ALL_RULES
from .rules.base import FIX_CHANGES, Rule

DOCS_BASE_URL = "https://github.com/flake8-tensorcopy/flake8-tensorcopy/blob/main/docs/rules/"

_SAFETY = {
    "safe": "safe",
    "unsafe": "unsafe (applied with `--unsafe-fixes`)",
    "sometimes": "safe in some contexts, unsafe elsewhere (see below)",
    None: "no fix",
}


def doc_url(code: str) -> str:
    return f"{DOCS_BASE_URL}{code}.md"


def summary(rule: Rule) -> str:
    return rule.what.rstrip(".")


def render(rule: Rule) -> str:
    first = rule.invalid[0] if rule.invalid else None
    lines = [
        f"# {rule.code} `{rule.name}`",
        "",
        f"Fix: {_SAFETY[rule.fix_safety]}.",
        "",
        "## What it does",
        "",
        rule.what,
        "",
        "## Why is this bad?",
        "",
        rule.why,
        "",
        "## Example",
        "",
        "```python",
        (first.before if first else "").rstrip("\n"),
        "```",
        "",
        "## Use instead",
        "",
        rule.use_instead,
        "",
    ]
    if first is not None and first.after is not None:
        lines += ["```python", first.after.rstrip("\n"), "```", ""]
    lines += ["## Fix safety", "", rule.fix_doc, ""]
    if rule.unsafe_changes:
        lines += ["Where the fix is unsafe, applying it may change (each kind seen by the "
                  "differential fix tester, `benchmarks/FIXPROOF.md`):", ""]
        lines += [f"- {FIX_CHANGES[k]}" for k in rule.unsafe_changes]
        lines.append("")
    if rule.claims:
        lines += ["## Verified claims", "",
                  "Checked by `tensorcopy verify` on the installed torch (CPU, and CUDA where present):", ""]
        for claim in rule.claims:
            lines.append(f"- `{claim.id}` ({claim.kind}): {claim.text}")
        lines.append("")
    if rule.valid:
        lines += ["## Not flagged", "", "```python"]
        lines += ["\n".join(v.rstrip("\n") for v in rule.valid[:3])]
        lines += ["```", ""]
    lines += ["## References", ""]
    lines += [f"- <{ref}>" for ref in rule.references]
    lines.append("")
    return "\n".join(lines)


#: the one code that is not a rule (diagnostics.NOT_ANALYSED): (name, summary, page)
NOT_ANALYSED_DOC = ("not-analysed", "Python parses the file, but it could not be analysed", """\
# TEN001 `not-analysed`

Not a rule: a report about the file itself. Fix: none.

## What it does

Reported at line 1, column 1 when Python parses the file but flake8-tensorcopy cannot analyse
it: the code is nested too deeply to walk (a chain of hundreds of operators, say), or, under
flake8, the analysis met an internal error (a bug of ours, named in the message: please report
it with the file; `tensorcopy check` shows the same error on its error line). No TEN rule was
checked in that file, so it is reported instead of looking clean. `flake8` and `tensorcopy check` report it the same way; a file that Python itself
cannot parse is a syntax error instead (flake8's E999, an error line of `tensorcopy check`).

## What to do

Nothing is wrong with the file as Python sees it. Rewrite the construct the message names if the
TEN rules should run on this file (for an internal error, report it), or silence it with `# noqa: TEN001` on line 1 or with
`--ignore TEN001` / `per-file-ignores`.
""")


def render_index() -> str:
    lines = ["# Rules", "", "| code | name | what it flags | fix |", "| --- | --- | --- | --- |"]
    for rule in ALL_RULES:
        lines.append(f"| [{rule.code}]({rule.code}.md) | `{rule.name}` | {summary(rule)} | "
                     f"{rule.fix_safety or 'none'} |")
    name, what, _ = NOT_ANALYSED_DOC
    lines += ["", "Not a rule:", "", "| code | name | what it reports | fix |",
              "| --- | --- | --- | --- |",
              f"| [{NOT_ANALYSED}]({NOT_ANALYSED}.md) | `{name}` | {what} | none |"]
    lines.append("")
    return "\n".join(lines)


def all_docs() -> Dict[str, str]:
    docs = {f"{rule.code}.md": render(rule) for rule in ALL_RULES}
    docs[f"{NOT_ANALYSED}.md"] = NOT_ANALYSED_DOC[2]
    docs["README.md"] = render_index()
    return docs


def write(directory: str) -> int:
    os.makedirs(directory, exist_ok=True)
    for name, text in all_docs().items():
        with open(os.path.join(directory, name), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    target = sys.argv[1] if len(sys.argv) > 1 else os.path.join("docs", "rules")
    sys.exit(write(target))
