"""The words of the graph facts (``semantic.graph``): which calls and methods keep, drop or
differentiate a graph, which ``with`` items and decorators set grad mode, and the small readings
of expressions the facts are built from (dotted names, constant-key paths, the terms of a sum).
Read from Python's ``ast``; no torch."""
from __future__ import annotations

import ast
import re
from typing import FrozenSet, Iterable, List, Optional, Set, Tuple

from ..syntax.grad_callers import grad_effect
from ..syntax.parameter_shapes import parameters_call
from ..syntax.walk import assigned_pairs, dotted, own_nodes, self_bindings, statements

#: tensor methods whose result is not attached (numbers, indices, detached tensors, arrays)
DETACHING = frozenset({
    "detach", "item", "tolist", "numpy", "argmax", "argmin", "size", "dim", "numel", "nonzero",
    "eq", "ne", "lt", "gt", "le", "ge", "isnan", "isinf", "isfinite", "long", "int", "bool",
    "requires_grad_", "data_ptr", "element_size", "type", "__len__"})
#: builtins whose result is a number or a string
NUMBERS = frozenset({"float", "int", "len", "str", "bool", "round", "abs_", "repr", "format"})
#: the binary operators whose result keeps its operands' graphs
ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.MatMult)
#: tensor methods whose result keeps the receiver's graph
KEEPS_GRAPH = frozenset({
    "cpu", "cuda", "to", "float", "double", "half", "bfloat16", "squeeze", "unsqueeze", "view",
    "view_as", "reshape", "flatten", "sigmoid", "softmax", "log_softmax", "exp", "log", "mean",
    "sum", "abs", "clone", "contiguous", "permute", "transpose", "t", "tanh", "relu", "pow",
    "sqrt", "norm", "expand", "expand_as", "repeat", "chunk", "split", "select", "index_select",
    "gather", "masked_select", "narrow", "max", "min", "prod", "std", "var", "neg", "mul", "div",
    "add", "sub", "matmul", "mm", "bmm", "clamp", "squeeze_", "unsqueeze_",
    # differentiable operations whose result is a floating tensor of an attached one's graph
    # (measured, torch 2.13: each result has a ``grad_fn``)
    "masked_fill", "where", "diagonal", "diag", "roll", "flip", "cumsum", "cumprod", "tril",
    "triu", "sin", "cos", "log1p", "expm1", "square", "rsqrt", "reciprocal", "logsumexp",
    "amax", "amin", "unflatten", "movedim", "swapaxes", "lerp", "nan_to_num", "clamp_min",
    "clamp_max", "maximum", "minimum", "outer", "baddbmm", "addmm", "erf", "sinh", "cosh",
    # a ``torch.distributions`` object made from attached parameters (``keeps_graph_function``):
    # these keep their graph (``sample()`` does not: it draws without grad)
    "log_prob", "entropy", "rsample", "cdf", "icdf"})
#: through these with numbers for arguments too (``adv.pow(2)``, ``err.abs()``): a function of
#: one tensor has a graph only where that tensor has one
THROUGH_DIFF_UNARY = frozenset({"pow", "abs", "square", "sqrt", "exp", "log", "neg"})
def _through_operand(expr):
    """The operand through which a differentiated ``expr`` holds its graph: the numerator of
    ``loss / k``, the base of ``err ** 2``, the tensor of ``adv.pow(2)`` (numbers for the
    rest); None for any other expression (``a / b``: either may hold it)."""
    t = type(expr)
    if t is ast.BinOp and type(expr.op) in (ast.Div, ast.Pow):
        return expr.left if plain_number(expr.right) else None
    if t is ast.Call and type(expr.func) is ast.Attribute and \
            expr.func.attr in THROUGH_DIFF_UNARY and not expr.keywords and \
            all(plain_number(a) for a in expr.args):
        return expr.func.value
    return None


