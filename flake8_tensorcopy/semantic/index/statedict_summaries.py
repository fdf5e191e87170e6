"""Per-function state-dict summaries of the project's functions, and the questions TEN402 asks
of them at a call (``returned_live_state_dict``, ``writes_parameters_of``): does a function return a live state dict (``return
self.model.state_dict()``), and whose module parameters does it write in place (an EMA helper's
``p.data.copy_(s)`` over ``model.parameters()``, a ``load_state_dict`` into its argument)?

A summary is worked out once per function, from its ``ast``, when the analysis of a linted file
first asks, and kept with the function's module (``summary``): a caller's question is a
dictionary look-up, so the cost stays linear in the functions asked about.
"""
from __future__ import annotations

import ast
import weakref
from typing import Dict, FrozenSet, NamedTuple, Optional, Set, Tuple

from ...syntax import nodes
from ...syntax.build import parse_expression
from ...syntax.nodes import dotted_name
from ...syntax.prefilter import dotted, walk_nodes
from ...syntax.walk import own_nodes
from ..kinds import FREE, FUNCTION, UNKNOWN, ClassInfo, Instance, Proj, ProjectClass, \
    ProjectFunction, ProjectModule
from ..statedicts import Live, live_state_dict


class Summary(NamedTuple):
    #: what every ``return`` of the function gives when each is a live state dict (the first
    #: one's shape: ``Live``); None otherwise
    returns_live: Optional[Live]
    #: the text of that return value (``self.model.state_dict()``), for messages
    returns_text: str
    #: whose module parameters it writes in place: parameter names and positions (``self``
    #: counted), ``self.X`` attribute chains, and ``*name``/``*k`` for a parameter whose items
    #: it writes (an iterable of parameters: ``copy_to(self, parameters)`` called with
    #: ``model.parameters()``)
    writes_params: FrozenSet[object]
    #: what it calls that trains whatever module it is given: ``opt.step()`` (an owner named
    #: like an optimizer or a grad scaler) or ``backward()``; "" when nothing
    trains: str
    #: ``self.X = value`` of a method: X -> the text of a live state dict it binds there, or
    #: "" when one of its bindings there is something else (``None`` and other constants are
    #: not counted: the empty slot before the first snapshot)
    binds_self: Tuple[Tuple[str, str], ...]
    #: the position (``self`` counted) of the parameter whose live tensors every ``return``
    #: hands back in a dict of its own (``return {k[7:]: v for k, v in state.items()}``,
    #: ``dict(state)``, ``state.copy()``: the same tensors under the keys it makes); None
    passes_items: Optional[int] = None
    #: the positions (``self`` counted) of the parameters it hands to ``load_state_dict`` as
    #: they are (``def restore(model, state): model.load_state_dict(state)``: 1)
    loads: FrozenSet[int] = frozenset()
    #: the position (``self`` counted) of the one parameter whose module the function trains,
    #: where every optimizer it steps is made there from that parameter's ``parameters()``
    #: (``def local_update(worker, data): opt = SGD(worker.parameters()) ... opt.step()``: 0);
    #: None when the step is another's or the function only calls ``backward()``
    trains_only: Optional[int] = None


_NOTHING = Summary(None, "", frozenset(), "", ())
#: module facts -> {id(function facts): (function facts, its summary)}; the module owns its
#: definitions, so a summary lives exactly as long as the facts it was read from
_BY_MODULE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
#: in-place methods that are not writes of the values
_NOT_WRITES = frozenset({"requires_grad_", "share_memory_", "retain_grad", "detach_"})
_PARAM_ITERS = frozenset({"parameters", "named_parameters"})


# ---- the questions a rule asks at a call: entry points
def called_function(inf, call) -> Optional[Tuple[object, bool]]:
    """The project function a call runs (its ``FuncFacts``) and whether it is called as a bound
    method (``obj.m(...)``: ``self`` is not among the call's arguments), or None when unknown:
    a method of an instance of a project class, a function of the project bound at module
    level."""
    func = call.func
    t = type(func)
    if t is nodes.Attribute:
        rk = inf.infer(func.value)
        m = func.attr.value
        if type(rk) is Instance and rk.cls.facts is not None and m not in rk.cls.attrs:
            fn = rk.cls.facts.method(m)
            return (fn, True) if isinstance(fn, ProjectFunction) else None
        fn = module_function(inf.infer, func, rk)
        return (fn, False) if fn is not None else None
    if t is not nodes.Name:
        return None
    fn = function_named(inf, func.value)
    return (fn, False) if fn is not None else None


