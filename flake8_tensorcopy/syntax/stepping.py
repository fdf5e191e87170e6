"""What a loop of a file runs once per training step with grad on (TEN501's callers' proof of a
method: ``rules/accumulate_loops.stepped_by_caller``), found in one walk of the file's ``ast``:
a method whose value is differentiated, a class of the file whose instance's output is, and the
classes of the file such a class keeps as submodules and runs in its ``forward``. Split from
``accumulation_shapes``."""
from __future__ import annotations

import ast
from typing import Dict, Optional, Set

from .walk import dotted

_SAME_MODULE = frozenset({"to", "cuda", "cpu", "train", "float", "double", "half", "bfloat16"})


def stepping_calls(tree: Optional[ast.Module]) -> Dict[str, int]:
    """What a loop of ``tree`` runs once per training step with grad on, -> the first line of
    the ``backward()`` that says so, found in one walk of the file's ``ast`` (masked
    definitions included):

    - a method name: ``loss = module.training_step(batch, i)`` ... ``loss.backward()`` (the
      method called by its name on any receiver, the call and the ``backward()`` within one
      loop's lines, the value bound to a name between; ``/ accum`` scaling it, or a constant
      key of it differentiated: ``out["loss"].backward()``);
    - ``"<Class>()"``, a class of the file: what a call of an instance of it computed is
      differentiated within one loop's lines of the same scope (``out = model(x); loss =
      crit(out, y)`` ... ``loss.backward()``), so its ``forward`` runs once per step. The
      instance is a name every binding of which in that scope makes the class (``model =
      Net()``, also through ``.to(device)``; ``model = model.cuda()`` keeps it), or a loop's
      name over a display of instances (``for model in (Net(), Other())``: each of them): a
      parameter, another loop target or any other binding of the name there leaves it
      unknown."""
    out: Dict[str, int] = {}
    if tree is None:
        return out
    classes = {s.name for s in tree.body if type(s) is ast.ClassDef}
    handed = _handed_instances(tree, classes) if classes else {}
    fns: Dict[int, ast.AST] = {}
    loops, bound, backs = [], {}, []
    assigns: list = []  # (scope, line, target, value) of every ``name = value``
    made: Dict[tuple, Set[Optional[str]]] = {}  # (scope, name) -> the classes it is bound to
    targets = set()
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    todo = [(tree, 0)]
    while todo:
        n, sc = todo.pop()
        t = type(n)
        if t is ast.For or t is ast.While or t is ast.AsyncFor:
            loops.append((n.lineno, n.end_lineno))
            if classes and t is not ast.While and type(n.target) is ast.Name and \
                    type(n.iter) in (ast.Tuple, ast.List) and n.iter.elts and all(
                    type(e) is ast.Call and type(e.func) is ast.Name for e in n.iter.elts):
                # ``for model in (Net(), Other()):``: each turn runs one of them
                targets.add(id(n.target))
                made.setdefault((sc, n.target.id), set()).add(
                    (n.lineno, n.end_lineno) + tuple(e.func.id for e in n.iter.elts))
        elif t is ast.Assign and len(n.targets) == 1 and type(n.targets[0]) is ast.Name:
            name, v = n.targets[0].id, n.value
            if type(v) is ast.BinOp and type(v.op) in (ast.Div, ast.Mult):
                v = v.left  # ``loss = module.training_step(batch, i) / accum``: scaled
            if type(v) is ast.Call and type(v.func) is ast.Attribute:
                bound.setdefault(name, []).append((n.lineno, v.func.attr))
            if classes:
                targets.add(id(n.targets[0]))
                assigns.append((sc, n.lineno, name, n.value))
                v = n.value
                while type(v) is ast.Call and type(v.func) is ast.Attribute and \
                        v.func.attr in _SAME_MODULE:
                    v = v.func.value  # ``Net().to(device)``, ``model.cuda()``
                if type(v) is not ast.Name or v.id != name:  # (not ``model = model.to(d)``)
                    made.setdefault((sc, name), set()).add(
                        v.func.id if type(v) is ast.Call and type(v.func) is ast.Name else
                        _sequence_of(v, classes))
        elif classes and t is ast.Assign and len(n.targets) == 1 and \
                type(n.targets[0]) in (ast.Tuple, ast.List):
            # ``recon, mu, logvar = model(x)``: what each name was computed from (the names
            # stay unknown as instances: the generic branch below sees them as stores)
            assigns.extend((sc, n.lineno, e.id, n.value) for e in n.targets[0].elts
                           if type(e) is ast.Name)
            todo.extend((c, sc) for c in n.targets[0].elts)
            todo.append((n.value, sc))
            continue
        elif t is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "backward":
            backs.append((n, sc))
        elif classes and ((t is ast.Name and type(n.ctx) is ast.Store) or t is ast.arg):
            if id(n) not in targets:
                # (a parameter: the classes of the file whose instances its callers hand it)
                made.setdefault((sc, n.id if t is ast.Name else n.arg), set()).add(
                    handed.get((fns[sc].name, n.arg)) if t is ast.arg and sc in fns else None)
        if t in scopes and t is not ast.Lambda and n in tree.body:
            fns[id(n)] = n  # (a top-level function: ``_handed_instances`` reads calls of those)
        inner = id(n) if t in scopes else sc
        todo.extend((c, inner) for c in ast.iter_child_nodes(n))
    for b, sc in sorted(backs, key=lambda c: c[0].lineno):
        v = b.func.value
        if type(v) is ast.Subscript and type(v.slice) is ast.Constant:
            v = v.value  # ``out = module.training_step(batch, i)``; ``out["loss"].backward()``
        if type(v) is not ast.Name:
            continue
        for line, method in bound.get(v.id, ()):
            if method not in out and any(first <= line <= b.lineno <= last
                                         for first, last in loops):
                out[method] = b.lineno
        loop = next(((lo, hi) for lo, hi in loops if lo <= b.lineno <= hi), None) \
            if classes else None
        names, done = [v.id], set()
        while loop is not None and names:  # what it was computed from, in that loop
            name = names.pop()
            done.add(name)
            for at, line, target, value in assigns:
                if at != sc or target != name or not loop[0] <= line <= b.lineno:
                    continue
                for c in ast.walk(value):
                    if type(c) is ast.Name and type(c.ctx) is ast.Load and c.id not in done:
                        names.append(c.id)
                    elif type(c) is ast.Call and type(c.func) is ast.Name:
                        got = made.get((sc, c.func.id), {None})
                        if all(type(g) is tuple for g in got):  # loops over displays: the
                            # classes of those around this ``backward()``
                            found = {one for g in got if g[0] <= b.lineno <= g[1]
                                     for one in g[2:]}
                        else:
                            found = got if len(got) == 1 else ()
                        for one in found:
                            for each in (one if type(one) is frozenset else (one,)):
                                if each in classes:
                                    out.setdefault(each + "()", b.lineno)
    if classes and any(name.endswith("()") for name in out):
        _submodules_stepped(tree, classes, out)
    return out