def sole_operand(value) -> Optional[ast.Name]:
    """The one name a value is a function of, through ``_through_operand`` and the methods of
    ``THROUGH_DIFF`` (``adv.pow(2).mean()``, ``(err ** 2).mean()``: ``adv``, ``err``): where
    the value has a graph, that name has one; None for anything else (a sum, a call of
    several tensors)."""
    for _ in range(8):
        if type(value) is ast.Name:
            return value
        operand = _through_operand(value)
        if operand is None and type(value) is ast.Call and \
                type(value.func) is ast.Attribute and value.func.attr in THROUGH_DIFF and \
                not value.args:
            operand = value.func.value
        if operand is None:
            return None
        value = operand
    return None


#: through these a differentiated value's operand holds the graph too
THROUGH_DIFF = frozenset({"mean", "sum", "float", "double", "half", "to", "scale", "squeeze",
                           "view", "reshape", "mul", "div", "clone", "contiguous", "cpu", "cuda"})
#: tensor methods and torch functions whose result can require grad when grad is off: views
#: and conversions that may return the tensor itself (measured, torch 2.13: under ``no_grad``
#: these keep ``requires_grad`` of an input that has it), and dropout (the input itself when
#: not training). A differentiated value made by one of them proves nothing about grad mode
#: where it was made (``graph_sources.proving_region``)
NOT_GRAD_PROOF = frozenset({
    "chunk", "contiguous", "cpu", "cuda", "to", "type", "float", "double", "half", "bfloat16",
    "expand", "expand_as", "flatten", "unflatten", "narrow", "permute", "reshape", "select",
    "split", "squeeze", "unsqueeze", "t", "transpose", "swapaxes", "movedim", "view", "view_as",
    "unbind", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
    "feature_alpha_dropout"})


def same_or_view(value) -> bool:
    """Is ``value`` a name or path, or one reached from one only through items, attributes and
    ``NOT_GRAD_PROOF`` calls (``x``, ``out["loss"]``, ``ratio.view(-1)``)? Bound under
    ``no_grad`` it is still the tensor it was, or a view that keeps its ``requires_grad``;
    anything else computed there records no graph."""
    while True:
        t = type(value)
        if t is ast.Name:
            return True
        if t is ast.Attribute or t is ast.Subscript:
            value = value.value
        elif t is ast.Call and type(value.func) is ast.Attribute and \
                value.func.attr in NOT_GRAD_PROOF:
            value = value.func.value
        else:
            return False


#: torch functions whose result is attached when a tensor argument is
TORCH_KEEPS = frozenset({
    "cat", "concat", "concatenate", "stack", "hstack", "vstack", "sum", "mean", "matmul", "mm",
    "bmm", "einsum", "exp", "log", "softmax", "log_softmax", "sigmoid", "tanh", "relu", "where",
    "clamp", "abs", "sqrt", "pow", "flatten", "reshape", "squeeze", "unsqueeze", "cumsum",
    "mul", "add", "sub", "div", "norm", "max", "min", "logsumexp", "square", "transpose",
    "log10", "log2",
    # distances and products of one tensor result (``torch.cdist(emb, emb)``), elementwise and
    # indexing functions; not those giving a tuple (``topk``, ``sort``, ``chunk``: the indices
    # or pieces are read apart)
    "cdist", "pdist", "cosine_similarity", "pairwise_distance", "dist", "dot", "mv", "outer",
    "addmm", "baddbmm", "tensordot", "kron", "cross", "diag", "diagonal", "tril", "triu",
    "trace", "gather", "index_select", "masked_select", "take_along_dim", "amax", "amin",
    "prod", "var", "std", "sin", "cos", "neg", "reciprocal", "rsqrt", "log1p", "expm1",
    "logaddexp", "maximum", "minimum", "clip", "lerp", "roll", "flip", "permute", "movedim",
    "narrow", "select", "erf", "exp2", "logit", "addcmul", "addcdiv", "broadcast_to",
    # a tensor given to it comes back itself (or converted, in the graph): measured, 2.13
    # (not ``asarray``: ``requires_grad=False`` detaches, and its default changed in 2.x)
    "as_tensor"})


#: functions of other libraries whose result keeps their tensor argument's graph: horovod's
#: ``allreduce`` is "a thin wrapper around an autograd function" (its docstring)
OTHER_KEEPS = frozenset({"horovod.torch.allreduce"})


