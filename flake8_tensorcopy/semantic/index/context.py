"""The project index as one linted file's analysis sees it (``FileContext``): its imports, its
own top-level definitions, the modules it star-imports, and whether another project file imports
it. Made per analysis; the modules it reaches are ``resolve.ProjectIndex``'s, shared by all."""
from __future__ import annotations

import ast
import os
from typing import Dict, List, Optional, Sequence, Tuple

from .facts import ClassFacts, FuncFacts, ModuleFacts
from ...syntax.prefilter import statements
from .evaluate import TOO_DEEP
from .resolve import index


class FileContext:
    """What the inference of one linted file asks the index: its imports, its own top-level
    definitions (from its ``ast``, which sees definitions the libcst walk has not reached or
    that were blanked), and the modules it star-imports."""

    def __init__(self, path: str, tree: Optional[ast.Module] = None, source: Optional[str] = None,
                 source_roots: Sequence[str] = ()) -> None:
        self.path = os.path.abspath(path)
        self.index = index()
        self.index.trim()
        self.index.note_source(self.path, source, tree)
        self.index.set_source_roots(source_roots)
        self.index.begin()
        self._tree = tree
        self._source = source
        self._facts: Optional[ModuleFacts] = None
        self._defs_by_name: Optional[Dict[str, list]] = None
        self.stars: List[Tuple[str, int]] = []

    def facts(self) -> Optional[ModuleFacts]:
        if self._facts is None:
            tree = self._tree
            if tree is None and self._source is not None:
                try:
                    tree = ast.parse(self._source)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    tree = None
            if not isinstance(tree, ast.Module):
                return None
            self._facts = self.index.facts_for_source(self.path, tree, self._source)
        return self._facts

    def module_tree(self) -> Optional[ast.Module]:
        """The file's whole ``ast`` (definitions the lint view masked included)."""
        if self._tree is None and self._source is not None:
            try:
                self._tree = ast.parse(self._source)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return None
        return self._tree if isinstance(self._tree, ast.Module) else None

    def imported_elsewhere(self) -> bool:
        """May another file of the project import this one (``importers.imported_elsewhere``)?
        Asking makes the file's analysis depend on the whole project."""
        self.index.whole_project.add(self.path)
        try:
            from .importers import imported_elsewhere  # only TEN501's proof asks, rarely
            return imported_elsewhere(self.path, self.index.root_of(self.path))
        except (OSError, RecursionError, ValueError):
            return True

    def reaches(self, holds) -> bool:
        """Does a project module this file's imports reach hold text for which ``holds`` is
        true (``ProjectIndex.reaches``: the pre-filter's question, asked by a rule of code the
        plan kept for another rule)? True when it cannot tell."""
        try:
            return self.index.reaches(self.path, self._source, holds)
        except (OSError, RecursionError, ValueError):
            return True

    def attribute_restores(self, cls: str, cls_path: str, attr: str) -> list:
        """Where the project hands attribute ``attr`` of class ``cls`` (defined in
        ``cls_path``) or of a subclass to ``load_state_dict`` (``attribute_loads.restores_of``),
        loads through ``self`` in ``cls_path`` itself aside (its own analysis sees them). Asking
        makes the file's analysis depend on the whole project."""
        self.index.whole_project.add(self.path)
        try:
            root = self.index.root_of(self.path)
            if root is None:
                return []
            from .attribute_loads import project_facts, restores_of  # asked rarely
            source = self._source
            if source is None:
                with open(self.path, "rb") as fh:
                    source = fh.read().decode("utf-8", "replace")
            files = project_facts(root, (self.path, source))
            if files is None:
                return []
            return restores_of(files, cls, os.path.abspath(cls_path), attr)
        except (OSError, RecursionError, ValueError):
            return []

    def release(self) -> None:
        """The file's analysis is over: its own facts are let go (``ModuleFacts.release``), and
        what the index keeps between files is trimmed to its bounds (``after_file``). Facts the
        analysis never asked for are not made for the files after it (on the dense corpus,
        every module a later file imported had its facts asked; making them for every file
        cost more than the reads it would save)."""
        self.index.end()
        if self._facts is not None and self._facts.data is None:
            self._facts.release()  # its own (the index's own stay for the files after it)
        self._facts = None
        self._tree = None
        self.index.after_file()

    def find(self, dotted: str, level: int) -> Optional[str]:
        try:
            return self.index.find_module(self.path, dotted, level)
        except (OSError, ValueError):
            return None

    def resolve(self, imp: Tuple):
        try:
            return self.index.resolve_import(self.path, imp)
        except RecursionError:
            self.index.note(TOO_DEEP)
            return None
        except (OSError, ValueError):
            return None

    def global_name(self, name: str):
        """A top-level name the walk has not bound: a definition of this file, or one that a
        ``from <project module> import *`` brings."""
        facts = self.facts()
        if facts is not None:
            d = facts.defs.get(name)
            if d is not None:
                return d
        for mod, level in self.stars:
            target = self.index.module_of(self.path, mod, level)
            if target is not None:
                got = target.lookup(name)
                if got is not None:
                    return got
        return None

    def current_class(self, name: str) -> Optional[ClassFacts]:
        facts = self.facts()
        d = facts.defs.get(name) if facts is not None else None
        return d if isinstance(d, ClassFacts) else None

    def written_params(self, name: str) -> frozenset:
        """What every ``def name`` of this file (nested ones too) writes into in place."""
        facts = self.facts()
        if facts is None:
            return frozenset()
        if self._defs_by_name is None:
            self._defs_by_name = {}
            for node in statements(facts.tree):  # a definition is a statement
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._defs_by_name.setdefault(node.name, []).append(node)
        nodes = self._defs_by_name.get(name, [])
        found = {FuncFacts(name, n, facts).written_params() for n in nodes}
        return found.pop() if len(found) == 1 else frozenset()

    def current_function(self, name: str) -> Optional[FuncFacts]:
        facts = self.facts()
        d = facts.defs.get(name) if facts is not None else None
        return d if isinstance(d, FuncFacts) else None
