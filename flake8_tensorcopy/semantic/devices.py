"""Where a module or tensor lives, as the code shows it, at a point of a scope: on a GPU (or
another accelerator) on every run there (``on_accelerator``), from its binding
(``storage.placement``: ``X.cuda()``, ``X.to("cuda")``), a layer made with ``device=``, or a
statement moving it in place (``model.cuda()``). TEN402 asks it of ``{k: v.cpu()}``, which is a
copy from a GPU."""
from __future__ import annotations

import ast
from typing import Optional

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from .storage import device_literal, placement, target_device


def _qualname(inf, node) -> Optional[str]:
    try:
        return inf.qualname(node)
    except (RecursionError, AttributeError):
        return None


def on_accelerator(scope, name: str, before, inf, binding) -> bool:
    """Is the module or tensor named ``name`` on a GPU (any device but the CPU) wherever
    ``before`` runs, as the code shows it: bound to ``X.cuda()``, ``X.to("cuda")``, a layer made
    with ``device="cuda"``, or moved by ``name.cuda()`` / ``name.to("cuda")`` (a module moves in
    place), by the last statement of ``scope``'s own block that binds or moves it before the
    statement holding ``before``, with no other binding of it in a nested block? ``binding``:
    the one value a name is bound to before (None: not one). A move under a condition (``if
    torch.cuda.is_available():``) shows nothing: the code also runs on CPU."""
    bound = binding(name)
    if bound is not None and _accelerator(_device_made(bound, inf, binding)):
        return True
    block = getattr(scope, "body", None)
    state = False
    for stmt in getattr(block, "body", None) or ():
        if nodes.holds(stmt, before):
            return state
        if type(stmt) is not nodes.SimpleStatementLine:
            if _binds_inside(stmt, name):
                return False  # bound or moved on some path only
            continue
        for small in stmt.body:
            if type(small) is nodes.Assign and any(dotted_name(t.target) == name
                                                   for t in small.targets):
                state = len(small.targets) == 1 and _accelerator(
                    _device_made(small.value, inf, binding))
                continue
            call = small.value if type(small) is nodes.Expr else None
            func = call.func if type(call) is nodes.Call else None
            if type(func) is nodes.Attribute and dotted_name(func.value) == name and \
                    func.attr.value in ("cuda", "cpu", "to"):
                state = (func.attr.value == "cuda" and not call.args) or (
                    func.attr.value == "to" and _accelerator(target_device(call, inf)))
    return False


def global_on_accelerator(module, tree, name: str, inf) -> bool:
    """Is the module-level ``name`` on a GPU wherever a function reads it: exactly one statement
    of the file (``tree``, its whole ``ast``: bodies the walk left unbuilt included) binds or
    moves it, with no ``global`` of it anywhere, a statement of the module's own body (in
    ``module``, the walk's tree) that puts it there (``model = Net().cuda()``)? A function that
    reads it runs after that statement or finds no such name."""
    if tree is None:
        return False
    found = []
    for n in ast.walk(tree):
        t = type(n)
        if t is ast.Global and name in n.names:
            return False
        if (t is ast.Name and n.id == name and type(n.ctx) is ast.Store) or (
                t is ast.Call and type(n.func) is ast.Attribute and
                n.func.attr in ("cuda", "cpu", "to") and type(n.func.value) is ast.Name and
                n.func.value.id == name) or (t is ast.alias and (n.asname or n.name) == name):
            found.append(n)
    if len(found) != 1 or type(found[0]) is not ast.Name:
        return False
    line = found[0].lineno
    for stmt in module.body:
        if type(stmt) is nodes.SimpleStatementLine and len(stmt.body) == 1 and \
                type(stmt.body[0]) is nodes.Assign and len(stmt.body[0].targets) == 1 and \
                dotted_name(stmt.body[0].targets[0].target) == name:
            a = getattr(stmt.body[0], "_a", None)
            if a is not None and getattr(a, "lineno", None) == line:
                return _accelerator(_device_made(stmt.body[0].value, inf, lambda _name: None))
    return False


def _device_made(value, inf, binding) -> Optional[str]:
    """The device ``value`` shows (``X.cuda()``, ``X.to("cuda")``, ``nn.Linear(3, 1,
    device="cuda")``)."""
    if type(value) is nodes.Call and type(value.func) is nodes.Attribute and \
            value.func.attr.value == "to" and len(value.args) == 1 and \
            type(value.args[0].value) is nodes.Name:
        bound = binding(value.args[0].value.value)  # ``device = torch.device("cuda")``
        found = device_literal(bound, inf) if bound is not None else None
        if found is not None:
            return found
    return placement(value, inf, binding).device or _layer_device(value, inf)


def _binds_inside(stmt, name: str) -> bool:
    """Does the compound statement bind ``name`` (a plain target) or move it (``name.to(...)``,
    ``.cuda()``, ``.cpu()``) anywhere inside, nested definitions aside?"""
    todo = [stmt]
    while todo:
        n = todo.pop()
        t = type(n)
        if t in (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda):
            continue
        if t in (nodes.Assign, nodes.AugAssign, nodes.For, nodes.AsName) and name in _targets(n):
            return True
        if t is nodes.Call and type(n.func) is nodes.Attribute and \
                dotted_name(n.func.value) == name and n.func.attr.value in ("cuda", "cpu", "to"):
            return True
        todo.extend(c for c in n.children if c is not None)
    return False


def _targets(node) -> set:
    t = type(node)
    if t is nodes.Assign:
        return {dotted_name(a.target) for a in node.targets}
    todo = [node.target if t in (nodes.For, nodes.AugAssign) else node.name]
    out = set()
    while todo:  # every name in the target (a loop's may be a tuple)
        n = todo.pop()
        out.add(dotted_name(n))
        todo.extend(c for c in n.children if c is not None)
    return out


def _accelerator(device: Optional[str]) -> bool:
    return device is not None and device not in ("cpu", "meta")


def _layer_device(call, inf) -> Optional[str]:
    """The device a ``torch.nn`` layer is made on (``nn.Linear(3, 1, device="cuda")``)."""
    if type(call) is not nodes.Call or not (_qualname(inf, call.func) or "").startswith("torch.nn."):
        return None
    dev = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "device"),
               None)
    return device_literal(dev, inf) if dev is not None else None