def keeps_graph_function(qualname: str) -> bool:
    """Is ``qualname`` a torch function (or one of ``OTHER_KEEPS``, or anything of
    ``torch.distributions``) whose result keeps its tensor arguments' graph?"""
    if qualname in OTHER_KEEPS:
        return True
    if qualname.startswith("torch.distributions."):
        # ``Normal(mu, std)``, ``Categorical(logits=out)``, ``kl_divergence(p, q)``: an object
        # (or a value) made from the arguments that keeps their graph
        return True
    if qualname.startswith("torch.nn.functional."):
        return qualname != "torch.nn.functional.one_hot"
    head, _, last = qualname.rpartition(".")
    return head == "torch" and last in TORCH_KEEPS


DIFFERENTIATING = frozenset({"backward", "manual_backward"})


#: methods a called value has when it is a module (``X.eval()`` ... ``X(x)``: the scope's
#: ``module_reads``, ``graph_calls.call_kind``)
MODULE_ONLY = frozenset({"parameters", "named_parameters", "eval", "train"})


def path_of(node: ast.AST) -> Optional[Tuple[str, str]]:
    """(root name, path) of ``out["loss"]``, ``out.loss``, ``out[0]``: constant keys only."""
    path = []
    while True:
        t = type(node)
        if t is ast.Attribute:
            path.append("." + node.attr)
            node = node.value
        elif t is ast.Subscript and type(node.slice) is ast.Constant and \
                type(node.slice.value) in (str, int):
            path.append(f"[{node.slice.value!r}]")
            node = node.value
        else:
            break
    if type(node) is not ast.Name or not path:
        return None
    return node.id, "".join(reversed(path))


def decorated_grad(fn: ast.AST) -> Optional[str]:
    """The grad mode a decorator puts the function in ("off", "on", "unknown"), or None: no
    decorator about grad (``staticmethod`` and ``classmethod`` are none; any other decorator:
    "unknown", it may wrap the function)."""
    out = None
    for d in getattr(fn, "decorator_list", ()):
        if type(d) is ast.Name and d.id in ("staticmethod", "classmethod"):
            continue  # (the function itself, called without an instance or with its class)
        eff = grad_effect(d) if type(d) is ast.Call else grad_effect(ast.Call(d, [], []))
        if eff is None:
            return "unknown"
        out = eff
    return out


def literal(value) -> bool:
    return type(value) in (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.JoinedStr)


def plain_number(node) -> bool:
    """A constant, or a plain name (a step count, a weight: not known attached)."""
    return type(node) is ast.Constant or type(node) is ast.Name or (
        type(node) is ast.Attribute and type(node.value) is ast.Name)


#: builtins that give back one of their arguments, or a number computed from them
_PICKS = frozenset({"min", "max", "abs", "pow"})


def computed(value) -> bool:
    """A binding's value computed by a call (not a number or detached), or indexing one."""
    t = type(value)
    if t is ast.Subscript:
        return computed(value.value) or type(value.value) is ast.Name
    if t is ast.BinOp:
        return computed(value.left) or computed(value.right)
    if t is ast.UnaryOp and type(value.op) is ast.USub:  # ``-(p * p.log()).sum()``
        return computed(value.operand)
    if t is not ast.Call:
        return False
    f = value.func
    if type(f) is ast.Name and f.id in _PICKS:
        # ``min(1.0, step / warmup)``: one of its arguments, so computed only where one is
        return any(computed(a) for a in value.args)
    if type(f) is ast.Name:
        return f.id not in NUMBERS
    if type(f) is ast.Call:  # ``nn.CrossEntropyLoss()(score, label)``: a module made and run
        return True
    return type(f) is ast.Attribute and f.attr not in DETACHING


def is_sum(value) -> bool:
    return type(value) is ast.BinOp and type(value.op) in (ast.Add, ast.Sub)


