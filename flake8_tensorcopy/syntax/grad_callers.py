"""TEN501's proof that a function runs with grad mode on: every use of its name in its file is a
call made where grad is on, at script level or from a function proven so in turn (the whole
``ast``, masked definitions included). What another file may do is asked of the project index
(``FileContext.imported_elsewhere``); this module reads one file.

A use is a ``Name`` node: a call's function (counted), anything else (passed as a value,
rebound, deleted) spoils the proof, as does a second definition of the name anywhere, an import
binding it, a ``global``/``nonlocal`` naming it, or a decorator on a definition on the way (one
may wrap it in ``no_grad``). A call is made where grad is on when no enclosing ``with`` names
``grad`` or ``inference`` in its items (``torch.no_grad()``, ``torch.set_grad_enabled(flag)``,
``torch.inference_mode()``, an alias of one: anything else leaves grad as it was), inside no
class body and no lambda.

The rule (``rules/accumulate.py``) and the pre-filter (``prefilter``: which definitions may hold
TEN501's no-backward shape) ask the same question, ``called_with_grad_on``.
"""
from __future__ import annotations

import ast
from typing import Callable, Dict, FrozenSet, List, Optional, Set, Tuple

from .source import line_numbers, line_starts, lines_of_sorted, occurrences, word_starts
from .walk import dotted, node_fields, on_lines, statements

#: text that turns grad off or freezes a parameter somewhere in a file: none of its functions is
#: then proven to run with grad on (``called_with_grad_on``), nor its script-level code
GRAD_OFF_TEXT = ("set_grad_enabled", "requires_grad_(False)", "requires_grad = False",
                 "requires_grad=False", "inference_mode", "_set_grad_enabled")


#: what a ``with`` item does to grad mode, by the called name's last part
GRAD_OFF = frozenset({"no_grad", "inference_mode"})
GRAD_ON = frozenset({"enable_grad"})


def grad_effect(expr: ast.AST) -> Optional[str]:
    """What ``with expr:`` does to grad mode: "off", "on", "unknown" (``set_grad_enabled(flag)``)
    or None (nothing known about grad)."""
    if type(expr) is not ast.Call:
        return None
    name = dotted(expr.func) or ""
    last = name.rpartition(".")[2]
    if last in GRAD_OFF:
        if last == "inference_mode" and expr.args and type(expr.args[0]) is ast.Constant:
            return "off" if expr.args[0].value else "on"
        return "off" if not expr.args else "unknown"
    if last in GRAD_ON:
        return "on"
    if last == "set_grad_enabled":
        arg = expr.args[0] if expr.args else None
        if type(arg) is ast.Constant and type(arg.value) is bool:
            return "on" if arg.value else "off"
        return "unknown"
    return None


def grad_off_text(source: str) -> bool:
    """Does ``source`` turn grad off or freeze a parameter anywhere (``GRAD_OFF_TEXT``)?"""
    return any(s in source for s in GRAD_OFF_TEXT)


#: ``GRAD_OFF_TEXT`` but the ``inference_mode`` blocks and decorators: text that freezes a
#: parameter or sets grad mode by a call, for code whose grad regions are read where they are
#: (a ``with torch.inference_mode():`` elsewhere in the file freezes nothing)
FREEZE_TEXT = tuple(s for s in GRAD_OFF_TEXT if s != "inference_mode")


def freeze_text(source: str) -> bool:
    """Does ``source`` freeze a parameter or set grad mode by a call anywhere (``FREEZE_TEXT``)?"""
    return any(s in source for s in FREEZE_TEXT)


#: calls that make a new tensor: ``requires_grad=False`` there freezes no model's parameter
#: (``nn.Parameter(pe, requires_grad=False)``, ``torch.zeros(3, requires_grad=False)``)
_MAKERS = frozenset({
    "Parameter", "tensor", "as_tensor", "Tensor", "zeros", "ones", "empty", "full", "rand",
    "randn", "randint", "arange", "linspace", "logspace", "eye", "zeros_like", "ones_like",
    "empty_like", "full_like", "rand_like", "randn_like", "randint_like", "from_numpy",
    "normal", "tril", "triu", "FloatTensor", "LongTensor", "DoubleTensor", "BoolTensor"})
