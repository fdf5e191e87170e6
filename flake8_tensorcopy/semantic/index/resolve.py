"""The project index: finding, reading and caching the project's own modules.

When a linted file imports from its own project (``from .models import Generator``,
``import utils``, ``from models import *``), the facts that decide whether an expression is a
tensor often sit in that other module: the class bases (``Generator(nn.Module)``), the
``__init__`` bindings (``self.w = nn.Parameter(...)``, ``register_buffer``), what functions and
methods return (``compute_loss`` returns torch ops) and whether a class has its own ``data``.

- Only files under the project root are read (the nearest ancestor of the linted file holding
  ``pyproject.toml``, ``setup.py``, ``setup.cfg`` or ``.git``, plus configured source roots);
  never site-packages. Without such a marker the file's own package tree is the project.
- Modules are read lazily (only what an import reaches, when an expression needs it) with
  ``ast``, and cached per process by (path, mtime_ns, size).
- A module that cannot be found, read or parsed is unknown, never an error.

What a module defines is in ``facts``; what its expressions are, in ``evaluate``.
"""
from __future__ import annotations

import ast
import os
import time
from typing import Dict, List, Optional, Set, Tuple

from ..kinds import Qual
from . import roots
from .deps import Dependencies
from .facts import ModuleFacts
from .finder import ModuleFinder, hand_over
from .roots import Kept, digest, mtime


#: modules whose facts one process keeps between linted files (least recently used go first),
#: at most ``_MAX_MODULES`` of them and, past the most recent one, ``_MAX_KEPT_BYTES`` of their
#: source (a module's tree is about 44 bytes of live objects a byte of source). Bounded on
#: purpose: the trees are live objects that the cyclic garbage collector walks again, in
#: flake8's own work too (dense corpus, flake8 + plugin CPU: 4 modules 9.4-10.5 s, 32 modules
#: 10.4-10.7 s). The bound in bytes keeps a project's few large, much imported modules
#: (``utils/general.py`` and its like, 40 KB each) where a bound of 4 modules let them go and
#: read them again (dense corpus: 1.51 -> 1.32 MB parsed, whole ``flake8 --jobs 1`` process
#: 88.80 -> 88.65 G instructions; peak RSS on torch's source 184 -> 183 MB). The language
#: server, which lints the same file and its imports again and again, keeps more
#: (``SERVER_MODULES``, no bound in bytes); flake8's process facts without trees
#: (``keep_facts_only``).
_MAX_MODULES = 16
_MAX_KEPT_BYTES = 200_000
_NOT_ASKED = object()
SERVER_MODULES = 64
#: without their trees (``keep_facts_only``) a module's facts are a few hundred objects, its
#: bytes and its text (about twice its size in memory): kept for a whole run of a large project,
#: up to 32 MB of source (the dense corpus reads 149 modules, 1.5 MB; peak RSS 43 -> 48 MiB)
FACTS_MODULES, FACTS_BYTES = 4096, 32_000_000


# ---- the index -----------------------------------------------------------------------------

