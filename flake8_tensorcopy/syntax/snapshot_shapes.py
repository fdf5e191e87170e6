"""TEN402's shapes for the pre-filter: what a snapshot of a module's tensors looks like in the
``ast`` (``snapshot_shape``: ``X.state_dict()``, a shallow copy of one, one of its items, a list
or dict of the parameters themselves under a snapshot's name), and what may be handed back to
``load_state_dict`` (``restored_name``)."""
from __future__ import annotations

import ast
import re
from typing import FrozenSet, Optional

from .source import occurrences
from .walk import dotted, statements, walk_nodes
from .patterns import compile_pattern


def restored_name(arg: ast.expr) -> bool:
    """``best``, ``self.best``, or an item of one (``self.cache["model"]``), or a dict
    comprehension over the items of one (``{k: v * m[k] for k, v in early.items()}``): what
    TEN402 may follow back to a binding when it is handed to ``load_state_dict``."""
    if isinstance(arg, ast.DictComp) and len(arg.generators) == 1:
        it = arg.generators[0].iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and \
                it.func.attr == "items" and not it.args:
            arg = it.func.value
    if isinstance(arg, ast.Subscript):
        arg = arg.value
    return isinstance(arg, ast.Name) or (isinstance(arg, ast.Attribute) and
                                         isinstance(arg.value, ast.Name))


def _state_dict_call(node: ast.expr) -> bool:
    """``X.state_dict()`` (or ``getattr(X, "state_dict")()``)."""
    if not isinstance(node, ast.Call) or node.args or \
            any(k.arg != "keep_vars" for k in node.keywords):
        return False
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr == "state_dict"
    return isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and \
        func.func.id == "getattr" and len(func.args) == 2 and not func.keywords and \
        isinstance(func.args[1], ast.Constant) and func.args[1].value == "state_dict"


def _parameters_call(node: ast.expr) -> bool:
    """``X.parameters()`` or ``X.named_parameters()``: the live parameters themselves."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr in ("parameters", "named_parameters") and not node.args


#: words of a name that keeps values to compare or restore (``params_before``, ``init_weights``):
#: a list of the parameters themselves is as often kept to use them live (an optimizer's, a
#: clipping call's), so TEN402 takes one for a snapshot only under such a name
SNAPSHOT_WORDS = ("before", "old", "prev", "orig", "init", "backup", "snapshot", "snap",
                  "saved", "best", "start", "copy", "anchor")


_SNAPSHOT_WORD = compile_pattern("|".join(SNAPSHOT_WORDS), re.IGNORECASE)
#: the words of a name for weights that must lag the trained ones: a target network's, an
#: average's, a teacher's (``lagging_name``)
LAG_WORDS = ("target", "ema", "shadow", "average", "avg", "swa", "slow", "teacher", "polyak")
_LAG_WORD = compile_pattern("|".join(LAG_WORDS), re.IGNORECASE)


#: the names torch's layers give their parameters (``nn.Linear``, the convolutions, the norms)
PARAMETER_ATTRS = frozenset({"weight", "bias"})
#: calls of a tensor that return itself or share its storage, besides the views of
#: ``VIEW_METHODS`` (a parameter is contiguous and float32: ``contiguous()`` and ``float()``
#: return it; ``semantic/statedicts.py`` says where each does); only without arguments
VIEW_CALLS = frozenset({"detach", "contiguous", "float"})
#: attributes of a tensor that are views of it
VIEW_ATTRS = frozenset({"data", "T", "mT"})


def parameter_view(value: ast.expr) -> bool:
    """``model[-1].weight``, ``net.fc.bias.detach()``, ``m.weight.reshape(-1)``,
    ``torch.as_tensor(m.bias)``: one parameter of a module, or a view of it (TEN402 asks
    whether the name bound to it is measured against the parameter later)."""
    node = value
    for _ in range(16):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and (
                    func.attr in VIEW_METHODS or func.attr in VIEW_CALLS and
                    not (node.args or node.keywords)):
                node = func.value
            elif dotted(func) in ("torch.as_tensor", "as_tensor") and len(node.args) == 1 and \
                    not node.keywords:
                node = node.args[0]
            else:
                return False
        elif isinstance(node, ast.Attribute) and node.attr in VIEW_ATTRS:
            node = node.value
        else:
            return isinstance(node, ast.Attribute) and node.attr in PARAMETER_ATTRS and \
                isinstance(node.value, (ast.Name, ast.Attribute, ast.Subscript))
    return False


def snapshot_name(name: Optional[str]) -> bool:
    """Does the (dotted) name say it keeps a snapshot (``SNAPSHOT_WORDS``)?"""
    return name is not None and \
        _SNAPSHOT_WORD.search(name, name.rfind(".") + 1) is not None


def lagging_name(name: Optional[str], receiver: Optional[str] = None) -> bool:
    """Does the (dotted) name say it keeps weights that must lag those of the module
    ``receiver`` names (``LAG_WORDS``: ``target = dict(q.named_parameters())``, ``ema = {n:
    p.detach() ...}``), where that module's own name does not say the same (``swa_params =
    list(swa_model.parameters())`` is the average's own live handle)?"""
    found = _LAG_WORD.search(name, name.rfind(".") + 1) if name is not None else None
    return found is not None and found.group(0).lower() not in (receiver or "").lower()


