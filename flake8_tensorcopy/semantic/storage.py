"""Storage facts: which values share storage with which, and under what condition.

A value made from another by ``detach()``, ``.data``, a conversion that returns its receiver
when there is nothing to convert (``.cpu()``, ``.to(...)``, ``.float()``, ``.type(dtype)``,
``.contiguous()``, ``torch.as_tensor(t)``, ``requires_grad_(...)``), a NumPy bridge
(``torch.from_numpy(a)``, ``torch.as_tensor(a)``, ``t.numpy()``, ``np.asarray(t)``), an
expanded view (``expand``, ``expand_as``, ``broadcast_to``) or a repeated list (``[t] * n``,
``[t for _ in range(n)]`` with ``t`` bound outside) shares storage with its *base*.

``share_of`` answers for one expression with a ``Share``: the base (a plain name or an
attribute chain), how it shares (the steps, in order), and the conditions under which it does
(``()``: on every run; ``("on the CPU",)``: only where the base is already there). What the code
shows of the base's device, dtype and layout (``placement``) decides: a conversion that the code
shows must convert (``torch.zeros(3, dtype=torch.uint8).float()``, ``x.cuda().cpu()``) shares
nothing; one that the code shows is a no-op (``torch.zeros(3).cpu()`` outside a default-device
context) shares on every run; else it may share, under the condition named. Copies
(``.clone()``, ``np.array(t)``, ``torch.tensor(a)``, ``a.copy()``, ``copy=True``) share nothing,
and anything else is unknown: no fact. The flow queries over these facts (is a side written in
place, and the other read after) are in ``storage_flow``.
"""
from __future__ import annotations

from typing import Optional, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name
from .kinds import Alias, NONE, is_tensor

#: how a value shares: TEN401's aliases, the conversions, the bridges, the repeated storage
ALIAS, CONVERSION, BRIDGE, EXPANDED, REPEATED = "alias", "conversion", "bridge", "expanded", \
    "repeated"

#: dtype conversion methods and the dtype they convert to
DTYPE_METHODS = {"float": "float32", "double": "float64", "half": "float16",
                 "bfloat16": "bfloat16", "long": "int64", "int": "int32", "short": "int16",
                 "bool": "bool", "byte": "uint8", "char": "int8", "cfloat": "complex64",
                 "cdouble": "complex128"}
#: ``torch.<name>`` dtypes (and their aliases)
DTYPES = {"float32": "float32", "float": "float32", "float64": "float64", "double": "float64",
          "float16": "float16", "half": "float16", "bfloat16": "bfloat16", "int64": "int64",
          "long": "int64", "int32": "int32", "int": "int32", "int16": "int16", "short": "int16",
          "int8": "int8", "uint8": "uint8", "bool": "bool", "complex64": "complex64",
          "complex128": "complex128", "cfloat": "complex64", "cdouble": "complex128"}
#: a dtype the code shows only as floating (the result of a true division)
FLOATING = "floating"
FLOATING_DTYPES = frozenset({"float32", "float64", "float16", "bfloat16", "complex64",
                             "complex128"})
#: the methods ``share_of`` reads as conversions (the engine's pre-filter looks for these)
CONVERSION_METHODS = frozenset(DTYPE_METHODS) | {"cpu", "to", "type", "contiguous",
                                                 "requires_grad_"}
EXPAND_METHODS = frozenset({"expand", "expand_as", "broadcast_to"})
#: factories whose result is float32 (the default dtype) on the default device, contiguous
FLOAT_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.rand",
                             "torch.randn", "torch.linspace", "torch.eye"})
#: other factories: the default device, contiguous, dtype from ``dtype=`` only
FACTORIES = FLOAT_FACTORIES | {"torch.tensor", "torch.full", "torch.arange", "torch.randint",
                               "torch.zeros_like", "torch.ones_like", "torch.empty_like",
                               "torch.rand_like", "torch.randn_like", "torch.full_like"}
NUMPY_BRIDGE_TO_TENSOR = frozenset({"torch.from_numpy", "torch.as_tensor", "torch.asarray"})
NUMPY_BRIDGE_TO_ARRAY = frozenset({"numpy.asarray"})


