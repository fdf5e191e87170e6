"""Names that stand for a module's own top-level functions where they are called, so that a call
of such a name counts as a call of each function it stands for (the call-site collector's
``Evaluator.looped``; the text's superset of call lines, ``ModuleFacts.call_lines``):

- a loop's name over a display of them (``for fn in (a, b): fn(x)``: ``syntax.walk
  .listed_names``), or over a module-level list, tuple or set display of them, or the values of
  a module-level dict display of them (``AUGMENTS = [a, b]`` and ``for aug in AUGMENTS``;
  ``TABLE = {"a": a}`` and ``for name, fn in TABLE.items()`` or ``for fn in TABLE.values()``);
- a function's parameter that the module's calls of that function hand one of them, by name
  or through such a loop's name (``run(a)`` or ``for fn in (a, b): run(fn)``, and
  ``def run(step): ... step(g)``): one level, the parameter never rebound in the function.

Each is read from the ``ast``; nothing here evaluates an expression."""
from __future__ import annotations

import ast
import bisect
from typing import Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

from ...syntax.source import LazyPattern, occurrences
from ...syntax.walk import listed_names

Names = Tuple[str, ...]

#: ``for v in NAME:``, ``for k, v in NAME.items():``, ``for v in NAME.values():`` (the loop's
#: last name and ``NAME``): where a loop over a module-level display of functions may stand
LOOP_OVER_NAME = LazyPattern(
    r"for[ \t]+\(?(?:[^\W\d]\w*[ \t]*,[ \t]*)?([^\W\d]\w*)\)?[ \t]+in[ \t]+([^\W\d]\w*)"
    r"(?:[ \t]*\.[ \t]*(?:items|values)[ \t]*\([ \t]*\))?[ \t]*:")
def handed_at(text: str, name: str) -> Iterator[int]:
    """The offsets where ``name`` is spelled as a whole argument (``run(rule90)``,
    ``train(shift=fn)``): where a function may be handed to another (a superset: the text's)."""
    for i in occurrences(text, name):
        end = i + len(name)
        j = i - 1
        while j >= 0 and text[j] in " \t":
            j -= 1
        k = end
        while k < len(text) and text[k] in " \t":
            k += 1
        if (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")) and \
                text[k:k + 1] in (",", ")") and j >= 0 and (text[j] in "(," or (
                    text[j] == "=" and j > 0 and text[j - 1] not in "=!<>")):
            yield i


def listed_functions(assigns: Dict[str, ast.expr]) -> Dict[str, Names]:
    """Module-level ``NAME = [f, g]`` (a tuple or set too) or ``NAME = {"k": f, ...}`` of plain
    names only: ``NAME`` -> those names (a dict: its values), for a loop over it."""
    out: Dict[str, Names] = {}
    for name, value in assigns.items():
        t = type(value)
        items = value.elts if t in (ast.List, ast.Tuple, ast.Set) else \
            value.values if t is ast.Dict and None not in value.keys else None
        if items and all(type(e) is ast.Name for e in items):
            out[name] = tuple(e.id for e in items)  # type: ignore[attr-defined]
    return out


def _rebinds(node: ast.AST, name: str, allowed: int) -> bool:
    """Is ``name`` bound in ``node`` more than ``allowed`` times (a loop's own target once)?"""
    return sum(type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store
               for n in ast.walk(node)) + sum(
        type(n) is ast.arg and n.arg == name for n in ast.walk(node)) > allowed


def loop_names(loop: ast.AST, listed: Dict[str, Names],
               local: FrozenSet[str] = frozenset()) -> Dict[str, Names]:
    """The names ``for`` statement ``loop`` binds to functions: over a display of names
    (``listed_names``), or over a module-level ``listed`` name that ``local`` (the names the
    enclosing function binds) does not shadow, its ``.items()`` (the second name) or its
    ``.values()``. The loop's name is never bound again in its body; else empty."""
    it = loop.iter  # type: ignore[attr-defined]
    if type(it) in (ast.Tuple, ast.List):
        return listed_names(loop)
    part = None
    if type(it) is ast.Call and not it.args and not it.keywords and \
            type(it.func) is ast.Attribute and it.func.attr in ("items", "values"):
        part, it = it.func.attr, it.func.value
    if type(it) is not ast.Name or it.id in local or it.id not in listed:
        return {}
    target = loop.target  # type: ignore[attr-defined]
    if part == "items":
        if type(target) is not ast.Tuple or len(target.elts) != 2:
            return {}
        target = target.elts[1]
    if type(target) is not ast.Name or _rebinds(loop, target.id, 1):
        return {}
    return {target.id: listed[it.id]}