def function_named(inf, name: str):
    """The project function ``name`` is bound to where the walk is (one of another module,
    imported; one the file defines at module level): its ``FuncFacts``, else None."""
    bound = inf.lookup(name)
    if type(bound) is Proj and isinstance(bound.obj, ProjectFunction):
        return bound.obj
    if bound is FUNCTION and inf.project is not None and \
            inf.binding_scope(name) is inf.module_scope:
        return inf.project.current_function(name)
    return None


def module_function(infer, func, receiver=None):
    """The project function ``mod.f`` names where ``mod`` is a module of the project (``import
    ckpt`` ... ``ckpt.snapshot(model)``): its ``FuncFacts``, else None. ``infer`` is the
    inference's (or a rule context's) ``infer``; ``receiver``: what it already made of ``mod``."""
    rk = infer(func.value) if receiver is None else receiver
    if type(rk) is not Proj or not isinstance(rk.obj, ProjectModule):
        return None
    k = infer(func)
    return k.obj if type(k) is Proj and isinstance(k.obj, ProjectFunction) else None


def returned_live_state_dict(inf, call) -> Optional[Tuple[str, str]]:
    """When ``call`` runs a project function every ``return`` of which is a live state dict:
    the function's name and what it returns (``self.model.state_dict()``)."""
    found = called_function(inf, call)
    if found is None:
        return None
    s = summary(found[0])
    if s.returns_live is None:
        return None
    return found[0].name, s.returns_text  # type: ignore[attr-defined]


#: module facts -> {id(function facts): (function facts, ``_returned_parameters``'s answer)}
_PARAMETERS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def returned_live_parameters(inf, call) -> Optional[Tuple[str, str, Live]]:
    """When ``call`` runs a project function every ``return`` of which is a list or dict of a
    module's parameters themselves (``def get_params(model): return [p.data for p in
    model.parameters()]``, ``p.detach()`` likewise): the function's name, what it returns and
    its shape (``Live.params``), else None. Read once per function, when a call asks."""
    found = called_function(inf, call)
    if found is None:
        return None
    got = kept_per_function(found[0], _PARAMETERS, _returned_parameters, None)
    return None if got is None else (found[0].name,) + got  # type: ignore[return-value]


def _returned_parameters(fn: ast.AST) -> Optional[Tuple[str, Live]]:
    values = [n.value for n in own_nodes(fn) if type(n) is ast.Return]
    if not values or any(v is None for v in values) or \
            not isinstance(getattr(fn, "body", [None])[-1], ast.Return):
        return None
    texts = {ast.unparse(v) for v in values}
    if len(texts) != 1:
        return None
    text = texts.pop()
    if "parameters" not in text:
        return None
    shape = live_state_dict(parse_expression(text))
    return (text, shape) if shape is not None and shape.params and \
        shape.receiver is not None else None


def method_by_name(inf, call, tree):
    """``obj.m(...)`` where nothing tells what ``obj`` is: the ``m`` of the one class of the file
    (``tree``, its ``ast``) that defines a method ``m`` (``trainer.weights()`` in a callback,
    ``Trainer.weights``), as ``called_function`` answers (called bound), else None."""
    func = call.func
    if tree is None or type(func) is not nodes.Attribute or type(func.value) is not nodes.Name:
        return None
    m = func.attr.value
    owners = [c.name for c in getattr(tree, "body", ()) if type(c) is ast.ClassDef and any(
        type(f) in (ast.FunctionDef, ast.AsyncFunctionDef) and f.name == m for f in c.body)]
    if len(owners) != 1 or inf.infer(func.value) not in (None, UNKNOWN, FREE):
        return None
    k = inf.lookup(owners[0])
    facts = k.facts if type(k) is ClassInfo else k.obj if type(k) is Proj else None
    fn = facts.method(m) if isinstance(facts, ProjectClass) else None
    return (fn, True) if isinstance(fn, ProjectFunction) else None


