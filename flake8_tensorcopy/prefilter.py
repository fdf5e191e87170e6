"""A cheap, conservative pre-filter on the ``ast`` tree: where can a rule fire in this file?

The analysis costs several times ``ast.parse``; flake8 hands the plugin its ``ast`` tree for
free. This scan looks only for node *shapes* a rule needs (``X.data``, ``tensor(<non-literal>)``,
``.clone(...).detach()``, ``*_like(t).copy_(t)``, ``y = x.detach()``...). It must never say "no"
where a rule could fire: it is a superset, the engine's walk decides.

``plan`` also names the top-level functions and methods that hold no such shape. The engine
builds no tree for them (each stands as the one statement the plan names), which is where most
of a large file's analysis time goes.
"""
from __future__ import annotations

import ast
import re
from typing import List, Optional, Set, Tuple

_LINE_END = re.compile(r"\r\n|\r|\n")

#: text every flaggable piece of code contains: ``.data``, a ``tensor(``/``new_tensor(``/
#: ``...Tensor(`` call, ``detach(`` (TEN301, TEN401), ``copy_(`` (TEN302), or an import of a
#: constructor alias. A cheap C-level test before any tree is walked.
SHAPES = re.compile(
    r"\.\s*data\b|\btensor\s*\(|new_tensor\s*\(|Tensor\s*\(|detach\s*\(|copy_\s*\("
    r"|\bimport\b[^\n(]*(?:\btensor\b|Tensor)|\bimport\s*\([^)]*(?:\btensor\b|Tensor)")

_LITERALS = (ast.Constant, ast.Dict, ast.Set, ast.DictComp, ast.SetComp, ast.JoinedStr,
             ast.Lambda)
_CTOR_ATTRS = frozenset({"tensor", "new_tensor"})
_LIKE = frozenset({"empty_like", "zeros_like", "ones_like"})
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _legacy_name(name: str) -> bool:
    return name == "Tensor" or (name.endswith("Tensor") and name[:-6].isalpha()
                                and name[:1].isupper())


def _is_torch_path(node: ast.expr) -> bool:
    """``torch.utils`` and other dotted module paths rooted at torch."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "torch"


def _torch_aliases(nodes) -> Set[str]:
    """Names imported from torch that construct tensors (``from torch import tensor as T``)."""
    aliases = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and (
                node.module == "torch" or node.module.startswith("torch.")):
            for alias in node.names:
                if alias.name in _CTOR_ATTRS or _legacy_name(alias.name) or alias.name == "*":
                    aliases.add(alias.asname or alias.name)
    return aliases


def _has_shape(root: ast.AST, aliases: Set[str]) -> bool:
    star = "*" in aliases
    for node in ast.walk(root):
        t = type(node)
        if t is ast.Attribute:
            if node.attr == "data":
                value = node.value
                if isinstance(value, ast.Name) and value.id == "self":
                    continue
                if isinstance(value, ast.Attribute) and _is_torch_path(value):
                    continue
                return True
        elif t is ast.Call:
            func = node.func
            args = node.args
            first = args[0] if args else next(
                (k.value for k in node.keywords if k.arg == "data"), None)
            if isinstance(func, ast.Attribute):
                attr = func.attr
                if attr == "detach" and isinstance(func.value, ast.Call):
                    inner = func.value.func
                    if isinstance(inner, ast.Attribute) and inner.attr == "clone":
                        return True
                elif attr == "copy_" and isinstance(func.value, ast.Call):
                    inner = func.value.func
                    name = inner.attr if isinstance(inner, ast.Attribute) else getattr(inner, "id", "")
                    if name in _LIKE:
                        return True
                elif (attr in _CTOR_ATTRS or _legacy_name(attr)) and first is not None \
                        and not isinstance(first, _LITERALS):
                    if isinstance(first, (ast.List, ast.Tuple)) and all(
                            isinstance(e, ast.Constant) for e in first.elts):
                        continue
                    return True
            elif isinstance(func, ast.Name) and first is not None and (
                    star or func.id in aliases) and not isinstance(first, _LITERALS):
                return True
        elif t is ast.Assign or t is ast.AnnAssign or t is ast.NamedExpr:
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr == "detach" and not value.args:
                return True
        elif t is ast.ImportFrom and node.module and node.module.startswith("torch"):
            more = _torch_aliases([node]) - aliases
            if more:
                return True  # a local import of a constructor alias: let the walk look
    return False


def _assigns_self_attr(fn: ast.AST, registers: bool = True) -> bool:
    """Does ``fn`` assign ``self.x`` or call ``register_buffer``/``register_parameter``?

    Assignments are statements: only statement lists are visited. The expressions are walked
    for the calls only when the file's text has ``register_`` at all (``registers``)."""
    stack = [fn.body]
    while stack:
        for node in stack.pop():
            t = type(node)
            if t is ast.Assign or t is ast.AnnAssign or t is ast.AugAssign:
                for target in node.targets if t is ast.Assign else (node.target,):
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id == "self":
                        return True
            for field in _SUB_BODIES:
                sub = getattr(node, field, None)
                if type(sub) is list:
                    stack.append(sub)
            for handler in getattr(node, "handlers", ()) or ():
                stack.append(handler.body)
            for case in getattr(node, "cases", ()) or ():
                stack.append(case.body)
    return registers and _calls_register(fn)