def terms(value) -> List[ast.AST]:
    """The terms of a sum with their weights' factors (``rec + beta * kl`` -> ``rec``,
    ``beta``, ``kl``; ``ce * alpha + mse * (1 - alpha)`` -> ``ce``, ``alpha``, ``mse``,
    ``1``, ``alpha``): which of them hold a graph the caller tells from their bindings."""
    t = type(value)
    if t is ast.BinOp and type(value.op) in (ast.Add, ast.Sub, ast.Mult):
        return terms(value.left) + terms(value.right)
    if t is ast.BinOp and type(value.op) is ast.Div:
        return terms(value.left)
    if t is ast.UnaryOp and type(value.op) is ast.USub:
        return terms(value.operand)
    return [value]


def factors(value) -> FrozenSet[int]:
    """The ids of the terms of sum ``value`` (``terms``) that weigh another in a product
    (``ret`` of ``-logp.sum() * ret``): a number as often as a tensor."""
    out: Set[int] = set()
    todo = [value]
    while todo:
        v = todo.pop()
        if type(v) is ast.BinOp and type(v.op) is ast.Mult:
            out.update(id(x) for side in (v.left, v.right) for x in terms(side))
        if type(v) is ast.BinOp and type(v.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div):
            todo.extend((v.left, v.right) if type(v.op) is not ast.Div else (v.left,))
        elif type(v) is ast.UnaryOp and type(v.op) is ast.USub:
            todo.append(v.operand)
    return frozenset(out)


def builtin_reduction(value) -> bool:
    """``sum(rewards)``, ``max(scores)``: a builtin's call of names, a number for a list of
    numbers (not ``sum(p.pow(2).sum() for p in ...)``, which computes its items)."""
    return type(value) is ast.Call and type(value.func) is ast.Name and \
        value.func.id in _BUILTIN_REDUCTIONS and bool(value.args) and \
        all(type(a) is ast.Name for a in value.args) and not value.keywords


_BUILTIN_REDUCTIONS = frozenset({"sum", "max", "min", "abs", "round", "len", "pow"})


def indexes_tensor(node: ast.Subscript) -> bool:
    """Indexing that keeps a tensor (a slice, an integer, a tuple of those); a string key picks
    an entry of a dict, whose other entries may be numbers, and ``[1]`` of ``out.max(1)`` the
    indices (``_indices``)."""
    s = node.slice
    return not (type(s) is ast.Constant and type(s.value) is str) and not _indices(node)


#: reductions along a dimension that give (values, indices): the indices are integers that
#: hold no graph (``out.max(1)[1]``, ``torch.min(out, dim=-1)[1]``)
_WITH_INDICES = frozenset({"max", "min", "median", "nanmedian", "mode", "kthvalue", "sort",
                           "topk", "cummax", "cummin"})


def _indices(node: ast.Subscript) -> bool:
    """``[1]`` (or ``[-1]``) of a reduction of ``_WITH_INDICES`` given a dimension: its indices."""
    s = node.slice
    if type(s) is ast.UnaryOp and type(s.op) is ast.USub:
        s = s.operand
        if type(s) is not ast.Constant or s.value != 1:
            return False
    elif type(s) is not ast.Constant or s.value != 1 or type(s.value) is not int:
        return False
    return values_and_indices(node.value)


#: methods (and ``torch`` functions) whose items are views of one tensor
_SPLITS = frozenset({"chunk", "split", "unbind", "tensor_split", "hsplit", "vsplit", "dsplit"})


def split_source(call) -> Optional[ast.expr]:
    """The tensor ``call`` splits into views (``h`` of ``h.chunk(3, -1)`` or of
    ``torch.split(h, 2)``: each item keeps its graph), else None."""
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute or \
            call.func.attr not in _SPLITS:
        return None
    if dotted(call.func) == "torch." + call.func.attr:
        return call.args[0] if call.args else None
    return call.func.value