def returned_live_by_name(inf, call, tree) -> Optional[Tuple[str, str]]:
    """``returned_live_state_dict`` of ``obj.m()`` of the file's one class defining ``m``
    (``method_by_name``), else None."""
    found = method_by_name(inf, call, tree)
    if found is None:
        return None
    s = summary(found[0])
    return (found[0].name, s.returns_text) if s.returns_live is not None else None  # type: ignore


def returned_on_cpu_of(inf, call):
    """The argument ``call`` passes for the module whose tensors the project function it runs
    returns moved to the CPU (``def cpu_state(m): return {k: v.cpu() for k, v in
    m.state_dict().items()}``): the same tensors only where that module is on the CPU. None
    for anything else."""
    found = called_function(inf, call)
    if found is None:
        return None
    fn, bound = found
    live = summary(fn).returns_live
    if live is None or live.where != "on CPU" or live.receiver is None:
        return None
    try:
        positional = [a.arg for a in fn.node.args.args]
    except AttributeError:
        return None
    name = dotted_name(live.receiver)
    k = positional.index(name) - (1 if bound else 0) if name in positional else -1
    args = [a for a in call.args if a.keyword is None and not a.star]
    return args[k].value if 0 <= k < len(args) and len(args) == len(call.args) else None


def passed_items_argument(inf, call):
    """What ``call`` passes for the parameter whose tensors the project function it runs
    hands back in a dict of its own (``Summary.passes_items``: ``strip_prefix(sd)``), or None."""
    found = called_function(inf, call)
    if found is None:
        return None
    fn, bound = found
    position = summary(fn).passes_items
    if position is None:
        return None
    try:
        name = fn.node.args.args[position].arg if position < len(fn.node.args.args) else None
    except (AttributeError, IndexError):
        return None
    index = 0
    for a in call.args:
        if a.star:
            return None  # positions unknown from here on
        if a.keyword is not None:
            if a.keyword.value == name:
                return a.value
            continue
        if index + (1 if bound else 0) == position:
            return a.value
        index += 1
    return None


def _trained_argument(s: Summary, bound: bool, call):
    """The argument of ``call`` at the one position whose module the function summarised by
    ``s`` steps (``s.trains_only``; ``bound``: ``self`` is not handed), or None where that
    position is unknown (a starred argument, too few)."""
    k = s.trains_only - (1 if bound else 0)
    args = [a for a in call.args if a.keyword is None]
    if any(a.star for a in call.args) or k < 0 or k >= len(args):
        return None
    return args[k]


def trains_another(inf, call, receiver: str, tree=None) -> Optional[str]:
    """The other name than ``receiver`` handed to ``call`` at the one position whose module
    the project function it runs steps (``GraphSummary.trains_only``: ``client`` of
    ``local_train(client, data)``, which changes ``client``, not ``server``), or None: the
    callee or the position unknown, or ``receiver`` (or a part of it) handed there."""
    found = called_function(inf, call) or method_by_name(inf, call, tree) if receiver else None
    if found is None:
        return None
    fn, bound = found
    s = summary(fn)
    if not s.trains or s.trains == "backward()" or s.trains_only is None:
        return None
    arg = _trained_argument(s, bound, call)
    d = dotted_name(arg.value) if arg is not None else None
    return d if d is not None and d != receiver and not d.startswith(receiver + ".") and \
        not receiver.startswith(d + ".") else None