_MODE_CALLS = frozenset({"set_grad_enabled", "_set_grad_enabled"})


def grad_off_in(source: str, tree: Optional[ast.AST], inference: bool = True) -> bool:
    """Does the code freeze a parameter or set grad mode by a call anywhere (with
    ``inference``: or use ``inference_mode``)? ``grad_off_text``'s (or ``freeze_text``'s)
    question asked of the tree, where one is given: a call of ``requires_grad_`` but
    ``requires_grad_(True)``, ``X.requires_grad = v`` but ``True``, ``requires_grad=v`` but
    ``True`` handed to anything but a tensor maker (``_MAKERS``: a new tensor freezes nothing),
    any ``set_grad_enabled``. A docstring or a comment naming them turns nothing off; text that
    names none of them is answered from the text alone."""
    words = GRAD_OFF_TEXT if inference else FREEZE_TEXT
    if not any(s in source for s in words):
        return False
    if tree is None:
        return True
    # the statements on the lines naming ``requires_grad`` or a mode call: all that may turn
    # grad off (a walk of the whole tree took as long as the rest of this question)
    offsets = sorted({i for w in ("requires_grad", "set_grad_enabled", "inference_mode")
                      for i in occurrences(source, w)})
    lines = lines_of_sorted(source, offsets)
    blocks: Set[int] = set()
    for n in _nodes_on(tree, lines):
        if type(n) is ast.With or type(n) is ast.AsyncWith:
            blocks |= _block_modes(n) | _regions(
                [item.context_expr for item in n.items])  # type: ignore[attr-defined]
        elif type(n) is ast.FunctionDef or type(n) is ast.AsyncFunctionDef:
            blocks |= _regions(n.decorator_list)
        elif id(n) in blocks:
            continue
        if _freezes(n) or (inference and (getattr(n, "id", None) == "inference_mode" or
                                          getattr(n, "attr", None) == "inference_mode")):
            return True
    return False


def _regions(exprs) -> Set[int]:
    """The ids of the ``inference_mode`` spellings among ``exprs`` (a ``with``'s items, a
    function's decorators: ``@torch.inference_mode()``): a region of their own, as ``no_grad``
    makes, not a switch of the file's grad mode."""
    out: Set[int] = set()
    for e in exprs:
        f = e.func if type(e) is ast.Call else e
        if (dotted(f) or "").rpartition(".")[2] == "inference_mode":
            out.add(id(f))
    return out


def _block_modes(with_stmt: ast.AST) -> Set[int]:
    """The ids of the functions of the grad-mode calls a ``with`` enters
    (``with torch.set_grad_enabled(phase == "train"):``): a block the graph facts read as a
    region, and the call-site proof as a block that may turn grad off, not a switch of the
    file's grad mode."""
    return {id(item.context_expr.func) for item in with_stmt.items  # type: ignore[attr-defined]
            if type(item.context_expr) is ast.Call and
            (dotted(item.context_expr.func) or "").rpartition(".")[2] in _MODE_CALLS}


#: what ``_freezes`` gives for a freeze or a grad-mode call that names no module
_ANY_MODULE = object()


def _freezes(n: ast.AST) -> list:
    """What node ``n`` freezes: the ``ast`` of each module it names (``M`` of
    ``M.requires_grad_(False)`` or ``M.requires_grad = False``), ``_ANY_MODULE`` for a freeze or
    grad-mode call that names none (``requires_grad=False`` handed to anything but a tensor
    maker, ``set_grad_enabled``, ``requires_grad_`` of a call's result), nothing where it is
    neither. ``grad_off_in`` and ``frozen_targets`` read the same forms from it."""
    t = type(n)
    if t is ast.Name or t is ast.Attribute:
        return [_ANY_MODULE] if (n.id if t is ast.Name else n.attr) in _MODE_CALLS else []
    if t is ast.Call:
        f = n.func
        name = f.attr if type(f) is ast.Attribute else getattr(f, "id", "")
        if _frozen_copy(n):
            return []  # ``copy.deepcopy(m).requires_grad_(False)``: the copy, as bound (below)
        if name == "requires_grad_" and not all(
                _is_true(a) for a in n.args + [k.value for k in n.keywords]):
            return [_same_module(f.value) if type(f) is ast.Attribute else _ANY_MODULE]
        if name not in _MAKERS and any(k.arg == "requires_grad" and not _is_true(k.value)
                                       for k in n.keywords):
            return [_ANY_MODULE]
    elif (t is ast.Assign or t is ast.AnnAssign) and n.value is not None and \
            not _is_true(n.value):
        targets = n.targets if t is ast.Assign else [n.target]
        if _frozen_copy(n.value):  # ``ema = copy.deepcopy(model).requires_grad_(False)``
            return [x for x in targets if type(x) in (ast.Name, ast.Attribute)] or [_ANY_MODULE]
        return [x.value for x in targets
                if type(x) is ast.Attribute and x.attr == "requires_grad"]
    return []


