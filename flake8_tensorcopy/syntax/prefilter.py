"""A cheap, conservative pre-filter on the ``ast`` tree: where can a rule fire in this file?

The analysis costs several times ``ast.parse``; flake8 hands the plugin its ``ast`` tree for
free. This scan looks only for node *shapes* a rule needs (``X.data``, ``tensor(<non-literal>)``,
``.clone(...).detach()``, ``*_like(t).copy_(t)``, ``y = x.detach()``...). It must never say "no"
where a rule could fire: it is a superset, the engine's walk decides.

``plan`` also names the top-level functions and methods with no such shape; the engine builds
no tree for them (where most of a large file's analysis time goes)."""
from __future__ import annotations

import ast
import re
from typing import Callable, FrozenSet, List, Optional, Set, Tuple

from .source import LazyPattern, lines_of_sorted, occurrences
# the walks moved to ``walk``; their names stay importable from here for the modules that read them
from .accumulation_shapes import LOOPS as _LOOPS, \
    CONTAINER_CALLS, IMPORT_WORD, accumulates as _accumulates, concatenated_into, \
    PROOF_WORDS as _PROOF_WORDS, project_import as _project_import, \
    project_imports as _project_imports, project_modules as _project_modules, stepping_names, \
    differentiating_defs, appends_to_parameter, keeps_hook_output, global_totals
from .overlap_shapes import WRITING as _WRITING, WRITING_ARGS as _WRITING_ARGS, \
    binds_view as _binds_view, narrowed_name, same_subscripted as _same_subscripted, \
    through_views as _through_views, views_written, helper_copies
from .storage_shapes import helper_written, storage_shape, writes_into
from .order_shapes import LIKE, blocks, two_step_copy
from .parameter_shapes import updates_from_parameters
from .prefilter_proof import Proof
from .snapshot_shapes import helper_snapshot, parameter_backup, parameter_view, \
    restored_name as _restored_name, snapshot_shape as _snapshot_shape
from .walk import child_nodes, dotted, first_line, node_fields, on_lines, statements, \
    walk_nodes  # noqa: F401

_nodes = walk_nodes

