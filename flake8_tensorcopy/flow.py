"""The walk's control flow: how the statements that branch, loop, catch and set a context
(``if``, ``for``, ``while``, ``try``, ``match``, ``with``) keep the binding state of
``semantic/scope.py`` sound, as a mixin of the engine's ``Walker``.

What a name holds at a use is the join of every binding that can reach it: a loop's body is
walked to a fixed point (a name the body rebinds reaches the top of the body again), a ``try``'s
handlers see every point of its body, a ``match`` joins its cases. Where a path brings what is not
a proven tensor, the nearest binding's kind is kept (diagnostics rest on it) but doubted
(``scope.Doubt``): no SAFE fix may rest on it.
"""
from __future__ import annotations

import ast
from typing import Dict, Optional

from .semantic import kinds
from .semantic.scope import Doubt, join_branches, proven
from .syntax import nodes
from .syntax.prefilter import statements
from .syntax.source import LazyPattern, lines_of_sorted

#: the text of a ``global``/``nonlocal`` statement (a superset: comments and strings match too):
#: one pattern per keyword, each starting with its literal, so that ``re`` finds candidates with
#: a fast substring scan (one alternation behind ``\b`` was tried at every letter: 95 ms over
#: the dense corpus against 7 ms); the word boundary before it is a look-behind
_SHARED = (LazyPattern(r"global(?<!\wglobal)[\s\\]+\w"),
           LazyPattern(r"nonlocal(?<!\wnonlocal)[\s\\]+\w"))


#: a file that rebinds module globals by name (closed-world, issue 45: no module global is made
#: here) and one that uses a functorch transform (under which ``.data`` raises, ``.detach()``
#: does not, and an op's operands may be batched: no fix there rests on closed-world evidence).
#: One literal-first pattern per word, searched one after another: one alternation behind ``\b``
#: was tried at every letter (0.18 s of regex over the dense corpus's text)
_REBINDS_GLOBALS = tuple((p.partition("(")[0], LazyPattern(p)) for p in (
    r"globals(?<!\wglobals)\s*\(", r"vars(?<!\wvars)\s*\(", r"exec(?<!\wexec)\s*\(",
    r"sys(?<!\wsys)\.modules\b"))
_TRANSFORMS = tuple((p.partition("(")[0], LazyPattern(p)) for p in (
    r"functorch(?<!\wfunctorch)\b", r"torch(?<!\wtorch)\.func\b", r"vmap(?<!\wvmap)\b",
    r"jacrev(?<!\wjacrev)\b", r"jacfwd(?<!\wjacfwd)\b",
    r"functional_call(?<!\wfunctional_call)\b"))


def _any_match(patterns, source: str) -> bool:
    """Does a pattern match, of those whose leading word ``source`` holds? (A pattern is
    compiled only where its word is in the text: compiling these ten cost 0.6 ms of every
    editor run, where a file rarely holds one of their words.)"""
    return any(word in source and p.search(source) is not None for word, p in patterns)


