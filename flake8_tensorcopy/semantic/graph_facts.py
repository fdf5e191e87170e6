"""The vocabulary of graph facts (``graph.py``): why a value is attached (``Fact``), what the
caller knows of calls (``Oracle``), and how facts that all hold combine (``strongest``)."""
from __future__ import annotations

import ast
from typing import List, Optional

from . import kinds, torch_api
from .graph_terms import dotted, is_sum, keeps_graph_function

#: the reasons a value is attached, strongest first
DIFFERENTIATED = "differentiated"
SIBLING = "sibling"
#: computed, through operations that keep a graph, from the differentiated value or a term of it
#: (``out["psnr"] = 10 * torch.log10(1 / out["mse"])`` where ``out["mse"]`` is a term)
DERIVED = "derived"
#: a value that is the differentiated loss or the tuple of its terms (``losses`` of
#: ``sum(losses)``, ``loss = sum(losses) if isinstance(losses, tuple) else losses``)
TERMS = "terms"
#: derived from a forward pass made in a grad region a differentiated value proves on
#: (``graph_sources``: ``line`` is the differentiation's)
GRAD_ON = "grad-on"
RETURNED = "returned"
FORWARD = "forward"
#: a container one of whose constant-key items is attached (``out`` of
#: ``out["loss"].backward()``); its other items stay unknown
HOLDS = "holds"


class Binding:
    """One binding of a name in a scope's walk (``graph.ScopeGraph``): its value and statement,
    its ``kind`` (assign | aug | unpack | nested | param | other) and position (a parameter's, an
    item's; a ``nested`` item's path, ``"[1][0]"``)."""
    __slots__ = ("key", "value", "stmt", "kind", "index")

    def __init__(self, key: str, value, stmt, kind: str, index: int = -1) -> None:
        self.key = key
        self.value = value
        self.stmt = stmt
        self.kind = kind
        self.index = index


def nested_item(kind: str, index, i: int, e):
    """(kind, index) of item ``i`` (target ``e``) of a tuple target inside an unpacked one
    (``loss, (a, b) = f(x)``: ``a`` is ``("nested", "[1][0]")``, the item at its path; a
    starred one unknown), or None for a tuple target that is no such item."""
    inner = f"[{index}]" if kind == "unpack" else index if kind == "nested" else None
    if inner is None:
        return None
    return ("other", -1) if type(e) is ast.Starred else ("nested", f"{inner}[{i}]")


def called_region(reg: str, r: str, call: ast.Call) -> Optional[str]:
    """A callee's region at a call made in region ``r`` (``"*"``: any, kept as it is)."""
    if reg == "*":
        return reg
    if reg == "":
        return r
    if reg == "on":
        return "on"
    return f"{reg}@{call.lineno}:{call.col_offset}"


class Fact:
    """Why a value is attached (``why``), where (``line``: the backward call, the forward pass,
    the call of the summarised function), and whether that holds only with grad mode on."""

    __slots__ = ("why", "line", "needs_grad", "detail")

    def __init__(self, why: str, line: int, needs_grad: bool = False, detail: str = "") -> None:
        self.why = why
        self.line = line
        self.needs_grad = needs_grad
        self.detail = detail

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Fact({self.why}, {self.line}, grad={self.needs_grad}, {self.detail!r})"


