"""TEN402's store-and-restore of the parameters a method is given (an EMA helper's ``store``,
``copy_to`` and ``restore``): ``self.collected = [p.data for p in parameters]`` keeps the
parameters' own tensors, so after another method of the class writes the parameters in place
(``param.data.copy_(shadow)``), the method that copies ``self.collected`` back into them
(``for c, p in zip(self.collected, parameters): p.data.copy_(c)``) copies them onto
themselves: the values stored are gone. Read from the ``ast`` of the linted file's class."""
from __future__ import annotations

import ast
from typing import Optional, Tuple

from ..syntax.walk import dotted
from .snapshot_methods import owner_class

def _item_of(elt, var: str) -> bool:
    """Is ``elt`` the tensor ``var`` itself, its ``.data`` or its ``.detach()`` (the same
    storage)?"""
    if type(elt) is ast.Name:
        return elt.id == var
    if type(elt) is ast.Attribute:
        return elt.attr == "data" and type(elt.value) is ast.Name and elt.value.id == var
    return type(elt) is ast.Call and not elt.args and not elt.keywords and \
        type(elt.func) is ast.Attribute and elt.func.attr == "detach" and \
        type(elt.func.value) is ast.Name and elt.func.value.id == var


def stored_argument(fn: ast.FunctionDef, value) -> Optional[str]:
    """The parameter of method ``fn`` whose items ``value`` keeps as they are
    (``[p.data for p in parameters]``, ``[p.detach() for p in params if p.requires_grad]``,
    ``list(parameters)``), or None."""
    names = [a.arg for a in fn.args.args[1:]] + [a.arg for a in fn.args.kwonlyargs]
    if type(value) is ast.ListComp and len(value.generators) == 1:
        gen = value.generators[0]
        if type(gen.target) is ast.Name and type(gen.iter) is ast.Name and \
                gen.iter.id in names and _item_of(value.elt, gen.target.id):
            return gen.iter.id
    if type(value) is ast.Call and type(value.func) is ast.Name and value.func.id == "list" and \
            len(value.args) == 1 and type(value.args[0]) is ast.Name and \
            value.args[0].id in names and not value.keywords:
        return value.args[0].id
    return None


def _pairs(fn: ast.FunctionDef, name: Optional[str]):
    """(the loop, the name bound to an item of ``name``'s list, the name bound to the other
    item) of each ``for a, b in zip(x, y)`` of ``fn`` that pairs ``name`` (a dotted ``self.X``;
    None: a parameter of ``fn`` or a list made from one) with a parameter of ``fn`` or a list
    made from one (when ``name`` is given) or with anything (when it is not)."""
    params = {a.arg for a in fn.args.args[1:]}
    made = {t.id for n in ast.walk(fn) if type(n) is ast.Assign and len(n.targets) == 1
            for t in n.targets if type(t) is ast.Name and type(n.value) is ast.ListComp and
            len(n.value.generators) == 1 and type(n.value.generators[0].iter) is ast.Name and
            n.value.generators[0].iter.id in params}
    given = params | made
    for loop in ast.walk(fn):
        if type(loop) is not ast.For or type(loop.iter) is not ast.Call or \
                dotted(loop.iter.func) != "zip" or len(loop.iter.args) != 2 or \
                type(loop.target) is not ast.Tuple or len(loop.target.elts) != 2 or \
                not all(type(e) is ast.Name for e in loop.target.elts):
            continue
        spelled = [dotted(a) for a in loop.iter.args]
        for i in (0, 1):
            if (spelled[i] == name and spelled[1 - i] in given) if name is not None else \
                    spelled[i] in given:
                yield loop, loop.target.elts[i].id, loop.target.elts[1 - i].id


