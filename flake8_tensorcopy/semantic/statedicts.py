"""Storage facts of state dicts: which values hold a module's live tensors (TEN402 asks).

``X.state_dict()`` returns references to the parameters and buffers; a shallow copy of the
dict (``.copy()``, ``dict(...)``, ``copy.copy(...)``, a comprehension over ``.items()``) copies
the references; ``v.detach()`` shares the storage; ``v.cpu()`` is the same tensor where ``v`` is
on the CPU (a copy on a GPU). ``live_state_dict`` tells, for one expression of the syntax tree,
whether it holds such tensors; a name's own storage fact (bound to a live state dict on every
path reaching it) comes from the caller (``holds_live``), which asks the flow-sensitive binding
state. What a project function returns or writes is ``index.statedict_summaries``'s, which
reads its ``return`` values with ``live_state_dict``.

Reads that see only a dict's keys (``len(sd)``, ``sd.keys()``, ``k in sd``) read no storage:
``reads_keys_only`` tells them apart from reads of the tensors.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Tuple

from ..syntax import nodes
from ..syntax.nodes import dotted_name, last_name
from ..syntax.snapshot_shapes import VIEW_ATTRS, VIEW_METHODS

#: conversions that return the SAME tensor (not a copy) in the conditions named, measured on
#: torch 2.13 (shared/FACTS.md section 7): ``t.cpu()`` and ``t.to("cpu")`` of a CPU tensor return
#: ``t`` itself, ``t.float()`` of a float32 one too, ``t.numpy()`` (CPU only) shares its memory,
#: ``detach()`` always shares the storage. The general table of such conversions
#: (``.float()``, ``.contiguous()``, ``as_tensor``...) belongs in ``semantic/storage.py``; this
#: one is the part state dicts need until that module exists.
SAME_STORAGE = {"detach": "", "cpu": "on CPU", "numpy": "on CPU",
                "float": "for float32 tensors", "contiguous": "for contiguous tensors"}
#: the methods that give a view of the tensor (``p.view(-1)``: ``VIEW_METHODS``), each with
#: where it does: everywhere, or where the tensor is contiguous (as a module's parameters and
#: buffers are)
VIEWS = {m: "for contiguous tensors" if m in ("reshape", "flatten") else ""
         for m in VIEW_METHODS}
#: for each condition of ``SAME_STORAGE``: where the conversion copies instead
COPIES_ELSEWHERE = {"on CPU": "on a GPU", "for float32 tensors": "for another dtype",
                    "for contiguous tensors": "for a non-contiguous one"}
#: ``t.to(<one of these>)`` is ``t.float()``
_FLOAT32 = frozenset({"torch.float32", "torch.float"})
#: ``t.to(<one of these>)`` is ``t.cpu()``
_CPU_DEVICES = frozenset({"'cpu'", '"cpu"'})

#: receivers whose ``state_dict()`` holds no module's tensors (plain numbers or strings)
SKIP_RECEIVERS = ("sched", "scaler", "sampler", "loader", "dataset", "tokenizer", "env")
#: callables that make a shallow copy of a dict
DICT_COPIES = frozenset({"dict", "OrderedDict", "collections.OrderedDict", "copy.copy"})
#: calls that see only a dict's keys
_KEY_READERS = frozenset({"len", "list", "set", "sorted", "tuple", "frozenset"})
_KEY_METHODS = frozenset({"keys", "__len__", "__contains__"})


class Live(NamedTuple):
    """An expression that holds a module's live tensors."""
    #: ``X`` of ``X.state_dict()``; None when the expression copies a name's live dict
    receiver: Optional[nodes.BaseExpression]
    #: the name whose live dict is copied (``sd.copy()``), when ``receiver`` is None
    source: Optional[str]
    #: a shallow copy (not the state dict itself)
    shallow: bool
    #: where the tensors are the same: "" (everywhere) or "on CPU" (a copy elsewhere)
    where: str
    #: made of ``X.parameters()`` / ``X.named_parameters()`` (a list of them is as often kept
    #: to use the live parameters as to compare them later: the rule asks for a snapshot's name)
    params: bool = False


def state_dict_receiver(node) -> Optional[nodes.BaseExpression]:
    """``X.state_dict()`` (no arguments but ``keep_vars=``: the parameters themselves): X, else
    None."""
    if type(node) is not nodes.Call or any(
            a.keyword is None or a.keyword.value != "keep_vars" for a in node.args):
        return None
    func = node.func
    if type(func) is nodes.Attribute and func.attr.value == "state_dict":
        recv = func.value
    else:  # ``getattr(model, "state_dict")()``: the same method, named by a constant
        recv = constant_getattr(func, "state_dict")
        if recv is None:
            return None
    name = (last_name(recv) or "").lower()
    if any(s in name for s in SKIP_RECEIVERS):
        return None
    if type(recv) is nodes.Call and last_name(recv.func) == "deepcopy":
        return None  # ``deepcopy(model).state_dict()``: the tensors of a copy no one else holds
    return recv