class Oracle:
    """What the caller knows of calls: ``call(node)`` answers ``"forward"`` (a module with
    parameters runs: its output is attached with grad on), ``"through"`` (the result is attached
    when a tensor argument is: a loss module, a torch function), or None (unknown); ``summary``
    gives a project function's graph summary (``index.summaries.GraphSummary``) or None. This
    default knows only the spelling of torch's functions."""

    def call(self, node: ast.Call) -> Optional[str]:
        d = dotted(node.func)
        if d is not None and d.startswith("F."):
            d = "torch.nn.functional." + d[2:]
        elif d is not None and d.startswith("nn.functional."):
            d = "torch." + d  # (``import torch.nn as nn``, as ``F`` is assumed above)
        return "through" if d is not None and keeps_graph_function(d) else None

    def summary(self, node: ast.Call, local: bool = False):
        return None

    def trainable(self, node: ast.Call) -> bool:
        """Does the forward pass ``node`` run parameters that may require grad (none frozen, no
        block turning grad off, where the caller can read that)? This default does not know."""
        return False

    def frozen(self, func: ast.expr) -> bool:
        """Is the module called as ``func`` one the file freezes by name (``self.k_enc =
        copy.deepcopy(self.q_enc).requires_grad_(False)``): its output has a graph only through
        its inputs? This default does not know."""
        return False

    def global_call(self, name: str) -> Optional[str]:
        """``call``'s answer for a call of ``name``, a name the scope does not bind (a global of
        its module: ``model = Net()`` at the top level, ``model(x)`` in a function). This
        default does not know."""
        return None

    def module_name(self, name: str) -> bool:
        """Is ``name``, bound once in the scope, a module there (as the inference knows it:
        ``model = AutoEncoder()``)? This default does not know."""
        return False

    def method_summary(self, made: ast.Call, name: str):
        """The graph summary of method ``name`` of the project class whose instance ``made``
        makes (``AverageMeter("loss")``), or None. This default does not know."""
        return None

    def loss_name(self, name: str) -> bool:
        """Is ``name``, bound once in the scope, a module without parameters there (a loss, an
        activation: ``crit = nn.CrossEntropyLoss()``), whose output has a graph only through
        its inputs? This default does not know."""
        return False

    def fields(self, node: ast.Call):
        """The field names when ``node`` constructs a namedtuple (``LossTuple(*losses)``)."""
        return None

    def leaf(self, attr: str) -> bool:
        """Is ``self.<attr>``, in the method whose graph asks, a tensor that requires grad
        (``graph_terms.leaf_attributes`` of its class)? This default does not know."""
        return False

    def module_attribute(self, root: str, attr: str) -> bool:
        """Is ``<root>.<attr>``, ``root`` the instance of the method whose graph asks, a module
        its class is handed and reads as one (``graph_terms.module_attributes``)? This default
        does not know."""
        return False

    def instance_leaf(self, root: str, attr: str) -> bool:
        """Is ``<root>.<attr>`` such a tensor of an instance of a class of the file
        (``model.log_vars``, bound by ``self.log_vars = nn.Parameter(...)``)? This default does
        not know."""
        return False

    def leaf_property(self, attr: str, root: Optional[str] = None) -> bool:
        """Is ``self.<attr>``, in the method whose graph asks, a property of its class that
        returns an operation on a leaf attribute (``return self.log_alpha.exp()``)? With
        ``root``, the name read (``self``, or ``model`` of ``model.temperature``: a property
        of its class). This default does not know."""
        return False

    def trains_parameters(self, module: Optional[ast.expr] = None) -> bool:
        """Do the modules' parameters require grad here (no parameter frozen, no grad turned off
        by a call, in the linted file): ``model.fc.weight`` of a module is a leaf that does?
        With ``module``, of that module's (the others may be frozen). This default does not
        know."""
        return False


def module_call(kind) -> Optional[bool]:
    """Calling a value of ``kind``: True for a module with parameters, False for one without
    (a loss, an activation: its output has a graph only through its inputs), None for no module."""
    t = type(kind)
    if t is kinds.ModuleOf:  # a container holds the parameters of what it holds
        return any(q.endswith("Sequential") or (torch_api.layer(q) or {}).get("params")
                   for q in kind.quals)
    if kind is kinds.MODULE or (t is kinds.Instance and kind.cls.is_module):
        return True
    return None


def is_param(g, f) -> bool:
    """Is ``f`` a name every binding of which reaching it is a parameter of the scope ``g``
    (``graph.ScopeGraph``)?"""
    reach = g.uses.get(id(f)) if type(f) is ast.Name else None
    return bool(reach) and all(g.bindings[b].kind == "param" for b in reach)