def _frozen_copy(n: ast.AST) -> bool:
    """``copy.deepcopy(m).requires_grad_(False)``, ``QNet().requires_grad_(False)`` (a class's
    constructor: its last name capitalised), also through ``.eval()``, ``.to(...)``: a new
    module's parameters frozen, not ``m``'s (what it is bound to is the module frozen)."""
    f = getattr(n, "func", None)
    if not (type(n) is ast.Call and type(f) is ast.Attribute and f.attr == "requires_grad_" and
            not all(_is_true(a) for a in n.args + [k.value for k in n.keywords])):
        return False
    made = _same_module(f.value)
    last = (dotted(made.func) or "").rpartition(".")[2] if type(made) is ast.Call else ""
    return last == "deepcopy" or last[:1].isupper()


def _bound_freeze(v: ast.expr) -> Optional[ast.expr]:
    """``teacher`` of ``teacher.eval().requires_grad_(False)`` (the module a freeze call is
    made on, through methods returning their module), or None for any other value."""
    f = getattr(v, "func", None)
    if type(v) is not ast.Call or type(f) is not ast.Attribute or f.attr != "requires_grad_" or \
            all(_is_true(a) for a in v.args + [k.value for k in v.keywords]) or _frozen_copy(v):
        return None
    return _same_module(f.value)


def _same_module(v: ast.expr) -> ast.expr:
    """``teacher`` of ``teacher.eval().to(d)``: what calls of methods returning their module
    are made on."""
    while type(v) is ast.Call and type(v.func) is ast.Attribute and v.func.attr in _RETURNS_SELF:
        v = v.func.value
    return v


#: module methods that return the module itself
_RETURNS_SELF = frozenset({"eval", "train", "to", "cuda", "cpu", "float", "half", "double"})


