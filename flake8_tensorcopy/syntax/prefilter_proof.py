"""What a file's function summaries could prove, for the pre-filter's definitions whose
candidates rest on them (``prefilter.plan``): TEN501's loops with no ``backward`` call in them,
TEN402's snapshots made and loaded by project functions, TEN405's bridges through one."""
from __future__ import annotations

import ast
import re
from typing import Callable, Dict, FrozenSet, List, Optional

from .accumulation_shapes import imports_project as _imports_project, materialized, \
    mentions_proof
from .grad_callers import Uses, called_with_grad_on, grad_off_in, may_be_called_with_grad_on
from .snapshot_shapes import calls_any as _calls_any, live_returners as _live_returners, \
    snapshot_name
from .source import LazyPattern, lines_of_sorted, occurrences
from .overlap_shapes import hands_views
from .storage_shapes import mentions_bridge
from .walk import on_lines, statements


class Proof:
    """What a file's summaries could prove, for the definitions whose candidates rest on them.

    Where TEN501 may report a loop of a definition that accumulates what a call computed,
    with no ``backward`` call in the loop to read names from (``proof(fn, top)``). The rule
    needs one of: a grad mode the callers prove on (``called_with_grad_on``: a plain top-level
    function the file calls only with grad on), or a value some code proves attached without
    that (``PROOF_WORDS``: a differentiating call or a block turning grad on, in the file or in
    a project module its imports reach, whose function summaries say so). ``may`` reads
    what the file's text shows, before the definition's loops are read; the call, the rest,
    after (the walk of the module for the callers, the project index's ``reach``)."""

    __slots__ = ("tree", "source", "reach", "_file", "_off", "_imports", "_reached", "_uses",
                 "_returners", "_by_helpers", "_held", "_defines", "_gens", "_views",
                 "_keepers")

    def __init__(self, tree: ast.Module, source: Optional[str],
                 reach: Optional[Callable[[Callable[[str], bool]], bool]]) -> None:
        self.tree, self.source, self.reach = tree, source, reach
        #: question -> its answer (``_anywhere``)
        self._held: Dict[Callable[[str], bool], bool] = {}
        self._by_helpers: Optional[bool] = None
        self._views: Optional[bool] = None  # (``hands_views``)
        self._file: Optional[bool] = None
        self._off: Optional[bool] = None  # ``grad_off_in``, read once
        self._imports: Optional[bool] = None
        self._reached: Optional[bool] = None
        self._uses: Optional[Uses] = None
        self._returners: Optional[FrozenSet[str]] = None
        self._defines: Dict[str, Callable[[str], bool]] = {}
        self._gens: Optional[Dict[str, List[int]]] = None
        self._keepers: Optional[FrozenSet[str]] = None

    def uses(self) -> Uses:
        if self._uses is None:
            self._uses = Uses(self.tree, self.source)
        return self._uses

    def calls_live_returner(self, fn: ast.AST, text) -> bool:
        """Does ``fn`` call the file's ``def weights(self): return self.model.state_dict()``?
        (``text``: the pre-filter's index of the source's shapes, or None)"""
        if self._returners is None:  # (TEN402: ``self.best = trainer.weights()``)
            self._returners = _live_returners(self.tree, self.source or "state_dict")
        return any(text is None or text.contains(fn, n) for n in self._returners) and \
            _calls_any(fn, self._returners)

    def may(self, fn: ast.AST, top: bool) -> bool:
        """A superset of the answer, from the text and the definition alone."""
        source = self.source
        if source is None:
            return True  # no text to read: anything may hold
        if self._file is None:
            self._file = mentions_proof(source)
            self._off = grad_off_in(source, self.tree)
        return self._file or may_be_called_with_grad_on(fn, top, source, self._off) or \
            self.imports()

    def imports(self) -> bool:
        """May the file import a module of its own project (``imports_project``)?"""
        if self._imports is None:
            self._imports = _imports_project(self.source)  # type: ignore[arg-type]
        return self._imports

    def __call__(self, fn: ast.AST, top: bool) -> bool:
        source = self.source
        if source is None or not self.may(fn, top):
            return source is None
        if self._file or (not top and may_be_called_with_grad_on(fn, top, source, self._off)) \
                or called_with_grad_on(fn, top, source, self.uses, self._off):
            return True  # (a method: its callers are read by the walk)
        if self._reached is None:
            self._reached = self.imports() and (self.reach is None or
                                                bool(self.reach(mentions_proof)))
        return self._reached

    def _anywhere(self, holds: Callable[[str], bool]) -> bool:
        """May ``holds`` be true of this file's text or of a module its imports reach (the
        project index's ``reach``; no index: it may)? Asked once per question."""
        got = self._held.get(holds)
        if got is None:
            source = self.source
            got = self._held[holds] = source is None or holds(source) or (
                self.reach is None or bool(self.reach(holds)))
        return got

    def keeps_on_self(self, fn: ast.AST) -> bool:
        """TEN501 in a training step (``accumulate.GraphKeepingAccumulator``'s ``_self_step``):
        does ``fn`` call a method on ``self`` or an attribute of it with an argument
        (``self.log(name, loss)``, ``self.meter.update(loss)``) whose name a ``def`` of this
        file or of a module its imports reach may define (its summary may keep the argument)?"""
        for n in statements(fn):
            if type(n) is ast.Expr and type(n.value) is ast.Call and n.value.args and \
                    type(n.value.func) is ast.Attribute and _on_self(n.value.func.value):
                name = n.value.func.attr
                holds = self._defines.get(name)
                if holds is None:
                    holds = self._defines[name] = re.compile(
                        r"\bdef\s+" + name + r"\s*\(").search  # type: ignore[assignment]
                if self._anywhere(holds):
                    return True
        return False

    def materializes(self, fn: ast.AST) -> bool:
        """TEN501: does ``fn`` run one of the file's generators that call ``backward`` to its
        end, keeping every value (``list(train_steps(...))``: ``materialized``)? Read from the
        text first: the lines of ``yield`` name the generators, those of their names the
        definitions that may call one."""
        if self._gens is None:
            self._gens = self._generators()
        if not self._gens or not any(on_lines(lines, fn) for lines in self._gens.values()):
            return False
        for n in ast.walk(fn):
            if type(n) is ast.Call:
                got = materialized(n)
                if got is not None and got.func.id in self._gens:  # type: ignore[attr-defined]
                    return True
        return False

    def _generators(self) -> Dict[str, List[int]]:
        """The top-level functions of the file whose lines hold ``yield``, in a text that calls
        ``backward`` -> the lines their names are written on."""
        source = self.source
        if source is None or "yield" not in source or "backward" not in source:
            return {}
        spots = lines_of_sorted(source, occurrences(source, "yield"))
        return {d.name: lines_of_sorted(source, occurrences(source, d.name))
                for d in getattr(self.tree, "body", ())
                if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and on_lines(spots, d)}

    def bridged(self) -> bool:
        """TEN405 through a project function (``helper_written``): may its storage summary say
        it shares through the NumPy bridge? Its body must then hold ``BRIDGE_WORDS``, and it
        is defined in this file or in a module the file's imports reach."""
        return self._anywhere(mentions_bridge)

    def hands_views(self) -> bool:
        """TEN403 through a project function (``helper_copies``): may a call of the file hand
        two views of one name side by side (``copy_into(ring[1:], ring[:-1])``)? One scan of
        the text; the definitions are walked only where it may."""
        if self._views is None:
            self._views = self.source is None or hands_views(self.source)
        return self._views

    def snapshots_by_helpers(self, helpers: FrozenSet[str]) -> bool:
        """May a line of the file bind a snapshot's name to a call of one of ``helpers``
        (``self.best = capture_state(self.model)``)? One scan of the text; the definitions are
        walked (``helper_snapshot``) only where it may."""
        if self._by_helpers is None:
            source = self.source
            self._by_helpers = source is None or any(
                m.group(2) in helpers and snapshot_name(m.group(1))
                for m in _HELPER_BOUND.finditer(source))
        return self._by_helpers

    def keepers(self) -> FrozenSet[str]:
        """TEN501 (``accumulate_keepers``): the names the module's top level binds to what a
        call may keep its argument in without a ``def`` of that name: ``functools.partial(f,
        ...)``, a ``lambda``, or a call of a function of the file that defines one of its own
        (``record_loss = make_recorder()``). Read once, from the top-level statements."""
        if self._keepers is None:
            self._keepers = keeper_names(self.tree)
        return self._keepers

    def loads(self) -> bool:
        """TEN402 through project functions (``helper_snapshot``): may one of them load what
        the file hands it (``load_state_dict`` in this file or in a module its imports reach)?"""
        return self._anywhere(_loads)

    def hands_parameters(self) -> bool:
        """TEN402 through project functions that return a module's parameters themselves
        (``theta_prev = params_of(model)``, compared after training): may one of them (this
        file's or a module's its imports reach) name ``parameters``?"""
        return self._anywhere(_names_parameters)