def values_and_indices(call) -> bool:
    """Is ``call`` a reduction of ``_WITH_INDICES`` that gives (values, indices)
    (``out.max(1)``, ``torch.min(out, dim=-1)``, ``out.topk(3)``)?"""
    if type(call) is not ast.Call or type(call.func) is not ast.Attribute or \
            call.func.attr not in _WITH_INDICES:
        return False
    if call.func.attr not in ("max", "min", "median", "nanmedian"):
        return True  # always a (values, indices) pair
    function = dotted(call.func) == "torch." + call.func.attr
    pos = call.args[1:] if function else call.args
    return any(k.arg == "dim" for k in call.keywords) or (
        bool(pos) and type(pos[0]) is ast.Constant and type(pos[0].value) is int) or (
        bool(pos) and type(pos[0]) is ast.UnaryOp and type(pos[0].operand) is ast.Constant)


def function_params(fn) -> List[str]:
    a = fn.args
    names = [x.arg for x in a.posonlyargs + a.args]
    if a.vararg is not None:
        names.append(a.vararg.arg)
    names += [x.arg for x in a.kwonlyargs]
    if a.kwarg is not None:
        names.append(a.kwarg.arg)
    return names


def path_root(expr):
    """The name (or other expression) a path of items and attributes starts from."""
    while type(expr) in (ast.Attribute, ast.Subscript):
        expr = expr.value
    return expr


def calls_in(expr_stmts) -> Iterable[Tuple[ast.Call, ast.AST]]:
    """The calls made as statements of their own (``backward_step(loss)``: what a function that
    differentiates its argument returns is seldom used) with a plain name among their
    arguments, once each: the only calls whose summary may mark an argument."""
    for s in expr_stmts:
        n = s.value
        if type(n) is ast.Call and any(type(a) is ast.Name for a in n.args):
            yield n, s


def join_envs(a: dict, b: dict) -> dict:
    """The reaching bindings of two paths that meet: name -> the union of both sets."""
    out = dict(a)
    for k, v in b.items():
        got = out.get(k)
        out[k] = v if got is None else got | v
    return out


#: calls that make an empty or filled tensor, or a list or a dict (``made_container``)
_TENSOR_MAKERS = frozenset({"zeros", "empty", "ones", "full", "zeros_like", "empty_like",
                            "ones_like", "full_like"})
_CONTAINER_MAKERS = frozenset({"dict", "list", "defaultdict", "OrderedDict",
                               "collections.defaultdict", "collections.OrderedDict"})


def made_container(value, torch_name: Optional[str] = None) -> bool:
    """Does ``value`` make a fresh list or dict (a display, a comprehension, ``[x] * n``,
    ``dict(...)``, ``defaultdict(list)``), or, through ``torch_name`` (the name ``torch`` is
    bound to), a fresh tensor (``torch.zeros(n)``), or a NumPy array of objects
    (``object_array``)? Not a NumPy array of numbers, nor anything else."""
    t = type(value)
    if t in (ast.Dict, ast.List, ast.ListComp, ast.DictComp):
        return True
    if t is ast.BinOp and type(value.op) is ast.Mult:
        return type(value.left) is ast.List or type(value.right) is ast.List
    if t is ast.Call:
        d = dotted(value.func) or ""
        head, _, last = d.rpartition(".")
        return d in _CONTAINER_MAKERS or (torch_name is not None and head == torch_name and
                                          last in _TENSOR_MAKERS) or object_array(value)
    return False


def object_array(call: ast.Call) -> bool:
    """``np.empty(n, dtype=object)`` (``zeros``, ``full``): a NumPy array of Python objects,
    which keeps a tensor stored in it as it is (an array of numbers converts one to a number)."""
    head, _, last = (dotted(call.func) or "").rpartition(".")
    return head in ("np", "numpy") and last in ("empty", "zeros", "full") and any(
        k.arg == "dtype" and type(k.value) is ast.Name and k.value.id == "object"
        for k in call.keywords)



def reduced_values(expr: ast.Attribute) -> bool:
    """Is ``expr`` the ``.values`` of a reduction that gives (values, indices)
    (``out.max(dim=-1).values``, ``torch.topk(x, 3).values``: ``values_and_indices``), which
    keep the graph of what was reduced?"""
    return expr.attr == "values" and values_and_indices(expr.value)


_PARAMETER_CLASSES = frozenset({"Parameter", "nn.Parameter", "torch.nn.Parameter",
                                "nn.parameter.Parameter", "torch.nn.parameter.Parameter"})


