"""TEN402: a snapshot kept in a container the module binds (``SNAPSHOTS = {}``) by one of its
top-level functions, of a module it is handed (``def register(tag, model): SNAPSHOTS[tag] =
model.state_dict()``), or on an instance by its class's ``__init__`` (``self.initial =
dict(model.named_parameters())``): the flow is read from each call of the function, or each
construction of the class, at the module's top level or in a top-level function, with the
module it hands over, to a read of the container (``keeper.initial``) after that module
changed. Split from ``rules/snapshot_methods.py``."""
from __future__ import annotations

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from ..syntax.snapshot_shapes import snapshot_name
from .context import positional_param_names, statement_list
from .snapshot_flow import read_after_change
from .snapshot_methods import InCaller, calls_of, owner_class, small_statements


def kept_in_module_store(ctx, name: str, receiver: str, keys=None):
    """(The change, the read) for ``name[...] = receiver.state_dict()`` in a top-level
    function of which ``receiver`` is a positional parameter and ``name`` a container the
    module binds at its top level (neither a parameter nor bound in the function), else
    None."""
    scope = ctx.scope_node
    module = ctx.module
    if type(scope) is not nodes.FunctionDef or "." in name or \
            not any(s is scope for s in module.body):
        return None
    positional = positional_param_names(scope)
    if receiver not in positional or name in positional or \
            not _module_binds(module, name) or _binds(scope, name):
        return None
    r = positional.index(receiver)
    fname = scope.name.value
    if ctx.source.count(fname + "(") < 2:
        return None  # (the text first: the function called somewhere)
    callers = [module] + [s for s in module.body if type(s) is nodes.FunctionDef and
                          s is not scope and f"{fname}(" in ctx.code(s)]
    for caller in callers:
        for line, small, call in calls_of(caller, fname):
            args = call.args
            if len(args) <= r or any(a.star or a.keyword is not None for a in args[:r + 1]):
                continue
            owner = dotted_name(args[r].value)
            if owner is None:
                continue
            found = read_after_change(InCaller(ctx, caller, line), small, name, owner, keys)
            if found is not None:
                return f"{found[0]} following a call of `{fname}()`", found[1]
    return None


def kept_on_new_instance(ctx, name: str, receiver: str, keys=None):
    """(The change, the read) for ``self.X = <live tensors of receiver>`` in ``__init__`` of a
    top-level class, ``receiver`` a positional parameter of it and ``self.X`` bound by no other
    method, where ``X`` or the class has a snapshot's name (``snapshot_name``): from each ``k =
    Cls(..., net, ...)`` at the module's top level or in a top-level function, the flow of
    ``k.X`` with ``net`` as the module, and from each ``snaps.append(Cls(..., net, ...))``
    there, the flow of ``snaps`` (a class named for snapshots: whatever reads its instances
    reads what they keep); else None."""
    scope = ctx.scope_node
    module = ctx.module
    if type(scope) is not nodes.FunctionDef or scope.name.value != "__init__" or \
            name.count(".") != 1 or not name.startswith("self."):
        return None
    cls = owner_class(module, scope)
    listed = cls is not None and snapshot_name(cls.name.value)  # (its instances, in a list)
    if cls is None or not (snapshot_name(name) or listed):
        return None
    positional = positional_param_names(scope)
    if not any(s is cls for s in module.body) or \
            receiver not in positional[1:] or f"{cls.name.value}(" not in ctx.source:
        return None
    if any(type(m) is nodes.FunctionDef and m is not scope and
           f"{name} =" in ctx.code(m) for m in statement_list(cls.body)):
        return None  # (another method binds it again: the flow of the instance says more)
    r = positional.index(receiver) - 1
    attr = name[5:]
    callers = [module] + [s for s in module.body if type(s) is nodes.FunctionDef and
                          f"{cls.name.value}(" in ctx.code(s)]
    for caller in callers:
        for line, small, call in calls_of(caller, cls.name.value, bound=True):
            args = call.args
            if len(args) <= r or any(a.star or a.keyword is not None for a in args[:r + 1]):
                continue
            owner = dotted_name(args[r].value)
            kept = f"{small.targets[0].target.value}.{attr}"
            if owner is not None:
                found = read_after_change(InCaller(ctx, caller, line), small, kept, owner, keys)
                if found is not None:
                    return f"{found[0]} (it is `{kept}`)", found[1]
        for line, small, call, held in _appended(caller, cls.name.value) if listed else ():
            args = call.args
            if len(args) <= r or any(a.star or a.keyword is not None for a in args[:r + 1]):
                continue
            owner = dotted_name(args[r].value)
            if owner is not None:
                found = read_after_change(InCaller(ctx, caller, line), small, held, owner)
                if found is not None:
                    return f"{found[0]} (it is `{held}[...].{attr}`)", found[1]
    return None


def _appended(fn, cls_name: str):
    """(statement line, small statement, call, list name) for each ``snaps.append(Cls(...))``
    statement of ``fn`` (a function or the module; not in a nested definition)."""
    for st, small in small_statements(fn):
        v = getattr(small, "value", None)
        if type(small) is nodes.Expr and type(v) is nodes.Call and \
                type(v.func) is nodes.Attribute and v.func.attr.value == "append" and \
                type(v.func.value) is nodes.Name and len(v.args) == 1 and \
                type(v.args[0].value) is nodes.Call and \
                type(v.args[0].value.func) is nodes.Name and v.args[0].value.func.value == cls_name:
            yield st, small, v.args[0].value, v.func.value.value


def _module_binds(module, name: str) -> bool:
    """Does a top-level statement bind ``name`` to a new container (``{}``, ``[]``,
    ``dict()``, ``OrderedDict()``, ``defaultdict(...)``)?"""
    for st in module.body:
        if type(st) is not nodes.SimpleStatementLine:
            continue
        for small in st.body:
            if type(small) in (nodes.Assign, nodes.AnnAssign) and small.value is not None and any(
                    type(t) is nodes.Name and t.value == name
                    for t in ([a.target for a in small.targets] if type(small) is nodes.Assign
                              else [small.target])) and _container(small.value):
                return True
    return False


def _container(value) -> bool:
    t = type(value)
    return t in (nodes.Dict, nodes.List) and not value.elements or t is nodes.Call and \
        dotted_name(value.func) in ("dict", "list", "OrderedDict", "collections.OrderedDict",
                                    "defaultdict", "collections.defaultdict")


def _binds(fn, name: str) -> bool:
    """Does ``fn`` bind the plain name ``name`` (an assignment to it, ``global name``)?"""
    for n in nodes.within(fn.body, (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)):
        t = type(n)
        if t is nodes.Assign and any(type(a.target) is nodes.Name and a.target.value == name
                                     for a in n.targets):
            return True
        if t is nodes.Global and any(g.name.value == name for g in n.names):
            return True
    return False