class Place:
    """What the code shows of a tensor's device, dtype and layout (None: not shown)."""

    __slots__ = ("device", "dtype", "contiguous", "array")

    def __init__(self, device: Optional[str] = None, dtype: Optional[str] = None,
                 contiguous: Optional[bool] = None, array: bool = False) -> None:
        self.device = device
        self.dtype = dtype
        self.contiguous = contiguous
        #: a NumPy array (made by ``numpy.*`` or ``t.numpy()``), not a tensor
        self.array = array


class Share:
    """``value`` shares storage with ``base``: ``how`` (one of ALIAS, CONVERSION, BRIDGE,
    EXPANDED, REPEATED), ``steps`` (the calls, for messages), ``conditions`` (under which it
    shares; empty: on every run), ``base_array`` (the base is a NumPy array, the value a tensor;
    or, for ``t.numpy()``, the value is the array: ``value_array``)."""

    __slots__ = ("value", "base", "base_name", "how", "steps", "conditions", "base_array",
                 "value_array", "call")

    def __init__(self, value, base, how: str, steps: Tuple[str, ...] = (),
                 conditions: Tuple[str, ...] = (), base_array: bool = False,
                 value_array: bool = False, call=None) -> None:
        self.value = value
        self.base = base
        self.base_name = dotted_name(base) or ""
        self.how = how
        self.steps = steps
        self.conditions = conditions
        self.base_array = base_array
        self.value_array = value_array
        #: the call the fix rewrites (the outermost sharing step)
        self.call = call

    @property
    def always(self) -> bool:
        """Shares on every run (not only under a condition)."""
        return not self.conditions


# ---- TEN401's aliases: ``x.detach()`` and ``x.data`` of a named ``x`` --------------------------

def detach_alias(recv, node, evidence: str) -> Optional[Alias]:
    """``x.detach()`` of a named ``x``: an alias of ``x`` on every run."""
    src = dotted_name(recv)
    if src is None or node.args:
        return None
    return Alias(src, "detach", node, recv, evidence)


def data_alias(value, node, evidence: str) -> Optional[Alias]:
    """``x.data`` of a named ``x``: an alias of ``x`` (memory, not the version counter)."""
    src = dotted_name(value)
    if type(value) not in (nodes.Name, nodes.Attribute) or src is None:
        return None
    return Alias(src, "data", node, value, evidence)


# ---- what the code shows of a value's placement ------------------------------------------------

def _kwarg(call, name: str):
    for a in call.args:
        if a.keyword is not None and a.keyword.value == name:
            return a.value
    return None


def _positional(call):
    return [a.value for a in call.args if a.keyword is None and not a.star]


def _true(expr) -> bool:
    return type(expr) is nodes.Name and expr.value == "True"


def _device_literal(expr, inf) -> Optional[str]:
    """``"cpu"``, ``"cuda:0"``, ``torch.device("cuda")``: the device type; else None."""
    if type(expr) is nodes.Call and _qual(inf, expr.func) == "torch.device":
        pos = _positional(expr)
        expr = pos[0] if pos else None
    if type(expr) is nodes.SimpleString:
        try:
            text = expr.evaluated_value
        except Exception:  # pragma: no cover - a malformed literal
            return None
        if isinstance(text, str):
            kind = text.split(":")[0]
            if kind in ("cpu", "cuda", "mps", "xpu", "meta"):
                return kind
    return None


def _dtype_literal(expr, inf) -> Optional[str]:
    q = _qual(inf, expr) if type(expr) in (nodes.Name, nodes.Attribute) else None
    if q and q.startswith("torch."):
        return DTYPES.get(q[6:])
    return None


def _qual(inf, node) -> Optional[str]:
    try:
        return inf.qualname(node)
    except (RecursionError, AttributeError):
        return None


