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
import threading
import time
from typing import Dict, Iterable, List, Optional, Set, Tuple

from ..kinds import Qual
from . import roots
from .deps import Dependencies
from .facts import ModuleFacts
from .roots import (Kept, digest, find_root, mtime, package_homes, watched_folder,
                    within)


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

class ProjectIndex(Dependencies):
    """Per-process cache of module facts, keyed by (path, mtime_ns, size)."""

    def __init__(self) -> None:
        #: least recently used first; trimmed to ``max_modules`` between linted files (never
        #: while one file is analysed, so one file's analysis sees one object per module)
        self._modules: Kept = Kept()
        self._roots: Dict[str, Optional[str]] = {}
        #: folder -> what decided its root (``find_root``'s evidence), for ``dependency_states``
        self._root_evidence: Dict[str, Tuple[Tuple[str, Optional[str]], ...]] = {}
        #: path -> the absolute folder holding it (``folder_of``), while the working directory
        #: stays the one ``begin`` saw
        self._folders: Dict[str, str] = {}
        self._cwd: Optional[str] = None
        self._resolve_cache: Dict[Tuple, Tuple[Optional[str], float]] = {}
        self._searched_cache: Dict[Tuple, Tuple[Tuple[str, ...], float]] = {}
        self._targets_cache: Dict[str, Tuple] = {}
        self._homes_cache: Dict[Tuple[str, str], Tuple[List[str], float]] = {}
        self.source_roots: Tuple[str, ...] = ()
        self.lock = threading.RLock()
        self.max_modules = _MAX_MODULES
        self.max_bytes: Optional[int] = _MAX_KEPT_BYTES
        #: path -> (mtime_ns, size, top-level import specs, nested import specs)
        self._specs: Dict[str, Tuple] = {}
        #: path -> ((mtime_ns, size, question), when, (its text's answer, the files its text's
        #: imports lead to)): ``reaches``
        self._reach_texts: Dict[str, Tuple] = {}
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
        #: what one file's analysis has asked (``begin``/``end``): ``find_module`` and
        #: ``load_path`` answers, given again without looking at the disk until it ends (one
        #: analysis sees one state of the project; its thousands of questions cost a stat each)
        self._asked: Optional[Dict[Tuple, object]] = None
        #: the working directory was looked at in this analysis (``begin``): the roots found
        #: through it hold until ``end``
        self._cwd_seen = False
        #: when ``begin`` last looked at the kept modules on disk
        self._checked = float("-inf")
        #: keep the modules' trees with their facts (False: ``keep_facts_only``); the modules
        #: whose trees ``after_file`` lets go
        self.keep_trees = True
        self._trees: List[ModuleFacts] = []
        #: folder -> (the names it held, when it was listed, the mtime then of the folder
        #: watched for it, that folder): see ``_listing``
        self._listings: Dict[str, Tuple[frozenset, float, Optional[int], str]] = {}

    def set_source_roots(self, roots: Iterable[str]) -> None:
        """The configured source roots; a change forgets where imports were found."""
        roots = tuple(roots)
        if roots != self.source_roots:
            with self.lock:
                self.source_roots = roots
                self._resolve_cache.clear()

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

    def take_notes(self) -> List[str]:
        """The notes recorded since the last call, each once per process."""
        with self.lock:
            out = list(self._notes)
            self._notes.clear()
            self._said.update(out)
            return out

    # -- roots and files ---------------------------------------------------------------------
    def folder_of(self, path: str) -> str:
        """``os.path.dirname(os.path.abspath(path))``: asked again and again of the file whose
        imports are resolved, kept during an analysis (the working directory checked)."""
        if not self._cwd_seen:
            return os.path.dirname(os.path.abspath(path))
        got = self._folders.get(path)
        if got is None:
            got = self._folders[path] = os.path.dirname(os.path.abspath(path))
        return got

    def root_of(self, path: str) -> Optional[str]:
        d = self.folder_of(path)
        if d not in self._roots or not (self._cwd_seen or self._roots_cwd_ok()):
            evidence: List[Tuple[str, Optional[str]]] = []
            # ancestors listed once for all
            self._roots[d] = find_root(path, self._listing, evidence)
            self._root_evidence[d] = tuple(evidence)
        return self._roots[d]

    def root_evidence(self, path: str) -> Tuple[Tuple[str, Optional[str]], ...]:
        """What decided ``root_of(path)`` (``find_root``'s evidence): paths that must still
        exist (``roots.PRESENT``) or still not exist (None) for the root to be the same."""
        d = self.folder_of(path)
        got = self._root_evidence.get(d)
        if got is None:
            self.root_of(path)
            got = self._root_evidence.get(d, ())
        return got

    def _roots_cwd_ok(self) -> bool:
        """Roots found through the working directory hold while it does not change."""
        try:
            cwd = os.getcwd()
        except OSError:
            cwd = None
        if cwd != self._cwd:
            self._cwd = cwd
            self._roots.clear()
            self._root_evidence.clear()
            self._folders.clear()
            self._resolve_cache.clear()
            self._searched_cache.clear()
            self._targets_cache.clear()
            self._homes_cache.clear()
            return False
        return True

    def _allowed(self, candidate: str, importer: str) -> bool:
        real = os.path.abspath(candidate)
        root = self.root_of(importer)
        if root and within(real, root):
            return True
        return any(within(real, os.path.abspath(r)) for r in self.source_roots)

    def _module_file(self, base: str, dotted: str) -> Optional[str]:
        """``base/a/b.py`` or ``base/a/b/__init__.py`` for ``a.b``, if it is a file. Each folder on
        the way is looked up in its parent's listing (``_listing``) before anything is
        ``stat``-ed: most names a run looks for are not there (every ``import os`` is first looked
        for beside the importer and at the project's root)."""
        *parents, last = dotted.split(".")
        folder = base
        names = self._listing(folder)
        for part in parents:
            if part not in names:
                return None
            folder = os.path.join(folder, part)
            names = self._listing(folder)
        # a package (``helpers/__init__.py``) wins over a module beside it (``helpers.py``), as
        # Python's path finder decides (issue 45)
        package = self._package_init(folder, last) if last in names else None
        if package is not None:
            return package
        if last + ".py" in names:
            cand = os.path.join(folder, last + ".py")
            if os.path.isfile(cand):
                return cand
        return None

    def _package_init(self, base: str, name: str) -> Optional[str]:
        """``base/name/__init__.py`` if it is a file (``base``'s listing first, shared by every
        name looked for there, most of which are not in it; then the folder's, then a stat)."""
        if name not in self._listing(base):
            return None
        folder = os.path.join(base, name)
        if "__init__.py" not in self._listing(folder):
            return None
        cand = os.path.join(folder, "__init__.py")
        return cand if os.path.isfile(cand) else None

    def _listing(self, folder: str) -> frozenset:
        """The names in ``folder`` (empty if it cannot be listed), kept for ``roots.TTL`` as "not
        found" answers are: a name created meanwhile is seen within a second. ``begin`` looks
        for changes at the folder's mtime or, for a folder that does not exist (most of those
        an import looks in: ``src/pickle`` for ``import pickle``), at its nearest existing
        parent's, which changes when the folder is created (``roots.watched_folder``)."""
        now = time.monotonic()
        hit = self._listings.get(folder)
        if hit is None or now - hit[1] >= roots.TTL:
            watched, state = watched_folder(folder)  # before listing: a change after it is seen
            try:
                names: frozenset = frozenset(os.listdir(folder))
            except OSError:
                names = frozenset()
            if hit is not None and names != hit[0]:
                self._forget_worked_out()  # a module created or removed where imports look
            hit = self._listings[folder] = (names, now, state, watched)
        return hit[0]

    def find_module(self, importer: str, dotted: str, level: int = 0,
                    recent: bool = False) -> Optional[str]:
        """The project file of module ``dotted`` imported from ``importer`` (``level`` dots).

        Answers are kept: "not found" for a second (a long-running process, an editor, sees
        modules created meanwhile), a file found while it is still there. With ``recent`` a
        file found less than a second ago is given without looking whether it is still there
        (for a caller that reads it next: ``load_path`` finds no facts in a file that is gone).
        """
        key = (os.path.dirname(importer), dotted, level)
        asked = self._asked
        if asked is not None:
            got = asked.get(key, _NOT_ASKED)
            if got is not _NOT_ASKED:
                return got  # type: ignore[return-value]
        found = self._find_module_now(key, importer, dotted, level, recent)
        if asked is not None:
            asked[key] = found
        return found

    def _find_module_now(self, key: Tuple, importer: str, dotted: str, level: int,
                         recent: bool) -> Optional[str]:
        hit = self._resolve_cache.get(key)
        now = time.monotonic()
        if hit is not None:
            found, when = hit
            fresh = now - when < roots.TTL
            if found is None:
                if fresh:
                    return None
            elif (recent and fresh) or os.path.isfile(found):
                return found
        found = self._find_module(importer, dotted, level)
        self._resolve_cache[key] = (found, now)
        if hit is not None and hit[0] != found:
            self._forget_worked_out()  # an import leads elsewhere now
        return found

    def _forget_worked_out(self) -> None:
        """What the facts were worked out from changed (a module's bytes, where an import
        leads): the answers any kept module worked out lazily may rest on it (``a.f`` returns
        what ``b.g`` returns), so every one of them is worked out again when asked."""
        for entry in self._modules.values():
            if entry[2] is not None:
                entry[2].release()

    def _bases(self, importer: str, dotted: str, every: bool = False) -> List[str]:
        """Where an absolute import of ``dotted`` from ``importer`` is looked for, in order: the
        importer's own folder only where it is a script's (Python 3 has no implicit relative
        import: ``from helpers import f`` in ``pkg/mod.py`` is the top-level ``helpers``, not
        ``pkg/helpers.py``; issue 45); with ``every``, also that folder in any case and the
        root's ``src`` folder where there is none yet (a module created there would be found:
        ``_candidates``)."""
        folder = self.folder_of(importer)
        bases: List[str] = [folder] if every or "__init__.py" not in self._listing(folder) else []
        root = self.root_of(importer)
        if root:
            bases.append(root)
            if os.path.basename(root) == dotted.split(".", 1)[0]:
                bases.append(os.path.dirname(root))  # a package without a project marker
            src = os.path.join(root, "src")
            if every or ("src" in self._listing(root) and os.path.isdir(src)):
                bases.append(src)
        bases.extend(os.path.abspath(r) for r in self.source_roots)
        return bases

    def _find_module(self, importer: str, dotted: str, level: int) -> Optional[str]:
        if level:
            base = self.folder_of(importer)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            if not dotted:
                cand = os.path.join(base, "__init__.py")
                return cand if os.path.isfile(cand) and self._allowed(cand, importer) else None
            cand = self._module_file(base, dotted)
            return cand if cand and self._allowed(cand, importer) else None
        if not dotted or dotted == "torch" or dotted.startswith("torch."):
            return None
        for base in self._bases(importer, dotted):
            cand = self._module_file(base, dotted)
            if cand and self._allowed(cand, importer):
                return cand
        for base in self._homes(importer, dotted):
            cand = self._module_file(base, dotted)
            if cand:
                return cand
        return None

    def _homes(self, importer: str, dotted: str) -> List[str]:
        """``package_homes``, kept as ``find_module``'s answers are (for ``roots.TTL``)."""
        folder = self.folder_of(importer)
        key = (folder, dotted.split(".", 1)[0])
        now = time.monotonic()
        hit = self._homes_cache.get(key)
        if hit is not None and now - hit[1] < roots.TTL:
            return hit[0]
        got = package_homes(folder, dotted, self._package_init)
        self._homes_cache[key] = (got, now)
        return got

    def _candidates(self, importer: str, dotted: str, level: int) -> List[str]:
        """Every file ``_find_module`` may answer for this import, in its search order."""
        if level:
            base = self.folder_of(importer)
            for _ in range(level - 1):
                base = os.path.dirname(base)
            bases = [base]
            if not dotted:
                cand = os.path.join(base, "__init__.py")
                return [cand] if self._allowed(cand, importer) else []
        elif not dotted or dotted == "torch" or dotted.startswith("torch."):
            return []
        else:
            bases = self._bases(importer, dotted, every=True)
        rel = dotted.replace(".", os.sep)
        found = [c for base in bases
                 for c in (os.path.join(base, rel, "__init__.py"), os.path.join(base, rel + ".py"))
                 if self._allowed(c, importer)]
        if not level and dotted:
            found += [c for base in self._homes(importer, dotted)
                      for c in (os.path.join(base, rel, "__init__.py"),
                                os.path.join(base, rel + ".py"))]
        return found

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

