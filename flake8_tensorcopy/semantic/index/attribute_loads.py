"""Where a project hands an object's attribute to ``load_state_dict`` (``X.load_state_dict(
obj.best_state)``), and which project class that object is: the project-level fact behind a
snapshot kept on ``self`` by one class and restored somewhere else (an early-stopping callback
whose ``step()`` keeps ``self.best_state = model.state_dict()``, loaded by a trainer in another
module, or by a subclass's ``fit()`` there).

Read from the text of every project file, once per file (kept by its modification time and
size), never parsed: each ``load_state_dict(<receiver>.<attribute>`` with what the same file
says of the receiver (``r = C(...)``, ``r = mod.C(...)``, ``isinstance(r, C)``,
``r.__class__.__name__ == "C"``; for ``self``, the class the load sits in), every ``class X(B,
...)`` statement, and the words of the file's import statements (``importers.import_words``).
Whether a load is of class C's attribute is then told by ``restores_of``: the receiver is said to
be an instance of C or of one of its subclasses (by name, each base named where it is defined or
imported, and the receiver's class linked to C's module by an import or a qualified name), or it
is ``self`` in a method of such a subclass. A receiver the file says nothing of counts only in
the class's own file, where nothing but that class and its subclasses binds the attribute.

Asked only for a live state dict kept on ``self`` that its own file never restores: an analysis
that used the answer depends on the whole project (``FileContext.attribute_restores``).
"""
from __future__ import annotations

import os
import re
import time
from typing import Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple

from ...files import iter_files
from .importers import MAX_FILES, import_words
from ...syntax.patterns import compile_pattern

_TTL = 1.0
_LOAD = compile_pattern(r"load_state_dict\(\s*([A-Za-z_][\w.]*)\.([A-Za-z_]\w*)\s*[,)]")
_CLASS = compile_pattern(r"^([ \t]*)class[ \t]+(\w+)[ \t]*(?:\(([^)]*)\))?[ \t]*:", re.M)
_DOTTED = r"((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)"


class Load(NamedTuple):
    path: str
    line: int
    #: the receiver's text: ``self`` or a dotted name (``early_stopping``, ``self.es``)
    receiver: str
    attr: str
    #: for ``self``: the class the load sits in (innermost by indentation); else ""
    owner: str
    #: what the file says the receiver is: (the last part of a qualifier or "", class name)
    classes: FrozenSet[Tuple[str, str]]
    #: where it says nothing and binds ``attr`` on ``self`` only: the classes that bind it
    #: (``self.best_state = ...``), else None
    keepers: Optional[FrozenSet[str]] = None


class FileFacts(NamedTuple):
    path: str
    loads: Tuple[Load, ...]
    #: class name -> its bases' last names, of each ``class`` statement of the file
    classes: Tuple[Tuple[str, Tuple[str, ...]], ...]
    words: FrozenSet[str]


#: path -> ((mtime_ns, size), facts)
_FILES: Dict[str, Tuple[Tuple[int, int], FileFacts]] = {}


def _receiver_classes(text: str, receiver: str) -> FrozenSet[Tuple[str, str]]:
    r = re.escape(receiver)
    found: Set[Tuple[str, str]] = set()
    for m in re.finditer(rf"(?<![\w.]){r}[ \t]*(?::[^=\n]*)?=[ \t]*{_DOTTED}[ \t]*\(", text):
        found.add((m.group(1).rstrip(".").rsplit(".", 1)[-1], m.group(2)))
    for m in re.finditer(rf"\bisinstance\([ \t]*{r}[ \t]*,[ \t]*{_DOTTED}[ \t]*\)", text):
        found.add((m.group(1).rstrip(".").rsplit(".", 1)[-1], m.group(2)))
    for m in re.finditer(rf"(?<![\w.])(?:{r}\.__class__|type\({r}\))\.__name__[ \t]*==[ \t]*"
                         rf"[\"'](\w+)[\"']", text):
        found.add(("", m.group(1)))
    return frozenset(found)


