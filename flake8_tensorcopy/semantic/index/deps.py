"""What the analysis of one file depended on through the project index, for a results cache
(``dependencies``, ``dependency_states``): the project files its imports reach, transitively, and
the places they were looked for in vain. A part of ``resolve.ProjectIndex``, which keeps the
answers these questions share with the analysis (``find_module``'s, the modules' facts)."""
from __future__ import annotations

import ast
import os
import time
from typing import List, Optional, Set, Tuple

from ...syntax.prefilter import statements
from .facts import ModuleFacts
from . import roots
from ...files import PRESENT
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