class FlowWalker:
    """Statements with control flow; the engine's ``Walker`` supplies ``walk``, ``block``,
    ``dispatch``, ``inf``, ``ctx`` and ``reports``."""

    def _if(self, node: nodes.If) -> None:
        """Each branch starts from the state before the ``if``; the states merge afterwards."""
        inf = self.inf
        self.walk(node.test)
        yes, no = inf.narrowing(node.test)
        names = inf.scope.names
        before = dict(names)
        undo = inf.apply(yes)
        type_only = _is_type_checking(node.test)
        inf.type_checking += type_only
        self.block(node.body)
        inf.type_checking -= type_only
        inf.undo(undo)
        body_state, body_ends = dict(names), _ends_flow(node.body)
        names.clear()
        names.update(before)
        undo = inf.apply(no)
        else_ends = False
        if type(node.orelse) is nodes.If:
            self._if(node.orelse)
        elif node.orelse is not None:
            self.block(node.orelse.body)
            else_ends = _ends_flow(node.orelse.body)
        inf.undo(undo)
        merged = join_branches(body_state, body_ends, dict(names), else_ends)
        default = _none_test(node.test)
        if default is not None and node.orelse is None and not body_ends and \
                before.get(default, kinds.FREE) in (kinds.FREE, kinds.NONE):
            # ``if x is None: x = torch.zeros(3)``: x has the default's kind afterwards
            merged[default] = body_state.get(default, kinds.UNKNOWN)
        names.clear()
        names.update(merged)
        if node.orelse is None and no and body_ends:
            inf.apply(no)  # ``if not isinstance(x, Tensor): return`` narrows what follows

    def _for(self, node: nodes.For) -> None:
        self.dispatch(node)
        self.walk(node.iter)
        inf = self.inf
        elem, doubt = inf.infer_flow(node.iter)
        elem = inf.element_kind(elem)

        def head() -> None:
            inf.bind_target(node.target, elem, doubt)
            self._walk_target(node.target)

        self._loop(head, node.body)
        self._loop_else(node)

    def _while(self, node: nodes.While) -> None:
        self.dispatch(node)
        self._loop(lambda: self.walk(node.test), node.body)
        self._loop_else(node)

    def _loop_else(self, node) -> None:
        """A loop's ``else`` runs only when no ``break`` left the loop: a name the body binds
        may hold, after the loop, what it held at a ``break`` (issue 45: the ``else``'s binding
        is not the only value after a loop that may break), so a tensor there is doubted."""
        if node.orelse is None:
            return
        self.block(node.orelse.body)
        if _ends_flow(node.orelse.body):
            return
        bound = _breaks(node.body)
        names = self.inf.scope.names
        for n in bound:
            if proven(names.get(n)):
                names[n] = Doubt(names[n])

    def _loop(self, head, body) -> None:
        """A loop's head and body walked to a fixed point: a name the body rebinds to what is
        not a proven tensor reaches the top of the body again through the back edge, so where it
        was a tensor on entry it is doubted there, and the body is walked again (its reports
        from the walk before are dropped). The doubts only grow and only names the body binds
        can gain one, so this ends; after two rounds every such name is doubted at once. After
        the loop, a name is doubted where the body may have left it (``break``, or no iteration
        at all) holding what is not a proven tensor."""
        inf = self.inf
        names = inf.scope.names
        entry = dict(names)
        start = len(self.reports)
        doubted = set()
        for rounds in range(4):
            bound = inf.observe()
            try:
                head()
                self.block(body)
            finally:
                inf.unobserve()
            new = {n for n, ok in bound.items()
                   if not ok and n not in doubted and proven(entry.get(n))}
            if not new:
                break
            doubted |= new
            if rounds >= 1:  # widen: every name the body binds that was a tensor on entry
                doubted |= {n for n in bound if proven(entry.get(n))}
            del self.reports[start:]
            names.clear()
            names.update(entry)
            for n in doubted:
                names[n] = Doubt(entry[n])
        for n, ok in bound.items():
            k = names.get(n)
            if not proven(k):
                continue
            before = entry.get(n)
            if not ok or (before is not None and before is not kinds.NONE and not proven(before)):
                names[n] = Doubt(k)

    def _with(self, node: nodes.With) -> None:
        self.dispatch(node)
        scope = self.inf.scope
        outer, outer_device = scope.no_grad, scope.device
        no_grad, device = outer, outer_device
        may_suppress = False
        for item in node.items:
            self.walk(item.item)
            expr = item.item
            q = None
            if type(expr) is nodes.Call:
                q = self.ctx.qualname(expr.func)
                if q is None and type(expr.func) is nodes.Name and expr.func.value == "open" \
                        and self.inf.lookup("open") is None:
                    q = "open"
            if q is None or not (q == "open" or q.startswith("torch.")):
                may_suppress = True
            if type(expr) is nodes.Call:
                # the innermost grad-mode context decides (``no_grad`` then ``enable_grad``)
                mode = grad_mode(q, expr)
                if mode is not None:
                    no_grad = mode
                if q == "torch.device":
                    device = True
            if item.asname is not None:
                self.inf.bind_target(item.asname.name, kinds.UNKNOWN)
        scope.no_grad, scope.device = no_grad, device
        if not may_suppress:
            self.block(node.body)
        else:
            # a context manager may swallow an exception (``contextlib.suppress``): the body
            # may stop before any statement and what follows sees every point of it
            names = self.inf.scope.names
            entry = dict(names)
            bound = self.inf.observe()
            try:
                self.block(node.body)
            finally:
                self.inf.unobserve()
            for n, ok in bound.items():
                before = entry.get(n)
                if proven(names.get(n)) and (not ok or (
                        before is not None and before is not kinds.NONE and not proven(before))):
                    names[n] = Doubt(names[n])
        scope.no_grad, scope.device = outer, outer_device

    def _try(self, node) -> None:
        """The body may stop before any of its statements: a handler starts from the body's
        end with every name doubted that held what is not a proven tensor at some point of the
        body; ``else`` starts from the body's end; what follows is the join of the paths that go
        on, and ``finally`` (which runs on every path) sees every point's doubt."""
        inf = self.inf
        names = inf.scope.names
        entry = dict(names)
        bound = inf.observe()
        try:
            self.block(node.body)
        finally:
            inf.unobserve()
        body_end = dict(names)
        shaky = {n for n, k in body_end.items() if proven(k) and (
            not bound.get(n, True) or (n in entry and entry[n] is not kinds.NONE
                                       and not proven(entry[n])))}
        paths = []
        bound_later = inf.observe()
        try:
            for handler in node.handlers:
                names.clear()
                names.update(body_end)
                for n in shaky:
                    names[n] = Doubt(body_end[n])
                if handler.type is not None:
                    self.walk(handler.type)
                if handler.name is not None:
                    self.inf.bind_target(handler.name.name, kinds.NOT_TENSOR)
                self.block(handler.body)
                paths.append((dict(names), _ends_flow(handler.body)))
            names.clear()
            names.update(body_end)
            if node.orelse is not None:
                self.block(node.orelse.body)
                paths.append((dict(names), _ends_flow(node.orelse.body)))
            else:
                paths.append((body_end, _ends_flow(node.body)))
        finally:
            inf.unobserve()
        merged, ends = paths[-1]
        for state, state_ends in paths[:-1]:
            merged = join_branches(state, state_ends, merged, ends)
            ends = ends and state_ends
        names.clear()
        names.update(merged)
        if node.finalbody is not None:
            shaky |= {n for n, ok in bound_later.items() if not ok}
            for n in shaky:
                if proven(names.get(n)):
                    names[n] = Doubt(names[n])
            self.block(node.finalbody.body)

    def _match(self, node: nodes.Match) -> None:
        """Each case starts from the state before the ``match`` with its captures bound; what
        follows is the join of the cases and of no case matching."""
        self.dispatch(node)
        self.walk(node.subject)
        inf = self.inf
        names = inf.scope.names
        entry = dict(names)
        merged, ends = entry, False
        for case in node.cases:
            names.clear()
            names.update(entry)
            for item in case.pattern.items:
                if type(item) is nodes.Name and item._a is None:
                    inf.set(item.value, kinds.UNKNOWN)  # a capture
                else:
                    self.walk(item)
            if case.guard is not None:
                self.walk(case.guard)
            self.block(case.body)
            body_ends = _ends_flow(case.body)
            merged = join_branches(dict(names), body_ends, merged, ends)
            ends = ends and body_ends
        names.clear()
        names.update(merged)