def weight_change(inf, call, receiver: str, tree=None) -> Optional[str]:
    """When ``call`` runs a project function after which the weights of the module named
    ``receiver`` may have changed, why: it runs an optimizer step or ``backward()`` (any
    module's, as the call itself would be), or it writes ``receiver``'s parameters in place
    (``receiver`` is the argument it writes through, or the same ``self.X`` of a method called
    on ``self``). None otherwise, and when the callee is unknown. ``tree``: the file's ``ast``,
    for a method of a receiver nothing tells the class of (``method_by_name``)."""
    found = called_function(inf, call) or method_by_name(inf, call, tree)
    if found is None:
        return None
    fn, bound = found
    s = summary(fn)
    if s.trains and s.trains != "backward()" and s.trains_only is not None and receiver:
        # it steps only the module handed at that position (``local_update(worker, data)``)
        arg = _trained_argument(s, bound, call)
        if arg is None or dotted_name(arg.value) == receiver:
            return f"it calls `{s.trains}`"
    elif s.trains:
        return f"it calls `{s.trains}`"
    written = s.writes_params
    if not written or not receiver:
        return None
    shift = 1 if bound else 0  # ``self`` is position 0 of a method called bound
    for i, a in enumerate(call.args):
        if a.star:
            return None  # positions unknown from here on
        if _parameters_of(a.value) == receiver:
            # ``ema.copy_to(model.parameters())``: it writes the items it is given
            if (a.keyword is None and f"*{i + shift}" in written) or (
                    a.keyword is not None and f"*{a.keyword.value}" in written):
                return f"it writes `{receiver}`'s parameters in place"
            continue
        if dotted_name(a.value) != receiver:
            continue
        if (a.keyword is None and i + shift in written) or (
                a.keyword is not None and a.keyword.value in written):
            return f"it writes `{receiver}`'s parameters in place"
    func = call.func
    if bound and type(func) is nodes.Attribute and dotted_name(func.value) == "self" and \
            receiver.startswith("self.") and receiver in written:
        return f"it writes `{receiver}`'s parameters in place"
    return None


def _parameters_of(node) -> Optional[str]:
    """``X`` of ``X.parameters()`` or ``X.named_parameters()``."""
    if type(node) is nodes.Call and not node.args and type(node.func) is nodes.Attribute and \
            node.func.attr.value in _PARAM_ITERS:
        return dotted_name(node.func.value)
    return None


def kept_on_instance(inf, node) -> Optional[Tuple[str, str, str, str]]:
    """``es.best_state`` where ``es`` is an instance of a project class whose methods bind
    ``self.best_state`` only to live state dicts (``None`` aside): (the class's name, the method
    that binds it, the bound value's text, the path of the class's module); None otherwise."""
    if type(node) is not nodes.Attribute or type(node.value) is not nodes.Name or \
            node.value.value == "self":
        return None
    rk = inf.infer(node.value)
    if type(rk) is not Instance or rk.cls.facts is None:
        return None
    cls = rk.cls.facts
    attr = node.attr.value
    found = None
    for fn in getattr(cls, "methods", {}).values():
        for name, text in summary(fn).binds_self:
            if name != attr:
                continue
            if not text:
                return None  # some binding of it is not a live state dict
            found = found or (cls.name, fn.name, text, cls.module.path)
    return found


# ---- the summaries --------------------------------------------------------------------------
def summary(fn) -> Summary:
    """The state-dict summary of ``fn`` (a ``FuncFacts``), worked out once."""
    return kept_per_function(fn, _BY_MODULE, summarize_function, _NOTHING)


def kept_per_function(fn, by_module, summarize, nothing, errors=()):
    """``summarize(fn.node)`` of ``fn`` (a ``FuncFacts``), worked out once and kept in
    ``by_module`` (a ``WeakKeyDictionary``: module -> id of the function -> (function, what
    it gave)) for as long as its module lives; ``nothing`` where the function cannot be read
    (``RecursionError``, ``SyntaxError``, ``ValueError``, ``MemoryError`` or one of ``errors``)."""
    try:
        module = fn.module
        table = by_module.setdefault(module, {})
    except TypeError:  # not weak-referable: not kept
        return summarize(fn.node)
    got = table.get(id(fn))
    if got is None or got[0] is not fn:
        try:
            s = summarize(fn.node)
        except (RecursionError, SyntaxError, ValueError, MemoryError) + tuple(errors):
            s = nothing
        got = table[id(fn)] = (fn, s)
    return got[1]