def keeper_names(tree: ast.AST) -> FrozenSet[str]:
    """The names the top level of module ``tree`` binds to ``functools.partial(...)`` (or
    ``partial(...)``), to a ``lambda``, or to a call of a function of the module that defines
    one of its own (``record_loss = make_recorder()``): what TEN501 may find keeping the
    argument of a call of that name (``Proof.keepers``; ``rules/accumulate_keepers``)."""
    body = getattr(tree, "body", ())
    factories = {s.name for s in body if type(s) is ast.FunctionDef and
                 any(type(d) is ast.FunctionDef for d in s.body)}
    return frozenset(
        t.id for s in body if type(s) is ast.Assign
        and (type(s.value) is ast.Lambda or type(s.value) is ast.Call and (
            (getattr(s.value.func, "id", None) or getattr(s.value.func, "attr", None))
            == "partial" or getattr(s.value.func, "id", None) in factories))
        for t in s.targets if type(t) is ast.Name)


def _names_parameters(text: str) -> bool:
    return "parameters" in text


#: ``name = f(``, ``self.best = f(`` at the start of a line: the bound name and the function
_HELPER_BOUND = LazyPattern(r"(?m)^[ \t]*([A-Za-z_][\w.]*)[ \t]*=[ \t]*([A-Za-z_]\w*)\(")


def _loads(text: str) -> bool:
    return "load_state_dict" in text


def _on_self(node: ast.AST) -> bool:
    """``self``, ``self.meter``, ``self.meters["loss"]``."""
    while type(node) in (ast.Attribute, ast.Subscript):
        node = node.value  # type: ignore[attr-defined]
    return type(node) is ast.Name and node.id == "self"  # type: ignore[attr-defined]
