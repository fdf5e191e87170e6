"""pygls wiring of the language server: document and notebook sync, diagnostics, code actions,
hover, configuration reload. Imported only by ``tensorcopy server`` (needs pygls >= 2).

Linting runs in one worker thread so the connection keeps answering while a large buffer is
analysed; a result is published only if the buffer has not changed meanwhile.
"""
from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import to_fs_path

from .. import __version__
from ..diagnostics import Diagnostic
from ..docs import doc_url, summary
from ..rules import RULES_BY_CODE
from .actions import (FIX_ALL, Target, allowed, code_actions, fix_action, noqa_title, quiet,
                      resolve_edit, wants_fix_all, warm_view)
from .core import (UTF8, UTF16, UTF32, Configs, DocumentView, TextIndex, join_notebook,
                   lint_document, overlaps, parseable_cells)

log = logging.getLogger("tensorcopy.server")

SOURCE = "tensorcopy"
DEFAULT_DEBOUNCE = 0.15  # seconds after the last keystroke before a changed buffer is linted
PREPARE_DELAY = 0.2  # seconds after diagnostics are published before code actions are prepared


class Protocol(LanguageServerProtocol):
    """pygls' protocol, except that
    - a change for a document (or notebook) that was never opened is logged and dropped instead
      of raising inside the built-in handler;
    - a notification leaves nothing behind: pygls 2 files the future of every generator-,
      coroutine- or thread-style handler it runs under a fresh id and drops it only when a
      response is sent, which a notification never gets, so each ``didChange`` kept one future
      (and what it refers to) for the life of the server;
    - a request after ``shutdown`` gets an InvalidRequest error (pygls drops it unanswered);
    - ``exit`` without ``shutdown`` ends the process with status 1 (see ``serve``).
    """

    def _handle_notification(self, method_name: str, params: Any):
        futures = getattr(self, "_request_futures", None)
        if not isinstance(futures, dict):  # another pygls: nothing to tidy
            return super()._handle_notification(method_name, params)
        before = set(futures)
        try:
            return super()._handle_notification(method_name, params)
        finally:
            for key in [k for k in futures if k not in before]:
                future = futures[key]
                if future.done():
                    del futures[key]
                else:  # still running (a coroutine handler): forget it when it ends
                    future.add_done_callback(lambda _f, key=key: futures.pop(key, None))

    def handle_message(self, message):
        server = self._server
        if getattr(server, "shut_down", False) and getattr(message, "method", "") != types.EXIT:
            if getattr(message, "id", None) is not None and hasattr(message, "method"):
                self._send_response(message.id, None, JsonRpcInvalidRequest(
                    message="the server is shut down: only 'exit' is accepted"
                ).to_response_error())
            return None  # notifications after shutdown are dropped, as the spec says
        if getattr(message, "method", "") == types.EXIT:
            server.exit_requested = True
        return super().handle_message(message)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if unquote(params.text_document.uri) not in self.workspace.text_documents:
            log.warning("change for a document that is not open: %s (ignored)",
                        params.text_document.uri)
            self._server.window_log_message(types.LogMessageParams(
                types.MessageType.Warning,
                f"tensorcopy: change for a document that is not open, ignored: "
                f"{params.text_document.uri}"))
            return
        yield from super().lsp_text_document__did_change(params)

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams):
        if self.workspace.get_notebook_document(notebook_uri=params.notebook_document.uri) is None:
            log.warning("change for a notebook that is not open: %s (ignored)",
                        params.notebook_document.uri)
            return
        yield from super().lsp_notebook_document__did_change(params)


class TensorcopyServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "tensorcopy", __version__, protocol_cls=Protocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(notebook_selector=[
                types.NotebookDocumentFilterWithCells(
                    notebook="jupyter-notebook", cells=[types.NotebookCellLanguage("python")])],
                save=True))
        self.configs = Configs()
        self.unsafe_option = False  # the client's initializationOptions / settings
        self.debounce = DEFAULT_DEBOUNCE
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tensorcopy-lint")
        self.pending: Dict[str, asyncio.Task] = {}
        # uri (text document or cell) -> [(Diagnostic, LSP diagnostic)] last published
        self.published: Dict[str, List[Tuple[Diagnostic, types.Diagnostic]]] = {}
        self.reported_config_errors: set = set()
        self.shut_down = False  # ``shutdown`` answered: only ``exit`` may follow
        # what code actions read of each linted text (document uri, or notebook uri), one per
        # uri: (generation, config, text, future DocumentView). ``generation`` moves on every
        # change, save, open, close or configuration change anywhere (the project index may
        # read any file), so a view is reused only while nothing at all has changed.
        self.views: Dict[str, Tuple[int, Any, str, "asyncio.Future[DocumentView]"]] = {}
        self.generation = 0
        self.exit_requested = False

    # ------------------------------------------------------------------ options
    def apply_options(self, options: Any) -> None:
        """``{"unsafeFixes": bool, "debounceMs": int}`` (also ``unsafe-fixes``), possibly under
        a ``tensorcopy`` key: from initializationOptions or workspace/didChangeConfiguration."""
        if not isinstance(options, dict):
            return
        if isinstance(options.get("tensorcopy"), dict):
            options = options["tensorcopy"]
        for key in ("unsafeFixes", "unsafe-fixes", "unsafe_fixes"):
            if isinstance(options.get(key), bool):
                self.unsafe_option = options[key]
        ms = options.get("debounceMs", options.get("debounce-ms"))
        if isinstance(ms, (int, float)) and not isinstance(ms, bool) and 0 <= ms <= 10_000:
            self.debounce = ms / 1000.0

    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding
        value = getattr(enc, "value", enc)
        return value if value in (UTF8, UTF16, UTF32) else UTF16

    def config_for(self, path: Optional[str]):
        cfg, error = self.configs.for_path(path)
        if error and error not in self.reported_config_errors:
            self.reported_config_errors.add(error)
            self.window_show_message(types.ShowMessageParams(
                types.MessageType.Warning, f"tensorcopy: {error}; using the default settings"))
        return cfg

    def unsafe_for(self, cfg) -> bool:
        return bool(cfg.unsafe_fixes or self.unsafe_option)

    # ------------------------------------------------------------------ documents
    def is_open(self, uri: str) -> bool:
        return unquote(uri) in self.workspace.text_documents

    def notebook_of(self, uri: str):
        return self.workspace.get_notebook_document(cell_uri=uri)

    def notebook_cells(self, nb) -> List[Tuple[str, str]]:
        out = []
        for cell in nb.cells:
            if cell.kind != types.NotebookCellKind.Code:
                continue
            doc = self.workspace.text_documents.get(unquote(cell.document))
            if doc is None or (doc.language_id or "python") != "python":
                continue
            out.append((cell.document, doc.source))
        return out

    def schedule(self, uri: str, delay: float = 0.0, notebook: bool = False) -> None:
        """(Re)lint ``uri`` after ``delay`` seconds; a newer request replaces a pending one."""
        self.generation += 1
        if not notebook:
            nb = self.notebook_of(uri)
            if nb is not None:
                uri, notebook = nb.uri, True
        old = self.pending.pop(uri, None)
        if old is not None and not old.done():
            old.cancel()
        task = asyncio.ensure_future(self._lint_later(uri, delay, notebook))
        self.pending[uri] = task

    async def _lint_later(self, uri: str, delay: float, notebook: bool) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            if notebook:
                await self.lint_notebook(uri)
            else:
                await self.lint_text_document(uri)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # never let one buffer take the server down
            log.exception("linting %s failed", uri)
            self.window_log_message(types.LogMessageParams(
                types.MessageType.Error, f"tensorcopy: linting {uri} failed: {exc!r}"))
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    async def lint_text_document(self, uri: str) -> None:
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is None:
            return
        version, text = doc.version, doc.source
        path = to_fs_path(uri)
        cfg = self.config_for(path)
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self.pool, lint_document, path, text, cfg)
        current = self.workspace.text_documents.get(unquote(uri))
        if current is None or current.version != version or current.source != text:
            return  # changed (a newer lint is scheduled) or closed meanwhile
        index = TextIndex(text)
        pairs = [(d, self.to_lsp_diagnostic(d, index)) for d in result.diagnostics]
        self.publish(uri, pairs, version)
        if any(d.fix is not None for d in result.diagnostics):
            self.prepare_soon(uri, path, text, cfg)

    async def lint_notebook(self, nb_uri: str) -> None:
        nb = self.workspace.get_notebook_document(notebook_uri=nb_uri)
        if nb is None:
            return
        cells = self.notebook_cells(nb)
        if not cells:
            return
        loop = asyncio.get_running_loop()
        joined, cmap = await loop.run_in_executor(
            self.pool, lambda: join_notebook(parseable_cells(cells)[0]))
        path = to_fs_path(nb.uri)
        cfg = self.config_for(path)
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self.pool, lint_document, path, joined, cfg)
        nb = self.workspace.get_notebook_document(notebook_uri=nb_uri)
        if nb is None or self.notebook_cells(nb) != cells:
            return
        per_cell: List[List[Tuple[Diagnostic, types.Diagnostic]]] = [[] for _ in cells]
        indexes = [TextIndex(text) for _, text in cells]
        for d in result.diagnostics:
            i, line = cmap.locate(d.line)
            end_i, end_line = cmap.locate(d.end_line)
            local = Diagnostic(d.code, d.message, line, d.column,
                               end_line if end_i == i else cmap.counts[i],
                               d.end_column if end_i == i else 0, d.fix)
            per_cell[i].append((local, self.to_lsp_diagnostic(local, indexes[i])))
        for (cell_uri, _), pairs in zip(cells, per_cell):
            self.publish(cell_uri, pairs, None)
        if any(d.fix is not None for d in result.diagnostics):
            self.prepare_soon(nb_uri, path, joined, cfg)

    def may_have_actions(self, uri: str, lint_uri: str, rng: types.Range) -> bool:
        """Could a quick fix apply at ``rng``? No when the last published diagnostics are
        current (no lint pending) and none of them touches the range."""
        if lint_uri in self.pending or uri not in self.published:
            return True
        want = ((rng.start.line, rng.start.character), (rng.end.line, rng.end.character))
        return any(overlaps(((d.range.start.line, d.range.start.character),
                             (d.range.end.line, d.range.end.character)), want)
                   for _, d in self.published[uri])

    def publish(self, uri: str, pairs, version: Optional[int]) -> None:
        self.published[uri] = pairs
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[p[1] for p in pairs], version=version))

    def clear(self, uri: str) -> None:
        self.generation += 1
        self.views.pop(uri, None)
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.published.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri,
                                                                              diagnostics=[]))

    def relint_all(self) -> None:
        cells = set()
        for nb in list(self.workspace.notebook_documents.values()):
            cells.update(unquote(c.document) for c in nb.cells)
            self.schedule(nb.uri, notebook=True)
        for key, doc in list(self.workspace.text_documents.items()):
            if key not in cells:
                self.schedule(doc.uri)  # the client's own spelling of the uri

    # ------------------------------------------------------------------ code action views
    def view(self, uri: str, path: Optional[str], text: str,
             cfg) -> "asyncio.Future[DocumentView]":
        """The DocumentView of ``text`` (linted as ``uri``), computed once in the lint worker
        and shared by every code action until anything changes."""
        held = self.views.get(uri)
        if held is not None and held[0] == self.generation and held[1] == cfg and (
                held[2] is text or held[2] == text) and not (
                held[3].done() and (held[3].cancelled() or held[3].exception())):
            return held[3]
        # a view replaced before its job starts is built bare (a request may still await it,
        # and computes what it needs of it); never cancelled under an awaiting request
        loop = asyncio.get_running_loop()
        mine: list = []
        future = loop.run_in_executor(self.pool, warm_view, path, text, cfg,
                                      lambda: self.views.get(uri, ())[3:] == tuple(mine))
        mine.append(future)
        future.add_done_callback(quiet)
        self.views[uri] = (self.generation, cfg, text, future)
        return future

    async def prepare(self, uri: str):
        """(DocumentView, Target, cells or None) for code actions in document or notebook cell
        ``uri``; None when there is nothing to act on (a cell that does not parse)."""
        loop = asyncio.get_running_loop()
        nb = self.notebook_of(uri)
        if nb is None:
            doc = self.workspace.text_documents[unquote(uri)]
            path = to_fs_path(uri)
            view = await self.view(uri, path, doc.source, self.config_for(path))
            return view, Target(uri, view.index), None
        path = to_fs_path(nb.uri)
        cfg = self.config_for(path)  # on the connection's thread (it may message the user)
        cells = self.notebook_cells(nb)
        uris = [u for u, _ in cells]
        if uri not in uris:
            return None
        usable, broken = await loop.run_in_executor(self.pool, parseable_cells, cells)
        i = uris.index(uri)
        if i in broken:
            return None  # the cell does not parse: nothing there to fix
        joined, cmap = join_notebook(usable)
        view = await self.view(nb.uri, path, joined, cfg)
        return view, Target(uri, TextIndex(usable[i][1]), cmap, view.index, i), usable

    def prepare_soon(self, uri: str, path: Optional[str], text: str, cfg) -> None:
        """Compute the view of ``text`` in the background, shortly after its diagnostics are
        published: the request an editor sends as soon as they arrive is answered from them
        (``early_actions``) without the analysis competing for the interpreter; the view is
        then ready for the next ones. Nothing is done if anything changed meanwhile."""
        generation = self.generation

        def start() -> None:
            if self.generation == generation and uri not in self.pending:
                self.view(uri, path, text, cfg)
        asyncio.get_running_loop().call_later(PREPARE_DELAY, start)

    def view_ready(self, uri: str) -> bool:
        held = self.views.get(uri)
        doc = self.workspace.text_documents.get(unquote(uri))
        return bool(held and doc and held[0] == self.generation and held[3].done()
                    and held[2] is doc.source)

    def early_actions(self, uri: str, params: types.CodeActionParams):
        """The actions at ``params.range`` of a text document from its published diagnostics,
        every edit left to ``codeAction/resolve``: the answer while the document's view is
        still being prepared (the request the editor sends as soon as diagnostics arrive).
        None when the published diagnostics are not the current text's."""
        if uri in self.pending or uri not in self.published:
            return None
        only = params.context.only
        want = ((params.range.start.line, params.range.start.character),
                (params.range.end.line, params.range.end.character))
        unsafe = self.unsafe_for(self.config_for(to_fs_path(uri)))
        actions, safe = [], False
        for d, lsp in self.published[uri]:
            safe = safe or bool(d.fix and d.fix.is_safe)
            if not allowed(types.CodeActionKind.QuickFix, only) or not overlaps(
                    ((lsp.range.start.line, lsp.range.start.character),
                     (lsp.range.end.line, lsp.range.end.character)), want):
                continue
            if d.fix is not None and d.fix.edits and (d.fix.is_safe or unsafe):
                actions.append(fix_action(d, lsp, uri))
            actions.append(types.CodeAction(
                title=noqa_title(d.code), kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp], data={"noqa": uri, "code": d.code, "line": d.line}))
        if safe and wants_fix_all(params):
            actions.append(types.CodeAction(title="tensorcopy: fix all safe fixes in this file",
                                            kind=FIX_ALL, data={"fixAll": uri}))
        return actions

    @property
    def resolves_edits(self) -> bool:
        """Does the client fill a code action's ``edit`` by ``codeAction/resolve``?"""
        caps = self.client_capabilities.text_document
        options = caps and caps.code_action and caps.code_action.resolve_support
        return bool(options and "edit" in (options.properties or []))

    # ------------------------------------------------------------------ translation
    def lsp_range(self, index: TextIndex, line: int, col: int, end_line: int,
                  end_col: int) -> types.Range:
        enc = self.encoding
        sl, sc = index.to_lsp(line, col, enc)
        el, ec = index.to_lsp(end_line, end_col, enc)
        return types.Range(types.Position(sl, sc), types.Position(el, ec))

    def to_lsp_diagnostic(self, d: Diagnostic, index: TextIndex) -> types.Diagnostic:
        return types.Diagnostic(
            range=self.lsp_range(index, d.line, d.column, d.end_line, d.end_column),
            message=d.message,
            severity=types.DiagnosticSeverity.Warning,
            code=d.code,
            code_description=types.CodeDescription(href=doc_url(d.code)),
            source=SOURCE,
            data={"safety": d.fix.safety if d.fix else None,
                  "fix": d.fix.description if d.fix else None},
        )

    def text_edits(self, index: TextIndex, edits) -> List[types.TextEdit]:
        out = []
        for e in edits:
            (l1, c1), (l2, c2) = index.line_col(e.start), index.line_col(e.end)
            out.append(types.TextEdit(self.lsp_range(index, l1, c1, l2, c2), e.text))
        return out