class ProjectIndex(ModuleFinder, Dependencies):
    """Per-process cache of module facts, keyed by (path, mtime_ns, size)."""

    def __init__(self) -> None:
        ModuleFinder.__init__(self)
        #: least recently used first; trimmed to ``max_modules`` between linted files (never
        #: while one file is analysed, so one file's analysis sees one object per module)
        self._modules: Kept = Kept()
        self.max_modules = _MAX_MODULES
        self.max_bytes: Optional[int] = _MAX_KEPT_BYTES
        #: path -> (mtime_ns, size, top-level import specs, nested import specs)
        self._specs: Dict[str, Tuple] = {}
        self._recent: Optional[Tuple[str, str, ast.Module]] = None
        #: ``_recent`` kept past the analysis, for the results cache's ``dependencies``
        self.keep_recent = True
        #: path -> SHA-256 of the bytes the index last read there (what its facts were made of),
        #: for ``dependency_states``: not kept in flake8's process (``keep_facts_only``)
        self._digests: Dict[str, str] = {}
        self.keep_digests = True
        #: what the index could not do (a limit it hit), not yet said: see ``take_notes``
        self._notes: Dict[str, None] = {}
        self._said: Set[str] = set()
        #: files whose last analysis read the whole project (``FileContext.imported_elsewhere``):
        #: what they depend on is every file, present or future, so no cache may keep their result
        self.whole_project: Set[str] = set()
        #: when ``begin`` last looked at the kept modules on disk
        self._checked = float("-inf")
        #: keep the modules' trees with their facts (False: ``keep_facts_only``); the modules
        #: whose trees ``after_file`` lets go
        self.keep_trees = True
        self._trees: List[ModuleFacts] = []

    def begin(self) -> None:
        """A file's analysis starts: its questions are answered once each (see ``_asked``).
        Every ``roots.TTL`` seconds at most, the modules kept are looked at on disk first: what was
        worked out from one that changed or went is forgotten (``_forget_worked_out``)."""
        self._asked = {}
        self._roots_cwd_ok()
        self._cwd_seen = True
        now = time.monotonic()
        if now - self._checked >= roots.TTL:
            self._checked = now
            for path, entry in list(self._modules.items()):
                try:
                    st = os.stat(path)
                except OSError:
                    st = None
                if st is None or (st.st_mtime_ns, st.st_size) != entry[:2]:
                    self._forget_worked_out()
                    break
            states: Dict[str, Optional[int]] = {}
            for folder, listed in list(self._listings.items()):
                watched = listed[3]
                state = states.get(watched, _NOT_ASKED)
                if state is _NOT_ASKED:  # a folder watched for many is looked at once
                    state = states[watched] = mtime(watched)
                if state != listed[2]:
                    self._listing(folder)  # listed again: names that changed forget the rest

    def end(self) -> None:
        """The analysis is over: the next question looks at the disk again."""
        self._asked = None
        self._cwd_seen = False

    def note(self, text: str) -> None:
        """Record that a limit was hit and cross-file facts may be missing (said once)."""
        if text not in self._said:
            self._notes[text] = None

    def _forget_worked_out(self) -> None:
        """What the facts were worked out from changed (a module's bytes, where an import
        leads): the answers any kept module worked out lazily may rest on it (``a.f`` returns
        what ``b.g`` returns), so every one of them is worked out again when asked."""
        for entry in self._modules.values():
            if entry[2] is not None:
                entry[2].release()

    def take_notes(self) -> List[str]:
        """The notes recorded since the last call, each once per process."""
        with self.lock:
            out = list(self._notes)
            self._notes.clear()
            self._said.update(out)
            return out

    def load_path(self, path: Optional[str]) -> Optional[ModuleFacts]:
        """Facts of the module at ``path`` (None: unreadable, too large or not Python)."""
        if path is None:
            return None
        path = os.path.abspath(path)
        asked = self._asked
        if asked is not None:
            got = asked.get(path, _NOT_ASKED)
            if got is not _NOT_ASKED:
                return got  # type: ignore[return-value]
            got = asked[path] = self._load_path_now(path)
            return got  # type: ignore[return-value]
        return self._load_path_now(path)

    def _load_path_now(self, path: str, linted: Optional[Tuple[str, ast.Module]] = None
                       ) -> Optional[ModuleFacts]:
        """``linted``: the text and tree of ``path`` being linted (``facts_for_source``): the
        facts are made from that tree, or kept ones serve, only while the file holds that
        text (None when it does not)."""
        try:
            st = os.stat(path)
        except OSError:
            with self.lock:
                gone = self._modules.pop(path, None)
                if gone is not None:
                    if gone[2] is not None:
                        gone[2].release()
                    self._forget_worked_out()  # gone: what rested on it goes too
            return None
        with self.lock:
            hit = self._modules.get(path)
            if hit is not None and hit[0] == st.st_mtime_ns and hit[1] == st.st_size:
                if linted is not None:
                    if hit[2] is None or hit[2].text != linted[0]:
                        return None
                    hit[2].adopt(linted[1])
                self._modules.move_to_end(path)
                return hit[2]
            data = None
            if st.st_size <= roots.MAX_FILE:
                try:
                    with open(path, "rb") as fh:
                        data = fh.read()
                except OSError:
                    pass
            if linted is not None and (data is None or not _holds(data, linted[0])):
                return None
            facts = None
            if data is None and st.st_size > roots.MAX_FILE:
                self.note(f"{path} is over {roots.MAX_FILE // 1_000_000} MB and was not read: "
                          "what it defines is unknown")
            if data is not None:
                if self.keep_digests:
                    self._digests[path] = digest(data)
                try:
                    tree = linted[1] if linted is not None else ast.parse(data, filename=path)
                    try:
                        text: Optional[str] = data.decode("utf-8")
                    except UnicodeDecodeError:
                        text = None  # another encoding: no text shortcuts for this module
                    facts = ModuleFacts(path, tree, self, text, data)
                    self.holds_tree(facts)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    facts = None
            if hit is not None:
                if hit[2] is not None:
                    hit[2].release()  # the file changed: its old facts are let go
                self._forget_worked_out()  # and what other modules worked out from them
            self._modules[path] = (st.st_mtime_ns, st.st_size, facts)
            return facts

    def trim(self) -> None:
        """Forget the least recently used modules beyond ``max_modules`` and, past the most
        recent one, beyond ``max_bytes`` of source: memory stays bounded over a long run
        (flake8 over a big tree, an editor session)."""
        with self.lock:
            modules = self._modules
            budget = self.max_bytes
            while len(modules) > self.max_modules or (
                    budget is not None and modules.bytes > budget and len(modules) > 1):
                facts = modules.popitem(last=False)[1][2]
                if facts is not None:
                    facts.release()

    def keep_warm(self) -> None:
        """For one long process (the language server): keep ``SERVER_MODULES`` modules between
        files, whatever their size."""
        self.max_modules, self.max_bytes = SERVER_MODULES, None

    def keep_facts_only(self) -> None:
        """For flake8's process (no ``dependencies`` asked): keep the modules' facts between
        files but no tree, neither theirs nor the linted file's. Let go in ``after_file``, with
        the collector still paused, the trees are never walked; kept, flake8's own collections
        walked them, and reading each module again for each file cost as much (RESULTS.md,
        eleventh and twelfth rounds). No digest of what is read is made (about 1% of the
        plugin's time on the dense corpus): ``dependency_states`` is refused."""
        self.max_modules, self.max_bytes = FACTS_MODULES, FACTS_BYTES
        self.keep_recent, self.keep_trees, self.keep_digests = False, False, False

    def empty_module(self, path: str) -> ModuleFacts:
        """Facts of a module that defines nothing (one gone or unreadable now)."""
        return ModuleFacts(path, ast.Module(body=[], type_ignores=[]), self, "")

    def holds_tree(self, facts: ModuleFacts) -> None:
        """``facts`` has its tree (or nodes of it) now: let it go after the analysis unless
        trees are kept."""
        if not self.keep_trees and facts not in self._trees:
            self._trees.append(facts)

    def after_file(self) -> None:
        """The analysis is over (``FileContext.release``): what is not kept goes now."""
        self.trim()
        self._recent = self._recent if self.keep_recent else None
        trees, self._trees = self._trees, []
        for facts in trees:
            facts.drop_tree()

    def module_of(self, importer: str, dotted: str, level: int = 0) -> Optional[ModuleFacts]:
        return self.load_path(self.find_module(importer, dotted, level, recent=True))

    def resolve_import(self, importer: str, imp: Tuple, depth: int = 0):
        """The shape an import statement binds: a project module/class/function, or a qual."""
        if imp[0] == "module":
            _, dotted, level = imp
            mod = self.module_of(importer, dotted, level)
            return mod if mod is not None else Qual(dotted)
        _, mod_name, level, name = imp
        mod = self.module_of(importer, mod_name, level)
        if mod is not None:
            got = mod.member(name, depth + 1)
            if got is not None:
                return got
            return None
        if level == 0 and mod_name:
            # ``from pkg import submodule`` where pkg has no __init__ in the project
            sub = self.module_of(importer, f"{mod_name}.{name}", 0)
            if sub is not None:
                return sub
            return Qual(f"{mod_name}.{name}")
        if level:
            sub = self.module_of(importer, f"{mod_name}.{name}" if mod_name else name, level)
            return sub
        return None

    def facts_for_source(self, path: str, tree: ast.Module,
                         text: Optional[str] = None) -> ModuleFacts:
        """Facts of the file being linted, from its own (possibly unsaved) text and tree: the
        index's own (``linted``) or facts of the text alone (``data`` None), not kept."""
        got = self.linted(path, tree, text)
        return got if got is not None else ModuleFacts(os.path.abspath(path), tree, self, text)

    def linted(self, path: str, tree: ast.Module, text: Optional[str]) -> Optional[ModuleFacts]:
        """In flake8's process (``keep_facts_only``: facts kept for a whole run, without
        trees), the index's facts of the file being linted, made from the tree flake8 parsed,
        while the file holds the text linted (else None): read for a file that imported it,
        they serve its own analysis, and made now, they serve the files that import it later,
        which do not read it again (dense corpus: 22 of 149 modules). Not elsewhere: a tree
        kept with the facts would take one of few places."""
        if text is None or self.keep_trees:
            return None
        return self._load_path_now(os.path.abspath(path), (text, tree))

    def note_source(self, path: str, source: Optional[str], tree: Optional[ast.Module]) -> None:
        """The text and tree of the file being linted: ``dependencies`` of that file (asked right
        after, for the results cache) reads its imports from them instead of parsing it again,
        when the file on disk still holds that text."""
        self._recent = (os.path.abspath(path), source, tree) if source is not None and \
            isinstance(tree, ast.Module) else None
        self.whole_project.discard(os.path.abspath(path))  # a new analysis of it begins