def frozen_targets(tree: Optional[ast.AST]) -> Optional[Tuple[Tuple[str, object], ...]]:
    """Each module whose parameters the code freezes, by the form of the freeze:
    ``M.requires_grad_(False)``, ``M.requires_grad = False``, or either on the variable of a loop
    ``for p in M.parameters()`` (``named_parameters()``: its second name), as (the dotted name
    ``M``, the function whose parameter ``M``'s first name is, or None: a name of the module or
    an attribute of ``self``). None where a freeze or a grad-mode call is of another form (a
    loop over something else, a call's result: its module is unknown), or where a frozen name is
    also bound to another name's value (``teacher = model``: an alias)."""
    if tree is None:
        return None
    out: List[Tuple[str, object]] = []
    aliases: Set[str] = set()

    def target(node: ast.expr, loops: Dict[str, str], fn, params: Set[str]) -> bool:
        d = dotted(node)
        if d is None:
            return False
        d = loops.get(d, d)
        root = d.partition(".")[0]
        if root in loops.values() or root not in loop_vars:
            out.append((d, fn if root in params and root != "self" else None))
            return True
        return False  # a loop's variable over something else than ``parameters()``

    loop_vars: Set[str] = {n.id for f in ast.walk(tree) if type(f) in (ast.For, ast.comprehension)
                           for n in ast.walk(f.target) if type(n) is ast.Name}

    blocks: Set[int] = set()

    def visit(node: ast.AST, loops: Dict[str, str], fn, params: Set[str]) -> bool:
        t = type(node)
        if t is ast.With or t is ast.AsyncWith:
            blocks.update(_block_modes(node))
        if id(node) in blocks:
            pass
        elif t is ast.FunctionDef or t is ast.AsyncFunctionDef:
            a = node.args
            fn, params, loops = node, {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}, {}
        elif t is ast.For and type(node.iter) is ast.Call and \
                type(node.iter.func) is ast.Attribute and \
                node.iter.func.attr in ("parameters", "named_parameters"):
            owner = dotted(node.iter.func.value)
            var = node.target
            if node.iter.func.attr == "named_parameters" and type(var) is ast.Tuple and \
                    len(var.elts) == 2:
                var = var.elts[1]
            if owner is not None and type(var) is ast.Name:
                loops = {**loops, var.id: owner}
        elif t is ast.Assign and len(node.targets) == 1 and \
                type(node.targets[0]) in (ast.Name, ast.Attribute) and \
                type(_bound_freeze(node.value)) in (ast.Name, ast.Attribute):
            # ``self.teacher = teacher.eval().requires_grad_(False)``: one module, both names;
            # a parameter of ``__init__`` kept so is the attribute's module (not any module)
            recv, bound = _bound_freeze(node.value), node.targets[0]
            if not target(bound, loops, fn, params):
                return False
            if not (type(recv) is ast.Name and recv.id in params and
                    (dotted(bound) or "").startswith("self.")):
                if not target(recv, loops, fn, params):
                    return False
            return all(visit(c, loops, fn, params) for c in ast.iter_child_nodes(recv))
        else:
            if any(m is _ANY_MODULE or not target(m, loops, fn, params) for m in _freezes(node)):
                return False
            if (t is ast.Assign or t is ast.AnnAssign) and \
                    type(node.value) in (ast.Name, ast.Attribute):
                aliases.update(x.id for x in (node.targets if t is ast.Assign else [node.target])
                               if type(x) is ast.Name)
        return all(visit(c, loops, fn, params) for c in ast.iter_child_nodes(node))

    if not visit(tree, {}, None, set()):
        return None
    if any(d.partition(".")[0] in aliases for d, _ in out):
        return None
    return tuple(out)


