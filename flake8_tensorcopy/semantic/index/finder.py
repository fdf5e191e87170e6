"""Where the project's modules are: the project root of a file, the file an import names, and
the files a module's imports reach with what their text holds (``reaches``, the pre-filter's
question). Paths and text only, no tree: the flake8 plugin asks ``project_reach`` before it
imports the engine, and a file that then proves to have no candidate never imports it (an
editor's run on such a file: about 25 ms less).

``ModuleFinder`` keeps the answers; the project index (``resolve.ProjectIndex``) is one, and
takes over the answers of the finder the pre-filter used before it was loaded (``hand_over``)."""
from __future__ import annotations

import os
import threading
import time
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple

from . import roots
from .reach import import_specs
from .roots import find_root, package_homes, watched_folder, within
from ...syntax.source import LazyPattern

_NOT_ASKED = object()


class ModuleFinder:
    """Per-process answers to where modules are and what their text holds."""

    def __init__(self) -> None:
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
        #: path -> ((mtime_ns, size), its text's import specs, question -> its text's answer,
        #: the files its imports lead to, when they were found): ``reaches``
        self._reach_texts: Dict[str, Tuple] = {}
        #: (path, text, its import specs) of the text ``reaches`` was last asked about
        self._linted_specs: Optional[Tuple[str, str, Tuple]] = None
        #: what one file's analysis has asked (``begin``/``end``): ``find_module`` and
        #: ``load_path`` answers, given again without looking at the disk until it ends (one
        #: analysis sees one state of the project; its thousands of questions cost a stat each)
        self._asked: Optional[Dict[Tuple, object]] = None
        #: the working directory was looked at in this analysis (``begin``): the roots found
        #: through it hold until ``end``
        self._cwd_seen = False
        #: folder -> (the names it held, when it was listed, the mtime then of the folder
        #: watched for it, that folder): see ``_listing``
        self._listings: Dict[str, Tuple[frozenset, float, Optional[int], str]] = {}

    def _forget_worked_out(self) -> None:
        """What was worked out from the project's files changed (a module created, an import
        leading elsewhere): the project index forgets its facts; a finder keeps none."""

    def set_source_roots(self, roots: Iterable[str]) -> None:
        """The configured source roots; a change forgets where imports were found."""
        roots = tuple(roots)
        if roots != self.source_roots:
            with self.lock:
                self.source_roots = roots
                self._resolve_cache.clear()

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

    def _resolve_specs(self, importer: str, specs, parents: bool = True,
                       absent: Optional[Set[str]] = None) -> Iterable[str]:
        for dotted, level in specs:
            found = self.find_module(importer, dotted, level)
            if absent is not None:
                absent.update(self._searched(importer, dotted, level, found))
            if found:
                yield os.path.abspath(found)
            # parent packages' __init__ run on import and may define names
            if parents and level == 0 and "." in dotted:
                parts = dotted.split(".")
                for i in range(1, len(parts)):
                    pkg = self.find_module(importer, ".".join(parts[:i]), 0)
                    if pkg:
                        yield os.path.abspath(pkg)

    def _searched(self, importer: str, dotted: str, level: int,
                  found: Optional[str]) -> Tuple[str, ...]:
        """The places an import was looked for in before its answer ``found`` (all of them for
        no answer), absolute. Kept as ``find_module``'s answers are (for ``roots.TTL``): every file
        of a run asks again for the imports of the modules they share (issue 23 item 5: this
        search, repeated per file for each module its imports reach, was half of a first
        ``check`` of the dense corpus)."""
        key = (os.path.dirname(os.path.abspath(importer)), dotted, level, found)
        now = time.monotonic()
        hit = self._searched_cache.get(key)
        if hit is not None and now - hit[1] < roots.TTL:
            return hit[0]
        target = os.path.abspath(found) if found else None
        out: List[str] = []
        for cand in self._candidates(importer, dotted, level):
            cand = os.path.abspath(cand)
            if cand == target:
                break
            out.append(cand)
        got = tuple(out)
        self._searched_cache[key] = (got, now)
        return got

    def reaches(self, path: str, source: Optional[str], holds: Callable[[str], bool]) -> bool:
        """Does a project module that ``path``'s imports reach, directly or through other
        modules' imports, hold text for which ``holds`` is true (``path`` itself is not asked)?
        Imports as ``reach.import_specs`` reads them from the text (a superset of those the
        index follows), found as ``find_module`` finds them, parent packages included.
        ``source``: ``path``'s text as linted (None: read from the disk). What each module
        holds is kept per (path, mtime_ns, size)."""
        start = os.path.abspath(path)
        if source is None:
            got = self._text_facts(start, holds)
            if got is None:
                return False
            targets = got[1]
        else:
            last = self._linted_specs  # the plan's question and then the rules' about one text
            if last is None or last[0] != start or last[1] is not source:
                last = self._linted_specs = (start, source, import_specs(source))
            targets = tuple(self._resolve_specs(start, last[2]))
        seen = {start}
        todo = [targets]
        while todo:
            for target in todo.pop():
                if target in seen:
                    continue
                seen.add(target)
                got = self._text_facts(target, holds)
                if got is None:
                    continue
                if got[0]:
                    return True
                todo.append(got[1])
        return False

    def _text_facts(self, path: str, holds: Callable[[str], bool]
                    ) -> Optional[Tuple[bool, Tuple[str, ...]]]:
        """(``holds(text)``, the files its ``import_specs`` lead to) of the module at ``path``;
        None: not read. What the text holds (its import specs, the answer to each question
        asked of it) is kept while the file is unchanged, the files its imports lead to for
        ``roots.TTL`` (as ``find_module``'s answers are: a module created meanwhile is found).
        The text is read again only for a question not asked of it before (with one answer
        kept per file, the pre-filter's question and a rule's took each other's place: 481
        reads of 149 modules on the dense corpus)."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        state = (st.st_mtime_ns, st.st_size)
        now = time.monotonic()
        hit = self._reach_texts.get(path)
        if hit is not None and hit[0] != state:
            hit = None
        if hit is not None and now - hit[4] >= roots.TTL:
            hit = hit[:3] + (tuple(self._resolve_specs(path, hit[1])), now)
        answer = None if hit is None else hit[2].get(holds)
        if answer is None:
            if st.st_size > roots.MAX_FILE:
                return None
            try:
                with open(path, "rb") as fh:
                    text = fh.read().decode("utf-8", "replace")
            except OSError:
                return None
            answer = bool(holds(text))
            if hit is None:
                specs = import_specs(text)
                hit = (state, specs, {}, tuple(self._resolve_specs(path, specs)), now)
        with self.lock:
            hit[2][holds] = answer
            self._reach_texts[path] = hit
        return answer, hit[3]


def hand_over(successor: ModuleFinder) -> None:
    """``successor`` (the process's project index, made when the engine is imported) takes over
    the answers of the finder the pre-filter asked before, and serves every later question: one
    set of answers per process."""
    global _FINDER
    with _LOCK:
        if _FINDER is not None and _FINDER is not successor:
            for name in vars(ModuleFinder()):
                setattr(successor, name, getattr(_FINDER, name))
        _FINDER = successor


def finder() -> ModuleFinder:
    """The process's finder: the project index once it is loaded, else a finder of its own."""
    global _FINDER
    with _LOCK:
        if _FINDER is None:
            _FINDER = ModuleFinder()
        return _FINDER


_FINDER: Optional[ModuleFinder] = None
_LOCK = threading.Lock()
_INSTALLED = LazyPattern(r"[\\/](?:site|dist)-packages[\\/]")


def in_project(filename: Optional[str]) -> bool:
    """Does the project index read the project of a file named ``filename``? Not for text
    without a real path, nor for an installed package (torch's own source, say: nobody's
    project here)."""
    return bool(filename) and filename not in ("-", "<string>", "<stdin>") and \
        not filename.startswith("<") and not _INSTALLED.search(filename)  # type: ignore


def project_reach(filename: Optional[str], source: Optional[str], source_roots: Iterable[str],
                  holds: Callable[[str], bool]) -> bool:
    """The pre-filter's ``reach`` for the file ``filename`` (``source``: its text): does
    project code that its imports reach hold text for which ``holds`` is true
    (``ModuleFinder.reaches``)? False where the index reads no project: no other module's
    summary is ever read there."""
    if not in_project(filename):
        return False
    found = finder()
    found.set_source_roots(source_roots)
    try:
        return found.reaches(filename, source, holds)  # type: ignore[arg-type]
    except (OSError, ValueError, RecursionError):
        return True  # not known: the plan keeps what it would have