def _handed_instances(tree: ast.Module, classes: Set[str]) -> Dict[tuple, frozenset]:
    """(function name, parameter name) -> the classes of the file whose new instances calls of
    a top-level function by its name hand it there (``run(CenteredHead(6))``): each such call
    runs the function with that instance."""
    params = {s.name: [a.arg for a in s.args.posonlyargs + s.args.args] for s in tree.body
              if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef)}
    out: Dict[tuple, set] = {}
    for c in ast.walk(tree):
        if type(c) is not ast.Call or type(c.func) is not ast.Name or c.func.id not in params:
            continue
        names = params[c.func.id]
        pairs = [(names[i], a) for i, a in enumerate(c.args[:len(names)])
                 if type(a) is not ast.Starred] + [(k.arg, k.value) for k in c.keywords
                                                   if k.arg in names]
        for name, a in pairs:
            if type(a) is ast.Call and type(a.func) is ast.Name and a.func.id in classes:
                out.setdefault((c.func.id, name), set()).add(a.func.id)
    return {k: frozenset(v) for k, v in out.items()}


def _sequence_of(v: ast.AST, classes: Set[str]):
    """The classes of the file ``nn.Sequential(Net(), nn.ReLU(), Head())`` is made of (each
    runs its ``forward`` on every call of the sequence), as a frozenset; None for any other
    value (unknown)."""
    if type(v) is not ast.Call or (dotted(v.func) or "").rpartition(".")[2] != "Sequential" or \
            v.keywords:
        return None
    made = frozenset(a.func.id for a in v.args if type(a) is ast.Call and type(a.func) is ast.Name
                     and a.func.id in classes)
    return made or None


def _submodules_stepped(tree: ast.Module, classes: Set[str], out: Dict[str, int]) -> None:
    """A class of the file that a stepped class (``"<Class>()"`` in ``out``) keeps on ``self``
    and runs in its ``forward`` runs its own ``forward`` on every step too (``self.block =
    SelfAttention(8)`` ... ``h = self.block(x)``; also inside the value bound, as a
    ``nn.Sequential(...)`` or ``nn.ModuleList([...])`` of it, run by a call of its item or a loop
    over it): added to ``out`` with the same ``backward()`` line, and so on down."""
    defs = {s.name: s for s in tree.body if type(s) is ast.ClassDef}
    todo = [name[:-2] for name in out if name.endswith("()") and name[:-2] in defs]
    while todo:
        cls = defs[todo.pop()]
        line = out[cls.name + "()"]
        forward = next((s for s in cls.body if type(s) is ast.FunctionDef and
                        s.name == "forward"), None)
        run = _run_attributes(forward) if forward is not None else set()
        if not run:
            continue
        for n in ast.walk(cls):
            if type(n) is not ast.Assign or len(n.targets) != 1 or \
                    _self_attribute(n.targets[0]) not in run:
                continue
            for c in ast.walk(n.value):
                if type(c) is ast.Call and type(c.func) is ast.Name and c.func.id in defs and \
                        c.func.id + "()" not in out:
                    out[c.func.id + "()"] = line
                    todo.append(c.func.id)


def _self_attribute(node: ast.AST) -> Optional[str]:
    """``A`` of ``self.A``, else None."""
    if type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == "self":
        return node.attr
    return None


def _run_attributes(fn: ast.AST) -> Set[str]:
    """The attributes of ``self`` that method ``fn`` calls (``self.block(x)``,
    ``self.layers[i](x)``) or loops over (``for layer in self.layers``)."""
    out = set()
    for n in ast.walk(fn):
        if type(n) is ast.Call:
            f = n.func.value if type(n.func) is ast.Subscript else n.func
            name = _self_attribute(f)
        elif type(n) in (ast.For, ast.AsyncFor):
            name = _self_attribute(n.iter)
        else:
            continue
        if name is not None:
            out.add(name)
    return out