def at_script_level(body, node) -> bool:
    """Is ``node`` within a statement of the module's own code (through ``if``, ``for``,
    ``while`` and ``try`` blocks), outside any ``with`` (grad may be off there) and any
    definition?"""
    line, col = node.lineno, node.col_offset
    for s in body:
        if not (s.lineno, s.col_offset) <= (line, col) <= (s.end_lineno, s.end_col_offset):
            continue
        t = type(s)
        if t in (ast.With, ast.AsyncWith, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            return False
        blocks = [getattr(s, f) for f in ("body", "orelse", "finalbody")
                  if type(getattr(s, f, None)) is list] + [h.body for h in getattr(
                      s, "handlers", ())]
        inner = [b for b in blocks if any(
            (x.lineno, x.col_offset) <= (line, col) <= (x.end_lineno, x.end_col_offset)
            for x in b)]
        return at_script_level(inner[0], node) if inner else True
    return False


def frozen_by_name(frozen, func: ast.expr, here) -> bool:
    """Is the module called as ``func`` one of ``frozen_targets``' (``frozen``), by its exact
    dotted name, frozen at the top of the file, on ``self`` or in the function ``here``?"""
    d = dotted(func)
    return bool(frozen) and d is not None and any(
        d == r and (fn is None or fn is here) for r, fn in frozen)


def _nodes_on(tree: ast.AST, lines: List[int]):
    """The nodes of the statements on ``lines`` (a compound statement's own expressions only:
    its blocks' statements come on their own lines)."""
    blocks = ("body", "orelse", "finalbody", "handlers", "cases")
    for stmt in statements(tree, lines):
        if stmt is tree:
            continue
        yield stmt
        for name, value in ast.iter_fields(stmt):
            if name in blocks:
                continue
            for part in value if type(value) is list else (value,):
                if isinstance(part, ast.AST):
                    yield from ast.walk(part)


def _is_true(node) -> bool:
    return type(node) is ast.Constant and node.value is True


#: the owner of code nested in a class, a lambda or a function inside a function: never proven
_NESTED = "<nested>"
_GRAD_WORDS = ("grad", "inference")

#: (owner: None at script level or the top-level function holding the use, grad on, a call,
#: the ``Name`` node used)
Use = Tuple[Optional[str], bool, bool, ast.Name]


class Uses:
    """The uses and definitions of each name asked about in a module, a name's read in one walk
    of the statements that hold it: with ``text`` (the module's source, ASCII: an identifier is
    its own spelling there), only the nodes whose lines hold an occurrence of the name are
    entered; without it, every node."""

    def __init__(self, tree: ast.Module, text: Optional[str] = None) -> None:
        self.tree = tree
        self._starts = line_starts(text) if text is not None and text.isascii() else None
        self._text = text
        #: the plain top-level functions (no decorator, not ``async``)
        self.plain: Set[str] = {s.name for s in tree.body
                                if type(s) is ast.FunctionDef and not s.decorator_list}
        #: name -> (its uses, how many times something defines or imports it); None: nested
        #: too deeply to read
        self._read: Dict[str, Optional[Tuple[List[Use], int]]] = {}

    def of(self, name: str) -> Optional[Tuple[List[Use], int]]:
        if name not in self._read:
            lines = None
            if self._starts is not None:
                lines = line_numbers(self._starts, word_starts(self._text, name))  # type: ignore[arg-type]
            walk = _Walk(name, lines)
            try:
                for stmt in self.tree.body:
                    walk.visit(stmt, None, True, top=True)
                self._read[name] = (walk.uses, walk.bound)
            except RecursionError:  # nested too deeply to read: nothing is proven
                self._read[name] = None
        return self._read[name]

    def grad_on(self, name: str, proven: Optional[Callable[[str, ast.Name], bool]] = None) \
            -> bool:
        """Is ``name`` a plain top-level function of the module that runs only with grad on?
        ``proven(owner, use)``: is grad on where the plain top-level function ``owner`` calls
        it (``use``: the called name), whatever its own callers do (a value differentiated in
        the same grad region proves it); without it, only callers proven in turn count."""
        try:
            return self._grad_on(name, set(), {}, proven)
        except RecursionError:  # a chain of callers too long to follow: nothing is proven
            return False

    def _grad_on(self, name: str, open_: Set[str], done: Dict[str, bool], proven=None) -> bool:
        """``open_``: the callers being asked about on the way here (one of them again is a
        cycle); ``done``: those already answered (a function calling ``name`` twice is asked
        about once)."""
        got = done.get(name)
        if got is not None:
            return got
        if name in open_ or name not in self.plain:
            return False  # a cycle, or not a plain function
        read = self.of(name)
        if read is None or read[1] != 1:
            return False  # unreadable, or not one definition
        open_.add(name)
        for owner, on, call, use in read[0]:
            if not (on and call) or owner == _NESTED or owner == name or (
                    owner is not None and not (proven is not None and owner in self.plain and
                                               proven(owner, use)) and
                    not self._grad_on(owner, open_, done, proven)):
                called = False
                break
        else:
            called = bool(read[0])
        open_.discard(name)
        done[name] = called
        return called


class _Walk:
    """The uses and bindings of one name (``lines``: the lines it may occur on; None: any)."""

    def __init__(self, name: str, lines: Optional[List[int]]) -> None:
        self.name = name
        self.lines = lines
        self.uses: List[Use] = []
        self.bound = 0
        self._calls: Set[int] = set()

    def visit(self, node: ast.AST, owner: Optional[str], on: bool, top: bool = False) -> None:
        lines = self.lines
        if lines is not None and not on_lines(lines, node):
            return  # the name is nowhere in it
        t = type(node)
        name = self.name
        if t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.ClassDef:
            if node.name == name:
                self.bound += 1
            for d in node.decorator_list:
                self.visit(d, owner, on)
            if t is ast.ClassDef:
                for b in node.bases + [k.value for k in node.keywords]:
                    self.visit(b, owner, on)
                inner: Optional[str] = _NESTED
            else:
                self.visit(node.args, owner, on)
                if node.returns is not None:
                    self.visit(node.returns, owner, on)
                plain = top and t is ast.FunctionDef and not node.decorator_list
                inner = node.name if plain else _NESTED
            for stmt in node.body:
                self.visit(stmt, inner, True)
            return
        if t is ast.Lambda:
            self.visit(node.args, owner, on)
            self.visit(node.body, _NESTED, on)
            return
        if t is ast.With or t is ast.AsyncWith:
            changes = False
            for item in node.items:
                self.visit(item, owner, on)
                changes = changes or any(
                    any(w in (getattr(n, "id", None) or getattr(n, "attr", None) or
                              getattr(n, "arg", None) or "")
                        for w in _GRAD_WORDS) for n in ast.walk(item.context_expr))
            for stmt in node.body:
                self.visit(stmt, owner, on and not changes)
            return
        if t is ast.Import or t is ast.ImportFrom:
            self.bound += sum((a.asname or a.name.split(".")[0]) == name for a in node.names)
            return
        if t is ast.Global or t is ast.Nonlocal:
            self.bound += node.names.count(name)
            return
        bound = getattr(node, "name", None) if t is ast.ExceptHandler or \
            t.__name__ in ("MatchAs", "MatchStar") else getattr(node, "rest", None) \
            if t.__name__ == "MatchMapping" else None
        if bound == name:
            self.bound += 1  # ``except E as name``, a ``match`` capture
        if t is ast.JoinedStr and lines is not None:
            # before 3.12 the positions inside an f-string may be its own, not its parts'
            self.lines = None
            try:
                for value in node.values:
                    self.visit(value, owner, on)
            finally:
                self.lines = lines
            return
        if t is ast.Call and type(node.func) is ast.Name:
            self._calls.add(id(node.func))
        elif t is ast.Name:
            if node.id == name:
                self.uses.append((owner, on, id(node) in self._calls, node))
            return
        visit, AST = self.visit, ast.AST  # ``ast.iter_child_nodes``, without its generators
        for field in node_fields(t):  # (names, contexts and operators hold no use)
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, AST):
                        visit(item, owner, on)
            elif isinstance(value, AST):
                visit(value, owner, on)


