"""The pre-filter's shapes of TEN501 (``prefilter``): a loop whose body accumulates what may be a
tensor, a value a ``backward`` call in the loop differentiates or a call computed, on the ``ast``
tree. A superset of what ``rules/accumulate.py`` reports: the engine's walk decides."""
from __future__ import annotations

import ast
import builtins
import re
from typing import Callable, FrozenSet, Optional, Set, Tuple

from .source import LazyPattern, holds_words
from .grad_callers import grad_effect
from .walk import assigned_pairs, dotted, statements, walk_nodes

_nodes = walk_nodes

#: the first part of modules that are not the project's own (a name imported from elsewhere may
#: be a project function whose summary says it returns the loss it differentiated)
LIBRARY_WORDS = frozenset("""torch numpy np os sys typing collections math random time json re
    itertools functools pathlib dataclasses tqdm transformers sklearn scipy pandas matplotlib PIL
    cv2 logging argparse copy abc einops timm torchvision torchaudio lightning pytorch_lightning
    datasets wandb tensorboard tensorboardX accelerate omegaconf hydra yaml pickle glob shutil
    warnings contextlib enum inspect io string subprocess threading multiprocessing queue
    statistics operator types traceback csv gc __future__""".split())



#: what the text of code must hold where TEN501 may learn, without a grad mode proven by the
#: callers, that a value holds a graph: a differentiating call (``x.backward(``,
#: ``manual_backward(``, ``torch.autograd.grad(``: ``semantic/graph_terms.DIFFERENTIATING``) or
#: a block that turns grad on (``enable_grad``, called or not, ``set_grad_enabled(True)``,
#: ``inference_mode(False)``: ``grad_callers.grad_effect``). A function's summary says it
#: returns or differentiates a graph only when its own text, or that of a function it calls,
#: holds one. Each word, then its pattern (``tests/test_prefilter.py`` holds the two lists
#: together).
PROOF_WORDS = (("backward", LazyPattern(r"backward\s*\(")),
               ("autograd", LazyPattern(r"autograd\s*\.\s*grad\s*\(")),
               ("enable_grad", LazyPattern(r"enable_grad\b")),
               ("set_grad_enabled", LazyPattern(r"set_grad_enabled\s*\(")),
               ("inference_mode", LazyPattern(r"inference_mode\s*\(")))


def mentions_proof(text: str) -> bool:
    """Does ``text`` hold one of ``PROOF_WORDS``?"""
    return holds_words(text, PROOF_WORDS)


_NUMBERS = frozenset({"item", "detach", "float", "int", "len", "tolist", "numpy", "str"})
LOOPS = (ast.For, ast.AsyncFor, ast.While)