#: the text of the shapes ``_has_shape`` looks for in a tree (each one's text lies within the
#: lines of the statement holding it)
_TREE_SHAPE_BRANCHES = (
    # one pattern per shape, each starting with a literal: ``re`` then finds candidates with a
    # fast substring scan, where one alternation of all of them tried every branch at nearly
    # every letter (3.4 MB of dense code: 114 ms for one ``finditer``, about 30 ms for these).
    # A word boundary before the literal is checked after it, by a look-behind.
    r"\.\s*data\b", r"Tensor\s*\(", r"detach\s*\(", r"copy_\s*\(",
    r"state_dict\s*\(\s*(?:\)|keep_vars\b)", r"tensor(?<!\wtensor)\s*\(", r"new_tensor\s*\(",
    r"state_dict[\"']\s*\)\s*\(",  # ``getattr(model, "state_dict")()`` (TEN402)
    # TEN402: a list or dict of the parameters themselves (``list(m.parameters())``,
    # ``[p for p in m.parameters()]``)
    r"parameters\s*\(\s*\)\s*[\]})]",
    # TEN402: a loop over them storing each parameter itself (``parameter_backup``)
    r"parameters\s*\(\s*\)\s*:",
    # TEN402: a name bound to one parameter, or a view of it (``parameter_view``), at the end
    # of a line
    r"weight(?<!\wweight)\b(?:[ \t]*\.[ \t]*\w+(?:\([^()\n]*\))?)*[ \t]*(?:#[^\n]*)?(?:\n|$)",
    r"bias(?<!\wbias)\b(?:[ \t]*\.[ \t]*\w+(?:\([^()\n]*\))?)*[ \t]*(?:#[^\n]*)?(?:\n|$)",
    # ``x[:, 1:].add_(x[:, :-1])``, ``.addcmul_(g, x[:, :-1])`` (TEN403)
    r"\]\s*\.\s*(?:add|sub|mul|div|lerp|addcmul|addcdiv)_\s*\(",
    r"\[[^\[\]]*:[^\[\]]*\][\s\\]*(?:[-+*/%@&|^]|//|\*\*|<<|>>)?=(?!=)",
    r"load_state_dict\s*\(\s*[A-Za-z_{]", r"functional_call\s*\(",
    r"import(?<!\wimport)\b[^\n(]*(?:\btensor\b|Tensor)",
    r"import(?<!\wimport)\s*\([^)]*(?:\btensor\b|Tensor)",
    # TEN404-406: a binding made by a conversion, a NumPy bridge, an expansion or a repetition
    r"\.\s*(?:cpu|to|float|double|half|bfloat16|long|int|short|bool|byte|char|type"
    r"|contiguous|requires_grad_|numpy|expand|broadcast_to)\s*\(",
    r"from_numpy\s*\(", r"as_tensor\s*\(", r"asarray\s*\(", r"broadcast_to\s*\(",
    # ``[t] * n``, ``n * [t]``, ``[t for _ in ...]`` (not ``[x for x in ...]``: its item is its
    # own target, a copy per item)
    r"\]\s*\*", r"\*\s*\[", r"\[\s*(\w+)\s+for\s+(?!\1\s+in\b)",
)
# TEN501's words first: a ``backward`` call (most training scripts stop there), and the other
# proofs that a value holds a graph (``PROOF_WORDS``: ``torch.autograd.grad``, a block turning
# grad on), which let the rule report in a loop of any function of the file
_SHAPE_BRANCHES = tuple(p.pattern for _, p in _PROOF_WORDS) + _TREE_SHAPE_BRANCHES + (
    r"for(?<![^\n]for)\b", r"while(?<![^\n]while)\b",  # at the start of a line
    # script-level code that calls a function: a ``__main__`` guard, or a call (its result
    # bound or not) at the start of a line
    r"if(?<![^\n]if)[ \t]+__name__\b",
    # Lightning's ``training_step`` (``_is_step``): Lightning runs it once per batch with grad
    # on, where no ``backward`` call nor loop of the file's own says so
    r"training_step\s*\(",
    r"\n(?:[A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*[ \t]*=[ \t]*)?[a-z_][\w.]*[ \t]*\(",
    # an import of a module that may be the project's own, anywhere (TEN501: its function may
    # return the loss it differentiated, or keep what it is given); the module is told apart
    # from the libraries' after the match, on the match's line (``project_import``: an
    # alternation of their 70 names here cost 0.45 ms to compile in every editor run)
    IMPORT_WORD,
)


_START = re.Match.start


class _ShapeText:
    """The text test of ``SHAPES``: ``search`` (any shape at all?) and ``starts`` (where each
    one begins, in order)."""

    def __init__(self, branches, last=None) -> None:
        #: each branch compiled when first tried: ``search`` stops at the first that matches
        #: (``backward(`` in a training script), so most are never compiled there
        self.branches = tuple(LazyPattern(b) for b in branches)
        #: the word each branch's matches begin with (``_leading_word``), or None: a text
        #: without it is not searched, and the pattern never compiled, for that branch (an
        #: editor's run on a training script compiled all of them for ``starts``)
        self.words = tuple(_leading_word(b) for b in branches)
        #: a test of the last branch's matches: only one it passes counts (``search``)
        self.last = last

    def _tried(self, text: str):
        """The (pattern, is the last branch) of the branches whose word ``text`` holds."""
        last = len(self.branches) - 1 if self.last is not None else -1
        for i, (pattern, word) in enumerate(zip(self.branches, self.words)):
            if word is None or word in text:
                yield pattern, i == last

    def search(self, text: str) -> Optional["re.Match[str]"]:
        for pattern, last in self._tried(text):
            if not last:
                m = pattern.search(text)
                if m is not None:
                    return m
                continue
            for m in pattern.finditer(text):
                if self.last(m):
                    return m
        return None

    def starts(self, text: str) -> List[int]:
        found: Set[int] = set()
        for pattern, last in self._tried(text):
            if not last:
                found.update(map(_START, pattern.finditer(text)))  # no generator frame per match
            else:
                found.update(m.start() for m in pattern.finditer(text) if self.last(m))
        return sorted(found)