def grad_on_function(tree: ast.Module, name: str, text: Optional[str] = None) -> bool:
    """Is the top-level function ``name`` of ``tree`` only ever called, within the module, where
    grad mode is on (see the module's docstring)? False when the module cannot tell. ``text``:
    the source ``tree`` was parsed from, when known."""
    return Uses(tree, text).grad_on(name)


def called_with_grad_on(fn: ast.AST, top: bool, source: str, uses: "Callable[[], Uses]",
                        off: Optional[bool] = None,
                        proven: Optional[Callable[[str, ast.Name], bool]] = None) -> bool:
    """May TEN501 prove from its callers that ``fn`` (a definition of the module ``source`` is
    the text of) runs with grad on: a plain top-level function (``top``: in the module's own
    body; not ``async``, no decorator) in a file whose text turns grad off nowhere, whose name
    is called in the file and whose every use there is a call made with grad on (``uses()``:
    the module's ``Uses``, made once by the caller; ``off``: ``grad_off_text(source)``, when
    the caller has it)?"""
    return may_be_called_with_grad_on(fn, top, source, off) and \
        uses().grad_on(fn.name, proven)


def may_be_called_with_grad_on(fn: ast.AST, top: bool, source: str,
                               off: Optional[bool] = None) -> bool:
    """``called_with_grad_on`` less its walk of the module: what the text and the definition
    itself show. Not ``top``: a method, which the rule may prove from calls ``self.m(...)``
    (``accumulate_graph.method_called_with_grad_on``) where the text spells one."""
    if type(fn) is not ast.FunctionDef or fn.decorator_list:
        return False
    if off is None:
        off = grad_off_text(source)  # (the text alone: callers with the tree pass ``off``)
    # grad turned off somewhere, or the name is never called in the file
    if not top:
        return not off and f"self.{fn.name}(" in source
    return not off and source.count(fn.name + "(") >= 2


def list_handing_calls(tree: ast.Module, fn: ast.FunctionDef, param: str):
    """(caller, call) of each call of ``fn`` by name, a statement of its own in a loop of
    another top-level function of ``tree``, that passes, at the position of ``fn``'s positional
    parameter ``param`` (never bound in ``fn``), a name the caller binds once, before the loop,
    to an empty list, and neither binds nor empties (``clear``, ``pop``) in it: the same list
    on every turn (``collect(model, x, kept)``)."""
    for owner, loop, call, name in _handing_calls(tree, fn, param, (ast.Expr,)):
        if _empty_list_before(owner, loop, name) and not any(
                type(n) is ast.Attribute and n.attr in ("clear", "pop") and
                type(n.value) is ast.Name and n.value.id == name for n in ast.walk(loop)):
            yield owner, call