#: contexts that turn grad mode on, and the one that sets it from its argument
_ENABLE_GRAD = frozenset({"torch.enable_grad", "torch.autograd.enable_grad",
                          "torch.autograd.grad_mode.enable_grad"})
_SET_GRAD = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled",
                       "torch.autograd.grad_mode.set_grad_enabled"})


def grad_mode(q: Optional[str], node: nodes.BaseExpression) -> Optional[bool]:
    """The grad mode a ``with`` item or decorator sets: True for none (``no_grad``,
    ``inference_mode()``, ``set_grad_enabled(False)``), False for grad on (``enable_grad``,
    ``set_grad_enabled(True)`` or a mode not known, which is never taken for ``no_grad``), None
    where it leaves the mode as it was (not a grad-mode context, ``inference_mode(False)``)."""
    if q is None:
        return None
    args = node.args if type(node) is nodes.Call else ()
    flag = None
    if len(args) == 1 and type(args[0].value) is nodes.Name and args[0].value.value in (
            "True", "False"):
        flag = args[0].value.value == "True"
    if q in kinds.NO_GRAD:
        if "inference_mode" in q and args:
            return True if flag is True else None
        return True
    if q in _ENABLE_GRAD:
        return False
    if q in _SET_GRAD:
        return flag is False
    return None