def _mean_of(expr):
    """The sum of ``(acc * i + v) / (i + 1)`` (a running mean), else ``expr`` itself."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
        return expr.left
    return expr


def _concatenated(expr, name: Optional[str]) -> Optional[ast.expr]:
    """The ``v`` of ``torch.cat([name, v])`` (any of ``_CONCAT``; ``name`` one of its two
    items, either first), else None."""
    if name is None or not isinstance(expr, ast.Call) or \
            not isinstance(expr.func, ast.Attribute) or expr.func.attr not in _CONCAT or \
            not expr.args or not isinstance(expr.args[0], (ast.Tuple, ast.List)) or \
            len(expr.args[0].elts) != 2:
        return None
    items = expr.args[0].elts
    names = [dotted(e) for e in items]
    return items[1 - names.index(name)] if names.count(name) == 1 else None


#: what a method call statement's argument may be for the method to keep a graph with it: a
#: name or an item or attribute of one, or a display holding one (``tracker.log_dict({"reg":
#: reg})``; one of constants only is dropped after)
_HELD = (ast.Name, ast.Subscript, ast.Attribute, ast.Dict, ast.List, ast.Tuple)


def _accumulated(node: ast.AST, methods: bool = False,
                 keepers: FrozenSet[str] = frozenset()) -> Optional[ast.expr]:
    """The value of ``acc += v``, ``acc = acc + v`` (in one branch of ``... if ... else ...``
    too), ``acc.append(v)``, ``acc.extend([v])``,
    ``acc = torch.cat((acc, v))`` when ``v`` may be a tensor or hold one (TEN501): not a
    literal, not ``v.item()``/``v.detach()``/``float(v)``; with ``methods``, also ``acc[i] = v``
    (TEN501 asks it only in a loop with a ``backward`` call), the first
    argument of a method call statement (``meter.update(v)``: a tracker that may keep it), and
    the arguments of a function call statement (``record(hist, v)``: it may append one to
    another)."""
    t = type(node)
    if t is ast.AugAssign and isinstance(node.op, ast.Add):
        value = node.value
    elif t is ast.Assign and isinstance(_mean_of(node.value), ast.BinOp) and \
            isinstance(_mean_of(node.value).op, ast.Add) and len(node.targets) == 1 and \
            dotted(node.targets[0]) is not None and \
            dotted(node.targets[0]) in (_scaled(_mean_of(node.value).left) |
                                        _scaled(_mean_of(node.value).right)):
        # ``acc = acc + v``, ``acc = 0.9 * acc + 0.1 * v``, ``acc = (acc * i + v) / (i + 1)``
        value = node.value
    elif t is ast.Assign and len(node.targets) == 1 and \
            isinstance(node.targets[0], ast.Subscript) and isinstance(node.value, ast.BinOp) and \
            isinstance(node.value.op, ast.Add) and \
            dotted(node.targets[0].value) is not None and any(
                dotted(side.func.value if isinstance(side, ast.Call) and
                       isinstance(side.func, ast.Attribute) and side.func.attr == "get"
                       else side.value if isinstance(side, ast.Subscript) else side) ==
                dotted(node.targets[0].value) for side in (node.value.left, node.value.right)):
        value = node.value  # ``stats[k] = stats.get(k, 0.0) + v``, ``stats[k] = stats[k] + v``
    elif methods and t is ast.Assign and len(node.targets) == 1 and \
            isinstance(node.targets[0], ast.Subscript) and (
                isinstance(node.targets[0].value, ast.Name) or
                isinstance(node.targets[0].value, ast.Attribute) and
                isinstance(node.targets[0].value.value, ast.Name)) and any(
                isinstance(n, (ast.Name, ast.Attribute, ast.Call))
                for n in ast.walk(node.targets[0].slice)):
        value = node.value  # ``preds[i] = out``, ``miner.cache[i] = out``: an item per index
    elif t is ast.Assign and len(node.targets) == 1 and isinstance(node.value, ast.IfExp) and \
            dotted(node.targets[0]) is not None and any(
                isinstance(b, ast.BinOp) and isinstance(b.op, ast.Add) and
                dotted(node.targets[0]) in (_scaled(b.left) | _scaled(b.right))
                for b in (node.value.body, node.value.orelse)):
        value = node.value  # ``acc = v if acc is None else 0.9 * acc + 0.1 * v``
    elif t is ast.Assign and len(node.targets) == 1 and isinstance(node.value, ast.IfExp) and \
            any(_concatenated(b, dotted(node.targets[0])) is not None
                for b in (node.value.body, node.value.orelse)):
        value = node.value  # ``acc = v if acc is None else torch.cat([acc, v])``
    elif t is ast.Assign and len(node.targets) == 1 and isinstance(node.value, ast.Call) and \
            isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "add" and \
            len(node.value.args) == 2 and dotted(node.targets[0]) is not None and \
            dotted(node.targets[0]) in map(dotted, node.value.args):
        value = node.value  # ``acc = torch.add(acc, v)``
    elif t is ast.Assign and len(node.targets) == 1 and \
            _concatenated(_catted(node.value), dotted(node.targets[0])) is not None:
        value = _concatenated(_catted(node.value), dotted(node.targets[0]))
    elif methods and t is ast.Expr and type(node.value) is ast.Call and \
            type(node.value.func) is ast.Name and (len(node.value.args) > 1 or (
                node.value.args and node.value.func.id in keepers)):
        # ``record(hist, loss)``: a function that may append one argument to another (one,
        # ``log_loss(loss)``, where ``keepers`` binds the name: ``functools.partial``...)
        value = ast.Tuple(elts=[a for a in node.value.args if not isinstance(a, ast.Starred)],
                          ctx=ast.Load())
    elif methods and t is ast.Expr and type(node.value) is ast.Call and \
            type(node.value.func) is ast.Attribute and not node.value.args and \
            node.value.keywords:
        # ``logger.update(loss=loss)``, ``logger.update(**loss_dict)``: a method may keep what
        # each keyword hands it
        value = ast.Tuple(elts=[k.value for k in node.value.keywords
                                if isinstance(k.value, _HELD)], ctx=ast.Load())
        if not value.elts:
            return None
    elif t is ast.Expr and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
            and (node.value.func.attr in ("append", "appendleft", "extend") or methods) and \
            node.value.args:
        first = node.value.args[0]
        attr = node.value.func.attr
        if attr not in ("append", "appendleft", "extend") and len(node.value.args) > 1:
            # ``tracker.log(step, loss)``: a method may keep any argument it is given
            value = ast.Tuple(elts=[a for a in node.value.args if isinstance(a, _HELD)],
                              ctx=ast.Load())
            if not value.elts:
                return None
        elif attr not in ("append", "appendleft") and not isinstance(first, _HELD) and not (
                attr == "extend" and isinstance(first, (ast.List, ast.Tuple, ast.Call))):
            return None
        else:
            value = node.value.args[0]
    else:
        return None
    if isinstance(value, (ast.List, ast.Tuple, ast.Dict)):
        return value if any(not isinstance(e, ast.Constant) for e in (
            value.values if isinstance(value, ast.Dict) else value.elts)) else None
    if isinstance(value, (ast.Constant, ast.JoinedStr)):
        return None
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return None if name in _NUMBERS else value
    return value


def global_totals(fn: ast.AST) -> FrozenSet[str]:
    """The names function ``fn`` declares ``global`` and binds only by adding to them
    (``TOTAL += loss``, ``EMA = 0.9 * EMA + 0.1 * loss``): totals kept across its calls, not
    made afresh in each (``TOTAL = 0.0`` in the function, a loop over it: none)."""
    declared: Set[str] = set()
    rebound: Set[str] = set()
    for n in ast.walk(fn):
        t = type(n)
        if t is ast.Global:
            declared.update(n.names)
        elif t is ast.Assign:
            mentioned = {x.id for x in ast.walk(n.value) if type(x) is ast.Name}
            rebound.update(x.id for target in n.targets for x in ast.walk(target)
                           if type(x) is ast.Name and x.id not in mentioned)
        elif t in (ast.For, ast.AsyncFor, ast.AnnAssign, ast.NamedExpr, ast.comprehension):
            rebound.update(x.id for x in ast.walk(n.target) if type(x) is ast.Name)
        elif t is ast.withitem and n.optional_vars is not None:
            rebound.update(x.id for x in ast.walk(n.optional_vars) if type(x) is ast.Name)
        elif t is ast.Delete:
            rebound.update(x.id for target in n.targets for x in ast.walk(target)
                           if type(x) is ast.Name)
    return frozenset(declared - rebound)


#: the calls a module-level log is made by (``LOG = deque()``), beside a display (``LOG = []``)
CONTAINER_CALLS = frozenset({"list", "dict", "deque", "defaultdict", "OrderedDict"})


_CONCAT = frozenset({"cat", "concat", "concatenate", "vstack", "hstack"})


def _catted(value: ast.expr) -> ast.expr:
    """The call of ``torch.cat((q, v))[-k:]`` (a bounded queue), or ``value`` itself."""
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Call) and \
            isinstance(value.slice, ast.Slice):
        return value.value
    return value


def concatenated_into(node: ast.Assign) -> bool:
    """``x = torch.cat([x, v])``, ``self.bank = torch.cat([self.bank, z])[-k:]`` (a bounded
    queue): the target is one of the two items concatenated (TEN501's ``cat`` form)."""
    return len(node.targets) == 1 and \
        _concatenated(_catted(node.value), dotted(node.targets[0])) is not None


#: builtins that run a generator to its end and keep (or add up) every value it yields
MATERIALIZERS = frozenset({"list", "tuple", "sum", "sorted"})


def materialized(value: ast.AST) -> Optional[ast.Call]:
    """The generator call ``value`` runs to its end, keeping each value (``list(train_steps(model,
    loader))``, ``sum(train_iter(...))``, ``torch.stack(list(steps(...)))``): a call of a plain
    name handed alone to one of ``MATERIALIZERS``, itself ``value`` or its first argument."""
    for v in (value, value.args[0] if type(value) is ast.Call and value.args else None):
        if type(v) is ast.Call and (type(v.func) is ast.Name and v.func.id in MATERIALIZERS or
                                    v is value and type(v.func) is ast.Attribute and
                                    v.func.attr == "extend") and \
                len(v.args) == 1 and not v.keywords and type(v.args[0]) is ast.Call and \
                type(v.args[0].func) is ast.Name:
            return v.args[0]  # (``all_losses.extend(train_iter(...))`` too)
    return None


def _scaled(node: ast.AST) -> Set[str]:
    """``acc`` of ``acc``, ``0.9 * acc``, ``acc * beta``, ``self.m * acc``, ``beta * acc`` (a
    running average's term): the dotted names a product by a number or a setting may scale
    (both of ``beta * acc``)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return {dotted(side) for side, other in ((node.left, node.right), (node.right, node.left))
                if isinstance(other, (ast.Constant, ast.Name, ast.Attribute)) and
                dotted(side) is not None}
    d = dotted(node)
    return {d} if d is not None else set()


def _names(node: ast.AST) -> Set[str]:
    return {d for n in _nodes(node) if isinstance(n, (ast.Name, ast.Attribute))
            for d in (dotted(n),) if d is not None}


def _backward_names(loop: ast.AST) -> Set[str]:
    """The names a ``backward`` call in ``loop`` differentiates (its receiver's, its first
    argument's: ``loss.backward()``, ``scaler.scale(loss).backward()``, ``acc.backward(loss)``),
    the names the loop computes those from (``loss = rec + kl``: the loss's terms), and the
    names a loop over one of those binds (``for k, v in loss_dict.items()``)."""
    out: Set[str] = set()
    for n in _nodes(loop):  # every call ``ast.walk`` meets; the answer is a set
        if isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(
                n.func, "id", None)) in ("backward", "manual_backward"):
            if isinstance(n.func, ast.Attribute):
                out |= _names(n.func.value)
            if n.args:
                out |= _names(n.args[0])
    if out:
        for s in statements(loop):
            if isinstance(s, ast.Assign) and any(_names(t) & out for t in s.targets):
                out |= _names(s.value)
        for s in statements(loop):  # ``for k, v in loss_dict.items()`` of a summed dict
            if isinstance(s, (ast.For, ast.AsyncFor)) and _names(s.iter) & out:
                out |= _names(s.target)
    return out


def accumulates(root: ast.AST, backward: bool, called: bool, calls: FrozenSet[str],
                mentions: Optional[Callable[[ast.AST, str], bool]] = None,
                stores: bool = False, keepers: FrozenSet[str] = frozenset()) -> bool:
    """A loop under ``root`` whose body accumulates what may be a tensor (TEN501's candidates),
    asked three ways at once, each loop read once:

    - with ``backward``: a value whose name a ``backward`` call in the loop differentiates (or a
      term of it; also given to a method: a tracker's ``update``);
    - with ``called``: that, or a value a call computed (``model(x)``, ``train_step(batch)``);
    - with ``calls``: that, or a value a call of one of those names computed (given to a
      method too: ``meter.update(v)``).

    (The first question is asked only where neither other one is.) With ``stores`` (a script's
    loops), ``called`` counts an item stored per index too (``scores[i] = out``).
    ``mentions(node, word)``:
    may ``word`` occur within ``node``'s lines (the text's answer, a superset); a loop whose
    lines do not mention ``backward`` holds no ``backward`` call to read names from."""
    if not (backward or called or calls):
        return False
    closures = _closures_stepped(root)
    for loop in list(statements(root)) + closures if closures else statements(root):
        if not isinstance(loop, LOOPS) and loop not in closures:
            continue
        values = [v for s in statements(loop) for v in (_accumulated(s, True, keepers),)
                  if v is not None]
        if not values:
            continue
        names = _backward_names(loop) if mentions is None or mentions(loop, "backward") \
            else ()
        if names and any(_names(v) & names for v in values):
            return True
        if calls:
            # a value a call of one of ``calls`` computed (``loss = train_step(batch)``)
            by_calls = _through_names(loop, {d for s in statements(loop) if isinstance(
                s, ast.Assign) and isinstance(s.value, ast.Call) and _callee_name(s.value) in
                calls for t in s.targets for d in _names(t)})
            if by_calls and any(_names(v) & by_calls for v in values):
                return True
        if called:
            # a value computed by a call (``model(x)``, ``train_step(batch)``) in the loop
            values = [v for s in statements(loop) for v in (_accumulated(s),) if v is not None]
            if stores:
                values += [v for s in statements(loop) if type(s) is ast.Assign and
                           isinstance(s.targets[0], ast.Subscript)
                           for v in (_accumulated(s, True),) if v is not None]
            by_any = _through_names(loop, {d for s in statements(loop) if isinstance(
                s, ast.Assign) and (isinstance(s.value, (ast.Call, ast.BinOp)) or (
                    # ``out = model(x)[:n]``, ``ent = -(p * p.log()).sum(1)``: of a call
                    isinstance(s.value, (ast.Subscript, ast.UnaryOp)) and
                    any(isinstance(n, ast.Call) for n in ast.walk(s.value))))
                for t in s.targets for d in _names(t)})
            if isinstance(loop, (ast.For, ast.AsyncFor)) and _generated(loop.iter):
                by_any = by_any | _names(loop.target)  # ``for loss in train_gen(...)``
            if any(isinstance(v, ast.Call) or _names(v) & by_any for v in values):
                return True
            # ``acc.extend(values)`` of a list the loop appends such a value to
            if not any(type(v) is ast.Name for v in values):
                continue
            filled = {s.value.func.value.id for s in statements(loop)
                      if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and
                      isinstance(s.value.func, ast.Attribute) and s.value.func.attr == "append"
                      and isinstance(s.value.func.value, ast.Name) and s.value.args and
                      (isinstance(s.value.args[0], ast.Call) or
                       _names(s.value.args[0]) & by_any)}
            if filled and any(_names(v) & filled for v in values):
                return True
    return False


def _closures_stepped(root: ast.AST) -> list:
    """The functions ``root``'s body defines that a loop of ``root`` calls or
    hands to a ``step`` (``def closure(): ...`` then ``for _ in range(n): opt.step(closure)``):
    what one accumulates outlives the loop's turns, as a loop body's would."""
    defs = {s.name: s for s in getattr(root, "body", ()) if s is not root and
            isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}  # (its own statements)
    if not defs:
        return []
    names: Set[str] = set()
    for loop in statements(root):
        if isinstance(loop, LOOPS):
            for n in _nodes(loop):
                if isinstance(n, ast.Call):
                    f = n.func
                    if isinstance(f, ast.Name):
                        names.add(f.id)
                    elif isinstance(f, ast.Attribute) and f.attr == "step" and n.args and \
                            isinstance(n.args[0], ast.Name):
                        names.add(n.args[0].id)
    return [d for name, d in defs.items() if name in names]


#: builtins a loop iterates a call of: no generator of the project
_BUILTIN_ITERS = frozenset(dir(builtins))


def _generated(it: ast.expr) -> bool:
    """May ``it``, a loop's iterable, be a call of a generator of the project (a call of a
    name that is not a builtin: ``train_gen(model, opt)``, not ``enumerate(loader)``)?"""
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and \
        it.func.id not in _BUILTIN_ITERS


def _through_names(loop: ast.AST, called: Set[str]) -> Set[str]:
    """``called`` and the names unpacked from one of them (``out = step(x)``; ``a, b = out``:
    the items of a call's value; ``for k, v in out.items()``: its values)."""
    if called:
        for s in statements(loop):
            if isinstance(s, ast.Assign) and isinstance(s.value, ast.Name) and \
                    s.value.id in called and isinstance(s.targets[0], (ast.Tuple, ast.List)):
                called = called | {d for t in s.targets for d in _names(t)}
            elif isinstance(s, ast.Assign) and isinstance(s.value, (ast.ListComp, ast.DictComp)):
                copied = copied_from(s.value)  # ``logged = {k: v for k, v in out.items()}``
                if copied is not None and copied.id in called:
                    called = called | {d for t in s.targets for d in _names(t)}
            elif isinstance(s, (ast.For, ast.AsyncFor)) and isinstance(s.iter, ast.Call) and \
                    isinstance(s.iter.func, ast.Attribute) and \
                    s.iter.func.attr in ("items", "values") and \
                    isinstance(s.iter.func.value, ast.Name) and s.iter.func.value.id in called:
                called = called | _names(s.target)  # ``for k, v in logs.items()``
    return called


def copied_from(comp) -> Optional[ast.Name]:
    """The name whose values a comprehension copies as they are, unfiltered: ``{k: v for k, v
    in d.items()}``, ``[v for v in d.values()]`` (``d``), or None (``[k for k in d]`` gives
    a dict's keys)."""
    if len(comp.generators) != 1 or comp.generators[0].ifs or comp.generators[0].is_async:
        return None
    gen = comp.generators[0]
    item = comp.value if type(comp) is ast.DictComp else comp.elt
    it, target = gen.iter, gen.target
    if not (type(it) is ast.Call and type(it.func) is ast.Attribute and not it.args and
            not it.keywords and it.func.attr in ("items", "values")):
        return None
    if it.func.attr == "items":
        if type(target) is not ast.Tuple or len(target.elts) != 2:
            return None
        target = target.elts[1]
    it = it.func.value
    if type(it) is not ast.Name or type(target) is not ast.Name or type(item) is not ast.Name:
        return None
    return it if item.id == target.id else None


def _callee_name(call: ast.Call) -> Optional[str]:
    """``f`` of ``f(...)``, ``m`` of ``self.m(...)`` or ``obj.m(...)``."""
    f = call.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f.attr
    return f.id if isinstance(f, ast.Name) else None


def project_imports(body) -> FrozenSet[str]:
    """Names a module's top-level ``from M import name`` binds from a module that may be the
    project's own (relative, or not a well-known library)."""
    out = set()
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom) and (stmt.level or (
                stmt.module or "").partition(".")[0] not in LIBRARY_WORDS):
            out.update(a.asname or a.name for a in stmt.names if a.name != "*")
    return frozenset(out)



def project_modules(body) -> FrozenSet[str]:
    """Names a module's top-level ``import M`` / ``import M.sub as name`` binds to a module that
    may be the project's own (``M``'s first word is not a well-known library's)."""
    return frozenset(a.asname or a.name.partition(".")[0] for stmt in body
                     if isinstance(stmt, ast.Import) for a in stmt.names
                     if a.name.partition(".")[0] not in LIBRARY_WORDS)


#: ``import`` as a word: where an import statement may stand (``project_import`` reads its line)
IMPORT_WORD = r"import(?<!\wimport)\b"
_IMPORT_WORD = LazyPattern(IMPORT_WORD)
#: an import statement from the start of its line, indented or not: ``from M import`` (M with its
#: leading dots) or ``import a.b as c, d`` (every module it names)
_IMPORT_LINE = LazyPattern(r"[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import\b|import[ \t]+("
                          r"[\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*))")


def project_import(m: "re.Match[str]") -> bool:
    """Is the ``import`` that ``m`` matched (``IMPORT_WORD``) on a line that starts an import of a
    module that may be the project's own (a relative one, or one whose first word is not a
    well-known library's: not ``torch.nn``)? Anywhere in the file, a function's import too."""
    text = m.string
    line = _IMPORT_LINE.match(text, text.rfind("\n", 0, m.start()) + 1)
    if line is None:
        return False
    if line.group(1) is not None:
        modules = [line.group(1)]
    else:
        modules = [part.split()[0] for part in line.group(2).split(",")]
    return any(name.startswith(".") or name.partition(".")[0] not in LIBRARY_WORDS
               for name in modules)


def imports_project(source: str) -> bool:
    """May ``source`` import a module of its own project (``project_import``)? Then a function
    it calls may be the project's, whose summary may say it differentiated what it returns."""
    return any(project_import(m) for m in _IMPORT_WORD.finditer(source))


#: ``.backward(``: a literal first character, which the regex engine finds fast; the name before
#: it is read from a window of the text ending there (``_NAME_BEFORE``)
_BACKWARD_CALL = LazyPattern(r"\.\s*backward\s*\(")
_NAME_BEFORE = LazyPattern(r"(?<!\w)([A-Za-z_]\w*)\s*\Z")
#: ``out["loss"].backward(``: the name whose constant-key item it is
_KEYED_BEFORE = LazyPattern(
    r"(?<!\w)([A-Za-z_]\w*)\s*\[\s*(?:'[^'\n]*'|\"[^\"\n]*\"|\d+)\s*\]\s*\Z")
#: ``name = receiver.method(``, ``name = x[i].method(``: the bound name and the method
_BOUND_FROM_METHOD = LazyPattern(
    r"(?m)^[ \t]*([A-Za-z_]\w*)\s*=\s*[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?\s*\.\s*(\w+)\s*\(")
_STEPPING_NAMES: dict = {}


def differentiated_names(source: str) -> Set[str]:
    """The names ``source`` calls ``.backward(`` on (``loss.backward()``: ``loss``), or on a
    constant-key item of (``out["loss"].backward()``: ``out``)."""
    names = set()
    if "backward" not in source:
        return names
    for m in _BACKWARD_CALL.finditer(source):
        end = m.start()
        lo = max(0, end - 256)
        got = _NAME_BEFORE.search(source, lo, end)
        if got is None and lo:  # a name that starts before the window: from its first letter
            while lo and (source[lo - 1].isalnum() or source[lo - 1] == "_"):
                lo -= 1
            got = _NAME_BEFORE.search(source, lo, end)
        if got is not None:
            names.add(got.group(1))
        elif source[lo:end].rstrip().endswith("]"):
            got = _KEYED_BEFORE.search(source, lo, end)
            if got is not None:
                names.add(got.group(1))
    return names


def stepping_names(source: str) -> FrozenSet[str]:
    """The names of the methods whose value a name bound from their call is differentiated by
    in ``source`` (``loss = module.training_step(batch, i)`` ... ``loss.backward()``: the
    ``training_step`` of any class may run once per step, grad on), and ``forward`` where a
    class of the text defines one and a name is differentiated (``loss = crit(model(x), y)``:
    ``stepping.stepping_calls``), from the text alone: a superset of what
    ``rules/accumulate_loops.stepped_by_caller`` finds (the call and the ``backward()`` in one
    loop). Kept for the last source asked (the pre-filter and the rule ask of the same
    file)."""
    methods, forward = _stepping(source)
    return methods | {"forward"} if forward else methods


def stepping_methods(source: str) -> FrozenSet[str]:
    """``stepping_names`` of the methods called by name alone (``module.forward(x)`` for
    ``forward``), without a module's call."""
    return _stepping(source)[0]


def _stepping(source: str) -> Tuple[FrozenSet[str], bool]:
    hit = _STEPPING_NAMES.get(source)
    if hit is not None:
        return hit
    names = differentiated_names(source)
    found = {m.group(2) for m in _BOUND_FROM_METHOD.finditer(source)
             if m.group(1) in names} if names else set()
    _STEPPING_NAMES.clear()
    got = _STEPPING_NAMES[source] = (frozenset(found), bool(names) and "def forward(" in source)
    return got


def differentiating_defs(body: list, mentions: Optional[Callable[[ast.AST, str], bool]]
                         ) -> FrozenSet[str]:
    """The names of the top-level functions and the methods of top-level classes in ``body``
    whose lines mention ``backward`` (``mentions(node, word)``: the text's answer): a value a
    call of one of them returns may be the loss it differentiated, or a dict holding it
    (``terms = self.training_step(batch)`` ... ``history.log(terms)``); ``accumulates``'s
    ``calls``."""
    if mentions is None:
        return frozenset()
    found = set()
    for s in body:
        for d in (s.body if isinstance(s, ast.ClassDef) else (s,)):
            if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    mentions(d, "backward"):
                found.add(d.name)
    return frozenset(found)


def appends_to_parameter(fn: ast.AST) -> bool:
    """Does function ``fn`` append to one of its positional parameters or to an attribute of
    one (``sink.append(v)``, ``policy.saved.append(v)``, a statement of its own; TEN501: a list
    its caller may hand it on every step)?"""
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args}
    for s in statements(fn):
        if type(s) is ast.Expr and type(s.value) is ast.Call and \
                type(s.value.func) is ast.Attribute and s.value.func.attr == "append":
            sink = s.value.func.value
            if type(sink) is ast.Attribute:
                sink = sink.value
            if type(sink) is ast.Name and sink.id in params:
                return True
    return False


def _instances(tree: ast.Module, fn: ast.AST) -> Set[str]:
    """The names ``tree`` binds to an instance of the class whose ``__call__`` is ``fn`` (``rec =
    Recorder()``, also beside others in a tuple assignment): a hook registered by one runs
    ``fn``."""
    cls = next((c.name for c in walk_nodes(tree) if type(c) is ast.ClassDef and any(
        s is fn or (getattr(s, "name", None) == "__call__" and s.lineno == fn.lineno)
        for s in c.body)), None)
    out: Set[str] = set()
    for n in walk_nodes(tree) if cls is not None else ():
        if type(n) is ast.Assign and len(n.targets) == 1:
            out.update(a.id for a, b in assigned_pairs(n.targets[0], n.value)
                       if type(a) is ast.Name and type(b) is ast.Call and
                       type(b.func) is ast.Name and b.func.id == cls)
    return out


def hook_output(fn: ast.AST) -> Optional[str]:
    """The output parameter of ``fn`` when its signature is a forward hook's: ``(module, inputs,
    output)``, after ``self`` for a method; else None."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    args = fn.args.posonlyargs + fn.args.args
    if args and args[0].arg == "self":
        args = args[1:]
    return args[2].arg if len(args) == 3 and not fn.args.vararg else None


def keeps_hook_output(fn: ast.AST) -> bool:
    """Does ``fn``, or a function defined in it, have a forward hook's signature and accumulate
    its ``output`` (or an item of it) into something (``store.append(output)``)? (TEN501's
    pre-filter: a superset of what the rule reports.)"""
    for d in walk_nodes(fn):
        out = hook_output(d)
        if out is not None and any(
                type(v) is ast.Name and v.id == out or type(v) in (ast.Subscript, ast.Call) and
                out in _names(v)  # (``output[0]``, ``output.sum()``: the rule asks which)
                for s in statements(d) for v in (_accumulated(s),) if v is not None):
            return True
    return False


def forward_hook_line(tree: ast.Module, fn: ast.AST) -> Optional[int]:
    """The line of a ``register_forward_hook`` call of ``tree`` registering ``fn`` (a definition
    of ``tree``, or the same of another reading of its text): by its name,
    as ``self.<name>``, or by a call of the function that defines and returns it
    (``m.register_forward_hook(save("relu"))``); None when there is none or no loop of the file
    calls ``backward()`` (the forward passes it hooks are not shown to run with grad on)."""
    makers = {d.name for d in walk_nodes(tree) if isinstance(d, (ast.FunctionDef,
                                                                 ast.AsyncFunctionDef))
              and any(getattr(s, "name", None) == fn.name and s.lineno == fn.lineno
                      for s in d.body) and any(
                  type(r) is ast.Return and type(r.value) is ast.Name and r.value.id == fn.name
                  for r in d.body)}
    made = _instances(tree, fn) if fn.name == "__call__" else ()
    line = None
    for n in walk_nodes(tree):
        if type(n) is ast.Call and type(n.func) is ast.Attribute and \
                n.func.attr == "register_forward_hook" and n.args:
            a = n.args[0]
            if (type(a) is ast.Name and (a.id == fn.name or a.id in made) or
                    dotted(a) == f"self.{fn.name}" or
                    type(a) is ast.Call and type(a.func) is ast.Name and a.func.id in makers) \
                    and not _no_grad_window(tree, n):
                line = n.lineno
                break
    if line is None or not any(isinstance(loop, LOOPS) and any(
            type(c) is ast.Call and type(c.func) is ast.Attribute and c.func.attr == "backward"
            for c in walk_nodes(loop)) for loop in walk_nodes(tree)):
        return None
    return line


#: calls that run no forward pass, so leave a hook unfired (``net.eval()``, ``print(...)``)
_NO_FORWARD = frozenset({"eval", "train", "requires_grad_", "to", "cpu", "cuda", "print",
                         "zero_grad"})


def _no_grad_window(tree: ast.Module, call: ast.Call) -> bool:
    """Is ``call`` (``h = m.register_forward_hook(f)``) followed, in its own block, by
    statements that run forward passes only under ``no_grad`` (``grad_effect``: "off"; others
    call only ``_NO_FORWARD``) up to ``h.remove()``? Then the hook sees no graph (a feature extractor
    attached for an evaluation)."""
    for node in statements(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if type(block) is not list:
                continue
            for i, stmt in enumerate(block):
                if type(stmt) is ast.Assign and stmt.value is call and \
                        len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name:
                    return _removed_after_no_grad(block[i + 1:], stmt.targets[0].id)
    return False


def _removed_after_no_grad(rest: list, handle: str) -> bool:
    for stmt in rest:
        if type(stmt) is ast.Expr and type(stmt.value) is ast.Call:
            func = stmt.value.func
            if type(func) is ast.Attribute and func.attr == "remove" and \
                    type(func.value) is ast.Name and func.value.id == handle:
                return True
            if (func.attr if type(func) is ast.Attribute else dotted(func)) in _NO_FORWARD:
                continue
            return False
        if type(stmt) is ast.With and all(grad_effect(item.context_expr) == "off"
                                          for item in stmt.items):
            continue
        return False
    return False