def _calls_register(fn: ast.AST) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("register_buffer", "register_parameter"):
            return True
    return False


def _span(node: ast.stmt) -> Optional[Tuple[int, int]]:
    end = getattr(node, "end_lineno", None)
    if end is None:
        return None
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
    return start, end


_LITERAL_VALUES = (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp,
                   ast.SetComp)
#: a module-level literal shorter than this is cheaper to parse than to reason about
_BIG_LITERAL_LINES = 40


def _literal_binding(stmt: ast.stmt) -> Optional[str]:
    """``name = [...]`` (a long container literal bound to one plain name): the name, else None."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        target, value = stmt.target, stmt.value
    else:
        return None
    if not isinstance(target, ast.Name) or not isinstance(value, _LITERAL_VALUES):
        return None
    end = getattr(stmt, "end_lineno", None)
    if end is None or end - stmt.lineno < _BIG_LITERAL_LINES:
        return None
    return target.id


Span = Tuple[int, int, str]


def plan(tree: ast.Module, source: Optional[str] = None) -> Tuple[bool, List[Span]]:
    """(any candidate at all, spans the tree can leave out: 1-based inclusive lines and the statement
    that stands in for them). With ``source``, a definition whose text has no shape is decided
    by the regex alone, without walking its tree."""
    body = getattr(tree, "body", [])
    aliases = _torch_aliases(n for n in body)
    skip: List[Span] = []
    # a call through an alias (``T(x)`` after ``from torch import tensor as T``) has no textual
    # shape of its own: with aliases only the tree can tell
    text = _TextIndex(source) if source is not None and not aliases else None
    found = _plan_body(body, aliases, skip, in_class=False, top=True, text=text)
    if found and source is not None:
        _expression_spans(body, aliases, skip, source.encode("utf-8", "surrogatepass").splitlines())
    return found, skip


#: calls a bare expression statement must keep: in-place writes (TEN401 follows them) and the
#: registrations inference reads
#: bare calls the inference learns from: registrations, and ``xs.append(t)`` (a list of tensors)
_KEEP_CALLS = frozenset({"register_buffer", "register_parameter", "append"})


def _blankable_expression(stmt: ast.Expr, aliases: Set[str]) -> bool:
    """A bare expression statement that no rule or inference step can need: no shape, no
    binding (``:=``), no ``.data``, no in-place ``x.op_()`` call, no registration, no docstring.
    Its result is discarded and it binds nothing, so the walk without it is the same."""
    if isinstance(stmt.value, ast.Constant):
        return False
    for node in ast.walk(stmt.value):
        t = type(node)
        if t is ast.NamedExpr:
            return False
        if t is ast.Attribute and node.attr == "data":
            return False
        if t is ast.Call:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name.endswith("_") or name in _KEEP_CALLS:
                return False
    return not _has_shape(stmt, aliases)


def _owns_lines(stmt: ast.stmt, lines: List[bytes]) -> bool:
    """Nothing else (``;``, a block header) shares the statement's first or last line."""
    end = getattr(stmt, "end_lineno", None)
    if end is None or end > len(lines):
        return False
    if lines[stmt.lineno - 1][:stmt.col_offset].strip():
        return False
    rest = lines[end - 1][stmt.end_col_offset:].strip()
    return not rest or rest.startswith(b"#")


_SUB_BODIES = ("body", "orelse", "finalbody")


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _binds_alias(stmts, lines: List[bytes], into_defs: bool) -> bool:
    """Does this body bind a name to ``x.detach()`` or ``x.data`` (``into_defs``: also in the
    definitions it holds)? TEN401 then reads every later mention of that name, bare expression
    statements (``print(y)``) included, so none of them may be blanked."""
    for stmt in stmts:
        if not into_defs and isinstance(stmt, _DEFS):
            continue
        end = getattr(stmt, "end_lineno", None) or stmt.lineno
        text = b"".join(lines[stmt.lineno - 1:end])
        if b"detach" not in text and b".data" not in text:
            continue
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
                v = node.value
                if isinstance(v, ast.Attribute) and v.attr == "data" or \
                        isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and \
                        v.func.attr == "detach":
                    return True
    return False