def _is_type_checking(test: nodes.BaseExpression) -> bool:
    """``if TYPE_CHECKING:`` / ``if typing.TYPE_CHECKING:``: imports there never run."""
    return (type(test) is nodes.Name and test.value == "TYPE_CHECKING") or (
        type(test) is nodes.Attribute and test.attr.value == "TYPE_CHECKING")


def _none_test(test: nodes.BaseExpression) -> Optional[str]:
    """``x`` for a test ``x is None``."""
    if type(test) is nodes.Comparison and len(test.comparisons) == 1 and type(test.left) is nodes.Name:
        comp = test.comparisons[0]
        if type(comp.operator) is nodes.Is and type(comp.comparator) is nodes.Name \
                and comp.comparator.value == "None":
            return test.left.value
    return None


def _ends_flow(body) -> bool:
    stmts = body.body
    if not stmts:
        return False
    last = stmts[-1]
    if type(last) is nodes.SimpleStatementLine:
        last = last.body[-1] if last.body else None
    return type(last) in (nodes.Return, nodes.Raise, nodes.Continue, nodes.Break)


def _breaks(body) -> set:
    """The names bound in ``body`` (not in a nested definition) when a ``break`` of this loop
    sits in it (not in a nested loop's body); an empty set when none does."""
    todo = [(body, True)]
    breaks = False
    bound = set()
    while todo:
        n, own = todo.pop()
        t = type(n)
        if t is nodes.Break:
            breaks = breaks or own
            continue
        if t in (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda):
            continue
        if t is list or t is tuple:
            todo.extend((c, own) for c in n)
            continue
        if not isinstance(n, nodes.CSTNode):
            continue
        if t is nodes.Name:
            bound.add(n.value)  # every name (a superset of those bound: only doubts more)
            continue
        inner = own and t not in (nodes.For, nodes.While)
        todo.extend((c, inner) for c in n.children if c is not None)
        if t in (nodes.For, nodes.While) and n.orelse is not None:
            todo.append((n.orelse, own))  # a nested loop's ``else`` breaks this loop
    return bound if breaks else set()


def note_shared_writes(inference, tree: ast.Module, source: str) -> None:
    """What other scopes may write: names some function declares ``global`` (doubted in the
    module scope) or ``nonlocal`` (doubted in function scopes), and a call of
    ``set_default_device`` anywhere (the default device may differ anywhere after it)."""
    inference.sets_default_device = "set_default_device" in source
    inference.module_open = _any_match(_REBINDS_GLOBALS, source)
    inference.transforms = _any_match(_TRANSFORMS, source)
    inference.module_tree = tree
    if "global" not in source and "nonlocal" not in source:
        return
    # the lines where such a statement may start (its keyword's): only the statements holding
    # one are entered (``global``/``nonlocal`` are statements: expressions are skipped)
    lines = lines_of_sorted(source, sorted(
        m.start() for pattern in _SHARED for m in pattern.finditer(source)))
    if not lines:
        return
    shared: Dict[str, set] = {"module": set(), "function": set()}
    for a in statements(tree, lines):
        t = type(a)
        if t is ast.Global:
            shared["module"].update(a.names)
        elif t is ast.Nonlocal:
            shared["function"].update(a.names)
    inference.written_elsewhere = {k: frozenset(v) for k, v in shared.items() if v}
