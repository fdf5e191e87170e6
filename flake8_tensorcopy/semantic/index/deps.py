"""What the analysis of one file depended on through the project index, for a results cache
(``dependencies``, ``dependency_states``): the project files its imports reach, transitively, and
the places they were looked for in vain. A part of ``resolve.ProjectIndex``, which keeps the
answers these questions share with the analysis (``find_module``'s, the modules' facts)."""
from __future__ import annotations

import ast
import os
import time
from typing import Callable, Iterable, List, Optional, Set, Tuple

from ...syntax.prefilter import statements
from .facts import ModuleFacts
from . import roots
from ...files import PRESENT
from .reach import import_specs
from .roots import digest, digest_now


class WholeProject(Exception):
    """An analysis depended on every file of its project (no list of files can say what)."""


class Dependencies:
    """The dependency questions of ``resolve.ProjectIndex`` (which this is a part of)."""

    def dependencies(self, path: str) -> List[str]:
        """Absolute paths of the project files whose contents can change the analysis of
        ``path``: its in-project imports, transitively (star imports and base classes
        included); ``path`` itself is not listed."""
        return self._dependencies(path)[0]

    def dependency_states(self, path: str) -> List[Tuple[str, Optional[str]]]:
        """What the analysis of ``path`` depended on, for a results cache: ``(file, SHA-256 of
        the bytes the index read there)`` for each dependency, and ``(file, None)`` for each
        file the imports were looked for in and not found (one created later would change the
        answer), ``(path, files.PRESENT)`` for a path that must still exist (the project
        marker that decided an importer's root: ``root_evidence``). Asked right after the
        analysis, in the process that made it: the digests are
        those of what was read then, not of what the file holds by the time it is stored.
        Raises ``WholeProject`` when the analysis read every file of the project."""
        if not self.keep_digests:
            raise RuntimeError("an index keeping facts only (flake8's) makes no digests")
        if os.path.abspath(path) in self.whole_project:
            raise WholeProject(path)
        read = dict(self._digests)  # before the walk below reads anything again
        found, absent = self._dependencies(path)
        out: List[Tuple[str, Optional[str]]] = []
        for dep in found:
            read_as = read.get(dep) or self._digests.get(dep) or digest_now(dep)
            if read_as is None:
                absent.add(dep)  # gone meanwhile: it must stay gone
            else:
                out.append((dep, read_as))
        present: Set[str] = set()
        for importer in [os.path.abspath(path)] + found:
            # where each importer's project starts decides where its imports lead
            for marker, state in self.root_evidence(importer):
                (absent if state is None else present).add(marker)
        out.extend((p, PRESENT) for p in sorted(present - absent))
        out.extend((a, None) for a in sorted(absent))
        return out

    def _dependencies(self, path: str) -> Tuple[List[str], Set[str]]:
        start = os.path.abspath(path)
        seen: Set[str] = {start}
        order: List[str] = []
        absent: Set[str] = set()
        todo = [start]
        while todo:
            cur = todo.pop()
            found, searched = self._module_targets(cur)
            targets = list(found)
            absent.update(searched)
            if cur == start:
                nested = self._import_specs(cur)[1]
                targets.extend(self._resolve_specs(cur, nested, parents=False, absent=absent))
            for target in targets:
                if target not in seen:
                    seen.add(target)
                    order.append(target)
                    todo.append(target)
        return sorted(order), absent - seen

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
            targets = tuple(self._resolve_specs(start, import_specs(source)))
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
        None: not read. Kept while the file is unchanged, the files for ``roots.TTL`` (as
        ``find_module``'s answers are: a module created meanwhile is found)."""
        try:
            st = os.stat(path)
        except OSError:
            return None
        key = (st.st_mtime_ns, st.st_size, holds)
        now = time.monotonic()
        hit = self._reach_texts.get(path)
        if hit is not None and hit[0] == key and now - hit[1] < roots.TTL:
            return hit[2]
        if st.st_size > roots.MAX_FILE:
            return None
        try:
            with open(path, "rb") as fh:
                text = fh.read().decode("utf-8", "replace")
        except OSError:
            return None
        got = (bool(holds(text)), tuple(self._resolve_specs(path, import_specs(text))))
        with self.lock:
            self._reach_texts[path] = (key, now, got)
        return got

    def _module_targets(self, path: str) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
        """The files the top-level imports of ``path`` reach and the places searched in vain,
        kept while the file is unchanged, as ``find_module``'s answers are (for ``roots.TTL``):
        every file of a run that reaches a module through its imports asks for them again."""
        try:
            st = os.stat(path)
            state: Optional[Tuple[int, int]] = (st.st_mtime_ns, st.st_size)
        except OSError:
            state = None
        now = time.monotonic()
        hit = self._targets_cache.get(path)
        if hit is not None and now - hit[2] < roots.TTL and hit[3] == state:
            return hit[0], hit[1]
        searched: Set[str] = set()
        found = tuple(self._resolve_specs(path, self._import_specs(path)[0], absent=searched))
        got = (found, tuple(sorted(searched)))
        self._targets_cache[path] = got + (now, state)
        return got

    def _import_specs(self, path: str) -> Tuple[Tuple[Tuple[str, int], ...], Tuple[Tuple[str, int], ...]]:
        """The imports of ``path`` as (dotted, level) pairs: those its module facts bind (top
        level, star imports included) and those inside its functions and classes. Kept per
        (path, mtime_ns, size) for the process; small (strings), so not bounded."""
        try:
            st = os.stat(path)
        except OSError:
            return (), ()
        with self.lock:
            hit = self._specs.get(path)
            if hit is not None and hit[0] == st.st_mtime_ns and hit[1] == st.st_size:
                return hit[2], hit[3]
            cached = self._modules.get(path)
        top: List[Tuple[str, int]] = []
        nested: List[Tuple[str, int]] = []
        facts = None
        if cached is not None and cached[0] == st.st_mtime_ns and cached[1] == st.st_size:
            facts = cached[2]
        tree = facts.tree if facts is not None else None
        if tree is None and st.st_size <= roots.MAX_FILE:
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
                if self.keep_digests:
                    self._digests.setdefault(path, digest(data))
                recent = self._recent
                if recent is not None and recent[0] == path and recent[1].encode("utf-8") == data:
                    tree = recent[2]
                else:
                    tree = ast.parse(data, filename=path)
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError,
                    UnicodeError):
                tree = None
        if tree is not None:
            if facts is None:
                facts = ModuleFacts(path, tree, self)  # what the facts bind; not kept
            for imp in facts.imports.values():
                top.append((imp[1], imp[2]))
                if imp[0] != "module":
                    top.append((f"{imp[1]}.{imp[3]}" if imp[1] else imp[3], imp[2]))
            top.extend(facts.stars)
            for node in statements(tree):
                if isinstance(node, ast.Import):
                    nested.extend((a.name, 0) for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    mod = node.module or ""
                    nested.append((mod, node.level))
                    nested.extend((f"{mod}.{a.name}" if mod else a.name, node.level)
                                  for a in node.names if a.name != "*")
        result = (tuple(top), tuple(nested))
        with self.lock:
            self._specs[path] = (st.st_mtime_ns, st.st_size) + result
        return result

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