def _owner(text: str, at: int) -> str:
    """The class whose body holds offset ``at``: walking up from its line, each line indented
    less than the last one kept opens the block around it; the first such ``class`` line names
    the class, a line at the left margin that is no ``class`` ends the search."""
    start = text.rfind("\n", 0, at) + 1
    lines = text[:start].split("\n")
    here = text[start:at].expandtabs()
    indent = len(here) - len(here.lstrip())
    for line in reversed(lines):
        code = line.expandtabs()
        stripped = code.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(code) - len(stripped)
        if depth >= indent:
            continue
        m = _CLASS.match(line)
        if m is not None:
            return m.group(2)
        if depth == 0:
            return ""
        indent = depth
    return ""


def read_file_facts(path: str, text: str) -> FileFacts:
    """The facts of one file's text (see the module's docstring)."""
    table = []
    for m in _CLASS.finditer(text):
        bases = tuple(b.strip().rsplit(".", 1)[-1] for b in (m.group(3) or "").split(",")
                      if b.strip() and "=" not in b)
        table.append((m.group(2), bases))
    loads = []
    if "load_state_dict" in text:
        for m in _LOAD.finditer(text):
            receiver, attr = m.group(1), m.group(2)
            line = text.count("\n", 0, m.start()) + 1
            if receiver == "self":
                loads.append(Load(path, line, receiver, attr, _owner(text, m.start()),
                                  frozenset()))
            else:
                said = _receiver_classes(text, receiver)
                loads.append(Load(path, line, receiver, attr, "", said,
                                  None if said else _self_keepers(text, attr)))
    return FileFacts(path, tuple(loads), tuple(table), import_words(text))


def _self_keepers(text: str, attr: str) -> Optional[FrozenSet[str]]:
    """The classes of ``text`` whose methods bind ``self.<attr>``, where nothing else in it
    binds ``<attr>`` of another object; None where something does, or no class does."""
    owners = set()
    for m in re.finditer(rf"(?<![\w.])([A-Za-z_][\w.]*)\.{re.escape(attr)}[ \t]*=(?!=)", text):
        if m.group(1) != "self":
            return None
        owners.add(_owner(text, m.start()))
    return frozenset(owners) if owners and "" not in owners else None


class Project:
    """The facts of a project's files joined by dictionaries: the loads of each attribute name,
    the subclasses named after each base name, the facts of each path. ``own``: one file's
    facts that stand in for those read from its path (the linted text), asked through
    ``loads_of``, ``children_of`` and ``file`` without copying the rest."""

    __slots__ = ("files", "loads", "children", "own")

    def __init__(self, files: List[FileFacts], own: Optional[FileFacts] = None) -> None:
        self.files: Dict[str, FileFacts] = {}
        self.loads: Dict[str, List[Load]] = {}
        self.children: Dict[str, List[Tuple[str, FileFacts]]] = {}
        self.own = own
        for f in files:
            self.files[f.path] = f
            for load in f.loads:
                self.loads.setdefault(load.attr, []).append(load)
            for cls, bases in f.classes:
                for base in set(bases):
                    self.children.setdefault(base, []).append((cls, f))

    def with_own(self, own: FileFacts) -> "Project":
        out = Project.__new__(Project)
        out.files, out.loads, out.children, out.own = self.files, self.loads, self.children, own
        return out

    def file(self, path: str) -> FileFacts:
        own = self.own
        return own if own is not None and own.path == path else self.files[path]

    def loads_of(self, attr: str) -> List[Load]:
        own = self.own
        found = self.loads.get(attr, [])
        if own is None:
            return found
        return [x for x in found if x.path != own.path] + [x for x in own.loads if x.attr == attr]

    def children_of(self, base: str) -> List[Tuple[str, FileFacts]]:
        own = self.own
        found = self.children.get(base, [])
        if own is None:
            return found
        return [x for x in found if x[1].path != own.path] + [
            (cls, own) for cls, bases in own.classes if base in bases]