def placement(expr, inf, binding=None) -> Place:
    """What ``expr`` shows of its device, dtype and layout. ``binding(name)`` gives the one
    value a plain name is bound to in the code before (None: not known), for names."""
    for _ in range(32):
        t = type(expr)
        if t is nodes.Name and binding is not None:
            bound = binding(expr.value)
            if bound is None:
                return Place()
            expr = bound
            continue
        if t is nodes.BinaryOperation and type(expr.operator) is nodes.Divide:
            return Place(dtype=FLOATING)  # true division: a floating dtype, whatever it divides
        if t is nodes.Comparison:
            return Place(dtype="bool")  # ``labels != 0``: a new bool tensor (or a bool)
        if t is not nodes.Call:
            return Place()
        func = expr.func
        if type(func) is nodes.Attribute and _qual(inf, func) is None:
            m = func.attr.value
            inner = placement(func.value, inf, binding) if m != "numpy" else Place()
            if m == "cuda":
                return Place("cuda", inner.dtype, inner.contiguous)
            if m == "cpu":
                return Place("cpu", inner.dtype, inner.contiguous)
            if m in DTYPE_METHODS:
                return Place(inner.device, DTYPE_METHODS[m], inner.contiguous)
            if m == "contiguous" and not expr.args:
                return Place(inner.device, inner.dtype, True)
            if m == "to":
                target = _to_target(expr, inf)
                if target is None:
                    return Place()
                device, dtype, _ = target
                return Place(device or inner.device, dtype or inner.dtype, inner.contiguous)
            if m in ("clone", "detach") and not expr.args:
                return Place(inner.device, inner.dtype, inner.contiguous if m == "detach" else None)
            if m in ("view", "reshape", "flatten") and _sizes(expr):
                # another shape of the same elements: the same device and dtype, contiguous
                # where the tensor is
                return Place(inner.device, inner.dtype, inner.contiguous)
            if m == "numpy":
                return Place(array=True)
            return Place()
        q = _qual(inf, func)
        if q is None:
            return Place()
        if q.startswith("numpy."):
            return Place(array=True)
        if q in FACTORIES:
            dev = _kwarg(expr, "device")
            device = _device_literal(dev, inf) if dev is not None else (
                "cpu" if not inf.default_device_may_differ and not q.endswith("_like") else None)
            dt = _kwarg(expr, "dtype")
            dtype = _dtype_literal(dt, inf) if dt is not None else (
                "float32" if q in FLOAT_FACTORIES and not _sets_default_dtype(inf) else
                "int64" if q == "torch.randint" else _arange_dtype(expr) if q == "torch.arange"
                else None)
            return Place(device, dtype, True)
        return Place()
    return Place()


def _sizes(call) -> bool:
    """Are the arguments of ``view``/``reshape``/``flatten`` sizes (``view(5, 3)``,
    ``view(b, -1)``, ``view(-1)``, none), not a dtype (``view(torch.uint8)``, ``view(dt)``)?"""
    args = call.args
    if any(a.star or a.keyword is not None for a in args):
        return False
    kinds = (nodes.Integer, nodes.UnaryOperation, nodes.Name) if len(args) > 1 else \
        (nodes.Integer, nodes.UnaryOperation)
    return all(type(a.value) in kinds for a in args)


def _arange_dtype(call) -> str:
    """``torch.arange(10)``: int64; ``arange(n)``: int64, or float32 for a float ``n``."""
    pos = _positional(call)
    return "int64" if all(type(a) is nodes.Integer for a in pos) else "int64|float32"


def target_device(call, inf) -> Optional[str]:
    """The device ``t.to(...)`` moves to, as its arguments show (None: not shown)."""
    return (_to_target(call, inf) or (None,))[0]


def device_literal(expr, inf) -> Optional[str]:
    """``"cuda"`` of ``"cuda:0"`` / ``torch.device("cuda")``; None for anything else."""
    return _device_literal(expr, inf)


def _sets_default_dtype(inf) -> bool:
    """Does the file call ``torch.set_default_dtype`` (or ``set_default_tensor_type``)
    anywhere? Then a factory's dtype is not shown. Read once per file from its ``ast``."""
    known = getattr(inf, "storage_default_dtype", None)
    if known is None:
        tree = getattr(inf, "module_tree", None)
        known = True
        if tree is not None:
            import ast
            known = any(isinstance(n, ast.Attribute) and n.attr in (
                "set_default_dtype", "set_default_tensor_type") or (
                    isinstance(n, ast.Name) and n.id in ("set_default_dtype",
                                                         "set_default_tensor_type"))
                for n in ast.walk(tree))
        try:
            inf.storage_default_dtype = known
        except AttributeError:  # pragma: no cover - a slotted inference
            pass
    return known