_WORD_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def _leading_word(pattern: str) -> Optional[str]:
    r"""The word every match of ``pattern`` begins with: its leading letters when there are at
    least three and no quantifier follows them (``detach\s*\(``: ``detach``), else None.
    (Read without ``re``, whose compile is the cost saved; ``tests/test_prefilter.py`` checks
    every branch against ``re``'s own parse.)"""
    n = 0
    while n < len(pattern) and pattern[n] in _WORD_LETTERS:
        n += 1
    if n < 3 or pattern[n:n + 1] in ("*", "+", "?", "{", "|"):
        return None
    return pattern[:n]


#: text every flaggable piece of code contains: ``.data``, a ``tensor(``/``new_tensor(``/
#: ``...Tensor(`` call, ``detach(`` (TEN301, TEN401), ``copy_(`` (TEN302, TEN403), a write into
#: a basic slice (``x[..:..] = ``, ``x[..:..] += ``: TEN403; a slice the rule reads holds no
#: bracket), ``state_dict()`` or ``load_state_dict(name`` (TEN402), ``backward(`` or a loop at
#: the start of a line (TEN501: an accumulation in a loop that calls backward, or in a
#: script-level loop), script-level code calling a function (TEN501: a loop in a function its
#: file runs with grad on), a ``training_step`` (TEN501: Lightning's), or an import of a
#: constructor alias.
#: A cheap C-level test before any tree is walked.
SHAPES = _ShapeText(_SHAPE_BRANCHES, _project_import)
#: the part of ``SHAPES`` a tree's shapes are made of (``_TextIndex.may_have_shape`` asks before
#: ``_has_shape`` walks a statement): the loops, the ``backward`` calls and the script-level
#: calls are TEN501's, which ``_accumulates`` reads from the tree (finding every start of the
#: dense corpus: 118 ms with them, 72 ms without; the line-start call pattern alone 24 ms)
TREE_SHAPES = _ShapeText(_TREE_SHAPE_BRANCHES)

_LITERALS = (ast.Constant, ast.Dict, ast.Set, ast.DictComp, ast.SetComp, ast.JoinedStr,
             ast.Lambda)
_CTOR_ATTRS = frozenset({"tensor", "new_tensor"})
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