def constant_getattr(node, attr: str) -> Optional[nodes.BaseExpression]:
    """``X`` of ``getattr(X, "attr")`` (two arguments, the name a string constant), else None."""
    if type(node) is not nodes.Call or type(node.func) is not nodes.Name or \
            node.func.value != "getattr" or len(node.args) != 2 or \
            any(a.keyword is not None or a.star for a in node.args):
        return None
    name = node.args[1].value
    if type(name) is not nodes.SimpleString or name.evaluated_value != attr:
        return None
    return node.args[0].value


def parameters_receiver(node) -> Optional[nodes.BaseExpression]:
    """``X`` of ``X.parameters()`` or ``X.named_parameters()`` (the live parameters), else
    None."""
    if type(node) is not nodes.Call or node.args or type(node.func) is not nodes.Attribute or \
            node.func.attr.value not in ("parameters", "named_parameters"):
        return None
    return node.func.value


def _dict_source(node, holds_live: Callable[[str], bool]):
    """A state dict call (receiver, None) or a name holding a live one (None, name)."""
    recv = state_dict_receiver(node)
    if recv is not None:
        return recv, None
    if type(node) is nodes.Name and holds_live(node.value):
        return None, node.value
    return None


def same_storage(node, name: str, owner=None) -> Optional[str]:
    """Where ``node`` is the tensor named ``name`` itself or shares its storage, through the
    conversions of ``SAME_STORAGE`` (``v``, ``v.detach()``, ``v.cpu()``, ``v.detach().cpu()``,
    ``v.to("cpu")``, ``v.cpu().numpy()``, ``v.float()``, ``v.to(device)``, ``v.data``,
    ``v.to(v.dtype)``,
    ``torch.as_tensor(v)`` with no dtype or device: ``v`` itself) and the views of
    ``VIEWS`` (``v.view(-1)``, ``v.reshape(-1)``): "" (everywhere) or
    the condition (``"on CPU"``: the outermost conversion's); None when it may be a copy.
    ``owner``: the module ``name``'s tensor is a state-dict value of (``pl_module``), whose own
    ``device`` it is on (``v.to(pl_module.device)``)."""
    found = storage_root(node, owner)
    if found is not None and type(found[0]) is nodes.Name and found[0].value == name:
        return found[1]
    return None


def _own_property(arg, receiver) -> bool:
    """Is ``arg`` the receiver's own ``dtype`` or ``device`` (``v.to(v.dtype)``: nothing to
    convert, ``v`` itself), positional or by its keyword?"""
    v = arg.value
    return (arg.keyword is None or arg.keyword.value in ("dtype", "device")) and \
        type(v) is nodes.Attribute and v.attr.value in ("dtype", "device") and \
        dotted_name(v.value) is not None and dotted_name(v.value) == dotted_name(receiver)


def storage_root(node, owner=None) -> Optional[Tuple[nodes.BaseExpression, str]]:
    """(the expression whose storage ``node`` shares, where it does: "" or the condition) read
    through the conversions and views ``same_storage`` reads (and ``.data``, ``.T``, ``.mT``),
    or None where a step may copy (``.clone()``, ``.to(torch.float64)``)."""
    where = ""
    while (type(node) is nodes.Call and type(node.func) is nodes.Attribute) or (
            type(node) is nodes.Attribute and node.attr.value in VIEW_ATTRS):
        if type(node) is nodes.Attribute:  # ``p.data``: the same storage; ``p.T``: a view
            node = node.value
            continue
        if len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star \
                and dotted_name(node.func) == "torch.as_tensor":
            node = node.args[0].value  # ``torch.as_tensor(p)``: ``p`` itself (FACTS.md, 10)
            continue
        m = node.func.attr.value
        if m == "to" and len(node.args) == 1 and node.args[0].keyword is None and \
                type(node.args[0].value) is nodes.SimpleString and \
                node.args[0].value.value in _CPU_DEVICES:
            cond = "on CPU"
        elif m == "to" and len(node.args) == 1 and node.args[0].keyword is None and \
                dotted_name(node.args[0].value) in _FLOAT32:
            cond = "for float32 tensors"
        elif m == "to" and len(node.args) == 1 and _own_property(node.args[0], node.func.value):
            cond = ""  # ``v.to(v.dtype)``, ``v.to(device=v.device)``: ``v`` itself
        elif m == "to" and len(node.args) == 1 and node.args[0].keyword is None and (
                type(node.args[0].value) is nodes.Name or
                dotted_name(node.args[0].value) == "self.device" or (
                    owner is not None and dotted_name(owner) is not None and
                    dotted_name(node.args[0].value) == dotted_name(owner) + ".device")):
            # ``v.to(device)``, ``v.to(self.device)``: the tensor itself where it is on that
            # device already (as a module's are on the device the code runs on; an object's
            # own ``device``, where it keeps its model, or the module's own; not another
            # object's, ``cfg.device``)
            cond = f"if already on `{dotted_name(node.args[0].value)}`"
            if owner is not None and dotted_name(node.args[0].value) == \
                    f"{dotted_name(owner)}.device":
                cond = ""  # (the module's own device: its tensors are there)
        elif m in SAME_STORAGE and not node.args:
            cond = SAME_STORAGE[m]
        elif m in VIEWS:  # ``p.reshape(-1)``: a view of the same storage
            cond = VIEWS[m]
        else:
            return None
        where = where or cond
        node = node.func.value
    return node, where