def _copies_into(loop: ast.For, dest: str, src: Optional[str]) -> Optional[ast.AST]:
    """The statement of ``loop``'s body that writes ``dest`` in place (``dest.data.copy_(x)``,
    ``dest.copy_(x)``), from ``src`` when given, where it may also hand ``dest`` the stored
    tensor (``dest.data = x``: the storage it had when stored, which the in-place write
    overwrote); None: none. (Rebinding ``.data`` to another tensor writes nothing into the
    parameter's storage: no in-place write.)"""
    for stmt in ast.walk(loop):
        if type(stmt) is ast.Expr and type(stmt.value) is ast.Call:
            call = stmt.value
            f = call.func
            if type(f) is ast.Attribute and f.attr == "copy_" and len(call.args) == 1:
                recv = f.value
                if type(recv) is ast.Attribute and recv.attr == "data":
                    recv = recv.value
                if type(recv) is ast.Name and recv.id == dest and (
                        src is None or _item_of(call.args[0], src)):
                    return stmt
        elif src is not None and type(stmt) is ast.Assign and len(stmt.targets) == 1:
            t = stmt.targets[0]
            if type(t) is ast.Attribute and t.attr == "data" and type(t.value) is ast.Name and \
                    t.value.id == dest and _item_of(stmt.value, src):
                return stmt
    return None


def _given(tree, cls: str, methods) -> bool:
    """Does a function of ``tree`` that binds a name (or attribute) to ``cls(...)`` give that
    receiver's ``methods`` different first arguments (``m.store(a.parameters())``,
    ``m.restore(b.parameters())``)?"""
    for fn in ast.walk(tree):
        if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module):
            continue
        made = {dotted(t) for n in ast.walk(fn) if type(n) is ast.Assign and
                type(n.value) is ast.Call and dotted(n.value.func) == cls for t in n.targets}
        if not made:
            continue
        given: dict = {}
        for n in ast.walk(fn):
            if type(n) is ast.Call and type(n.func) is ast.Attribute and \
                    n.func.attr in methods and n.args and dotted(n.func.value) in made:
                given.setdefault(dotted(n.func.value), set()).add(ast.unparse(n.args[0]))
        if any(len(texts) > 1 for texts in given.values()):
            return True
    return False


def restored_onto_itself(ctx, node, tracked: str, value) -> Optional[Tuple[str, object]]:
    """``self.collected = [p.data for p in parameters]`` (``node``, in method S) where another
    method R of the class copies ``self.collected``'s items back into the items of what it is
    given, and a third method W writes the items of what it is given in place (the EMA's
    ``copy_to``): (the change, R's copy) or None. Not where the file passes S and R different
    arguments (``ema.store(a.parameters())``, ``ema.restore(b.parameters())``)."""
    scope = ctx.scope_node
    fn = getattr(scope, "_a", None)
    if type(fn) is not ast.FunctionDef or not tracked.startswith("self."):
        return None
    if stored_argument(fn, value._a) is None:
        return None
    cls = owner_class(ctx.module, scope)
    if cls is None:
        return None
    methods = [s._a for s in cls.body.body if type(getattr(s, "_a", None)) is ast.FunctionDef]
    restore = writer = None
    for m in methods:
        if m is fn or not m.args.args:
            continue
        if restore is None:
            for loop, mine, other in _pairs(m, tracked):
                hit = _copies_into(loop, other, mine)
                if hit is not None:
                    restore = (m, hit)
                    break
            if restore is not None and restore[0] is m:
                continue
        if writer is None and any(_copies_into(loop, mine, None) is not None
                                  for loop, mine, _ in _pairs(m, None)):
            writer = m
    if restore is None or writer is None or writer is restore[0]:
        return None
    tree = getattr(ctx.module, "_a", None)
    if tree is not None and _given(tree, cls.name.value, (fn.name, restore[0].name)):
        return None  # the two are given different parameters
    return (f"`{writer.name}()` writes the parameters in place (`{restore[0].name}()` copies "
            f"`{tracked}` back into them, the same tensors)"), restore[1]