def _has_shape(root: ast.AST, aliases: Set[str], named: Optional[Set] = None,
               stored: Optional[Set] = None) -> bool:
    """Does ``root`` hold a shape? Writes ``x[..:..] = v`` of a name go to ``named`` when given
    (the caller looks for ``v = x[...]`` in the rest of the definition: ``_binds_view``), and
    TEN404-406's bindings (``y = x.cpu()``: the names ``y`` and ``x``) to ``stored`` (the caller
    looks for an in-place write into one of them in the whole definition: ``writes_into``);
    without ``stored``, that write is looked for in ``root``."""
    star = "*" in aliases
    two_step = False
    mine = named is None
    named = set() if named is None else named  # ``x[..:..] = v``: (x, v)
    own_stored = stored is None
    stored = set() if stored is None else stored
    views: Set[Tuple[Optional[str], str]] = set()  # ``v = x[...]``: (x, v)
    for node in _nodes(root):
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
            if len(args) > 1 and (dotted(func) or "").endswith("functional_call") and \
                    _restored_name(args[1]):
                return True  # TEN402: ``functional_call(self.q, self.frozen, (x,))``, a load
            if isinstance(func, ast.Attribute):
                attr = func.attr
                if attr == "detach" and isinstance(func.value, ast.Call):
                    inner = func.value.func
                    if isinstance(inner, ast.Attribute) and inner.attr == "clone":
                        return True
                elif attr == "load_state_dict" and args and _restored_name(args[0]):
                    # TEN402: a snapshot kept on ``self`` restored in another method, a name
                    # restored that a project function's call may have bound to a live state
                    # dict (``best = trainer.get_weights()``), or an instance's attribute that
                    # its class's methods bind to one (``es.best_state``)
                    return True
                elif attr in _KEEPS and len(args) == (attr != "append") + 1 and _snapshot_shape(
                        args[-1], dotted(func.value if len(args) == 1 else args[0])):
                    return True  # TEN402 (``heapq.heappush(self.heap, (s, m.state_dict()))``)
                elif attr in _WRITING and args and any(
                        _same_subscripted(func.value, a, named) or _helper_views(func.value, a)
                        for a in args[:_WRITING_ARGS.get(attr, (1,))[0]]) or \
                        attr in _WRITING and len(args) > 1 and \
                        dotted(func.value) in ("torch.Tensor", "Tensor") and \
                        _same_subscripted(args[0], args[1], named):
                    return True  # TEN403 (``torch.Tensor.copy_(x[:, 1:], x[:, :-1])`` too)
                elif attr == "copy_" and isinstance(func.value, ast.Call):
                    inner = func.value.func
                    name = inner.attr if isinstance(inner, ast.Attribute) else getattr(inner, "id", "")
                    if name in LIKE:
                        return True
                elif attr == "copy_" and isinstance(func.value, ast.Name) and len(args) == 1:
                    two_step = True  # ``out.copy_(v)``: a shape only after ``out = *_like(v)``
                    src = args[0]
                    while type(src) is ast.Call and type(src.func) is ast.Attribute:
                        src = src.func.value  # ``x[:, :-1].view_as(d)``: read through, as TEN403
                    if isinstance(src, ast.Subscript):  # TEN403, as below
                        named.add((dotted(src.value), func.value.id))
                    elif isinstance(args[0], ast.Name):
                        named.add((None, func.value.id, args[0].id))  # ``d.copy_(s)``, views
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
            if value is not None and _snapshot_shape(
                    value, dotted(node.targets[0]) if t is ast.Assign else
                    dotted(node.target) if t is ast.AnnAssign else None):
                return True  # TEN402
            if t is ast.Assign and type(node.targets[0]) is ast.Name and parameter_view(value):
                return True  # TEN402: ``w0 = model.fc.weight``, if measured against it later
            if t is ast.Assign and any(_same_subscripted(target, value, named)
                                       for target in node.targets):
                return True  # TEN403
            if t is ast.Assign and isinstance(value, (ast.Subscript, ast.Name)) and \
                    isinstance(node.targets[0], ast.Name):  # ``v = x[...]``, ``v = x``
                views.add((dotted(value.value) if isinstance(value, ast.Subscript) else
                           value.id, node.targets[0].id))
            elif t is ast.Assign and isinstance(node.targets[0], ast.Name) and \
                    narrowed_name(value) is not None:  # ``v = x.narrow(d, s, n)``
                views.add((narrowed_name(value), node.targets[0].id))
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
                    and value.func.attr == "detach" and not value.args:
                return True
            if t is ast.Assign and len(node.targets) == 1:
                bound = storage_shape(node.targets[0], value)
                if bound is not None:
                    stored.update(bound)  # TEN404-406, once a write follows
        elif t is ast.AugAssign and _same_subscripted(node.target, node.value, named):
            return True  # TEN403
        elif t is ast.For and parameter_backup(node):
            return True  # TEN402: ``self.backup[name] = param`` over ``named_parameters()``
        elif t is ast.ImportFrom and node.module and node.module.startswith("torch"):
            more = _torch_aliases([node]) - aliases
            if more:
                return True  # a local import of a constructor alias: let the walk look
    if mine and named and views_written(named, _through_views(views)):
        return True  # TEN403: ``v = x[...]`` and ``x[..:..] = v`` (or ``v.copy_(x[...])``)
    if own_stored and stored and writes_into(root, stored):
        return True  # TEN404-406: a binding and a write into one of its two sides
    return two_step and any(two_step_copy(block) for block in blocks(root))


def _helper_views(dst: ast.expr, src: ast.expr) -> bool:
    """``tail(x, 1)`` and ``head(x, 1)``: calls of functions by name handing over one name or
    attribute chain (TEN403: a function of the module may return a view of it); ``self.head``
    and ``self.tail`` (properties of the class may)."""
    if type(dst) is ast.Attribute and type(src) is ast.Attribute:
        return type(dst.value) is ast.Name and dst.value.id == "self" and \
            type(src.value) is ast.Name and src.value.id == "self" and dst.attr != src.attr
    if not (isinstance(dst, ast.Call) and isinstance(src, ast.Call) and
            isinstance(dst.func, ast.Name) and isinstance(src.func, ast.Name)):
        return False
    given = {dotted(a) for a in dst.args} - {None}
    return any(dotted(a) in given for a in src.args)