#: root -> (when made, the project read from disk, or None: too large)
_PROJECTS: Dict[str, Tuple[float, Optional[Project]]] = {}


def _read(root: str) -> Optional[Project]:
    files = []
    for path, _ in iter_files([root], suffixes=(".py",)):
        if len(files) >= MAX_FILES:
            return None
        path = os.path.abspath(path)
        try:
            st = os.stat(path)
        except OSError:
            continue
        key = (st.st_mtime_ns, st.st_size)
        got = _FILES.get(path)
        if got is None or got[0] != key:
            try:
                with open(path, "rb") as fh:
                    text = fh.read().decode("utf-8", "replace")
            except OSError:
                continue
            got = _FILES[path] = (key, read_file_facts(path, text))
        files.append(got[1])
    return Project(files)


def project_facts(root: str, own: Tuple[str, str]) -> Optional[Project]:
    """The project under ``root`` (``own``: the linted file's path and its text, which stands
    for the file on disk); None for a project too large to read. What was read from disk is
    kept ``_TTL`` seconds (a file's facts for as long as its modification time and size stay),
    so the files of one run that ask share one reading: each question is then dictionary
    look-ups, and the cost of a run stays linear in its files."""
    now = time.monotonic()
    hit = _PROJECTS.get(root)
    if hit is None or now - hit[0] >= _TTL:
        hit = _PROJECTS[root] = (now, _read(root))
    if hit[1] is None:
        return None
    return hit[1].with_own(read_file_facts(os.path.abspath(own[0]), own[1]))


def _stem(path: str) -> str:
    stem = os.path.splitext(os.path.basename(path))[0]
    return os.path.basename(os.path.dirname(path)) if stem == "__init__" else stem


def subclasses(project: Project, name: str, path: Optional[str] = None) -> Dict[str, str]:
    """The classes of the project that derive from ``name`` (transitively, by name): each one's
    name -> the path of a file defining it. A base counts where the file defining the subclass
    imports it by name, or defines it itself and is the file the base was found in (``path``
    for ``name``, when given: another file's class of the same name is another class)."""
    found: Dict[str, str] = {}
    todo = [(name, path)]
    while todo:
        base, where = todo.pop()
        for cls, f in project.children_of(base):
            if cls in found or cls == name:
                continue
            defines = any(c == base for c, _ in f.classes)
            if (f.path == where or where is None) if defines else base in f.words:
                found[cls] = f.path
                todo.append((cls, f.path))
    return found


def restores_of(project: Project, cls: str, cls_path: str, attr: str) -> List[Load]:
    """The loads of ``attr`` of class ``cls`` (defined in ``cls_path``) or of a subclass of it:
    through an instance the loading file says is one, or through ``self`` in a method of a
    subclass defined in another file (``cls_path``'s own classes are its own analysis's)."""
    loads = project.loads_of(attr)
    if not loads:
        return []
    family = subclasses(project, cls, cls_path)
    stem = _stem(cls_path)
    out = []
    for load in loads:
        if load.receiver == "self":
            if family.get(load.owner) == load.path and load.path != cls_path:
                out.append(load)
            continue
        if load.keepers is not None and load.path == cls_path and \
                load.keepers <= family.keys() | {cls}:
            # a receiver the file says nothing of, where only this class (or a subclass)
            # binds the attribute: ``model.load_state_dict(stopper.best_state)`` in a function
            # handed the stopper
            out.append(load)
            continue
        f = project.file(load.path)
        defined = {c for c, _ in f.classes}
        for qual, name in load.classes:
            if name == cls:
                # a class of the same name defined in the loading file is its own
                linked = load.path == cls_path or qual == stem or (
                    name not in defined and stem in f.words and (name in f.words or not qual))
            elif name in family:
                linked = name in defined or name in f.words or bool(qual)
            else:
                continue
            if linked:
                out.append(load)
                break
    return sorted(out, key=lambda x: (x.path, x.line))