def summarize_function(fn: ast.AST) -> Summary:
    """The summary of one ``def`` (an ``ast`` node), worked out now (``summary`` keeps it)."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _NOTHING
    args = fn.args
    positional = [a.arg for a in args.posonlyargs + args.args]
    params = set(positional) | {a.arg for a in args.kwonlyargs}
    frozen = frozenset(params)
    returns = []
    written = set()
    trains = ""
    binds: Dict[str, str] = {}
    loads: Set[int] = set()
    made: Dict[str, Set[Optional[str]]] = {}  # name -> whose ``parameters()`` made it
    stepped: Set[str] = set()
    me = positional[0] if positional else None
    for n in own_nodes(fn):
        t = type(n)
        if t is ast.Assign:
            for target in n.targets:
                if type(target) is ast.Name:
                    made.setdefault(target.id, set()).add(_made_from(n.value, positional))
        if t is ast.Assign and me is not None:
            for target in n.targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
                        target.value.id == me and not isinstance(n.value, ast.Constant):
                    text = _live_text(n.value)
                    binds[target.attr] = text if binds.get(target.attr, text) == text else ""
        elif t is ast.Return:
            returns.append((n.lineno, n.col_offset, n.value))
        elif t is ast.Call and isinstance(n.func, ast.Attribute):
            m = n.func.attr
            owner = dotted(n.func.value) or ""
            if m == "load_state_dict":
                written.add(owner or None)  # copies into the module's own tensors
                if n.args and type(n.args[0]) is ast.Name and n.args[0].id in positional:
                    loads.add(positional.index(n.args[0].id))
            elif not trains and m == "backward":
                trains = "backward()"
            if m == "step" and any(
                    w in owner.rsplit(".", 1)[-1].lower() for w in ("opt", "scaler")):
                stepped.add(owner)
                if not trains or trains == "backward()":
                    trains = f"{owner}.step()"
        elif t is ast.For or t is ast.AsyncFor:
            module = _parameters_loop(n, frozen)
            if module is not None and _writes_loop_target(n, frozen):
                written.add(module)
    live, text = None, ""
    passes = None
    values = [r[2] for r in sorted(returns, key=lambda r: r[:2])]  # in source order
    if values and all(r is not None for r in values):
        texts = [_live_text(r) for r in values]
        if all(texts):
            live, text = live_state_dict(parse_expression(texts[0])), texts[0]
        elif isinstance(fn.body[-1], ast.Return):  # (no path falls off the end: ``None``)
            passed = {_passed_items(r, params) for r in values}
            if len(passed) == 1:
                name = passed.pop()
                passes = positional.index(name) if name in positional else None
    out = set()
    for w in written:
        if w is None:
            continue
        if w.startswith("*"):  # the items of a parameter: ``*k`` and ``*name``
            out.add(w)
            if w[1:] in positional:
                out.add(f"*{positional.index(w[1:])}")
            continue
        root = w.split(".", 1)[0]
        if w in params:
            out.add(w)
            if w in positional:
                out.add(positional.index(w))
        elif root == "self" and "self" == (positional[:1] or [""])[0]:
            out.add(w)
    owners = {w for o in stepped for w in made.get(o, {None})}
    only = owners.pop() if len(owners) == 1 else None
    return Summary(live, text, frozenset(out), trains, tuple(sorted(binds.items())), passes,
                   frozenset(loads), positional.index(only) if only is not None else None)


def _made_from(value, positional) -> Optional[str]:
    """The positional parameter ``P`` of ``Optim(P.parameters(), ...)``, else None."""
    if type(value) is not ast.Call or not value.args:
        return None
    first = value.args[0]
    if type(first) is ast.Call and not first.args and type(first.func) is ast.Attribute and \
            first.func.attr == "parameters" and type(first.func.value) is ast.Name and \
            first.func.value.id in positional:
        return first.func.value.id
    return None


def _passed_items(value: ast.expr, params) -> Optional[str]:
    """The parameter whose tensors ``value`` hands back in a dict of its own (a shallow copy or
    a dict of its items, ``live_state_dict`` with the parameters as the live dicts), else
    None; not the parameter itself (that is no dict made here: a function returning what it is
    given is the caller's own value)."""
    if not isinstance(value, (ast.DictComp, ast.Call)):
        return None
    shape = live_state_dict(parse_expression(ast.unparse(value)), lambda n: n in params)
    return shape.source if shape is not None and shape.receiver is None else None


def _live_text(value: ast.expr) -> str:
    """The text of ``value`` when it is a live state dict of a module (``live_state_dict``, on
    the syntax tree built from its text), else ""."""
    text = ast.unparse(value)
    if "state_dict" not in text:
        return ""
    shape = live_state_dict(parse_expression(text))
    return text if shape is not None and shape.receiver is not None else ""


def _params_iter(it: ast.AST, params: FrozenSet[str]) -> Optional[str]:
    """``X`` of ``X.parameters()``/``X.named_parameters()``; ``*name`` for a parameter
    ``name`` of the function iterated itself (``copy_to(self, parameters)``: the caller passes
    ``model.parameters()``); None for anything else."""
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and \
            it.func.attr in _PARAM_ITERS and not it.args:
        return dotted(it.func.value)
    if isinstance(it, ast.Name) and it.id in params:
        return "*" + it.id
    return None


def _zipped(loop: ast.AST, params: FrozenSet[str]) -> Optional[Tuple[int, str, bool]]:
    """(position, ``_params_iter``'s answer, named) of the iterable of parameters a loop
    reads: itself (position -1) or one of ``zip(...)``'s arguments (the first such)."""
    it = loop.iter  # type: ignore[attr-defined]
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "zip":
        if any(isinstance(a, ast.Starred) for a in it.args):
            return None
        # a module's ``parameters()`` first, a parameter of the function only without one
        for only in (frozenset(), params):
            for i, a in enumerate(it.args):
                got = _params_iter(a, only)
                if got is not None:
                    return i, got, _named(a)
        return None
    got = _params_iter(it, params)
    return None if got is None else (-1, got, _named(it))


def _named(it: ast.AST) -> bool:
    """``X.named_parameters()``: (name, parameter) pairs."""
    return isinstance(it, ast.Call) and getattr(it.func, "attr", None) == "named_parameters"


def _parameters_loop(loop: ast.AST, params: FrozenSet[str] = frozenset()) -> Optional[str]:
    """``X`` of ``for p in X.parameters()``, ``for n, p in X.named_parameters()`` or ``for s,
    p in zip(..., X.parameters())`` (the first such iterable); ``*name`` where that iterable
    is the function's parameter ``name``; None for any other loop."""
    found = _zipped(loop, params)
    return found[1] if found is not None else None


def _loop_parameter(loop: ast.AST, params: FrozenSet[str] = frozenset()) -> Optional[str]:
    """The name the loop binds each parameter to (``p`` of ``p``, ``(n, p)``, ``(s, p)`` of
    a ``zip`` whose second iterable gives the parameters)."""
    found = _zipped(loop, params)
    if found is None:
        return None
    i, _, named = found
    target = loop.target  # type: ignore[attr-defined]
    if i >= 0:
        it = loop.iter  # type: ignore[attr-defined]
        if not isinstance(target, ast.Tuple) or len(target.elts) != len(it.args):
            return None
        target = target.elts[i]
    if named:
        if not isinstance(target, ast.Tuple) or len(target.elts) != 2:
            return None
        target = target.elts[1]
    return target.id if isinstance(target, ast.Name) else None


def _writes_loop_target(loop: ast.AST, params: FrozenSet[str] = frozenset()) -> bool:
    """Does the loop's body write the parameter in place: ``p.copy_(s)``, ``p.data.mul_(d)``,
    ``p.data = s``?"""
    name = _loop_parameter(loop, params)
    if name is None:
        return False
    for n in walk_nodes(ast.Module(body=list(loop.body), type_ignores=[])):  # type: ignore[attr-defined]
        target = None
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            m = n.func.attr
            if len(m) > 1 and m.endswith("_") and not m.startswith("_") and m not in _NOT_WRITES:
                target = n.func.value
        elif isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Attribute) and t.attr == "data":
                    target = t
        if target is not None and dotted(target) in (name, name + ".data"):
            return True
    return False