def _assigns_self_attr(fn: ast.AST, registers: bool = True) -> bool:
    """Does ``fn`` assign ``self.x`` or call ``register_buffer``/``register_parameter``?

    Assignments are statements: only statements are visited. The expressions are walked for
    the calls only when the definition's text has ``register_`` at all (``registers``)."""
    for node in statements(fn):
        t = type(node)
        if t is ast.Assign or t is ast.AnnAssign or t is ast.AugAssign:
            for target in node.targets if t is ast.Assign else (node.target,):
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self":
                    return True
    return registers and _calls_register(fn)


def _calls_register(fn: ast.AST) -> bool:
    for node in _nodes(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("register_buffer", "register_parameter"):
            return True
    return False


def _span(node: ast.stmt) -> Optional[Tuple[int, int]]:
    """The lines of ``node``, from its ``first_line``."""
    end = getattr(node, "end_lineno", None)
    if end is None:
        return None
    return first_line(node), end


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

#: the stand-in of a method kept only for the ``self`` attributes it binds: the engine builds its
#: header, and its body when a rule first asks about the class's attributes
DEFER = "<defer>"
#: the stand-in of a definition with no candidate: the engine builds its header (the name it
#: binds, its decorators, its return annotation) and never its body, so that the analysis of
#: everything around it is the one a full build gives (issue 45: one analysis, one answer;
#: a plain ``pass`` left the name bound to what it held before the ``def``)
BODYLESS = "<bodyless>"


def plan(tree: ast.Module, source: Optional[str] = None,
         reach: Optional[Callable[[Callable[[str], bool]], bool]] = None
         ) -> Tuple[bool, List[Span]]:
    """(any candidate at all, spans the tree can leave out: 1-based inclusive lines and the statement
    that stands in for them). With ``source``, a definition whose text has no shape is decided
    by the regex alone, without walking its tree. ``reach(holds)``: does a project module that
    the file's imports reach, directly or through others, hold text for which ``holds`` is true
    (the project index's answer, asked only where TEN501's or TEN405's summaries need it)?"""
    body = getattr(tree, "body", [])
    aliases = _torch_aliases(n for n in body)
    skip: List[Span] = []
    # a call through an alias (``T(x)`` after ``from torch import tensor as T``) has no textual
    # shape of its own: with aliases only the tree can tell
    text = _TextIndex(source) if source is not None and not aliases else None
    stored: Set = set()  # TEN404-406's bindings outside definitions: ``_has_shape``
    local = _project_imports(body)
    helpers = local | {s.name for s in body if isinstance(s, _FUNCS)}
    # a name ``from pkg import name`` binds may be a module too (``name.to_tensor(a)``)
    modules = local | _project_modules(body)
    found = _plan_body(body, aliases, skip, in_class=False, top=True, text=text, local=local |
                       differentiating_defs(body, text.contains if text is not None and
                                            "backward" in text.source else None),
                       stored=stored, proof=Proof(tree, source, reach), helpers=(helpers, modules))
    return found or (bool(stored) and writes_into(tree, stored)), skip


_SUB_BODIES, _KEEPS = ("body", "orelse", "finalbody"), ("append", "heappush", "heapreplace", "heappushpop")


#: a loop's keyword as a word (comprehensions match too: a superset of the loops), one pattern
#: per keyword, each starting with its literal (``\b(?:for|while)\b`` tried every position:
#: 66 ms over the dense corpus against 4 ms for these)
_LOOP_WORDS = (LazyPattern(r"for(?<!\wfor)\b"), LazyPattern(r"while(?<!\wwhile)\b"))


class _TextIndex:
    """Where a source's text may hold a shape: the lines on which ``TREE_SHAPES`` matches begin,
    found in one pass; a statement may hold a shape when one of them lies within its lines."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._shape_lines: Optional[List[int]] = None
        self._word_lines: dict = {}
        self._loop_lines: Optional[List[int]] = None

    def _lines_of(self, offsets) -> List[int]:
        """1-based line numbers of sorted offsets (line breaks as ``ast`` counts them)."""
        return lines_of_sorted(self.source, offsets)

    def _within(self, spots: List[int], node: ast.AST) -> bool:
        return on_lines(spots, node)

    def contains(self, node: ast.AST, word: str) -> bool:
        """Does the text of ``node``'s lines hold ``word``? (a call spelled ``x.word(...)``
        always does)"""
        spots = self._word_lines.get(word)
        if spots is None:
            spots = self._word_lines[word] = self._lines_of(occurrences(self.source, word))
        return self._within(spots, node)

    def has_loop(self, node: ast.AST) -> bool:
        """May ``node`` hold a loop (``for`` or ``while`` as a word within its lines)?"""
        if self._loop_lines is None:
            found = {m.start() for pattern in _LOOP_WORDS for m in pattern.finditer(self.source)}
            self._loop_lines = self._lines_of(sorted(found))
        return self._within(self._loop_lines, node)

    def may_have_shape(self, node: ast.AST) -> bool:
        if self._shape_lines is None:
            self._shape_lines = self._lines_of(TREE_SHAPES.starts(self.source))
        return self._within(self._shape_lines, node)


def _has_shape_in(fn: ast.AST, aliases: Set[str], text: "_TextIndex") -> bool:
    """``_has_shape(fn)`` for a definition, walking only the statements whose lines the text
    says may hold a shape (a shape's text lies within the lines of the statement holding it)."""
    for field in ("decorator_list", "args", "returns"):
        value = getattr(fn, field, None)
        for part in value if type(value) is list else (value,):
            if part is not None and _has_shape(part, aliases):
                return True
    todo = [fn.body]
    named: Set = set()
    stored: Set = set()
    while todo:
        block = todo.pop()
        if two_step_copy(block):
            return True
        for stmt in block:
            if not text.may_have_shape(stmt):
                continue
            if type(stmt) is ast.For and parameter_backup(stmt):
                return True  # TEN402: ``self.backup[name] = param`` over ``named_parameters()``
            bodies = [getattr(stmt, f) for f in _SUB_BODIES if type(getattr(stmt, f, None)) is list]
            if not bodies and not getattr(stmt, "handlers", None) and not getattr(stmt, "cases", None):
                if _has_shape(stmt, aliases, named, stored):
                    return True
                continue
            # a compound statement: its own expressions, then its blocks
            for name, value in ast.iter_fields(stmt):
                if name in _SUB_BODIES and type(value) is list:
                    continue
                if name == "handlers":
                    for h in value:
                        if h.type is not None and _has_shape(h.type, aliases):
                            return True
                        todo.append(h.body)
                elif name == "cases":
                    for c in value:
                        if _has_shape(c.pattern, aliases) or (
                                c.guard is not None and _has_shape(c.guard, aliases)):
                            return True
                        todo.append(c.body)
                elif isinstance(value, ast.AST):
                    if _has_shape(value, aliases):
                        return True
                elif type(value) is list:
                    for part in value:
                        if isinstance(part, ast.AST) and _has_shape(part, aliases):
                            return True
            todo.extend(bodies)
    return (bool(named) and _binds_view((fn,), named)) or (
        bool(stored) and writes_into(fn, stored))


def _plan_body(body, aliases: Set[str], skip: List[Span], in_class: bool, top: bool,
               text: Optional[_TextIndex] = None, local: FrozenSet[str] = frozenset(),
               stored: Optional[Set] = None, proof: Optional["Proof"] = None,
               helpers: Tuple[FrozenSet[str], FrozenSet[str]] = (frozenset(), frozenset())
               ) -> bool:
    """Walk one block; definitions without candidates go to ``skip``. True if any candidate;
    TEN404-406's bindings outside definitions go to ``stored`` (``plan`` looks for a write).
    ``proof(fn, top)``: may TEN501 report an accumulation in a loop of ``fn`` (``Proof``,
    asked only of a definition whose loops accumulate what may be a graph)? ``helpers``: the
    names of the project's functions the module calls by name and of the project's modules it
    calls functions of (TEN405 reads their storage summaries: ``helper_written``)."""
    found = two_step_copy(body)
    if proof is None:
        proof = Proof(ast.Module([], []), None, None)  # no text: every definition may
    rest = (text, local, stored, proof, helpers)  # what every nested block is walked with
    named: Set = set()  # ``x[..:..] = v`` at this level: a shape once ``v = x[...]`` is bound
    for stmt in body:
        if isinstance(stmt, _FUNCS):
            keep = in_class and (stmt.name == "__init__" or _assigns_self_attr(
                stmt, text is None or text.contains(stmt, "register_")))
            if _has_shape(stmt, aliases) if text is None else (
                    text.may_have_shape(stmt) and _has_shape_in(stmt, aliases, text)):
                found = True
            elif (text is None or text.has_loop(stmt)) and proof.may(stmt, top) and _accumulates(
                    stmt,
                    # TEN501: an accumulation in a loop of a function that calls backward
                    text is None or text.contains(stmt, "backward"),
                    # or of a value a call computed (``model(x)``, a project function that may
                    # return the loss it differentiated) or a function of another project
                    # module computed, where the rule can tell it holds a graph (``Proof``)
                    True, local, None if text is None else text.contains,
                    keepers=proof.keepers()) and proof(stmt, top):
                found = True
            elif in_class and _is_step(stmt, proof.source, text) and (
                    _step_accumulates(stmt) or proof.keeps_on_self(stmt)) or \
                    top and (text is None or text.contains(stmt, "backward") or (
                        "backward" in text.source and f"{stmt.name}(" in text.source)) and \
                    _step_accumulates(stmt, _module_containers(body, stmt, text)) or \
                    proof.calls_live_returner(stmt, text):
                # TEN501: Lightning's step, a method that runs ``backward()`` (``accumulate_loops
                # .step_hook``, ``step_method``); TEN402: ``best = trainer.weights()`` in a
                # method or a function
                found = True
            elif proof.materializes(stmt):
                found = True  # TEN501: ``list(train_steps(...))`` of a generator that trains
            elif top and text is not None and "backward" in text.source and \
                    f"{stmt.name}(" in text.source and appends_to_parameter(stmt):
                found = True  # TEN501: ``sink.append(v)`` into a list a caller hands it each step
            elif text is not None and "register_forward_hook" in text.source and \
                    "backward" in text.source and keeps_hook_output(stmt):
                found = True  # TEN501: a forward hook keeping its ``output``
            elif (helpers[0] or helpers[1]) and helper_written(stmt, *helpers) and proof.bridged():
                found = True  # TEN405: a project function's result written in place
            elif (helpers[0] or helpers[1]) and proof.hands_views() and \
                    helper_copies(stmt, *helpers):
                found = True  # TEN403: two views of one tensor handed to a project writer
            elif helpers[0] and proof.snapshots_by_helpers(helpers[0]) and \
                    helper_snapshot(stmt, helpers[0]) and (proof.loads() or
                                                           proof.hands_parameters()):
                found = True  # TEN402: ``self.best = capture(model)`` of a project function
            elif not stmt.decorator_list and (text is None or text.contains(
                    stmt, "parameters") and text.source.count(stmt.name + "(") > 1) and \
                    updates_from_parameters(stmt):
                found = True  # TEN501: an update from a module's parameters, per call (an EMA)
            elif not keep:
                span = _span(stmt)
                if span:
                    skip.append(span + (BODYLESS,))
            elif text is not None:
                # kept for the ``self`` attributes it binds, which a rule may never ask about:
                # its body is built and walked when one is first asked (``later``)
                span = _span(stmt)
                if span:
                    skip.append(span + (DEFER,))
        elif isinstance(stmt, ast.ClassDef):
            for d in stmt.decorator_list + stmt.bases + [k.value for k in stmt.keywords]:
                found |= _has_shape(d, aliases)
            found |= _plan_body(stmt.body, aliases, skip, True, False, *rest)
        elif isinstance(stmt, ast.If) and not in_class:
            found |= _has_shape(stmt.test, aliases)
            found |= _plan_body(stmt.body, aliases, skip, in_class, False, *rest)
            found |= _plan_body(stmt.orelse, aliases, skip, in_class, False, *rest)
        elif isinstance(stmt, ast.Try) and not in_class:
            found |= _plan_body(stmt.body, aliases, skip, in_class, False, *rest)
            for handler in stmt.handlers:
                if handler.type is not None:
                    found |= _has_shape(handler.type, aliases)
                found |= _plan_body(handler.body, aliases, skip, in_class, False, *rest)
            found |= _plan_body(stmt.orelse, aliases, skip, in_class, False, *rest)
            found |= _plan_body(stmt.finalbody, aliases, skip, in_class, False, *rest)
        elif (text is None or text.may_have_shape(stmt)) and _has_shape(stmt, aliases, named,
                                                                         stored):
            found = True
        elif not in_class and isinstance(stmt, _LOOPS + (ast.With,)) and _accumulates(
                stmt, False, True, frozenset(), stores=True, keepers=proof.keepers()):
            found = True  # TEN501: an accumulation in a script-level loop (a store too)
        elif top:
            name = _literal_binding(stmt)
            if name is not None:
                # still binds the name to a container: what inference knew of it stays true
                skip.append((stmt.lineno, stmt.end_lineno, f"{name} = []"))
    return found or (bool(named) and _binds_view(
        [stmt for stmt in body if not isinstance(stmt, _FUNCS + (ast.ClassDef,))], named))


def _is_step(fn: ast.AST, source: Optional[str], text: Optional[_TextIndex]) -> bool:
    """May method ``fn`` be a training step: Lightning's ``training_step`` (in a text naming
    ``LightningModule``), one whose text calls ``backward``, or one a text that does calls by
    name (``accumulate_loops.stepped_by_caller``)?"""
    if fn.name == "training_step" and (source is None or "LightningModule" in source):
        return True
    return text is None or text.contains(fn, "backward") or source is not None and \
        fn.name in stepping_names(source)


def _module_containers(body: list, fn: ast.AST, text: Optional["_TextIndex"]) -> FrozenSet[str]:
    """The names a module's top level binds to a container display or constructor call
    (``TRAIN_LOG = []``, ``LOG = defaultdict(list)``) that the text of ``fn`` mentions, and
    those it binds to anything that ``fn`` declares ``global`` and only adds to
    (``RUNNING = 0.0``: ``global_totals``)."""
    totals = global_totals(fn) if text is None or text.contains(fn, "global ") else frozenset()
    pairs = [(t, s.value) for s in body if type(s) is ast.Assign for t in s.targets] + [
        p for s in body if type(s) is ast.Assign and type(s.value) is ast.Tuple
        for t in s.targets if type(t) is ast.Tuple and len(t.elts) == len(s.value.elts)
        for p in zip(t.elts, s.value.elts)]  # (``a, b = [], []``)
    return frozenset(t.id for t, v in pairs if type(t) is ast.Name and (
        isinstance(v, (ast.List, ast.Dict)) or isinstance(v, ast.Call) and
        (dotted(v.func) or "").rpartition(".")[2] in CONTAINER_CALLS or t.id in totals)
        and (text is None or text.contains(fn, t.id)))


def _step_accumulates(fn: ast.AST, names: Optional[FrozenSet[str]] = None) -> bool:
    """Does ``fn`` append to or add into an attribute of ``self`` or an item of one
    (``self.outs.append(v)``, ``self.logs["loss"].append(v)``, ``self.total += v``,
    ``self.total = self.total + v``, ``self.bank = torch.cat([self.bank, v])``), or (``names``: a module's containers) into one of
    ``names`` (``LOSS_LOG.append(v)``)? (TEN501's steps: a superset of what the rule
    reports.)"""
    if names is not None and not names:
        return False  # (a function: only a module's containers count, and it names none)
    names = names or frozenset()
    for n in ast.walk(fn):
        t = type(n)
        if t is ast.Call:
            f = n.func
            target = f.value if type(f) is ast.Attribute and f.attr in ("append", "extend") \
                else None
        elif t is ast.AugAssign:
            target = n.target
        elif t is ast.Assign and (type(n.value) is ast.BinOp or concatenated_into(n) or
                                  type(n.targets[0]) is ast.Subscript and
                                  type(n.targets[0].slice) is not ast.Constant):
            target = n.targets[0]  # (``self.bank = torch.cat([self.bank, z])[-k:]`` too;
            # ``self.slots[i] = z``: a buffer's history grows with each write)
        else:
            continue
        while type(target) is ast.Subscript:  # ``self.logs["loss"].append(v)``
            target = target.value
        if type(target) is ast.Attribute and type(target.value) is ast.Name and \
                target.value.id == "self" or type(target) is ast.Name and target.id in names:
            return True
    return False


def has_candidates(tree: ast.AST) -> bool:
    return plan(tree)[0] if isinstance(tree, ast.Module) else _has_shape(tree, _torch_aliases(ast.walk(tree)))