def live_state_dict(node, holds_live: Callable[[str], bool] = lambda name: False,
                    params_of: Optional[Callable[[str], Optional[nodes.BaseExpression]]] = None
                    ) -> Optional[Live]:
    """``node`` when it holds a module's live tensors: ``X.state_dict()``, a shallow copy of it
    or of a name that ``holds_live`` says holds one (``.copy()``, ``dict(...)``,
    ``OrderedDict(...)``, ``copy.copy(...)``), or ``{k: v ... for k, v in <one>.items()}`` (or
    its pairs handed to one of ``DICT_COPIES``: ``dict((k, v) for k, v in ...)``) with ``v``
    kept, detached or moved to the CPU (``same_storage``). ``params_of(name)``: the module
    whose named parameters the dict ``name`` holds (``self.params = dict(m.named_parameters())``
    ... ``{n: p.data for n, p in self.params.items()}``), or None."""
    recv = state_dict_receiver(node)
    if recv is not None:
        return Live(recv, None, False, "")
    t = type(node)
    if t is nodes.Subscript and len(node.slice) == 1 and \
            type(node.slice[0].slice) is nodes.Index and \
            type(node.slice[0].slice.value) is nodes.SimpleString and \
            node.slice[0].slice.value.evaluated_value != "param_groups":
        # ``model.state_dict()["fc.weight"]``: one of the live tensors (an optimizer's
        # ``["param_groups"]`` is a fresh copy: claim optimizer-state-follows-step)
        src = _dict_source(node.value, holds_live)
        return Live(src[0], src[1], True, "") if src is not None else None
    if t is nodes.Dict and any(type(e) is nodes.StarredDictElement for e in node.elements):
        # ``{**sd}``, ``{**sd, "step": 3}``: the same tensors under the same keys
        for e in node.elements:
            src = _dict_source(e.value, holds_live) \
                if type(e) is nodes.StarredDictElement else None
            if src is not None:
                return Live(src[0], src[1], True, "")
        return None
    if t is nodes.Call:
        func = node.func
        src = None
        if type(func) is nodes.Attribute and func.attr.value == "copy" and not node.args:
            src = _dict_source(func.value, holds_live)
        elif dotted_name(func) in DICT_COPIES and len(node.args) == 1 and \
                node.args[0].keyword is None and not node.args[0].star:
            arg = node.args[0].value
            if type(arg) in (nodes.GeneratorExp, nodes.ListComp):
                # ``OrderedDict((k, v) for k, v in sd.items())``: a dict of the pairs
                pair = arg.elt
                if type(pair) is not nodes.Tuple or len(pair.elements) != 2 or any(
                        type(e) is not nodes.Element for e in pair.elements):
                    return None
                return _items_copy(arg.for_in, pair.elements[1].value, holds_live)
            src = _dict_source(arg, holds_live) or _view_source(arg, "items", holds_live)
        elif dotted_name(func) in ("list", "tuple") and len(node.args) == 1 and \
                node.args[0].keyword is None and not node.args[0].star:
            # ``list(sd.values())``: the tensors themselves, in a list
            src = _view_source(node.args[0].value, "values", holds_live)
        if src is None and len(node.args) == 1 and node.args[0].keyword is None and \
                not node.args[0].star and dotted_name(func) in (
                    "list", "tuple", "dict", "OrderedDict", "collections.OrderedDict"):
            # ``list(model.parameters())``, ``dict(model.named_parameters())``
            recv = parameters_receiver(node.args[0].value)
            if recv is not None:
                return Live(recv, None, True, "", True)
        return Live(src[0], src[1], True, "") if src is not None else None
    if t is nodes.ListComp or (t is nodes.DictComp and node.key is not None):
        # ``[p for p in model.parameters()]``, ``{n: p.detach() for n, p in
        # model.named_parameters()}``: the parameters, or tensors sharing their storage
        comp = node.for_in
        recv = parameters_receiver(comp.iter) if comp.inner_for_in is None else None
        it = comp.iter
        if recv is None and params_of is not None and comp.inner_for_in is None and \
                type(it) is nodes.Call and not it.args and type(it.func) is nodes.Attribute and \
                it.func.attr.value in ("items", "values") and \
                (type(comp.target) is nodes.Tuple) == (it.func.attr.value == "items"):
            held = dotted_name(it.func.value)
            recv = params_of(held) if held is not None else None
        elif recv is None and params_of is not None and comp.inner_for_in is None and \
                type(it) in (nodes.Name, nodes.Attribute) and dotted_name(it) is not None and \
                type(comp.target) is nodes.Name and t is nodes.ListComp and \
                same_storage(node.elt, comp.target.value) is not None:
            # ``[p.data for p in params]``, ``params`` (or ``self.params``) a list of them
            recv = params_of(dotted_name(it))
        target = comp.target
        if recv is not None and type(target) is nodes.Tuple and len(target.elements) == 2:
            target = target.elements[1].value
        value = node.elt if t is nodes.ListComp else node.value
        if t is nodes.ListComp and recv is not None and type(value) is nodes.Tuple and \
                type(comp.target) is nodes.Tuple:
            # ``[(n, p) for n, p in model.named_parameters()]``: the pairs hold them too
            value = _paired_value(value, comp.target, target)
        where = same_storage(value, target.value) if recv is not None and \
            type(target) is nodes.Name and value is not None else None
        if where is not None:
            return Live(recv, None, True, where, True)
    if t is nodes.DictComp:
        return _items_copy(node.for_in, node.value, holds_live)
    return None