def _expression_spans(body, aliases: Set[str], skip: List[Span], lines: List[bytes]) -> None:
    """Blank-able bare expression statements (``print(...)``, ``loss.backward()``,
    ``optimizer.step()``, logging) anywhere in the code the tree is built for, except in a scope
    that binds a ``detach()``/``.data`` alias (see ``_binds_alias``)."""
    skipped = {start for start, _, _ in skip}
    stack = [(body, _binds_alias(body, lines, False))]
    while stack:
        stmts, keep = stack.pop()
        for stmt in stmts:
            if isinstance(stmt, ast.Expr):
                if not keep and stmt.lineno not in skipped and _owns_lines(stmt, lines) and \
                        _blankable_expression(stmt, aliases):
                    skip.append((stmt.lineno, stmt.end_lineno, "pass"))
                continue
            if _span(stmt) is not None and _span(stmt)[0] in skipped:
                continue  # blanked whole already
            inner = keep
            if not keep and isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = _binds_alias(stmt.body, lines, True)
            for field in _SUB_BODIES:
                sub = getattr(stmt, field, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                    stack.append((sub, inner))
            for handler in getattr(stmt, "handlers", ()) or ():
                stack.append((handler.body, inner))
            for case in getattr(stmt, "cases", ()) or ():
                stack.append((case.body, inner))


class _TextIndex:
    """Line offsets of a source, to test a statement's text against ``SHAPES``."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.starts = [0] + [m.end() for m in _LINE_END.finditer(source)]

    def contains(self, node: ast.AST, word: str) -> bool:
        """Does the text of ``node``'s lines hold ``word``? (a call spelled ``x.word(...)``
        always does)"""
        span = _span(node)
        if span is None:
            return True
        start, end = span
        starts = self.starts
        stop = starts[end] if end < len(starts) else len(self.source)
        return self.source.find(word, starts[start - 1], stop) >= 0

    def may_have_shape(self, node: ast.AST) -> bool:
        span = _span(node)
        if span is None:
            return True
        start, end = span
        starts = self.starts
        if end >= len(starts):
            return SHAPES.search(self.source, starts[start - 1]) is not None
        return SHAPES.search(self.source, starts[start - 1], starts[end]) is not None


def _plan_body(body, aliases: Set[str], skip: List[Span], in_class: bool, top: bool,
               text: Optional[_TextIndex] = None) -> bool:
    """Walk one block; definitions without candidates go to ``skip``. True if any candidate."""
    found = False
    for stmt in body:
        if isinstance(stmt, _FUNCS):
            keep = in_class and (stmt.name == "__init__" or _assigns_self_attr(
                stmt, text is None or text.contains(stmt, "register_")))
            if (text is None or text.may_have_shape(stmt)) and _has_shape(stmt, aliases):
                found = True
            elif not keep:
                span = _span(stmt)
                if span:
                    skip.append(span + ("pass",))
        elif isinstance(stmt, ast.ClassDef):
            for d in stmt.decorator_list + stmt.bases + [k.value for k in stmt.keywords]:
                found |= _has_shape(d, aliases)
            found |= _plan_body(stmt.body, aliases, skip, True, False, text)
        elif isinstance(stmt, ast.If) and not in_class:
            found |= _has_shape(stmt.test, aliases)
            found |= _plan_body(stmt.body, aliases, skip, in_class, False, text)
            found |= _plan_body(stmt.orelse, aliases, skip, in_class, False, text)
        elif isinstance(stmt, ast.Try) and not in_class:
            found |= _plan_body(stmt.body, aliases, skip, in_class, False, text)
            for handler in stmt.handlers:
                if handler.type is not None:
                    found |= _has_shape(handler.type, aliases)
                found |= _plan_body(handler.body, aliases, skip, in_class, False, text)
            found |= _plan_body(stmt.orelse, aliases, skip, in_class, False, text)
            found |= _plan_body(stmt.finalbody, aliases, skip, in_class, False, text)
        elif (text is None or text.may_have_shape(stmt)) and _has_shape(stmt, aliases):
            found = True
        elif top:
            name = _literal_binding(stmt)
            if name is not None:
                # still binds the name to a container: what inference knew of it stays true
                skip.append((stmt.lineno, stmt.end_lineno, f"{name} = []"))
    return found


def has_candidates(tree: ast.AST) -> bool:
    return plan(tree)[0] if isinstance(tree, ast.Module) else _has_shape(tree, _torch_aliases(ast.walk(tree)))