def _to_target(call, inf) -> Optional[Tuple[Optional[str], Optional[str], str]]:
    """``t.to(...)``: (device, dtype, the condition's words) as far as the arguments show;
    None with ``copy=True`` or a shape this does not read (``non_blocking`` is read past)."""
    if any(a.star for a in call.args):
        return None
    copy = _kwarg(call, "copy")
    if copy is not None:
        return None if _true(copy) or type(copy) is not nodes.Name else _to_target_args(call, inf)
    return _to_target_args(call, inf)


def _to_target_args(call, inf):
    pos = _positional(call)
    dev_kw, dtype_kw = _kwarg(call, "device"), _kwarg(call, "dtype")
    if len(pos) > 2 or (not pos and dev_kw is None and dtype_kw is None):
        return None
    device = dtype = None
    words = []
    for expr in pos + [e for e in (dev_kw, dtype_kw) if e is not None]:
        d = _device_literal(expr, inf)
        if d is not None:
            device = d
            words.append(f"on the {d.upper() if d != 'cuda' else 'CUDA'} device"
                         if d != "cpu" else "on the CPU")
            continue
        dt = _dtype_literal(expr, inf)
        if dt is not None:
            dtype = dt
            words.append(dt)
            continue
        if type(expr) in (nodes.Name, nodes.Attribute):
            words.append(f"matching `{dotted_name(expr)}`")
            continue
        return None
    return device, dtype, " and ".join(words)


# ---- what an expression shares storage with ----------------------------------------------------

def share_of(expr, inf, binding=None) -> Optional[Share]:
    """The storage fact of ``expr``: a conversion chain, a bridge, an expanded view or a
    repeated list over a named base; None when it shares nothing or nothing is known."""
    t = type(expr)
    if t is nodes.BinaryOperation and type(expr.operator) is nodes.Multiply:
        return _repeated_product(expr, inf)
    if t is nodes.ListComp:
        return _repeated_comprehension(expr, inf)
    if t is not nodes.Call:
        return None
    func = expr.func
    if type(func) in (nodes.Name, nodes.Attribute):
        q = _qual(inf, func)
        if q is not None:
            return _qualified(expr, q, inf, binding)
    if type(func) is not nodes.Attribute:
        return None
    return _chain(expr, inf, binding)


def _chain(expr, inf, binding) -> Optional[Share]:
    """``base.detach().cpu()``, ``base.float()``, ``base.numpy()``, ``base.expand(...)``: the
    sharing steps down to a named base, outermost call last."""
    steps = []
    conditions = []
    node = expr
    how = None
    value_array = False
    while True:
        t = type(node)
        if t is nodes.Call and type(node.func) is nodes.Attribute:
            m = node.func.attr.value
            recv = node.func.value
            if m == "detach" and not node.args:
                steps.append("detach()")
                node = recv
                continue
            if m in EXPAND_METHODS and node is expr:
                how = EXPANDED
                steps.append(f"{m}(...)")
                node = recv
                continue
            if m == "numpy" and node is expr and _numpy_shares(node):
                how, value_array = BRIDGE, True
                steps.append("numpy()")
                node = recv
                continue
            if m in CONVERSION_METHODS and (how in (None, CONVERSION) or value_array):
                # ``t.cpu().numpy()``: the bridge shares with ``t`` where ``.cpu()`` returned it
                cond = _conversion_condition(node, m, recv, inf, binding)
                if cond is None:
                    return None  # a copy on every run, or not a conversion this reads
                how = how or CONVERSION
                steps.append(_step_text(node, m))
                if cond:
                    conditions.append(cond)
                node = recv
                continue
            return None
        if t is nodes.Attribute and node.attr.value == "data":
            steps.append("data")
            node = node.value
            continue
        break
    if how is None or type(node) not in (nodes.Name, nodes.Attribute) or dotted_name(node) is None:
        return None
    base_kind = inf.infer(node)
    if not is_tensor(base_kind):
        return None  # only a value known to be a tensor: ``cfg.to(...)``, ``df.float()``...
    steps.reverse()
    return Share(expr, node, how, tuple(steps), tuple(dict.fromkeys(reversed(conditions))),
                 value_array=value_array, call=expr)