def bound_value(bd) -> Optional[ast.expr]:
    """The expression binding ``bd`` (a ``graph.Binding``) binds its name to: an assignment's
    value, or the item of a display a tuple target unpacks (``z1, z2 = enc(a), enc(b)``;
    ``values, total = [], 0``); None for any other binding."""
    v = bd.value
    if bd.kind == "assign":
        return v
    if bd.kind == "unpack" and type(v) in (ast.Tuple, ast.List) and bd.index < len(v.elts) and \
            not any(type(e) is ast.Starred for e in v.elts) and not any(
                type(t) in (ast.Tuple, ast.List) and (len(t.elts) != len(v.elts) or any(
                    type(e) is ast.Starred for e in t.elts))
                for t in getattr(bd.stmt, "targets", ())):
        return v.elts[bd.index]  # (items by position only: no ``*`` on either side)
    return None


def empty_list(bd) -> bool:
    """Does binding ``bd`` bind its name to a fresh empty list (``x = []``, ``x = list()``, an
    item of ``a, b = [], []``)?"""
    v = bound_value(bd)
    return (type(v) is ast.List and not v.elts) or (
        type(v) is ast.Call and type(v.func) is ast.Name and v.func.id == "list" and
        not v.args and not v.keywords)


def appends(g, key: str):
    """(statement, method, its one argument) of each ``key.append(v)`` or ``key.extend(v)``
    statement of the scope ``g`` (``graph.ScopeGraph``), without keywords."""
    for s in g.expr_stmts:
        call = s.value
        if type(call) is ast.Call and type(call.func) is ast.Attribute and \
                call.func.attr in ("append", "extend") and type(call.func.value) is ast.Name \
                and call.func.value.id == key and len(call.args) == 1 and not call.keywords:
            yield s, call.func.attr, call.args[0]


def number_binding(bd) -> bool:
    """Does binding ``bd`` bind a number literal (``total = 0.0``)? Where others reaching the
    same read are attached, the value is attached or that number (``graph.ScopeGraph._read``,
    ``graph_sources.sources``: the other bindings decide)."""
    v = bound_value(bd)  # (``values, total = [], 0``: ``total``'s too)
    return type(v) is ast.Constant and type(v.value) in (int, float)


def summed_from_number(g, bd) -> bool:
    """Is binding ``bd`` of scope graph ``g`` a ``total += v`` that only a number literal's
    binding of ``total`` (``total = 0.0``) reaches, besides itself (a loop's earlier turns)? Its
    first turn made a new tensor of ``v`` there, as ``total = v`` would: differentiated, it
    proves grad on where ``v`` was computed (an addition in place onto a tensor from elsewhere
    proves nothing: under ``no_grad`` the tensor keeps its graph)."""
    s = bd.stmt
    if bd.kind != "aug" or type(s) is not ast.AugAssign or type(s.op) is not ast.Add or \
            type(s.target) is not ast.Name:
        return False
    reach = [g.bindings[i] for i in g.uses.get(id(s.target), ())]
    return any(number_binding(r) for r in reach) and all(
        number_binding(r) or r.stmt is s for r in reach)


def number_started(g, name: ast.Name):
    """The one binding besides number literals that reaches the read ``name`` of scope graph
    ``g`` where it sums from the number (``total = 0.0`` ... ``total = total + v``, or ``total +=
    v`` as ``summed_from_number`` reads it), else None: the value read, a tensor, is what that
    binding computed (under ``no_grad`` a new sum has no graph; an addition in place from the
    number's first turn on)."""
    reach = [g.bindings[b] for b in g.uses.get(id(name), ())]
    others = [bd for bd in reach if not number_binding(bd)]
    if len(others) != 1 or len(others) == len(reach):
        return None
    bd = others[0]
    if bd.kind == "assign" and type(bd.value) is ast.BinOp and type(bd.value.op) is ast.Add:
        return bd
    return bd if summed_from_number(g, bd) else None