def _holds(data: bytes, text: str) -> bool:
    """Are ``data`` the bytes of ``text`` (the linted text is the file's)?"""
    try:
        return data == text.encode("utf-8")
    except UnicodeError:  # a lone surrogate: no bytes are that text
        return False


_INDEX = ProjectIndex()
hand_over(_INDEX)  # the answers the pre-filter found before the index was loaded


def take_notes() -> List[str]:
    """What the process's index could not do since the last call (``ProjectIndex.take_notes``)."""
    return _INDEX.take_notes()


def index() -> ProjectIndex:
    """The per-process project index (shared by the plugin, the CLI, the fixer and the server)."""
    return _INDEX


def dependency_states(path: str) -> List[Tuple[str, Optional[str]]]:
    """``ProjectIndex.dependency_states`` of the process's index; [] when it cannot tell."""
    try:
        return _INDEX.dependency_states(path)
    except (OSError, RecursionError, ValueError):
        return []


def dependencies(path: str) -> List[str]:
    """The project files (absolute paths, sorted) whose contents can influence the diagnostics
    of ``path``: the transitive in-project imports the index consults. For result caches: a
    cached result for ``path`` is valid while ``path`` and every listed file are unchanged."""
    try:
        return _INDEX.dependencies(path)
    except (OSError, RecursionError, ValueError):
        return []