def _numpy_shares(call) -> bool:
    """``t.numpy()`` shares memory; ``t.numpy(force=True)`` may copy."""
    return not call.args


def _step_text(call, m: str) -> str:
    return f"{m}()" if not call.args else f"{m}(...)"


def _conversion_condition(call, m: str, recv, inf, binding) -> Optional[str]:
    """The words for when the conversion ``recv.m(...)`` returns ``recv`` itself: "" on every
    run (the code shows nothing to convert), None where it never does (the code shows it
    converts, ``copy=True``) or where this is not a conversion it reads."""
    place = placement(recv, inf, binding)
    if m == "cpu":
        return None if call.args else _device_condition(place, "cpu", "on the CPU")
    if m in DTYPE_METHODS:
        if call.args:
            return None  # ``t.float(memory_format=...)``: not read
        return _dtype_condition(place, DTYPE_METHODS[m])
    if m == "type":
        pos = _positional(call)
        dt = _dtype_literal(pos[0], inf) if len(pos) == 1 and len(call.args) == 1 else None
        return None if dt is None else _dtype_condition(place, dt)
    if m == "contiguous":
        if call.args:
            return None
        if place.contiguous:
            return ""
        return "when it is already contiguous"
    if m == "requires_grad_":
        pos = _positional(call)
        # always its receiver; read only as ``requires_grad_(False)``, the conversion-like use
        return "" if len(call.args) == 1 and len(pos) == 1 and type(pos[0]) is nodes.Name \
            and pos[0].value == "False" else None
    if m == "to":
        target = _to_target(call, inf)
        if target is None:
            return None
        device, dtype, words = target
        conds = []
        if device is not None:
            c = _device_condition(place, device, words.split(" and ")[0])
            if c is None:
                return None
            conds.append(c)
        if dtype is not None:
            c = _dtype_condition(place, dtype)
            if c is None:
                return None
            conds.append(c)
        if device is None and dtype is None:
            conds.append(f"when it already {words.replace('matching', 'matches')}")
        return " and ".join(c for c in conds if c)
    return None


def presumed_self(call, base, leading: bool, inf, binding=None) -> Optional[str]:
    """``v.m(...)`` (``call``) of a basic-slice view ``v`` of ``base`` (``leading``: ``v``
    slices the first dimension only, so it is contiguous wherever ``base`` is): the words for
    when the conversion returns ``v`` itself, where that holds on every run ("") or for a
    tensor of what the code shows of ``base`` and torch's defaults otherwise: float32 (unless
    the file sets another default dtype), contiguous (unless ``base`` is a name bound to
    something whose layout the code does not show: ``x = y.T``). None where it converts, or
    returns ``v`` only on some other condition (``.double()`` of a tensor not shown to be
    float64, ``.cpu()``)."""
    if type(call) is not nodes.Call or type(call.func) is not nodes.Attribute:
        return None
    m = call.func.attr.value
    if m == "contiguous":
        if call.args or not leading:
            return None
        if placement(base, inf, binding).contiguous:
            return ""
        bound = binding(base.value) if binding is not None and type(base) is nodes.Name else None
        return "when it is contiguous" if bound is None else None
    if m not in DTYPE_METHODS and m not in ("to", "type"):
        return None
    words = _conversion_condition(call, m, base, inf, binding)
    if words == "" or (words == "when it is already float32" and not _sets_default_dtype(inf)):
        return words
    return None


def _device_condition(place: Place, device: str, words: str) -> Optional[str]:
    if place.device is None:
        return f"when it is already {words}"
    return "" if place.device == device else None


def _dtype_condition(place: Place, dtype: str) -> Optional[str]:
    if place.dtype is None or (place.dtype == FLOATING and dtype in FLOATING_DTYPES) or (
            "|" in place.dtype and dtype in place.dtype.split("|")):
        return f"when it is already {dtype}"
    if "|" in place.dtype:
        return None  # one of some dtypes (``arange(n)``), none of them the target: a copy
    if place.dtype == FLOATING:
        return None  # a floating value converted to an integer or bool dtype: a copy
    return "" if place.dtype == dtype else None


