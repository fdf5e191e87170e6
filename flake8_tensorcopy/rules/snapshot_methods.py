"""TEN402 across methods: an attribute snapshot (``self.best = model.state_dict()``) loaded in
another method of the class, of a related class of the file, or on a later call of the same
method. Split from ``rules/snapshot.py``."""
from __future__ import annotations

import ast
import os
import re
from typing import Optional

from ..syntax import nodes
from ..syntax.nodes import dotted_name, last_name
from .context import enclosing_function, positional_param_names, statement_blocks, \
    statement_list
from ..semantic.storage_flow import binds_itself, bound_in, first_write
from ..syntax.walk import dotted, walk_nodes
from .accumulation_forms import pushed
from .snapshot_flow import DEFS, locate, mentions, other_item, read_after_change
from .snapshot_getters import bound_from, restored_through_getter, returns_items
from .snapshot_values import mixed_on_later_calls, paired_list, parameter_lists, \
    reads_parameters_of, reads_state_items
from ..syntax.source import LazyPattern


def restored_elsewhere(ctx, bind, name: str, keys=None):
    """``self.best = ...`` in one method, ``X.load_state_dict(self.best)`` in another method of
    the class or of a class of the file related to it by inheritance (the same object), or in
    the same method where a later call reaches the load before the binding (the load precedes
    it, or sits in another branch of an ``if``). ``keys``: where ``name`` holds the live tensors
    (``snapshot_flow.mentions``): a load of another item is none of them."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef:
        return None
    cls = owner_class(ctx.module, scope)
    if cls is None:
        return None
    for owner in related_classes(ctx.module, cls):
        for stmt in statement_list(owner.body):
            if type(stmt) is not nodes.FunctionDef:
                continue
            if stmt is scope:
                hit = restored_on_later_call(stmt, ctx.stmt_line, name, keys)
                if hit is not None:
                    return f"a later call of `{stmt.name.value}()`", hit
                continue
            hit = load_of(stmt.body, name, keys) or _wrapped_load(stmt, name, ctx.module._a)
            if hit is not None:
                where = "other methods" if owner is cls else f"`{owner.name.value}`'s methods"
                return f"later calls of {where} (`{stmt.name.value}()`)", hit
    if keys is not None:
        return None
    return restored_in_project(ctx, cls, name) or \
        restored_through_getter(ctx, related_classes(ctx.module, cls), name)


def overwritten_backup(ctx, name: str, owner: str):
    """``self.backup[n] = p.data`` in ``for n, p in m.named_parameters():``, where the same turn
    then writes ``p`` in place (``p.data.copy_(self.shadow[n])``: an EMA helper swapping its
    weights in) and another method of the class (or of one related to it) reads
    ``self.backup``: what it reads are the values written in, not those backed up. (The
    write, the read) or None."""
    from .accumulate_loops import innermost_loop
    from .parameter_writes import loop_parameters

    scope = ctx.scope_node
    loop = innermost_loop(ctx, ctx.stmt_line)
    cls = owner_class(ctx.module, scope) if type(scope) is nodes.FunctionDef else None
    params = loop_parameters(loop, owner) if cls is not None else ()
    if not params:
        return None
    write = first_write(loop.body, ctx.stmt_line,
                        frozenset(params) | frozenset(p + ".data" for p in params))
    if write is None:
        return None
    for owner in related_classes(ctx.module, cls):
        for stmt in statement_list(owner.body):
            if type(stmt) is nodes.FunctionDef and stmt is not scope:
                hit = _read_of(stmt, name)
                if hit is not None:
                    return f"`{ctx.snippet(write, 40)}` in the same turn", hit
    return None


def _read_of(fn, name: str):
    """A read of the attribute chain ``name`` in method ``fn``, read from its ``ast`` (a body
    the pre-filter left unbuilt too): a load that is not the object of an item write
    (``self.backup[k] = v``); the ``ast`` node or None."""
    a = fn._a
    if not isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    written = set()
    found = []
    for n in ast.walk(a):
        t = type(n)
        if t is ast.Subscript and type(n.ctx) is not ast.Load:
            written.add(id(n.value))
        elif t is ast.Attribute and type(n.ctx) is ast.Load and dotted(n) == name:
            found.append(n)
    return next((n for n in found if id(n) not in written), None)


def restored_by_sibling(ctx, name: str, keys=None, item: bool = False):
    """``nonlocal best`` ... ``best = model.state_dict()`` in a closure whose enclosing function
    defines another closure that hands ``best`` to ``load_state_dict`` (an early-stopping
    factory's ``step()`` and ``restore()``), or ``global BEST`` ... in a function of the module
    whose other function loads ``BEST``: later calls of it, as two methods of one object share
    ``self`` (``restored_elsewhere``). A function that binds the name for itself without the
    same declaration reads its own. ``item``: the snapshot is stored into an item of ``name``
    (``saved["rewind"] = ...``), which needs no declaration where the function binds no
    ``name`` of its own: the container of the enclosing function, or of the module."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef:
        return None
    if item and "." not in name and not binds_itself(scope, name):
        outer = enclosing_function(ctx.module, scope)
        body = statement_list(outer.body) if outer is not None else ctx.module.body
        if not bound_in(outer if outer is not None else ctx.module, name):
            return None  # (the enclosing function's container, or a module's from a function)
        siblings = [s for s in body if type(s) is nodes.FunctionDef]
        kind = nodes.Nonlocal if outer is not None else nodes.Global
    elif not ("global" in ctx.source or "nonlocal" in ctx.source):
        return None  # (the text first: no declaration, no walk of the function)
    elif _declares(scope, name, nodes.Global):
        # ``global BEST`` ... ``BEST = model.state_dict()``: the module's other functions
        siblings = [s for s in ctx.module.body if type(s) is nodes.FunctionDef]
        kind = nodes.Global
    elif _declares(scope, name, nodes.Nonlocal):
        outer = enclosing_function(ctx.module, scope)
        if outer is None:
            return None
        siblings = [s for s in statement_list(outer.body) if type(s) is nodes.FunctionDef]
        kind = nodes.Nonlocal
    else:
        return None
    for stmt in siblings:
        if stmt is scope or (bound_in(stmt, name) and not _declares(stmt, name, kind)):
            continue
        hit = load_of(stmt.body, name, keys)
        if hit is not None:
            return f"later calls of `{stmt.name.value}()`", hit
    return None


class InCaller:
    """A rule context seen from another function of the module: its scope and the statement of
    a call there (``read_after_change`` reads the flow from that statement on)."""

    def __init__(self, ctx, scope, line) -> None:
        self._ctx, self.scope_node, self.stmt_line = ctx, scope, line

    def __getattr__(self, name: str):
        return getattr(self._ctx, name)


def restored_by_caller(ctx, name: str, receiver: str, keys=None):
    """``store["weights"] = model.state_dict()`` in a top-level function of the module where
    ``store`` is a positional parameter it never rebinds (a helper handed the dict): a call of
    it from another top-level function that hands it a name and hands that name to
    ``load_state_dict``, after which that caller changes the weights and reads the name
    (``read_after_change`` from the call, in the caller). In a closure, its enclosing function
    as the caller (``_restored_by_enclosing``)."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef or "." in name:
        return None
    fname = scope.name.value
    if ctx.source.count(fname + "(") < 2 or _rebinds(scope, name):
        return None  # (the text first: the helper called somewhere)
    if not any(s is scope for s in ctx.module.body):
        return _restored_by_enclosing(ctx, scope, name, receiver, keys)
    positional = positional_param_names(scope)
    if name not in positional:
        return None
    k = positional.index(name)
    r = positional.index(receiver) if receiver in positional else None
    for caller in ctx.module.body:
        # a caller that restores through ``load_state_dict`` (one the pre-filter keeps whole:
        # the lint view and the fixer's read the same callers)
        if type(caller) is not nodes.FunctionDef or caller is scope or \
                f"{fname}(" not in ctx.code(caller):
            continue
        for line, small, call in calls_of(caller, fname):
            args = call.args
            if any(a.star or a.keyword is not None for a in args[:max(k, r or 0) + 1]) or \
                    len(args) <= k or type(args[k].value) is not nodes.Name:
                continue
            owner = receiver if r is None else (
                dotted_name(args[r].value) if r < len(args) else None)
            if owner is None or load_of(caller.body, args[k].value.value) is None:
                continue
            found = read_after_change(InCaller(ctx, caller, line), small, args[k].value.value,
                                      owner, keys)
            if found is not None:
                return f"{found[0]} in its caller `{caller.name.value}()`", found[1]
    return None


def _restored_by_enclosing(ctx, scope, name: str, receiver: str, keys=None):
    """``cell[0] = model.state_dict()`` in a closure where ``cell`` is a name of the enclosing
    function (not a parameter of the closure, never bound there), which calls the closure as a
    statement and later hands ``cell`` to ``load_state_dict``: read the flow from each such
    call in the enclosing function."""
    params = [p.name.value for p in list(scope.params.posonly_params) +
              list(scope.params.params) + list(scope.params.kwonly_params)]
    if name in params or receiver in params:
        return None
    outer = enclosing_function(ctx.module, scope)
    if outer is None or load_of(outer.body, name) is None:
        return None
    for line, small, _ in calls_of(outer, scope.name.value):
        found = read_after_change(InCaller(ctx, outer, line), small, name, receiver, keys)
        if found is not None:
            return f"{found[0]} in `{outer.name.value}()` (which calls it)", found[1]
    return None


def _rebinds(fn, name: str) -> bool:
    """Does ``fn`` bind the plain name ``name`` (its writes into the object it names aside: an
    assignment, an augmented one or a loop target naming it, ``del``, ``global``, ``nonlocal``)?"""
    todo = list(fn.body.children) if fn.body is not None else []
    while todo:
        n = todo.pop()
        t = type(n)
        if t in DEFS or t is nodes.Lambda:
            continue
        targets = [a.target for a in n.targets] if t is nodes.Assign else \
            [n.target] if t in (nodes.AugAssign, nodes.AnnAssign, nodes.For, nodes.NamedExpr) \
            else []
        while targets:
            tgt = targets.pop()
            if type(tgt) is nodes.Name and tgt.value == name:
                return True
            if type(tgt) in (nodes.Tuple, nodes.List):
                targets.extend(e.value for e in tgt.elements)
        if t in (nodes.Global, nodes.Nonlocal, nodes.Del) and mentions(n, name) is not None:
            return True
        todo.extend(c for c in n.children if c is not None)
    return False


def calls_of(fn, fname: str, bound: bool = False):
    """(statement line, small statement, call) for each statement of ``fn`` (a function or the
    module; not in a nested definition) that is a call of the plain name ``fname``, as an
    expression statement (``bound``: bound to one plain name, ``k = fname(...)``)."""
    for st, small in small_statements(fn):
        v = getattr(small, "value", None)
        if (type(small) is nodes.Assign and len(small.targets) == 1 and
                type(small.targets[0].target) is nodes.Name if bound else
                type(small) is nodes.Expr) and type(v) is nodes.Call and \
                type(v.func) is nodes.Name and v.func.value == fname:
            yield st, small, v


def small_statements(fn):
    """(statement line, small statement) for each simple statement of ``fn`` (a function or the
    module), in any block but a nested definition's."""
    todo = list(statement_list(fn.body)) if type(fn) is nodes.FunctionDef else list(fn.body)
    while todo:
        st = todo.pop()
        t = type(st)
        if t is nodes.SimpleStatementLine:
            for small in st.body:
                yield st, small
        elif t not in DEFS:
            todo.extend(s for block in statement_blocks(st) for s in block)


def _declares(fn, name: str, kind) -> bool:
    """Does ``fn``'s own body declare ``nonlocal name`` (``kind`` ``nodes.Nonlocal``) or
    ``global name`` (``nodes.Global``)?"""
    todo = list(statement_list(fn.body))
    while todo:
        n = todo.pop()
        t = type(n)
        if t is kind and any(item.name.value == name for item in n.names):
            return True
        if t is nodes.SimpleStatementLine:
            todo.extend(n.body)
        elif t not in DEFS:
            todo.extend(s for block in statement_blocks(n) for s in block)
    return False


def restored_in_project(ctx, cls, name: str):
    """``self.best = ...`` in a method of ``cls`` whose value another file of the project hands
    to ``load_state_dict``: through an instance of ``cls`` or of a subclass
    (``model.load_state_dict(early_stopping.best)`` in a trainer), or through ``self`` in a
    method of a subclass defined there (``fit()`` of a model class deriving from the one that
    trains). Also an instance's load in this file outside the class. The first such load, as
    (why, None)."""
    project = ctx.inf.project
    attr = name[5:]
    if project is None or "." in attr or not attr:
        return None
    loads = project.attribute_restores(cls.name.value, project.path, attr)
    if not loads:
        return None
    load = loads[0]
    where = os.path.relpath(load.path, os.path.dirname(project.path)) \
        if load.path != project.path else "this file"
    return (f"later calls (`load_state_dict({load.receiver}.{attr})` in {where}, "
            f"line {load.line})"), None


def load_of(node, name: str, keys=None):
    """A read of ``name`` in the first argument of a ``load_state_dict`` call under ``node``
    (the second of a ``functional_call``), or of a local name bound under ``node`` to ``name``
    in one branch of a conditional expression (``state = self.rewind if self.rewind is not
    None else self.init`` ... ``load_state_dict(state)``) or to a call handed ``name`` whole
    (``averaged = average_state_dicts(self.snapshots)``: computed from the live tensors)."""
    todo = [node]
    loads, chosen, items = [], set(), {}
    while todo:
        n = todo.pop()
        called = last_name(n.func) if type(n) is nodes.Call else None
        if (called == "load_state_dict" and n.args) or (called == "functional_call" and
                                                         len(n.args) > 1):
            # (``functional_call(self.q, self.frozen, (x,))`` runs the module on those tensors
            # as a load would put them in: a DQN's target kept as a state dict)
            arg = n.args[0] if called == "load_state_dict" else n.args[1]
            hit = mentions(arg, name, keys=keys)
            if hit is not None:
                return hit
            loads.append(arg.value)
        elif type(n) is nodes.Assign and len(n.targets) == 1 and \
                type(n.targets[0].target) is nodes.Name and type(n.value) is nodes.IfExp and \
                name in (dotted_name(n.value.body), dotted_name(n.value.orelse)):
            chosen.add(n.targets[0].target.value)
        elif keys is None and type(n) is nodes.Assign and len(n.targets) == 1 and \
                type(n.targets[0].target) is nodes.Name and (type(n.value) is nodes.Call and any(
                    a.keyword is None and not a.star and dotted_name(a.value) == name
                    for a in n.value.args) or any(  # ``{k: mean([sd[k] for sd in name]) ...}``
                    type(c) is nodes.CompFor and dotted_name(c.iter) == name
                    for c in nodes.within(n.value))):
            chosen.add(n.targets[0].target.value)
        elif type(n) is nodes.Assign and len(n.targets) == 1 and \
                type(n.targets[0].target) is nodes.Name and type(n.value) is nodes.Subscript and \
                dotted_name(n.value.value) == name and (
                    keys is None or keys[0] > 1 or not other_item(n.value, name, keys)):
            # ``ck = self.ckpts[epoch]`` ... ``load_state_dict(ck["model"])``: one of its items
            items[n.targets[0].target.value] = None if keys is None or keys[0] < 2 else \
                (keys[0] - 1, keys[1])
        todo.extend(c for c in n.children if c is not None)
    return next((a for a in loads if type(a) is nodes.Name and a.value in chosen), None) or \
        next((hit for a in loads for item, sub in items.items()
              for hit in (mentions(a, item, keys=sub),) if hit is not None), None)


def _wrapped_load(fn, name: str, tree):
    """``trainer.set_weights(name)`` in method ``fn`` (its ``ast`` lines: a body the pre-filter
    left unbuilt too), a call of one of the file's loader wrappers (``handed_to_loaders``):
    the call, or None."""
    a = fn._a
    if not isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    return next((c for c in handed_to_loaders(tree).get(name, ())
                 if a.lineno <= c.lineno <= (a.end_lineno or a.lineno)), None)


_wrapped: tuple = (None, {})


def handed_to_loaders(tree) -> dict:
    """The names and attribute chains the file (its ``ast``) hands to one of its loader
    wrappers, functions and methods that hand their first argument to ``load_state_dict``
    (``trainer.set_weights(self.best_weights)`` of ``def set_weights(self, state):
    self.model.load_state_dict(state)``), each with those calls: one walk of the file, and one
    more of each function whose parameter a ``load_state_dict`` call is handed; the last
    file's answer is kept."""
    global _wrapped
    if _wrapped[0] is tree:
        return _wrapped[1]
    funcs, loaded, calls = [], set(), []
    for n in walk_nodes(tree):
        t = type(n)
        if t is ast.FunctionDef or t is ast.AsyncFunctionDef:
            funcs.append(n)
        elif t is ast.Call and n.args and type(n.func) is ast.Attribute:
            calls.append(n)
            if n.func.attr == "load_state_dict" and type(n.args[0]) is ast.Name:
                loaded.add(n.args[0].id)
    found = set()
    for fn in funcs if loaded else ():
        params = [a.arg for a in fn.args.args]
        first = params[1] if params[:1] in (["self"], ["cls"]) and len(params) > 1 else \
            params[0] if params and params[:1] not in (["self"], ["cls"]) else None
        if first in loaded and any(
                type(n) is ast.Call and type(n.func) is ast.Attribute and
                n.func.attr == "load_state_dict" and n.args and
                type(n.args[0]) is ast.Name and n.args[0].id == first for n in ast.walk(fn)):
            found.add(fn.name)
    handed: dict = {}
    for n in calls if found else ():
        d = dotted(n.args[0]) if n.func.attr in found else None
        if d is not None:
            handed.setdefault(d, []).append(n)
    _wrapped = (tree, handed)
    return handed


def lines_with_chain(stmts: list, chain: list):
    """Each simple statement line under ``stmts`` with its chain (``locate``'s)."""
    for i, s in enumerate(stmts):
        chain.append((stmts, i))
        if type(s) is nodes.SimpleStatementLine:
            yield s, list(chain)
        elif type(s) not in DEFS:
            for block in statement_blocks(s):
                yield from lines_with_chain(block, chain)
        chain.pop()


def restored_on_later_call(method, bind, name: str, keys=None):
    """A load of ``name`` in ``method`` that a later call of it reaches without passing the
    binding's statement line ``bind`` first: it comes before the binding, or in another branch of an ``if``."""
    body = statement_list(method.body)
    at: list = []
    if bind is None or not locate(body, bind, at):
        return None
    for line, chain in lines_with_chain(body, []):
        hit = load_of(line, name, keys)
        if hit is not None and statement_order(at, chain) in ("before", "apart"):
            return hit
    return None


def statement_order(a: list, b: list) -> str:
    """Where statement chain ``b`` lies against ``a``: "after", "before", "apart" (another
    branch of one ``if``), or "unknown"."""
    for d in range(min(len(a), len(b))):
        (sa, ia), (sb, ib) = a[d], b[d]
        if sa[0] is not sb[0]:  # other blocks of the compound statement one level up
            up = a[d - 1][0][a[d - 1][1]] if d else None
            return "apart" if type(up) is nodes.If else "unknown"
        if ia != ib:
            return "after" if ib > ia else "before"
    return "unknown"


def related_classes(module, cls) -> list:
    """``cls`` first, then the classes of the file that derive from it or that it derives from
    (by name, transitively): a method of any of them may run on the same ``self``."""
    classes = []
    todo = [module]
    while todo:
        n = todo.pop()
        if type(n) is nodes.ClassDef:
            classes.append(n)
        if type(n) in (nodes.Module, nodes.ClassDef, nodes.If, nodes.Try, nodes.IndentedBlock,
                       nodes.Else):
            todo.extend(c for c in n.children if c is not None)
    bases = {c.name.value: {last_name(b.value) for b in c.bases} for c in classes}
    related = {cls.name.value}
    grew = True
    while grew:
        grew = False
        for c in classes:
            n = c.name.value
            if n not in related and (bases[n] & related or any(
                    n in bases[r] for r in related if r in bases)):
                related.add(n)
                grew = True
    return [cls] + [c for c in classes if c is not cls and c.name.value in related]


def owner_class(module, fn):
    todo = [module]
    while todo:
        n = todo.pop()
        if type(n) is nodes.ClassDef and any(s is fn for s in statement_list(n.body)):
            return n
        if type(n) in (nodes.Module, nodes.ClassDef, nodes.FunctionDef, nodes.If, nodes.Try,
                       nodes.IndentedBlock, nodes.Else, nodes.With):
            todo.extend(c for c in n.children if c is not None)
    return None


#: what may follow ``self.teacher`` in a file for a frozen module's tensors to stay as they are:
#: a forward pass, its state dict, eval mode, the freeze itself, a move, its parameters read
_STILL = LazyPattern(r"\s*(?:\(|\.\s*(?:state_dict|eval|requires_grad_|parameters|"
                     r"named_parameters|to|cuda|cpu)\s*\(|=[^=])")


def frozen_module(ctx, receiver) -> bool:
    """Is ``receiver`` (``self.teacher``) a module the file freezes (``grad_callers
    .frozen_targets``: ``self.teacher.requires_grad_(False)``), puts in eval mode, and uses
    nowhere but in those forms (``_STILL``: no ``load_state_dict`` into it, no ``train()``, no
    optimizer or call handed it, no attribute of it written)? Nothing then changes its tensors:
    a snapshot of its state dict stays what it was (a frozen teacher's weights kept for a warm
    start)."""
    name = dotted_name(receiver) if type(receiver) is nodes.Attribute else None
    if name is None or not name.startswith("self.") or name.count(".") != 1:
        return False
    source = ctx.source
    uses = [m.end() for m in re.finditer(re.escape(name) + r"\b", source)]
    if not uses or not re.search(re.escape(name) + r"(?:(?:\.requires_grad_\(False\))?\.eval\("
                                 r"|\s*=[^=\n][^\n]*\.eval\(\))", source):
        return False  # (``self.teacher.eval()``, ``self.teacher = teacher.to(device).eval()``)
    if any(_STILL.match(source, end) is None for end in uses):
        return False
    from ..syntax.grad_callers import frozen_targets

    frozen = frozen_targets(ctx.module._a)
    return frozen is not None and (name, None) in frozen


#: what a frozen module's name may be the receiver of in ``frozen_local``: its state dict, its
#: moves and modes (each returns the module itself)
_STILL_METHODS = frozenset({"state_dict", "eval", "requires_grad_", "to", "cuda", "cpu"})


def frozen_local(ctx, receiver) -> bool:
    """Is ``receiver`` a name of the function being walked that it freezes and puts in eval mode
    (``teacher = teacher.to(device).eval().requires_grad_(False)``), and uses nowhere but to run
    it forward or as the receiver of ``_STILL_METHODS`` (no optimizer, call or loader handed
    it, no other value bound to it)? Nothing then changes its tensors, as ``frozen_module``
    says of ``self.teacher``."""
    fn = getattr(ctx.scope_node, "_a", None)
    if type(receiver) is not nodes.Name or "requires_grad_" not in ctx.source or \
            type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        return False
    name = receiver.value
    parents = {c: p for p in walk_nodes(fn) for c in ast.iter_child_nodes(p)}
    seen = set()  # the methods called on it (or on a chain of them), by name
    for n in walk_nodes(fn):
        if type(n) is not ast.Name or n.id != name:
            continue
        p = parents.get(n)
        if type(n.ctx) is ast.Store:
            if type(p) is not ast.Assign or p.targets != [n] or not _still_chain(p.value, name,
                                                                                  seen, True):
                return False  # bound to something else than itself (or a module made there:
            # ``teacher = nn.Sequential(...).eval().requires_grad_(False)``), moved or frozen
        elif not (type(p) is ast.Call and p.func is n):
            last = _outermost_call(p, parents)
            if not _still_chain(last, name, seen):
                return False  # handed to a call, kept, or an attribute of it read
            up = parents.get(last)
            if last.func.attr != "state_dict" and type(up) is not ast.Expr and not (
                    type(up) is ast.Assign and type(up.targets[0]) is ast.Name and
                    up.targets[0].id == name):
                return False  # the module itself handed on or bound to another name
    return "eval" in seen and "requires_grad_" in seen


def _outermost_call(node, parents):
    """The last call of a method chain that starts at ``node`` (``x.to(d).eval()`` from
    ``x.to``)."""
    while type(node) is ast.Attribute and type(parents.get(node)) is ast.Call and \
            parents[node].func is node:
        node = parents[node]
        if type(parents.get(node)) is not ast.Attribute:
            break
        node = parents[node]
    return node


def _still_chain(node, name: str, seen: set, made: bool = False) -> bool:
    """Is ``node`` ``name`` or a chain of ``_STILL_METHODS`` calls on it, each ``requires_grad_``
    with ``False`` (with ``made``, on a call too: a module made there)? The methods go to
    ``seen``."""
    while type(node) is ast.Call and type(node.func) is ast.Attribute and \
            node.func.attr in _STILL_METHODS:
        if node.func.attr == "requires_grad_" and not (
                len(node.args) == 1 and type(node.args[0]) is ast.Constant and
                node.args[0].value is False):
            return False
        seen.add(node.func.attr)
        node = node.func.value
    return (type(node) is ast.Name and node.id == name) or (made and type(node) is ast.Call)


def compared_with_live(ctx, name: str, owner: str, zipped: bool = False):
    """``self.anchor = [p.detach() for p in backbone.parameters()]`` (a list or dict of a
    module's parameters, kept on ``self``) where another method of the class (or of one related
    to it) reads ``self.anchor`` and the parameters of a module spelled ``owner`` as well
    (``zip(backbone.parameters(), self.anchor)``, ``for n, p in model.backbone
    .named_parameters(): ... self.anchor[n]``): it measures the parameters against the values
    kept, which are the same tensors, so the difference is zero however they were trained (an
    L2-SP anchor, a drift measure). ``owner`` may be spelled ``self.X`` there where the
    snapshot's method binds ``self.X = owner``, and ``X`` where it binds ``owner = X``.
    ``zipped``: only where one ``zip(...)`` pairs the two, or a loop (or a comprehension's) over
    ``named_parameters()`` reads the item kept for each (``self.w0[n]``): under a name that
    says nothing of a snapshot (``self.source_weights``). (The change, the read) or None."""
    scope = ctx.scope_node
    cls = owner_class(ctx.module, scope) if type(scope) is nodes.FunctionDef else None
    if cls is None or not owner:
        return None
    binds = [n for n in nodes.within(scope.body, DEFS) if type(n) is nodes.Assign]
    owners = {owner} | {dotted_name(t.target) for n in binds if dotted_name(n.value) == owner
                        for t in n.targets if type(t.target) is nodes.Attribute} | {
        dotted_name(n.value) for n in binds if type(n.value) is nodes.Name and
        any(dotted_name(t.target) == owner for t in n.targets)}  # ``self.model = model``
    lists = parameter_lists(binds, owners) - {name}  # ``self.params``: a handle on them
    for klass in related_classes(ctx.module, cls):
        for stmt in statement_list(klass.body):
            if type(stmt) is not nodes.FunctionDef or stmt is scope:
                continue
            hit = _read_of(stmt, name)
            spelled = next((f"{o}.parameters()" for o in sorted(owners) if hit is not None and
                            reads_parameters_of(stmt._a, o, name if zipped else None)), None)
            if spelled is None and hit is not None and lists:
                spelled = paired_list(stmt._a, lists, name)
            if spelled is None and hit is not None and not zipped:  # an EMA's shadow
                spelled = next((f"{o}.state_dict()" for o in sorted(owners)
                                if reads_state_items(stmt._a, o)), None)
            if spelled is not None:
                return (f"training (`{stmt.name.value}()` compares it with "
                        f"`{spelled}`, the same tensors)"), hit
    if not zipped:
        for o in sorted(owners):
            hit = mixed_on_later_calls(ctx, scope, name, o)
            if hit is not None:
                return (f"training (later calls of `{scope.name.value}()` mix it with "
                        f"`{o}.state_dict()`, the same tensors)"), hit
    return None


def handed_back(ctx, name: str, owner: str):
    """A keeper: ``self.heap`` gets the live state dict of ``owner``, a parameter of the method
    (``def consider(self, score, model)``) or the module the keeper holds (``self.model``), on
    every call, and another method of the class returns what it reads from ``self.heap``
    (``return max(self.heap)[2]``), or reads it and saves or loads (``torch.save(state, ...)``),
    in a file that calls the method (``keeper.consider(score, model)``) and trains
    (``backward``): each kept entry is the same live tensors, so the "best" one handed back is
    the weights of the last call. (The change, the read) or None."""
    scope = ctx.scope_node
    if type(scope) is not nodes.FunctionDef or not (
            owner in positional_param_names(scope)[1:] or (
                owner.startswith("self.") and owner.count(".") == 1)) or \
            f".{scope.name.value}(" not in ctx.source or "backward" not in ctx.source:
        return None  # (the module a call is given, or the one the keeper holds: ``self.model``)
    cls = owner_class(ctx.module, scope)
    if cls is None:
        return None
    for stmt in statement_list(cls.body):
        if type(stmt) is not nodes.FunctionDef or stmt is scope:
            continue
        a = stmt._a
        if not isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        reads = False
        local = bound_from(a, name)  # (``states = [s for _, _, s in self.heap]``)
        for n in ast.walk(a):
            if type(n) is ast.Return and n.value is not None and \
                    returns_items(n.value, name, local):
                return (f"later calls of `{scope.name.value}()` (each keeps the same live "
                        f"tensors of `{owner}`; `{stmt.name.value}()` hands one back)"), n
            reads = reads or (type(n) is ast.Attribute and dotted(n) == name and
                              type(n.ctx) is ast.Load)
        saved = next((n for n in ast.walk(a) if type(n) is ast.Call and (
            dotted(n.func) == "torch.save" or (type(n.func) is ast.Attribute and
                                               n.func.attr == "load_state_dict"))), None)
        if reads and saved is not None:
            # ``for score, step, state in sorted(self._heap): torch.save(state, ...)``
            return (f"later calls of `{scope.name.value}()` (each keeps the same live tensors "
                    f"of `{owner}`; `{stmt.name.value}()` saves or loads what it kept)"), saved
    return None


def pushed_into_self(scope, name: str) -> Optional[str]:
    """The ``self`` container a statement of ``scope`` puts ``name`` into, whole or as an item
    of a tuple display (``entry = (score, step, sd)`` ... ``heapq.heappush(self.heap, entry)``;
    ``item = (score, step, state)`` ... ``heapq.heappush(self._heap, item)``), else None."""
    held = {name}
    for n in nodes.within(scope.body, DEFS):
        if type(n) is nodes.Assign and len(n.targets) == 1 and \
                type(n.targets[0].target) is nodes.Name and type(n.value) is nodes.Tuple and \
                any(type(e.value) is nodes.Name and e.value.value in held
                    for e in n.value.elements if type(e) is nodes.Element):
            held.add(n.targets[0].target.value)
        elif type(n) is nodes.Call and type(n.func) is nodes.Attribute:
            if pushed(n):
                into, item = n.args[0].value, n.args[1].value
            elif n.func.attr.value == "append" and len(n.args) == 1:
                into, item = n.func.value, n.args[0].value
            else:
                continue
            d = dotted_name(into)
            if d is not None and d.startswith("self.") and type(item) is nodes.Name and \
                    item.value in held:
                return d
    return None