def makes_leaf(value) -> bool:
    """Does ``value`` make a tensor that requires grad: a call given ``requires_grad=True``
    (``torch.zeros(1, requires_grad=True)``), or a ``Parameter(...)`` not given
    ``requires_grad=False``? What is computed from one with grad on has a graph."""
    if type(value) is not ast.Call:
        return False
    flag = next((k.value for k in value.keywords if k.arg == "requires_grad"), None)
    if dotted(value.func) in _PARAMETER_CLASSES:
        if flag is None and len(value.args) > 1:
            flag = value.args[1]
        return flag is None or (type(flag) is ast.Constant and flag.value is True)
    return type(flag) is ast.Constant and flag.value is True


def leaf_attributes(cls: ast.ClassDef) -> FrozenSet[str]:
    """The attributes of ``self`` that every method of ``cls`` binds only to a tensor that
    requires grad (``makes_leaf``): ``self.log_alpha = torch.zeros(1, requires_grad=True)``. An
    attribute also bound otherwise, augmented, or bound through a tuple is not one."""
    return frozenset(attr for attr, values in self_bindings(cls).items()
                     if all(v is not None and makes_leaf(v) for v in values))


def module_attributes(cls: ast.ClassDef) -> FrozenSet[str]:
    """The attributes of ``self`` that the methods of ``cls`` bind only to a parameter of the
    method (``self.model = model``; ``self.teacher, self.student = teacher.eval(), student``:
    a call of ``MODULE_ONLY`` or of ``to``/``cuda`` on it) and that are read as a module: some
    method calls ``parameters()``, ``named_parameters()``, ``eval()`` or ``train()`` on the
    attribute, or on that parameter where it binds it (``Adam(model.parameters())``). Only a
    module has them, so ``self.model(x)`` is a forward pass. (The statements first: the
    expressions are walked only where an attribute is bound so, the whole class only where
    its binding method does not read the parameter as a module.)"""
    handed: dict = {}  # attr -> [(method, parameter)]; None: bound otherwise too
    methods = [fn for fn in cls.body
               if type(fn) in (ast.FunctionDef, ast.AsyncFunctionDef) and fn.args.args]
    for fn in methods:
        me = fn.args.args[0].arg
        params = {a.arg for a in fn.args.posonlyargs + fn.args.args[1:] + fn.args.kwonlyargs}
        for n in statements(fn):
            t = type(n)
            pairs = [p for target in n.targets for p in assigned_pairs(target, n.value)] \
                if t is ast.Assign else [(n.target, None)] if t in (ast.AugAssign, ast.AnnAssign) \
                else ()
            for target, value in pairs:
                for a in _stored(target):
                    if type(a) is not ast.Attribute or type(a.value) is not ast.Name or \
                            a.value.id != me:
                        continue
                    name = _handed_module(value, params) if a is target else None
                    seen = handed.setdefault(a.attr, [])
                    if seen is not None:
                        handed[a.attr] = None if name is None else seen + [(fn, name)]
    handed = {attr: seen for attr, seen in handed.items() if seen}
    read: dict = {}  # method -> the dotted names it calls a ``MODULE_ONLY`` method on

    def module_reads(fn) -> set:
        got = read.get(fn)
        if got is None:
            got = read[fn] = {dotted(n.func.value) for n in own_nodes(fn) if type(n) is ast.Call
                              and type(n.func) is ast.Attribute and n.func.attr in MODULE_ONLY}
        return got

    found = {attr for attr, seen in handed.items()
             if any(name in module_reads(fn) for fn, name in seen)}
    if len(found) < len(handed):  # ``self.critic.eval()`` in another method
        found.update(d.partition(".")[2] for fn in methods for d in module_reads(fn)
                     if d and d.count(".") == 1 and d.startswith(fn.args.args[0].arg + ".") and
                     d.partition(".")[2] in handed)
    if len(found) < len(handed):  # ``pred = self.model(x)`` ... ``loss.backward()``
        found.update(a for fn in methods for a in _differentiated_calls(fn) if a in handed)
    return frozenset(found)