def snapshot_shape(node: ast.expr, name: Optional[str] = None) -> bool:
    """``X.state_dict()`` or a shallow copy of one (TEN402's bound value: a dict of its items
    too, by a comprehension or pairs handed to ``dict``; its ``.items()`` or ``.values()``
    handed to one; one item of it), a list or dict of ``X.parameters()`` or
    ``X.named_parameters()``, or a dict, tuple or list display holding one
    (``{"model": model.state_dict(), "epoch": e}``)."""
    if _state_dict_call(node):
        return True
    if isinstance(node, ast.Subscript):
        return _state_dict_call(node.value)  # ``model.state_dict()["fc.weight"]`` (a superset)
    if isinstance(node, ast.Call) and len(node.args) == 1 and ((
            _parameters_call(node.args[0]) and (snapshot_name(name) or lagging_name(name) or (
                # ``self.reference = list(model.parameters())``: the rule reports one only
                # where another method compares it with the same module's parameters
                (name or "").startswith("self.") and dotted(node.func) in ("list", "tuple"))) and
            dotted(node.func) in ("list", "tuple", "dict", "OrderedDict",
                                  "collections.OrderedDict")) or (
                isinstance(node.args[0], ast.Call) and isinstance(node.args[0].func, ast.Attribute)
                and node.args[0].func.attr in ("items", "values") and
                _state_dict_call(node.args[0].func.value))):
        return True  # ``list(model.parameters())``, ``dict(model.state_dict().items())``
    if isinstance(node, (ast.DictComp, ast.ListComp)) and len(node.generators) == 1 and \
            _parameters_call(node.generators[0].iter) and (snapshot_name(name) or (
                name is not None and _detached(node)) or (name or "").startswith("self.")):
        return True  # ``[p for p in model.parameters()]``; ``w0 = [p.detach() ...]``; a list
        # or dict of them on ``self`` (another method may run the module on it, or pair it
        # with its parameters: ``functional_call``, ``zip(self.avg, model.parameters())``)
    if isinstance(node, ast.ListComp) and len(node.generators) == 1 and snapshot_name(name) and \
            isinstance(node.generators[0].iter, ast.Name) and _detached(node):
        return True  # ``meta_init = [p.data for p in params]`` of ``params = list(m.parameters())``
    if isinstance(node, ast.ListComp) and (name or "").startswith("self.") and \
            len(node.generators) == 1 and (
                isinstance(node.generators[0].iter, ast.Name) or
                (dotted(node.generators[0].iter) or "").startswith("self.")) and \
            isinstance(node.generators[0].target, ast.Name) and (
                _detached(node) or (isinstance(node.elt, ast.Name) and
                                    node.elt.id == node.generators[0].target.id)):
        return True  # ``self.collected = [p.data for p in parameters]`` (an EMA's store),
        # ``self.start = [p.data for p in self.params]``
    if isinstance(node, ast.ListComp) and (name or "").startswith("self.") and \
            _group_parameters(node):
        return True  # ``self.slow = [[p.data for p in g["params"]] for g in self.param_groups]``
    if isinstance(node, ast.Dict):
        return any(v is not None and snapshot_shape(v) for v in node.values)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id.lstrip("_")[:1].isupper() and any(
                _state_dict_call(a) for a in node.args + [k.value for k in node.keywords]):
        return True  # ``_Entry(score, step, model.state_dict())``: a record holding one
    if isinstance(node, (ast.Tuple, ast.List)):
        return any(snapshot_shape(v) for v in node.elts)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "copy" and not node.args:
            return _state_dict_call(func.value)  # ``model.state_dict().copy()``
        if len(node.args) == 1 and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp)):
            node = node.args[0]  # ``OrderedDict((k, v) for k, v in m.state_dict().items())``
        else:
            return len(node.args) == 1 and _state_dict_call(node.args[0])
    if isinstance(node, (ast.DictComp, ast.GeneratorExp, ast.ListComp)) and \
            len(node.generators) == 1:
        it = node.generators[0].iter
        return isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and \
            it.func.attr == "items" and _state_dict_call(it.func.value)
    return False