def _hover_text(codes: List[str]) -> str:
    parts = []
    for code in codes:
        rule = RULES_BY_CODE.get(code)
        if rule is None:
            continue
        parts.append(f"**{code}** `{rule.name}`: {summary(rule)}.\n\n"
                     f"[{code} documentation]({doc_url(code)})")
    return "\n\n---\n\n".join(parts)


def create_server() -> TensorcopyServer:
    server = TensorcopyServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: TensorcopyServer, params: types.InitializeParams):
        ls.apply_options(params.initialization_options)
        root = params.root_uri and to_fs_path(params.root_uri)
        if params.workspace_folders:
            root = to_fs_path(params.workspace_folders[0].uri) or root
        ls.configs.fallback_root = root or None

    @server.feature(types.INITIALIZED)
    async def initialized(ls: TensorcopyServer, params: types.InitializedParams):
        caps = ls.client_capabilities.workspace
        watched = caps and caps.did_change_watched_files
        if watched and watched.dynamic_registration:
            try:
                await ls.client_register_capability_async(types.RegistrationParams([
                    types.Registration(
                        id="tensorcopy-pyproject", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=[types.FileSystemWatcher(glob_pattern="**/pyproject.toml")]))]))
            except Exception as exc:  # the client refused: mtime checks still catch edits
                log.info("watching pyproject.toml not registered: %r", exc)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TensorcopyServer, params: types.DidOpenTextDocumentParams):
        ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TensorcopyServer, params: types.DidChangeTextDocumentParams):
        ls.schedule(params.text_document.uri, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: TensorcopyServer, params: types.DidSaveTextDocumentParams):
        if ls.is_open(params.text_document.uri):
            ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TensorcopyServer, params: types.DidCloseTextDocumentParams):
        ls.clear(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def nb_open(ls: TensorcopyServer, params: types.DidOpenNotebookDocumentParams):
        ls.schedule(params.notebook_document.uri, notebook=True)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def nb_change(ls: TensorcopyServer, params: types.DidChangeNotebookDocumentParams):
        structure = params.change.cells and params.change.cells.structure
        for closed in (structure and structure.did_close) or []:
            ls.clear(closed.uri)
        ls.schedule(params.notebook_document.uri, ls.debounce, notebook=True)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def nb_save(ls: TensorcopyServer, params: types.DidSaveNotebookDocumentParams):
        ls.schedule(params.notebook_document.uri, notebook=True)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def nb_close(ls: TensorcopyServer, params: types.DidCloseNotebookDocumentParams):
        task = ls.pending.pop(params.notebook_document.uri, None)
        if task is not None:
            task.cancel()
        ls.views.pop(params.notebook_document.uri, None)
        for cell in params.cell_text_documents:
            ls.clear(cell.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: TensorcopyServer, params: types.DidChangeWatchedFilesParams):
        ls.configs.clear()
        ls.reported_config_errors.clear()
        ls.relint_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def configuration(ls: TensorcopyServer, params: types.DidChangeConfigurationParams):
        ls.apply_options(params.settings)
        ls.configs.clear()
        ls.reported_config_errors.clear()
        ls.relint_all()

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: TensorcopyServer, params: types.HoverParams) -> Optional[types.Hover]:
        pairs = ls.published.get(params.text_document.uri) or []
        pos = (params.position.line, params.position.character)
        hits = [lsp for _, lsp in pairs if overlaps(
            ((lsp.range.start.line, lsp.range.start.character),
             (lsp.range.end.line, lsp.range.end.character)), (pos, pos))]
        if not hits:
            return None
        codes = list(dict.fromkeys(str(h.code) for h in hits))
        return types.Hover(
            contents=types.MarkupContent(types.MarkupKind.Markdown, _hover_text(codes)),
            range=hits[0].range)

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True))
    async def code_action(ls: TensorcopyServer, params: types.CodeActionParams):
        uri = params.text_document.uri
        if not ls.is_open(uri):
            return None
        nb = ls.notebook_of(uri)
        if not wants_fix_all(params) and not ls.may_have_actions(
                uri, nb.uri if nb is not None else uri, params.range):
            return []  # cheap answer for the light bulb on every cursor move
        if nb is None and ls.resolves_edits and not ls.view_ready(uri):
            early = ls.early_actions(uri, params)
            if early is not None:
                return early
        prepared = await ls.prepare(uri)
        if prepared is None:
            return []
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(ls.pool, code_actions, ls, *prepared, params)

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve(ls: TensorcopyServer, action: types.CodeAction) -> types.CodeAction:
        """Fill in the edit of an action offered without one (when the client resolves edits):
        fix-all runs the fixer over the whole file, and a quick fix is checked to leave a text
        that parses; both cost the size of the file, too much for every cursor move."""
        data = action.data if isinstance(action.data, dict) else {}
        uri = data.get("fixAll", data.get("fix", data.get("noqa")))
        if action.edit is not None or not isinstance(uri, str) or not ls.is_open(uri):
            return action
        prepared = await ls.prepare(uri)
        if prepared is not None:
            loop = asyncio.get_running_loop()
            action.edit = await loop.run_in_executor(ls.pool, resolve_edit, ls, *prepared,
                                                     data)
        return action

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: TensorcopyServer, *args):
        ls.shut_down = True
        for task in ls.pending.values():
            task.cancel()
        ls.pool.shutdown(wait=False, cancel_futures=True)

    return server