def _qualified(call, q: str, inf, binding) -> Optional[Share]:
    """``torch.from_numpy(a)``, ``torch.as_tensor(x)``, ``np.asarray(t)``,
    ``torch.broadcast_to(x, shape)`` over a named first argument."""
    pos = _positional(call)
    if not pos or type(pos[0]) not in (nodes.Name, nodes.Attribute) or \
            dotted_name(pos[0]) is None or any(a.star for a in call.args):
        return None
    base = pos[0]
    others = {a.keyword.value for a in call.args if a.keyword is not None}
    name = q.rpartition(".")[2]
    if q == "torch.broadcast_to" and len(pos) == 2 and is_tensor(inf.infer(base)):
        return Share(call, base, EXPANDED, ("broadcast_to(...)",), call=call)
    if q == "torch.from_numpy" and len(pos) == 1 and not others:
        return Share(call, base, BRIDGE, ("from_numpy()",), base_array=True, call=call)
    if q in NUMPY_BRIDGE_TO_TENSOR and len(pos) == 1 and others <= {"dtype", "device"}:
        base_kind = inf.infer(base)
        place = placement(base, inf, binding)
        conds = []
        dev = _kwarg(call, "device")
        if dev is not None:
            d = _device_literal(dev, inf)
            if d is not None and d != "cpu" and place.array:
                return None  # a copy to another device
            conds.append("when the device is the CPU" if d is None else "")
        dt = _kwarg(call, "dtype")
        if dt is not None:
            want = _dtype_literal(dt, inf)
            if want is None:
                conds.append(f"when `{dotted_name(base)}` already has dtype `{dotted_name(dt)}`")
            elif place.array:
                conds.append(f"when `{dotted_name(base)}` is already {want}")
            else:
                c = _dtype_condition(place, want)
                if c is None:
                    return None
                conds.append(c)
        if place.array:
            return Share(call, base, BRIDGE, (f"{name}()",), tuple(c for c in conds if c),
                         base_array=True, call=call)
        if is_tensor(base_kind) and q == "torch.as_tensor":
            return Share(call, base, CONVERSION, ("as_tensor()",), tuple(c for c in conds if c),
                         call=call)
        return None
    if q in NUMPY_BRIDGE_TO_ARRAY and len(pos) == 1 and not others and \
            is_tensor(inf.infer(base)):
        return Share(call, base, BRIDGE, ("asarray()",), value_array=True, call=call)
    return None


# ---- repeated lists ----------------------------------------------------------------------------

def _repeated_product(expr, inf) -> Optional[Share]:
    """``[t] * n`` or ``n * [t]``: one tensor ``n`` times."""
    for lst, count in ((expr.left, expr.right), (expr.right, expr.left)):
        if type(lst) is nodes.List and len(lst.elements) == 1 and \
                type(lst.elements[0]) is nodes.Element and type(count) is not nodes.List:
            item = lst.elements[0].value
            if type(count) is nodes.Integer and count.value in ("0", "1"):
                return None
            kind = inf.infer(item)
            if is_tensor(kind) and kind is not NONE:
                return Share(expr, item, REPEATED, ("[...] * n",), call=expr)
    return None


def _repeated_comprehension(expr, inf) -> Optional[Share]:
    """``[t for _ in range(n)]``: a name bound outside the comprehension, ``n`` times."""
    elt = expr.elt
    comp = expr.for_in
    if type(elt) is not nodes.Name or comp is None or comp.ifs or comp.inner_for_in is not None:
        return None
    if _binds(comp.target, elt.value):
        return None
    if not is_tensor(inf.lookup(elt.value)):
        return None
    return Share(expr, elt, REPEATED, ("[... for _ in ...]",), call=expr)


def _binds(target, name: str) -> bool:
    if type(target) is nodes.Name:
        return target.value == name
    return any(_binds(c, name) for c in target.children)


# ---- expanded rows -----------------------------------------------------------------------------