def _group_parameters(comp: ast.ListComp) -> bool:
    """Does the (nested) list comprehension take its items from an optimizer's param group
    (``for p in g["params"]``)?"""
    while isinstance(comp, ast.ListComp):
        if any(isinstance(g.iter, ast.Subscript) and isinstance(g.iter.slice, ast.Constant) and
               g.iter.slice.value == "params" for g in comp.generators):
            return True
        comp = comp.elt
    return False


#: methods whose result is a view of their receiver (``p.reshape(-1)`` of a parameter, which
#: is contiguous); ``semantic.statedicts.VIEWS`` says where each one is
VIEW_METHODS = frozenset({"view", "view_as", "squeeze", "unsqueeze", "t", "transpose", "permute",
                          "expand", "expand_as", "reshape", "flatten"})


def _detached(comp) -> bool:
    """``[p.detach() for ...]``, ``{n: p.data for ...}``, ``[p.reshape(-1) for ...]``, ``[p.T
    for ...]``: each item the parameter's tensor, or a view of it."""
    elt = comp.value if isinstance(comp, ast.DictComp) else comp.elt
    inner = elt
    while (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and
           inner.func.attr in VIEW_METHODS) or (isinstance(inner, ast.Attribute) and
                                                 inner.attr in VIEW_ATTRS):
        inner = inner.func.value if isinstance(inner, ast.Call) else inner.value
    if inner is not elt and isinstance(inner, ast.Name):
        return True
    return (isinstance(elt, ast.Attribute) and elt.attr == "data") or (
        isinstance(elt, ast.Call) and isinstance(elt.func, ast.Attribute) and
        elt.func.attr == "detach" and not elt.args)


_returners: tuple = (None, frozenset())


def live_returners(tree: ast.Module, source: str) -> FrozenSet[str]:
    """The names of the file's functions and methods that return a module's live state dict
    (``def weights(self): return self.model.state_dict()``: ``snapshot_shape``); the last
    file's answer is kept."""
    global _returners
    if _returners[0] is not tree:
        _returners = (tree, _live_returners(tree, source))
    return _returners[1]


def _live_returners(tree: ast.Module, source: str) -> FrozenSet[str]:
    if not any("return" in source[source.rfind("\n", 0, i) + 1:i]
               for i in occurrences(source, "state_dict")):
        return frozenset()  # (no line returns one: most files, without a walk)
    funcs, live = [], set()
    for n in walk_nodes(tree):  # (one walk; a function's again only where one returns it)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs.append(n)
        elif isinstance(n, ast.Return) and n.value is not None and snapshot_shape(n.value):
            live.add(id(n))
    return frozenset(f.name for f in funcs if live and any(id(r) in live for r in walk_nodes(f)))


def calls_any(fn: ast.AST, names: FrozenSet[str]) -> bool:
    """Does ``fn`` call a method of one of ``names`` (``trainer.weights()``)?"""
    return bool(names) and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                               and n.func.attr in names for n in walk_nodes(fn))


def helper_snapshot(fn: ast.AST, helpers: FrozenSet[str]) -> bool:
    """Does ``fn`` bind a name or attribute chain with a snapshot's name (``snapshot_name``) to
    a call of one of ``helpers``, the project's functions the module calls by name (``self.best
    = capture_state(self.model)``)? TEN402 then asks the function's state-dict summary, and
    those of the functions the file hands the snapshot to (``restore_state(model, self.best)``)."""
    for node in walk_nodes(fn):
        if type(node) is ast.Assign and len(node.targets) == 1 and \
                type(node.value) is ast.Call and type(node.value.func) is ast.Name and \
                node.value.func.id in helpers and snapshot_name(dotted(node.targets[0])):
            return True
    return False


def parameter_backup(loop: ast.AST) -> bool:
    """``for name, param in m.named_parameters(): self.backup[name] = param``: a loop over a
    module's parameters storing the loop's parameter itself (or its ``.data``/``detach()``) as
    an item of a container under a snapshot's name (TEN402's ``parameter_item``)."""
    it = getattr(loop, "iter", None)
    if not _parameters_call(it):
        return False
    target = loop.target  # type: ignore[attr-defined]
    if isinstance(target, ast.Tuple) and len(target.elts) == 2:
        target = target.elts[1]
    if not isinstance(target, ast.Name):
        return False
    for n in statements(loop):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and \
                isinstance(n.targets[0], ast.Subscript) and \
                snapshot_name(dotted(n.targets[0].value)):
            v = n.value
            while isinstance(v, (ast.Attribute, ast.Call)) and (
                    isinstance(v, ast.Attribute) and v.attr == "data" or
                    isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and
                    v.func.attr == "detach" and not v.args):
                v = v.value if isinstance(v, ast.Attribute) else v.func.value
            if isinstance(v, ast.Name) and v.id == target.id:
                return True
    return False
