"""Code actions of the language server: quick fixes, ``# noqa`` actions and fix-all, built from
a ``core.DocumentView`` (the fixer's view of one linted text, computed once) for a target
document (a text document, or one notebook cell of the joined notebook). Run in the lint worker;
``lsp`` wires them to requests. Edits may be left to ``codeAction/resolve`` (``resolve_edit``).
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

from lsprotocol import types

from ..diagnostics import Diagnostic, Edit
from .core import (CellMap, DocumentView, TextIndex, checked_fix, fix_all, notebook_fix_all,
                   overlaps, parseable_cells)

#: ``ls`` below is the running ``lsp.TensorcopyServer`` (not imported here: lsp imports this
#: module); what is used of it: encoding, resolves_edits, unsafe_for, to_lsp_diagnostic,
#: text_edits.
Server = Any

FIX_ALL = "source.fixAll.tensorcopy"


def wants_fix_all(params: types.CodeActionParams) -> bool:
    """Fix-all runs the fixer over the whole file: offer it when asked for by kind, or when the
    user invoked the menu, not for the automatic light bulb on each cursor move."""
    only = params.context.only
    if only:
        return allowed(FIX_ALL, only)
    return params.context.trigger_kind != types.CodeActionTriggerKind.Automatic


def allowed(kind: str, only: Optional[List[str]]) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


class Target:
    """The document a code action edits. For a plain document the linted text is the document;
    for a notebook cell the linted text is the joined notebook and edits and diagnostics are
    moved into the cell (an edit reaching outside the cell is not offered)."""

    def __init__(self, uri: str, index: TextIndex, cmap: Optional[CellMap] = None,
                 joined: Optional[TextIndex] = None, cell: int = 0) -> None:
        self.uri, self.index, self.cmap, self.joined, self.cell = uri, index, cmap, joined, cell

    def edit(self, e: Edit) -> Optional[Edit]:
        if self.cmap is None:
            return e
        (l1, c1), (l2, c2) = self.joined.line_col(e.start), self.joined.line_col(e.end)
        (i1, k1), (i2, k2) = self.cmap.locate(l1), self.cmap.locate(l2)
        if i1 != self.cell or i2 != self.cell:
            return None
        return Edit(self.index.offset(k1, c1), self.index.offset(k2, c2), e.text)

    def diagnostic(self, d: Diagnostic) -> Diagnostic:
        if self.cmap is None:
            return d
        _, line = self.cmap.locate(d.line)
        _, end_line = self.cmap.locate(d.end_line)
        return Diagnostic(d.code, d.message, line, d.column, end_line, d.end_column, d.fix)

    def request(self, rng: types.Range, enc: str):
        """The request range as ((line, col), (line, col)) of the linted text."""
        start = self.index.from_lsp(rng.start.line, rng.start.character, enc)
        end = self.index.from_lsp(rng.end.line, rng.end.character, enc)
        if self.cmap is not None:
            start = (self.cmap.joined_line(self.cell, start[0]), start[1])
            end = (self.cmap.joined_line(self.cell, end[0]), end[1])
        return start, end


def warm_view(path: Optional[str], text: str, cfg, wanted) -> DocumentView:
    """The view of ``text``, computed now if ``wanted()`` still says so when the job starts."""
    view = DocumentView(path, text, cfg)
    return view.warm() if wanted() else view


def quiet(future) -> None:
    """Done callback: a view nobody awaited may fail or be cancelled without a warning."""
    if not future.cancelled():
        future.exception()


def fix_all_edit(ls: Server, uri: str, path: Optional[str], text: str,
                  cfg) -> Optional[types.WorkspaceEdit]:
    edit = fix_all(path, text, cfg)
    if edit is None:
        return None
    return types.WorkspaceEdit(changes={uri: ls.text_edits(TextIndex(text), [edit])})


def notebook_fix_all_edit(ls: Server, path: Optional[str],
                           cells: List[Tuple[str, str]], cfg) -> Optional[types.WorkspaceEdit]:
    usable = parseable_cells(cells)[0]
    per_cell = notebook_fix_all(path, usable, cfg)
    if not per_cell:
        return None
    texts = dict(usable)
    return types.WorkspaceEdit(changes={u: ls.text_edits(TextIndex(texts[u]), edits)
                                        for u, edits in per_cell.items()})


def fix_all_action(ls: Server, view: DocumentView, target: "Target", cells,
                    params: types.CodeActionParams) -> List[types.CodeAction]:
    """Fix-all, offered without its edit when the client resolves edits (the edit comes with
    ``codeAction/resolve``, when the user picks it). A client that cannot resolve gets it only
    when it asks for the kind (editor.codeActionsOnSave), computed now: a request without
    ``only`` (the menu, the light bulb) never runs the fixer over the whole file."""
    if not wants_fix_all(params) or not view.has_safe_fix():
        return []
    what = "file" if cells is None else "notebook"
    action = types.CodeAction(title=f"tensorcopy: fix all safe fixes in this {what}",
                              kind=FIX_ALL, data={"fixAll": target.uri})
    if ls.resolves_edits:
        return [action]
    if not params.context.only:
        return []
    action.edit = fix_all_of(ls, view, target, cells)
    return [action] if action.edit is not None else []


def fix_all_of(ls: Server, view: DocumentView, target: "Target",
                cells) -> Optional[types.WorkspaceEdit]:
    if cells is None:
        return fix_all_edit(ls, target.uri, view.path, view.text, view.cfg)
    return notebook_fix_all_edit(ls, view.path, cells, view.cfg)


def code_actions(ls: Server, view: DocumentView, target: "Target", cells,
             params: types.CodeActionParams) -> List[types.CodeAction]:
    actions = quick_fixes(ls, view, target, target.request(params.range, ls.encoding),
                           params.context.only)
    return actions + fix_all_action(ls, view, target, cells, params)


def resolve_edit(ls: Server, view: DocumentView, target: "Target", cells,
                  data: dict) -> Optional[types.WorkspaceEdit]:
    if "fixAll" in data:
        return fix_all_of(ls, view, target, cells)
    if "noqa" in data:
        edit = view.noqa_edit(data.get("line", 0), str(data.get("code")))
        local = target.edit(edit) if edit is not None else None
        return None if local is None else types.WorkspaceEdit(
            changes={target.uri: ls.text_edits(target.index, [local])})
    span = data.get("span")
    for d in view.diagnostics():
        if d.code == data.get("code") and [d.line, d.column, d.end_line, d.end_column] == span:
            return fix_edit(ls, view, target, d)
    return None  # the text changed since: nothing to apply


def fix_edit(ls: Server, view: DocumentView, target: "Target",
              d: Diagnostic) -> Optional[types.WorkspaceEdit]:
    """The WorkspaceEdit of ``d``'s fix in the target document, if it may be applied and the
    text still parses after it."""
    if d.fix is None or not (d.fix.is_safe or ls.unsafe_for(view.cfg)):
        return None
    mapped = [target.edit(e) for e in d.fix.edits]
    if any(m is None for m in mapped) or checked_fix(view.text, d) is None:
        return None
    return types.WorkspaceEdit(changes={target.uri: ls.text_edits(target.index, mapped)})


def quick_fixes(ls: Server, view: DocumentView, target: "Target", req,
                 only) -> List[types.CodeAction]:
    """The rule's fix and a noqa comment for each diagnostic of the view touching ``req``.
    A client that resolves edits gets each fix without its edit (checking that the fixed text
    parses costs a parse of the whole file: done on resolve, for the fix picked)."""
    if not allowed(types.CodeActionKind.QuickFix, only):
        return []
    unsafe = ls.unsafe_for(view.cfg)
    lazy = ls.resolves_edits
    actions = []
    for d in view.diagnostics():
        if not overlaps(((d.line, d.column), (d.end_line, d.end_column)), req):
            continue
        lsp_diag = ls.to_lsp_diagnostic(target.diagnostic(d), target.index)
        if d.fix is not None and (d.fix.is_safe or unsafe) and d.fix.edits and all(
                target.edit(e) is not None for e in d.fix.edits):
            action = fix_action(d, lsp_diag, target.uri)
            if not lazy:
                action.edit, action.data = fix_edit(ls, view, target, d), None
            if action.edit is not None or lazy:
                actions.append(action)
        noqa = view.noqa_edit(d.line, d.code)
        local = target.edit(noqa) if noqa is not None else None
        if local is not None:
            actions.append(types.CodeAction(
                title=noqa_title(d.code),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp_diag],
                edit=types.WorkspaceEdit(changes={
                    target.uri: ls.text_edits(target.index, [local])})))
    return actions


def fix_action(d: Diagnostic, lsp_diag: types.Diagnostic, uri: str) -> types.CodeAction:
    """``d``'s quick fix without its edit (``codeAction/resolve`` finds it by code and span)."""
    label = "" if d.fix.is_safe else " (unsafe fix)"
    return types.CodeAction(
        title=f"Fix {d.code}: {d.fix.description}{label}", kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp_diag], is_preferred=d.fix.is_safe,
        data={"fix": uri, "code": d.code, "span": [d.line, d.column, d.end_line, d.end_column]})


def noqa_title(code: str) -> str:
    return f"Disable {code} for this line (# noqa: {code})"