def _differentiated_calls(fn) -> FrozenSet[str]:
    """The attributes of ``self`` that method ``fn`` calls where what they return feeds a
    value it calls ``backward()`` on, by its names (``pred = self.model(xs)``; ``loss = ((pred
    - ys) ** 2).mean()``; ``loss.backward()``: ``model``). Only a module's forward pass gives
    a loss a graph to differentiate. (The text's names only: a superset of the data flow.)"""
    me = fn.args.args[0].arg
    feeding: List[ast.expr] = []
    assigns = []
    for n in own_nodes(fn):
        t = type(n)
        if t is ast.Assign:
            assigns.append(n)
        elif t is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "backward":
            feeding.append(n.func.value)
    if not feeding:
        return frozenset()
    bound = [(t.id, s.value) for s in assigns
             for target in s.targets for t in ast.walk(target) if type(t) is ast.Name]
    names: set = set()
    found: set = set()
    while feeding:
        for n in ast.walk(feeding.pop()):
            if type(n) is ast.Call and type(n.func) is ast.Attribute and \
                    type(n.func.value) is ast.Name and n.func.value.id == me:
                found.add(n.func.attr)
            elif type(n) is ast.Name and n.id not in names and n.id != me:
                names.add(n.id)
                feeding.extend(v for name, v in bound if name == n.id)
    return frozenset(found)


def _stored(target) -> Iterable[ast.expr]:
    """The targets a target binds: itself, or the items of a tuple or list (starred too)."""
    t = type(target)
    if t is ast.Tuple or t is ast.List:
        for e in target.elts:
            yield from _stored(e.value if type(e) is ast.Starred else e)
    else:
        yield target


def _handed_module(value: Optional[ast.expr], params) -> Optional[str]:
    """The parameter ``value`` is (``model``), or that a call of ``to``, ``cuda`` or a
    ``MODULE_ONLY`` method on it returns (``model.to(device)``, ``teacher.eval()``); else None."""
    while type(value) is ast.Call and type(value.func) is ast.Attribute and \
            value.func.attr in _HANDED_THROUGH:
        value = value.func.value
    return value.id if type(value) is ast.Name and value.id in params else None


_HANDED_THROUGH = frozenset({"to", "cuda", "eval", "train"})


def leaf_properties(cls: ast.ClassDef, leaves: FrozenSet[str]) -> FrozenSet[str]:
    """The properties of ``cls`` whose body returns an operation on one of the attributes
    ``leaves`` (``@property def alpha(self): return self.log_alpha.exp()``)."""
    found = set()
    for fn in cls.body:
        if type(fn) is not ast.FunctionDef or not fn.args.args or not any(
                dotted(d) == "property" for d in fn.decorator_list):
            continue
        body = [s for s in fn.body if not (type(s) is ast.Expr and type(s.value) is ast.Constant)]
        me = fn.args.args[0].arg
        if len(body) == 1 and type(body[0]) is ast.Return and type(body[0].value) in (
                ast.BinOp, ast.UnaryOp, ast.Call) and any(
                    type(n) is ast.Attribute and type(n.value) is ast.Name and n.value.id == me
                    and n.attr in leaves for n in ast.walk(body[0].value)):
            found.add(fn.name)
    return frozenset(found)


#: attributes of a tensor that are not a tensor holding its graph (``out.shape``, ``out.data``)
_NOT_GRAPH_FIELDS = frozenset({
    "shape", "dtype", "device", "grad", "data", "requires_grad", "is_leaf", "ndim", "grad_fn",
    "names", "layout", "is_cuda", "is_sparse", "is_quantized", "is_meta", "itemsize", "nbytes",
    "output_nr", "_version", "__class__", "__dict__"})


#: fields of a model's output that hand back what it was given (``outputs.labels``), no
#: output of its forward pass
_HANDED_FIELDS = frozenset({"labels", "label", "targets", "target", "input_ids",
                            "attention_mask", "token_type_ids", "inputs", "input"})
_FIRST_STEP = re.compile(r"\.(\w+)|\[['\"](\w+)['\"]\]")