def _paired_value(elt, names, param):
    """The item of the tuple ``elt`` that holds the parameter ``param`` binds, where its other
    items are names the loop binds (``(n, p)``, ``(p, n)``), else None."""
    bound = {e.value.value for e in names.elements if type(e.value) is nodes.Name}
    found = None
    for e in elt.elements:
        if type(e) is not nodes.Element:
            return None
        if type(param) is nodes.Name and same_storage(e.value, param.value) is not None:
            found = e.value
        elif type(e.value) is not nodes.Name or e.value.value not in bound:
            return None
    return found


def _view_source(node, method: str, holds_live: Callable[[str], bool]):
    """``<live>.items()`` (or ``.values()``): its dict's source (``_dict_source``), else None."""
    if type(node) is not nodes.Call or node.args or type(node.func) is not nodes.Attribute or \
            node.func.attr.value != method:
        return None
    return _dict_source(node.func.value, holds_live)


def _items_copy(comp, value, holds_live: Callable[[str], bool]) -> Optional[Live]:
    """A dict made of the items of a live one, ``value`` kept for each
    (``for k, v in <live>.items()``): the values kept (any key, any filter:
    ``{k.replace("module.", ""): v for k, v in sd.items() if "num" not in k}``) are the same
    tensors where ``value`` is ``v`` itself or shares its storage (``same_storage``)."""
    if comp.inner_for_in is not None or type(comp.target) is not nodes.Tuple:
        return None
    elems = comp.target.elements
    if len(elems) != 2 or any(type(e.value) is not nodes.Name for e in elems):
        return None
    v = elems[1].value.value
    it = comp.iter
    if type(it) is not nodes.Call or it.args or type(it.func) is not nodes.Attribute or \
            it.func.attr.value != "items":
        return None
    src = _dict_source(it.func.value, holds_live)
    if src is None:
        return None
    where = same_storage(value, v, src[0])
    return Live(src[0], src[1], True, where) if where is not None else None


def reads_keys_only(node, name: str, held: bool = False) -> bool:
    """Does ``node`` read the dict named ``name`` only for its keys: ``len(name)``,
    ``list(name)``, ``name.keys()``, ``k in name``, ``k not in name``? Such a read sees no
    tensor, so what the tensors hold by then does not matter. ``held``: ``name`` holds the
    snapshots as its items (a list or deque appended to): only ``len(name)`` reads none of
    them (``list(recent)`` hands them on)."""
    t = type(node)
    if t is nodes.Call:
        func = node.func
        if len(node.args) == 1 and not node.args[0].star and node.args[0].keyword is None and \
                type(func) is nodes.Name and func.value in _KEY_READERS:
            return dotted_name(node.args[0].value) == name and (not held or func.value == "len")
        if not node.args and type(func) is nodes.Attribute and func.attr.value in _KEY_METHODS:
            return dotted_name(func.value) == name
        return False
    if t is nodes.Comparison and len(node.comparisons) == 1 and not held:
        op = type(node.comparisons[0].operator)
        if op is nodes.In or op is nodes.NotIn:
            return dotted_name(node.comparisons[0].comparator) == name
    return False