def always_handed(tree: ast.Module, fn: ast.FunctionDef, param: str) -> bool:
    """Is every call of ``fn`` by name in a loop of another top-level function of ``tree`` a
    statement of its own that passes the same object at the position of ``fn``'s positional
    parameter ``param`` on every turn (a name the loop does not bind: ``ema_update(shadow,
    model)`` with ``shadow`` made before the loop), and is there one?"""
    looped = sum(1 for _ in looped_calls(tree, fn, (ast.Expr, ast.Assign)))
    return looped > 0 and looped == sum(1 for _ in _handing_calls(tree, fn, param, (ast.Expr,)))


def _handing_calls(tree: ast.Module, fn: ast.FunctionDef, param: str, kinds: tuple):
    """(caller, loop, call, name) of each call of ``fn`` by name, in a statement of one of
    ``kinds`` in a loop of another top-level function of ``tree``, that passes at the position
    of ``fn``'s positional parameter ``param`` (never bound in ``fn``) a name the loop does not
    bind: the same object on every turn."""
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if param not in params or any(type(n) is ast.Name and n.id == param and
                                  type(n.ctx) is not ast.Load for n in ast.walk(fn)):
        return
    k = params.index(param)
    for owner, loop, call in looped_calls(tree, fn, kinds):
        if len(call.args) > k and type(call.args[k]) is ast.Name and not any(
                type(n) is ast.Name and n.id == call.args[k].id and
                type(n.ctx) is not ast.Load for n in ast.walk(loop)):
            yield owner, loop, call, call.args[k].id


def looped_calls(tree: ast.Module, fn: ast.FunctionDef, kinds: tuple = (ast.Expr, ast.Assign)):
    """(caller, loop, call) of each call of ``fn`` by name, in a statement of one of ``kinds``
    in a loop of another top-level function of ``tree`` (``action = select_action(state)``
    in ``main``'s episode loop)."""
    for owner in tree.body:
        if type(owner) is not ast.FunctionDef or owner is fn:
            continue
        for loop in ast.walk(owner):
            if type(loop) not in (ast.For, ast.While):
                continue
            for stmt in (s for b in loop.body for s in ast.walk(b) if type(s) in kinds):
                call = stmt.value
                if type(call) is ast.Call and type(call.func) is ast.Name and \
                        call.func.id == fn.name:
                    yield owner, loop, call


def emptied_anywhere(tree: ast.Module, name: str) -> bool:
    """Does ``tree`` empty or shorten the module-level list ``name`` anywhere (``name.clear()``,
    ``name.pop()``, ``del name[:]``, ``name[:] = []``), or bind it but at its top level?"""
    top = {id(t) for s in tree.body if type(s) is ast.Assign for t in s.targets}
    return _emptied(tree, lambda n: type(n) is ast.Name and n.id == name, top)


def emptied_by_updates(tree: ast.Module) -> FrozenSet[str]:
    """The attributes ``attr`` of the lists ``<x>.<attr>`` that a function of ``tree`` calling
    ``backward()`` reads to build what it differentiates (a loop over one, alone or zipped, or
    ``torch.stack``/``cat``/``sum`` of it) and empties (``del x.attr[:]``, ``x.attr.clear()``,
    ``x.attr = []``): an actor-critic's rollout, kept by an episode's loop for the update that
    differentiates it and emptied for the next episode. One pass over the tree (each function's
    own statements, not those of the definitions inside it)."""
    out: Set[str] = set()
    for fn in ast.walk(tree):
        if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef):
            continue
        backward, emptied, read = False, set(), set()
        todo: List[ast.AST] = list(fn.body)
        while todo:
            n = todo.pop()
            t = type(n)
            if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
                continue
            if t is ast.Attribute and n.attr == "backward":
                backward = True
            elif t is ast.Delete:
                emptied.update(x.value.attr for x in n.targets
                               if type(x) is ast.Subscript and type(x.value) is ast.Attribute)
            elif t is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "clear" and \
                    type(n.func.value) is ast.Attribute:
                emptied.add(n.func.value.attr)
            elif t is ast.Assign and type(n.value) is ast.List and not n.value.elts:
                emptied.update(x.attr for x in n.targets if type(x) is ast.Attribute)
            elif t is ast.For or t is ast.comprehension:
                it = n.iter
                read.update(a.attr for a in ([it] + list(getattr(it, "args", ())))
                            if type(a) is ast.Attribute)
            elif t is ast.Call and (dotted(n.func) or "").rpartition(".")[2] in _BUILDS_LOSS:
                read.update(a.attr for a in n.args if type(a) is ast.Attribute)
            todo.extend(ast.iter_child_nodes(n))
        if backward:
            out |= emptied & read
    return frozenset(out)