def output_item(path: str) -> bool:
    """Is the first step of ``path`` a string key or a field that may hold a tensor of a
    forward pass's output, and none after it a field that is not one (``.logits``,
    ``["pred"]``; not ``.shape``, ``.logits.data``, nor what the model was handed,
    ``.labels``)?"""
    if not (path.startswith(".") or path.startswith("['") or path.startswith('["')):
        return False
    first = _FIRST_STEP.match(path)
    if first is not None and (first.group(1) or first.group(2)) in _HANDED_FIELDS:
        return False
    return not detached_path(path)


def keyed_values(display: ast.Dict) -> List[Tuple[str, ast.expr]]:
    """(key path ``['k']``, value) of each constant string key of a dict display."""
    return [(f"[{k.value!r}]", v) for k, v in zip(display.keys, display.values)
            if type(k) is ast.Constant and type(k.value) is str]


def detached_path(path: str) -> bool:
    """Does key path ``path`` read a field that holds no graph (``.data``, ``.grad``, ``.shape``:
    ``out.data.mean()`` is computed from no graph)?"""
    return "." in path and any(f in _NOT_GRAPH_FIELDS
                               for f in re.findall(r"\.(\w+)", re.sub(r"\[[^]]*\]", "", path)))


def graph_of_gradients(node: ast.Call):
    """The ``outputs`` of ``torch.autograd.grad(outputs, inputs, create_graph=True)`` (the
    gradients it returns are computed with a graph of their own, from the outputs' graph: a
    gradient penalty's), else None."""
    if not (dotted(node.func) or "").endswith("autograd.grad") or not any(
            k.arg == "create_graph" and type(k.value) is ast.Constant and k.value.value is True
            for k in node.keywords):
        return None
    return node.args[0] if node.args else next(
        (k.value for k in node.keywords if k.arg == "outputs"), None)


def parameter_taken(bd) -> bool:
    """Is loop target binding ``bd`` a module's parameter (``for p in model.parameters()``, ``for
    name, p in model.named_parameters()``, ``for e, p in zip(ema, model.parameters())``; called
    on a name or attribute, without arguments)?"""
    return parameters_of(bd) is not None


def parameters_of(bd) -> Optional[ast.expr]:
    """The module whose parameter loop target binding ``bd`` is (``model`` of ``for p in
    model.parameters()``: ``parameter_taken``), or None."""
    return walked_by(bd.stmt, bd.key)


def walked_by(s: ast.stmt, key: str) -> Optional[ast.expr]:
    """The module whose parameters the name ``key`` takes in turn as a target of loop ``s``,
    or None."""
    if type(s) not in (ast.For, ast.AsyncFor):
        return None
    it, t = s.iter, s.target
    if type(it) is ast.Call and type(it.func) is ast.Name and it.func.id == "zip":
        paired = zipped_with(s, key) if not it.keywords else None
        return paired[1].func.value if paired is not None and \
            _parameters(paired[1], paired[0], key) else None
    return it.func.value if _parameters(it, t, key) else None


def zipped_with(s, key: str) -> Optional[Tuple[ast.Name, ast.expr]]:
    """(target, argument) of ``for ..., key, ... in zip(..., arg, ...)``: the argument of
    ``zip`` that loop ``s`` pairs with its target name ``key``, or None."""
    it, t = getattr(s, "iter", None), getattr(s, "target", None)
    if type(it) is not ast.Call or type(it.func) is not ast.Name or it.func.id != "zip" or \
            type(t) is not ast.Tuple or len(t.elts) != len(it.args):
        return None
    return next(((e, a) for e, a in zip(t.elts, it.args) if type(e) is ast.Name and e.id == key),
                None)


def _parameters(it, t, key: str) -> bool:
    if not parameters_call(it):
        return False
    if it.func.attr == "parameters":
        return type(t) is ast.Name and t.id == key
    return it.func.attr == "named_parameters" and type(t) is ast.Tuple and len(t.elts) == 2 \
        and type(t.elts[1]) is ast.Name and t.elts[1].id == key