def through_arguments(node: ast.Call) -> List[ast.expr]:
    """The arguments of a call whose result keeps their graph (``"through"``): positional ones
    and keyword values (``Categorical(logits=policy(obs))``), not ``*args`` nor ``out=``."""
    return [a for a in node.args if type(a) is not ast.Starred] + \
        [k.value for k in node.keywords if k.arg is not None and k.arg != "out"]


def unpacked_tuple(value) -> Optional[ast.Tuple]:
    """The tuple display a ``return value`` gives a caller that unpacks it (``loss, out =
    f(...)``): ``value`` itself, or the one branch of a conditional that is a tuple display
    where the other is no display (``return (loss, outputs) if return_outputs else loss``, the
    style of Hugging Face's ``compute_loss``: a scalar loss does not unpack, so a caller that
    unpacks took the tuple); None otherwise, or with a starred item."""
    if type(value) is ast.IfExp:
        tuples = [b for b in (value.body, value.orelse) if type(b) is ast.Tuple]
        others = [b for b in (value.body, value.orelse)
                  if type(b) in (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.IfExp)]
        value = tuples[0] if len(tuples) == 1 and len(others) == 1 else None
    if type(value) is not ast.Tuple or any(type(e) is ast.Starred for e in value.elts):
        return None
    return value


def argument_positions(srcs, any_region: bool = False) -> List[int]:
    """The positions of the arguments a summary's sources (``graph_sources``: (origin, region))
    name whole (``("p1", "")``: the caller's second argument, computed from in the caller's
    region; ``any_region``: in any, ``("p0", "*")`` of ``return tensor``), in order."""
    return sorted({int(o[1:]) for o, r in srcs
                   if o[:1] == "p" and o[1:].isdigit() and (any_region or not r)})


def first_fact(facts) -> Optional[Fact]:
    for f in facts:
        if f is not None:
            return f
    return None


_ORDER = {DIFFERENTIATED: 0, SIBLING: 1, DERIVED: 2, TERMS: 3, RETURNED: 4, GRAD_ON: 5,
          FORWARD: 6, HOLDS: 7}


def strongest(facts: List[Optional[Fact]]) -> Optional[Fact]:
    """Facts that all hold: the weakest decides whether grad is needed."""
    real = [f for f in facts if f is not None]
    if not real:
        return None
    needs = [f for f in real if f.needs_grad]
    return needs[0] if needs else min(real, key=lambda f: _ORDER[f.why])


def through_argument(g, arg) -> bool:
    """Is ``arg``, passed at a call of the scope, a callable whose result has a graph only
    through its arguments: a torch function as spelled (``F.cross_entropy``), or a name bound
    once in the scope to a module without parameters (``crit = nn.CrossEntropyLoss()``: a
    loss, ``Oracle.loss_name``)? A function of the project, or anything else, is not known to
    be one (``accuracy`` may return a number)."""
    t = type(arg)
    if t is ast.Attribute:
        return g.oracle.call(ast.Call(func=arg, args=[], keywords=[])) == "through"
    if t is not ast.Name:
        return False
    reach = g.uses.get(id(arg))
    if not reach or len(reach) != 1 or g.bindings[next(iter(reach))].kind != "assign" or \
            sum(1 for b in g.bindings if b.key == arg.id) != 1:
        return False
    return g.oracle.loss_name(arg.id)


def sum_of(g, expr) -> Optional[ast.AST]:
    """The sum ``expr`` is (``c + r``), or the sum the one binding of scope graph ``g``
    reaching it holds."""
    g._need()
    if is_sum(expr):
        return expr
    if type(expr) is ast.Name:
        reach = g.uses.get(id(expr))
        if reach is not None and len(reach) == 1:
            bd = g.bindings[next(iter(reach))]
            if bd.kind == "assign" and is_sum(bd.value):
                return bd.value
    return None