#: calls that make one tensor of a list's items (``torch.stack(self.rewards)``)
_BUILDS_LOSS = frozenset({"stack", "cat", "sum"})


def _emptied(tree: ast.Module, same, bindings) -> bool:
    """Is a list ``same(node)`` names emptied or changed in ``tree``: a method that shortens
    it named on it (``x.clear()``, ``x.pop()``, ``x.remove(v)``, ``x.popleft()``), an item or
    slice written or deleted (``del x[:]``, ``x[:] = []``), or itself bound or deleted other
    than by one of ``bindings`` (the ids of the targets that make it)?"""
    for n in ast.walk(tree):
        t = type(n)
        if t is ast.Attribute and n.attr in ("clear", "pop", "popleft", "remove") and \
                same(n.value):
            return True
        if t is ast.Subscript and type(n.ctx) is not ast.Load and same(n.value):
            return True
        if same(n) and type(n.ctx) is not ast.Load and id(n) not in bindings:
            return True
    return False


def _empty_list_before(fn: ast.FunctionDef, loop: ast.stmt, name: str) -> bool:
    """Does ``fn`` bind ``name`` once, before ``loop``, to ``[]`` or ``list()`` (an item of a
    tuple assignment of them too)?"""
    found = []
    for n in ast.walk(fn):
        if type(n) is ast.Assign and len(n.targets) == 1:
            t, v = n.targets[0], n.value
            pairs = zip(t.elts, v.elts) if type(t) is ast.Tuple and type(v) is ast.Tuple and \
                len(t.elts) == len(v.elts) else [(t, v)]
            found += [(n, v) for t, v in pairs if type(t) is ast.Name and t.id == name]
    return len(found) == 1 and found[0][0].lineno < loop.lineno and (
        type(found[0][1]) is ast.List and not found[0][1].elts or
        type(found[0][1]) is ast.Call and type(found[0][1].func) is ast.Name and
        found[0][1].func.id == "list" and not found[0][1].args)


def instance_handing_calls(tree: ast.Module, fn: ast.FunctionDef, param: str, attr: str):
    """(caller, call) of each call of ``fn`` by name (a statement, or the value a name is bound
    to) in a loop of another top-level function of ``tree`` that passes, at the position of
    ``fn``'s positional parameter ``param`` (never bound in ``fn``), a name the caller does not
    bind in that loop, where ``<param>.<attr>`` is a list every class of the file makes in its
    ``__init__`` and nothing in the file empties or binds otherwise (``select_action(policy,
    state)`` keeping ``m.log_prob(a)`` in ``policy.all_log_probs`` each step)."""
    if not _kept_for_good(tree, attr):
        return
    for owner, _, call, _ in _handing_calls(tree, fn, param, (ast.Expr, ast.Assign)):
        yield owner, call


def _kept_for_good(tree: ast.Module, attr: str) -> bool:
    """Is every binding of an attribute ``attr`` in ``tree`` ``self.<attr> = []`` in an
    ``__init__`` (one at least), and nothing deletes, empties (``clear``, ``pop``, ``remove``,
    ``del x.<attr>[:]``) or writes its items?"""
    made = set()
    for cls in ast.walk(tree):
        if type(cls) is ast.ClassDef:
            for init in cls.body:
                if type(init) is ast.FunctionDef and init.name == "__init__":
                    made.update(id(t) for s in init.body if type(s) is ast.Assign and
                                type(s.value) is ast.List and not s.value.elts
                                for t in s.targets if type(t) is ast.Attribute and t.attr == attr)
    return bool(made) and not _emptied(
        tree, lambda n: type(n) is ast.Attribute and n.attr == attr, made)