def picked_names(stmt: ast.Assign, listed: Dict[str, Names], fn: Optional[ast.AST],
                 local: FrozenSet[str] = frozenset()) -> Dict[str, Names]:
    """``fn = SHIFTERS[name]`` of a module-level ``listed`` name that ``local`` does not shadow,
    ``fn`` bound nowhere else in function ``fn`` (at module level: nowhere else in the module's
    own statements is not asked; None): ``{"fn": <its functions>}``, else empty."""
    value, targets = stmt.value, stmt.targets
    if len(targets) != 1 or type(targets[0]) is not ast.Name or \
            type(value) is not ast.Subscript or type(value.value) is not ast.Name or \
            value.value.id in local or value.value.id not in listed or \
            (fn is not None and _rebinds(fn, targets[0].id, 1)):
        return {}
    return {targets[0].id: listed[value.value.id]}


#: ``fn = SHIFTERS[...]``: a name picked from a module-level display (its name, the display's)
PICKED = LazyPattern(r"([^\W\d]\w*)[ \t]*=[ \t]*([^\W\d]\w*)[ \t]*\[")


def _bound_in(fn: ast.AST) -> FrozenSet[str]:
    return frozenset(n.id for n in ast.walk(fn) if type(n) is ast.Name and
                     type(n.ctx) is ast.Store) | frozenset(
        a.arg for a in ast.walk(fn) if type(a) is ast.arg)


def handed(tree: ast.Module, functions: Set[str], listed: Dict[str, Names],
           lines: Optional[List[int]] = None) -> Dict[str, Dict[object, Set[str]]]:
    """Which of ``functions`` each of them is handed, by argument: ``{"run": {0: {"rule90"}}}``
    for ``run(rule90)``, or for ``for fn in (rule90, rule30): run(fn)`` (a position, or a
    keyword's name). Calls at module level and in top-level functions; a name the enclosing
    function binds itself is not the module's function. ``lines``: the sorted lines where the
    text may hand one (``HANDED``); the statements holding none of them are not walked."""
    out: Dict[str, Dict[object, Set[str]]] = {}
    for stmt, fn in _scopes(tree):
        if lines is None or _holds(lines, stmt):
            _visit(stmt, functions, listed, _bound_in(fn) if fn is not None else frozenset(),
                   {}, out, lines)
    return out


def _holds(lines: List[int], node: ast.AST) -> bool:
    """Does one of the sorted ``lines`` lie within ``node``'s lines?"""
    i = bisect.bisect_left(lines, node.lineno)  # type: ignore[attr-defined]
    return i < len(lines) and lines[i] <= (node.end_lineno or node.lineno)  # type: ignore


def _scopes(tree: ast.Module) -> Iterator[Tuple[ast.AST, Optional[ast.AST]]]:
    """Each top-level statement and each statement of a top-level function's body, with that
    function (None at module level)."""
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in stmt.body:
                yield inner, stmt
        elif not isinstance(stmt, ast.ClassDef):
            yield stmt, None


def _visit(node: ast.AST, functions: Set[str], listed: Dict[str, Names], local: FrozenSet[str],
           looped: Dict[str, Names], out: Dict[str, Dict[object, Set[str]]],
           lines: Optional[List[int]]) -> None:
    todo = [(node, looped)]
    while todo:
        n, looped = todo.pop()
        t = type(n)
        if lines is not None and isinstance(n, ast.stmt) and not _holds(lines, n):
            continue
        if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue  # (a nested definition's calls run when it is called: not followed)
        if t in (ast.For, ast.AsyncFor):
            inner = {**looped, **loop_names(n, listed, local)}
            todo.extend((c, inner) for c in n.body)  # type: ignore[attr-defined]
            todo.extend((c, looped) for c in [n.iter, n.target] + n.orelse)  # type: ignore
            continue
        if t is ast.Call and type(n.func) is ast.Name and n.func.id in functions and \
                n.func.id not in local:  # type: ignore[attr-defined]
            for key, arg in list(enumerate(n.args)) + [  # type: ignore[attr-defined]
                    (k.arg, k.value) for k in n.keywords if k.arg]:  # type: ignore
                if type(arg) is not ast.Name:
                    continue
                given = set(looped.get(arg.id, ())) if arg.id in looped else \
                    {arg.id} if arg.id in functions and arg.id not in local else set()
                if given:
                    out.setdefault(n.func.id, {}).setdefault(key, set()).update(given)
        todo.extend((c, looped) for c in ast.iter_child_nodes(n))


def stand_ins(fn: ast.AST, given: Optional[Dict[object, Set[str]]]) -> Dict[str, Names]:
    """The parameters of function ``fn`` that stand for the functions its calls hand it
    (``handed``), each never bound again in ``fn``: parameter -> those functions."""
    if not given:
        return {}
    args = fn.args  # type: ignore[attr-defined]
    positional = [a.arg for a in args.posonlyargs + args.args]
    named = set(positional) | {a.arg for a in args.kwonlyargs}
    out: Dict[str, Names] = {}
    for key, names in given.items():
        param = positional[key] if type(key) is int and key < len(positional) else \
            key if type(key) is str and key in named else None
        if param is not None and not _rebinds(fn, param, 1):
            out[param] = tuple(sorted(set(out.get(param, ())) | names))
    return out