def expanded_rows(expr, inf, binding=None) -> Optional[Share]:
    """``R.expand(n, -1, ...)``, ``R.broadcast_to((n, ...))``, ``torch.broadcast_to(R, (n, ...))``
    where the code shows that dimension 0 of ``R`` has size 1 (``x.unsqueeze(0)``, ``x[None]``,
    ``torch.zeros(1, d)``) and that the other dimensions are kept (``-1``, or the sizes ``R``
    shows): every row of the result is the same memory, and an item assignment through one row
    (``e[i] = row``) goes through silently into all of them. None where this is not shown."""
    if type(expr) is not nodes.Call or any(a.keyword is not None or a.star for a in expr.args):
        return None
    func = expr.func
    q = _qual(inf, func) if type(func) in (nodes.Name, nodes.Attribute) else None
    args = _positional(expr)
    if q == "torch.broadcast_to" and len(args) == 2:
        recv, sizes = args[0], _literal_sizes(args[1])
    elif type(func) is nodes.Attribute and q is None and func.attr.value in ("expand",
                                                                           "broadcast_to"):
        recv = func.value
        sizes = args if func.attr.value == "expand" else (
            _literal_sizes(args[0]) if len(args) == 1 else None)
        if func.attr.value == "expand" and len(args) == 1:
            sizes = _literal_sizes(args[0]) or args
    else:
        return None
    if not sizes or len(sizes) < 2:
        return None
    first = sizes[0]
    if type(first) is nodes.UnaryOperation or (type(first) is nodes.Integer and
                                               first.value in ("0", "1")):
        return None  # ``-1``: kept; 0 or 1 rows: nothing repeats
    dims = _leading_one(recv, inf, binding)
    if dims is None:
        return None
    for i, size in enumerate(sizes[1:], 1):
        kept = type(size) is nodes.UnaryOperation and type(size.expression) is nodes.Integer \
            and size.expression.value == "1"
        if not kept and not (dims and i < len(dims) and dims[i] is not None and
                             type(size) is nodes.Integer and size.value == dims[i]
                             and dims[i] != "1"):
            return None
    base = recv
    while type(base) is nodes.Call and type(base.func) is nodes.Attribute:
        base = base.func.value
    while type(base) is nodes.Subscript:
        base = base.value
    return Share(expr, base, EXPANDED, ("expand(...)",), call=expr)


def _literal_sizes(expr):
    if type(expr) in (nodes.Tuple, nodes.List) and all(type(e) is nodes.Element
                                                        for e in expr.elements):
        return [e.value for e in expr.elements]
    return None


def _leading_one(recv, inf, binding):
    """The sizes ``recv`` shows (None for one not shown) when its dimension 0 is shown to be 1:
    ``x.unsqueeze(0)``/``x[None]`` (the rest not shown: ``[]``), ``torch.zeros(1, 3)``; else
    None."""
    for _ in range(8):
        if type(recv) is nodes.Name and binding is not None:
            bound = binding(recv.value)
            if bound is None:
                return None
            recv = bound
            continue
        break
    t = type(recv)
    if t is nodes.Call and type(recv.func) is nodes.Attribute and \
            recv.func.attr.value == "unsqueeze" and len(recv.args) == 1 and \
            type(recv.args[0].value) is nodes.Integer and recv.args[0].value.value == "0":
        return []
    if t is nodes.Subscript and len(recv.slice) >= 1 and \
            type(recv.slice[0].slice) is nodes.Index and \
            type(recv.slice[0].slice.value) is nodes.Name and \
            recv.slice[0].slice.value.value == "None":
        return []
    if t is nodes.Call and _qual(inf, recv.func) in FACTORIES and \
            not _qual(inf, recv.func).endswith("_like"):
        pos = _positional(recv)
        if len(pos) == 1 and type(pos[0]) in (nodes.Tuple, nodes.List):
            pos = _literal_sizes(pos[0]) or []
        dims = [p.value if type(p) is nodes.Integer else None for p in pos]
        if dims and dims[0] == "1" and _qual(inf, recv.func) not in (
                "torch.tensor", "torch.arange", "torch.linspace", "torch.full", "torch.randint"):
            return dims
    return None
