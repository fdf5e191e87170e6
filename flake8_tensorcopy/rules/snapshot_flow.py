"""TEN402's flow: is a state-dict snapshot read after a point where the weights can change?

The walk after a binding (``read_after_change``), the points of change (``change_point``), a
snapshot's ``setattr`` escape, the loops that keep and train (``trained_after_keeping``)."""
from __future__ import annotations

import ast
from typing import Dict, Optional, Tuple

from ..semantic.graph_facts import module_call
from ..semantic.index.statedict_summaries import trains_another, weight_change
from ..semantic.kinds import is_module
from ..semantic.statedicts import reads_keys_only, same_storage
from ..semantic.storage_flow import sole_binding
from ..syntax import nodes
from ..syntax.nodes import dotted_name, last_name
from ..syntax.walk import dotted
from .context import cached, param_names, statement_blocks, statement_list
from .parameter_writes import writes_parameter
from .snapshot_copies import trains_a_copy

#: ``torch.optim`` classes whose fresh instance holds no state tensors (measured on torch 2.13
#: by the claim ``fresh-optimizer-snapshot-holds-nothing-live``; not Adagrad, whose ``sum``
#: tensors exist from construction)
STATELESS_UNTIL_STEP = ("ASGD", "Adadelta", "Adafactor", "Adam", "AdamW", "Adamax", "NAdam",
                        "RAdam", "RMSprop", "Rprop", "SGD")

# ---- flow: is the binding read after a point where the weights can change? ------------------
LOOPS = (nodes.For, nodes.While)
DEFS = (nodes.FunctionDef, nodes.ClassDef)


def locate(stmts: list, line, chain: list) -> bool:
    for i, s in enumerate(stmts):
        if s is line:
            chain.append((stmts, i))
            return True
        for block in statement_blocks(s):
            chain.append((stmts, i))
            if locate(block, line, chain):
                return True
            chain.pop()
    return False


def statement_chain(ctx) -> Optional[list]:
    """``locate``'s chain of (statements, index) from the scope's body down to the current
    statement, or None where it is not found."""
    scope = ctx.scope_node
    body = statement_list(scope.body) if type(scope) is nodes.FunctionDef else list(scope.body)
    chain: list = []
    return chain if ctx.stmt_line is not None and locate(body, ctx.stmt_line, chain) else None


def mentions(node, name: str, skip=None, keys: Optional[Tuple[int, frozenset]] = None,
             held: bool = False) -> Optional[nodes.CSTNode]:
    """The first Name/Attribute chain spelling ``name`` under ``node`` (not under ``skip``).
    ``keys``: (depth, keys): ``name`` holds the live tensors only under these constant keys
    at that depth of subscripts (``(1, {"model"})`` for ``state = {"model": ..., "epoch":
    e}``, ``(2, {1})`` for ``snaps.append((epoch, ...))``; depth 0: fields of a record,
    ``(0, {"weights"})``): an item read by another constant key there (``state["epoch"]``,
    ``snaps[-1][0]``, ``best.score``) is no read of them. ``held``: ``name`` holds the
    snapshots as items (``reads_keys_only``)."""
    todo = [node]
    while todo:
        n = todo.pop()
        if n is skip:
            continue
        t = type(n)
        if keys is not None and t is nodes.Subscript and other_item(n, name, keys):
            continue
        if keys is not None and keys[0] == 0 and t is nodes.Attribute and \
                n.attr.value not in keys[1] and dotted_name(n.value) == name:
            continue  # ``best.score`` of a record whose ``weights`` field is live
        if t is nodes.Call or t is nodes.Comparison:
            if reads_keys_only(n, name, held):
                continue  # ``len(sd)``, ``k in sd``: the keys, never the tensors
        if t is nodes.Name or t is nodes.Attribute:
            if dotted_name(n) == name:
                return n
            if t is nodes.Attribute:  # ``x.name``'s attribute is not a read of ``name``
                todo.append(n.value)
            continue
        if t in DEFS or t is nodes.Lambda:
            continue
        if t is nodes.Arg:  # a keyword's name is not a read either
            todo.append(n.value)
            continue
        todo.extend(reversed([c for c in n.children if c is not None]))
    return None


def change_point(ctx, node, receiver: str, name: str = "", loop=None) -> Optional[str]:
    """A call under ``node`` after which the module's or optimizer's tensors may have changed
    (``loop``: the innermost loop holding ``node``, whose steps a ``backward()`` there feeds)."""
    todo = [node]
    while todo:
        n = todo.pop()
        t = type(n)
        if t in DEFS or t is nodes.Lambda:
            continue
        if t is nodes.Call:
            what = changing_call(n, receiver, name)
            if what and what == f"`{ctx_name(n.func)}()`" and (
                    trains_a_copy(ctx, n, receiver) or _mode_switch(ctx, n) or
                    _trains_another(ctx, n, receiver)):
                what = None  # ``local_train(copy.deepcopy(m))`` trains a copy; ``m.train()``;
                # ``local_train(client, data)`` trains another module than ``server``
            if what and not (what in ("`backward()`", f"`{_stepped(n)}.step()`") and (
                    steps_others_only(ctx, receiver) or
                    _steps_another(ctx, n if what != "`backward()`" else loop, receiver))):
                return what
            why = weight_change(ctx.inf, n, receiver, ctx.module._a)
            if why and trains_a_copy(ctx, n, receiver):
                why = None
            why = why or writes_parameter(n, receiver, loop)
            if why:
                return f"`{ctx_name(n.func)}()` ({why})"
        todo.extend(c for c in n.children if c is not None)
    return None


def same_items(value, name: str) -> bool:
    """Does ``value`` hold the very items of the container ``name`` (a slice of it, a shallow
    copy: ``name[-3:]``, ``name.copy()``, ``list(name)``, ``dict(name)``)?"""
    t = type(value)
    if t is nodes.Subscript:
        return dotted_name(value.value) == name and len(value.slice) == 1 and \
            type(value.slice[0].slice) is nodes.Slice
    if t is nodes.Call and len(value.args) == 1 and value.args[0].keyword is None and \
            not value.args[0].star:
        return dotted_name(value.func) in ("list", "dict", "copy.copy") and \
            dotted_name(value.args[0].value) == name
    return t is nodes.Call and not value.args and type(value.func) is nodes.Attribute and \
        value.func.attr.value == "copy" and dotted_name(value.func.value) == name


def constant_key(node) -> Optional[object]:
    """``"k"`` of ``d["k"]``, ``1`` of ``t[1]``; None for any other subscript."""
    sl = node.slice[0].slice if len(node.slice) == 1 else None
    if type(sl) is not nodes.Index:
        return None
    v = sl.value
    if type(v) is nodes.SimpleString and type(v.evaluated_value) is str:
        return v.evaluated_value
    if type(v) is nodes.Integer and v.value.isdigit():
        return int(v.value)
    return None


def other_item(node, name: str, keys: Tuple[int, frozenset]) -> bool:
    """Is the subscript ``node`` (``name[...]...[k]``) a read of an item under a constant key
    other than ``keys``' at their depth?"""
    chain = []
    root = node
    while type(root) is nodes.Subscript:
        chain.append(root)
        root = root.value
    depth, live = keys
    if depth == 0 or dotted_name(root) != name or len(chain) < depth:
        return False
    key = constant_key(chain[len(chain) - depth])
    return key is not None and key not in live


def changing_call(call, receiver: str, name: str = "") -> Optional[str]:
    func = call.func
    kept = name
    name = last_name(func) or ""
    low = name.lower()
    owner = dotted_name(func.value) if type(func) is nodes.Attribute else None
    owner_low = (owner or "").rsplit(".", 1)[-1].lower()
    if name == "step" and ("opt" in owner_low or "scaler" in owner_low):
        return f"`{owner}.step()`"
    if name == "backward":
        return "`backward()`"
    if name == "load_state_dict" and owner is not None and owner == receiver and not (
            kept and call.args and mentions(call.args[0].value, kept) is not None):
        # loading the snapshot itself back into its owner writes its own values: no change
        return f"`{owner}.load_state_dict()`"
    if (low.startswith("train") or low.endswith("_train") or "train_" in low or low == "fit") \
            and not (name == "train" and owner is not None and not call.args and (
                owner == receiver or "model" in owner_low or "net" in owner_low)):
        return f"`{ctx_name(func)}()`"
    if name[:1].islower() and not (low.endswith("state_dict") and not low.startswith(
            ("set", "load"))):
        # (``FSDP.optim_state_dict(model, optim)`` reads the optimizer's state, changes nothing)
        for a in call.args:
            arg = dotted_name(a.value)
            if arg and arg.rsplit(".", 1)[-1].lower().startswith(("opt", "optim")):
                return f"`{ctx_name(func)}(..., {arg}, ...)`"
    return None


def ctx_name(func) -> str:
    return dotted_name(func) or last_name(func) or "a call"


class FlowScan:
    __slots__ = ("bind", "name", "receiver", "ctx", "changed", "escaped", "keys", "gone",
                 "loop", "held", "readers")

    def __init__(self, ctx, bind, name: str, receiver: str,
                 keys: Optional[Tuple[int, frozenset]] = None) -> None:
        self.ctx = ctx
        #: (depth, keys) under which ``name`` holds the live tensors (``mentions``; None:
        #: every read of it counts)
        self.keys = keys
        #: the owner's name was bound to another object (``m = nn.Linear(3, 1)`` in a loop that
        #: makes a model per turn): what changes it from then on changes that one, not the
        #: tensors kept
        self.gone = False
        self.bind = bind
        #: the snapshot is an item of what ``name`` holds (``recent.append(sd)``)
        self.held = type(bind) is nodes.Expr
        self.name = name
        self.receiver = receiver
        self.changed: Optional[str] = None
        #: a ``setattr(obj, k, v)`` that let the snapshot's tensors escape (``setattr_escape``)
        self.escaped: Optional[nodes.CSTNode] = None
        #: the innermost loop the scan is in (``change_point``'s ``loop``)
        self.loop = None
        #: at script level, the module's functions that read the global ``name`` (``restore(
        #: net, tag)`` loading ``SNAPSHOTS[tag]``): a call of one is a read of it (None: not
        #: asked yet, ``global_readers`` when a statement first needs them)
        self.readers: Optional[frozenset] = None \
            if type(ctx.scope_node) is nodes.Module and name.isidentifier() else frozenset()

    def run(self, items) -> Optional[Tuple[str, nodes.CSTNode]]:
        for stmt in items:
            r = self.stmt(stmt, False)
            if r is not None:
                return r if r != "stop" else None
        return None

    def stmt(self, stmt, cond: bool):
        t = type(stmt)
        if t in DEFS:
            return None
        if t is nodes.SimpleStatementLine:
            for small in stmt.body:
                r = self.small(small, cond)
                if r is not None:
                    return r
            return None
        if t is nodes.For and self.escaped is None:
            self.escaped = setattr_escape(stmt, self.name)
        # a compound statement: its own expressions, then its blocks (each may not run)
        for field in ("test", "iter", "items", "subject"):
            part = getattr(stmt, field, None)
            if part is None:
                continue
            for p in part if type(part) in (list, tuple) else (part,):
                r = self.small(p, cond)
                if r is not None:
                    return r
        # each block is a path of its own: a change point counts after the statement only on
        # a path where the binding it follows still reaches the end (a rebind inside the block
        # ends it); the path that skips the blocks keeps what held before, except past an
        # ``if`` with an ``else`` (one of its blocks always runs)
        before = self.changed
        ends = [] if t is nodes.If and type(stmt.orelse) is nodes.Else else [before]
        outer = self.loop
        for k, block in enumerate(statement_blocks(stmt)):
            self.changed = before
            self.loop = stmt if k == 0 and t in LOOPS else outer
            # a loop's body runs again after its own change points: a second pass is its
            # next turn (a reset ``model.load_state_dict(init)`` at the top of each run)
            for _ in range(2 if k == 0 and t in LOOPS else 1):
                for s in block:
                    r = self.stmt(s, True)
                    if r is not None:
                        self.loop = outer
                        return r
                if self.changed is None:
                    break
            ends.append(self.changed)
        self.loop = outer
        self.changed = next((e for e in ends if e is not None), None)
        return None

    def small(self, node, cond: bool):
        rebinds = None
        t = type(node)
        if t is nodes.Assign and len(node.targets) == 1 and \
                dotted_name(node.targets[0].target) == self.name and \
                same_items(node.value, self.name):
            return None  # ``snaps = snaps[-3:]``: the same tensors, neither read nor fresh
        if t is nodes.Assign or t is nodes.AnnAssign:
            for tgt in node.targets if t is nodes.Assign else (node,):
                tgt = tgt.target
                if type(tgt) in (nodes.Name, nodes.Attribute) and dotted_name(tgt) == self.name:
                    rebinds = tgt
        if t is nodes.Assign and self.receiver and not self.gone and any(
                dotted_name(tgt.target) == self.receiver for tgt in node.targets) and \
                mentions(node.value, self.receiver) is None:
            self.gone = True
        if t is nodes.Expr and self.receiver and _recast(node.value, self.receiver):
            self.gone = True  # ``model.double()``: new tensors from here on, the kept ones stay
        read = mentions(node, self.name, skip=rebinds, keys=self.keys, held=self.held)
        if read is None and self.keys is None and self.readers != frozenset():
            if self.readers is None:
                self.readers = global_readers(self.ctx, self.name)
            read = _call_of(node, self.readers) if self.readers else None
        if read is not None and self.changed is not None and node is not self.bind:
            return self.changed, read
        # a statement that rebinds the name runs its call first: on that path the name then
        # holds the new value, so the call changes nothing the name still holds
        change = change_point(self.ctx, node, self.receiver, self.name, self.loop) \
            if rebinds is None and not self.gone else None
        if change is not None:
            self.changed = change
            if self.escaped is not None:  # the kept tensors now hold what the change wrote
                return f"{change} (its tensors were kept by `setattr(...)` before)", self.escaped
        if rebinds is not None:
            if node is not self.bind and not cond:
                return "stop"
            # taken again: fresh on this path (a container keeps the old one too: no rebind)
            self.changed = None
        return None


def _trains_another(ctx, call, receiver: str) -> bool:
    """``local_train(client, data)`` stepping only ``client`` (``trains_another``), where the
    file binds neither name to another name (``net = model``, ``self.shadow =
    self.global_model``: one module, two names)."""
    other = trains_another(ctx.inf, call, receiver, ctx.module._a)
    if other is None:
        return False
    names = {other, receiver, other.partition(".")[0], receiver.partition(".")[0]}
    return not any(type(n) is ast.Assign and type(n.value) in (ast.Name, ast.Attribute) and any(
        dotted(t) in names for t in n.targets) for n in ast.walk(ctx.module._a))


def _recast(call, receiver: str) -> bool:
    """``receiver.double()``, ``.half()``, ``.bfloat16()``: every float parameter and buffer of
    the module (float32 as made) is replaced by a converted copy (``param.data = ...``)."""
    return type(call) is nodes.Call and not call.args and type(call.func) is nodes.Attribute \
        and call.func.attr.value in ("double", "half", "bfloat16") and \
        dotted_name(call.func.value) == receiver


def setattr_escape(loop, name: str) -> Optional[nodes.CSTNode]:
    """``for k, v in name.items(): setattr(obj, k, v)`` (also ``.values()``, ``v.detach()``,
    ``for k in name: setattr(obj, k, name[k])``): the ``setattr`` call that keeps the dict's
    tensors elsewhere, else None."""
    it = loop.iter
    target = loop.target
    value = None  # the loop's name for each tensor, or None: ``name[k]``
    key = None
    if type(it) is nodes.Call and not it.args and type(it.func) is nodes.Attribute and \
            dotted_name(it.func.value) == name:
        m = it.func.attr.value
        if m == "values" and type(target) is nodes.Name:
            value = target.value
        elif m == "items" and type(target) is nodes.Tuple and len(target.elements) == 2 and \
                type(target.elements[1].value) is nodes.Name:
            value = target.elements[1].value.value
        else:
            return None
    elif dotted_name(it) == name and type(target) is nodes.Name:
        key = target.value
    else:
        return None
    todo = list(statement_list(loop.body))
    while todo:
        n = todo.pop()
        if type(n) is nodes.Call and type(n.func) is nodes.Name and n.func.value == "setattr" \
                and len(n.args) == 3:
            v = n.args[2].value
            if value is not None and same_storage(v, value) is not None:
                return n
            if key is not None and type(v) is nodes.Subscript and dotted_name(v.value) == name \
                    and len(v.slice) == 1 and dotted_name(v.slice[0].slice.value) == key:
                return n
        if type(n) not in DEFS and type(n) is not nodes.Lambda:
            todo.extend(c for c in n.children if c is not None)
    return None


def read_after_change(ctx, bind, name: str, receiver: str,
                      keys: Optional[Tuple[int, frozenset]] = None):
    chain = statement_chain(ctx)
    if chain is None:
        return None
    items: list = []
    for depth in range(len(chain) - 1, -1, -1):
        stmts, i = chain[depth]
        items.extend(stmts[i + 1:])
        owner = chain[depth - 1] if depth else None
        if owner is not None:
            compound = owner[0][owner[1]]
            if type(compound) in LOOPS and stmts is not None and is_body(compound, stmts):
                # the next two turns: a snapshot retaken on some turns only (``if step % 2 ==
                # 0``) may be read two turns on after a change in the turn between that did not
                # take it again (a rebind on every path ends the scan where it runs)
                items.extend(stmts)
                items.extend(stmts)
    return FlowScan(ctx, bind, name, receiver, keys).run(items)


def trained_after_keeping(ctx, keeper: str) -> Optional[str]:
    """A loop before the current statement or around it that calls ``keeper`` (``es.step``)
    and also changes the weights: what changes them (``change_point``), else None."""
    chain = statement_chain(ctx)
    if chain is None:
        return None
    loops = []
    for depth, (stmts, i) in enumerate(chain):
        if depth and type(chain[depth - 1][0][chain[depth - 1][1]]) in LOOPS:
            loops.append(chain[depth - 1][0][chain[depth - 1][1]])  # around the load
        todo = list(stmts[:i])
        while todo:  # before it
            n = todo.pop()
            if type(n) in LOOPS:
                loops.append(n)
            elif type(n) not in DEFS:
                todo.extend(s for block in statement_blocks(n) for s in block)
    for loop in loops:
        if calls_name(loop, keeper):
            change = change_point(ctx, loop, "")
            if change is not None:
                return change
    return None


def calls_name(node, dotted: str) -> bool:
    todo = [node]
    while todo:
        n = todo.pop()
        if type(n) is nodes.Call and dotted_name(n.func) == dotted:
            return True
        if type(n) not in DEFS and type(n) is not nodes.Lambda:
            todo.extend(c for c in n.children if c is not None)
    return False


def is_body(compound, stmts) -> bool:
    body = statement_list(compound.body)
    return len(body) == len(stmts) and all(a is b for a, b in zip(body, stmts))


def fresh_optimizer(ctx, receiver) -> bool:
    """An optimizer's snapshot taken in ``__init__``: an optimizer has no state tensors until
    its first step and ``param_groups`` are copied, so a construction-time snapshot holds
    nothing live (fairseq's BMUF keeps one to reset the state)."""
    name = (last_name(receiver) or "").lower()
    scope = ctx.scope_node
    return type(scope) is nodes.FunctionDef and scope.name.value == "__init__" and (
        name.startswith("opt") or "optim" in name)


def constructed_fresh(ctx, bind, receiver) -> bool:
    """``opt = torch.optim.SGD(...)`` (a class of ``STATELESS_UNTIL_STEP``), the only binding of
    ``opt`` in the scope, earlier in the same block as the snapshot ``bind`` with no mention of
    ``opt`` in between: the optimizer has not stepped, so its ``state_dict()`` holds nothing
    live (the state is empty, ``param_groups`` are copied)."""
    if type(receiver) is not nodes.Name or ctx.stmt_line is None:
        return False
    name = receiver.value
    chain = statement_chain(ctx)
    if chain is None:
        return False
    stmts, at = chain[-1]
    made = None
    for i in range(at - 1, -1, -1):
        line = stmts[i]
        if type(line) is nodes.SimpleStatementLine and len(line.body) == 1 and \
                type(line.body[0]) is nodes.Assign and len(line.body[0].targets) == 1 and \
                type(line.body[0].targets[0].target) is nodes.Name and \
                line.body[0].targets[0].target.value == name:
            made = line.body[0]
            break
        if mentions(line, name) is not None:
            return False
    if made is None or type(made.value) is not nodes.Call:
        return False
    q = ctx.inf.qualname(made.value.func) or ""
    ns, _, cls = q.rpartition(".")
    if ns != "torch.optim" or cls not in STATELESS_UNTIL_STEP or \
            binding_count(ctx.scope_node, name) != 1:
        return False
    # (a function of the module that reads the name: a call of it in between may step it)
    readers = {d.name.value for d in ctx.module.body if type(d) is nodes.FunctionDef and
               any(type(n) is ast.Name and n.id == name for n in ast.walk(d._a))}
    return not readers or all(_call_of(line, readers) is None for line in stmts[i + 1:at])


def _call_of(node, names) -> Optional[nodes.CSTNode]:
    """The first call under ``node`` (not in a definition) of one of ``names`` by its name."""
    todo = [node]
    while todo:
        n = todo.pop()
        if type(n) in DEFS or type(n) is nodes.Lambda:
            continue
        if type(n) is nodes.Call and type(n.func) is nodes.Name and n.func.value in names:
            return n
        todo.extend(c for c in n.children if c is not None)
    return None


def global_readers(ctx, name: str) -> frozenset:
    """The top-level functions of the module whose bodies read the global ``name`` other than
    to store an item into it (``obj = SNAPSHOTS[tag]``, not ``SNAPSHOTS[tag] = state``), and
    never bind it. Worked out once per name and file."""
    known = ctx.__dict__.setdefault("_snapshot_global_readers", {})
    if name not in known:
        known[name] = _global_readers(ctx, name)
    return known[name]


def _global_readers(ctx, name: str) -> frozenset:
    out = set()
    for d in ctx.module.body:
        fn = getattr(d, "_a", None) if type(d) is nodes.FunctionDef else None
        if fn is None:
            continue
        stored = {id(n.value) for n in ast.walk(fn) if type(n) is ast.Subscript and
                  type(n.ctx) is ast.Store}
        uses = [n for n in ast.walk(fn) if type(n) is ast.Name and n.id == name]
        if any(type(n.ctx) is not ast.Load for n in uses) or any(
                a.arg == name for a in ast.walk(fn.args) if type(a) is ast.arg):
            continue
        if any(id(n) not in stored for n in uses):
            out.add(d.name.value)
    return frozenset(out)


def binding_count(scope, name: str) -> int:
    """How many targets under ``scope`` (not nested definitions) bind ``name``; a parameter, a
    ``global`` or a ``del`` counts too."""
    count = 0
    bound: set = set()
    todo = [scope.body] if type(scope) is nodes.FunctionDef else list(scope.body)
    if type(scope) is nodes.FunctionDef:
        count += sum(1 for p in param_names(scope) if p == name)
    while todo:
        n = todo.pop()
        t = type(n)
        if t in DEFS or t is nodes.Lambda:
            continue
        for field in ("target", "targets", "names", "asname", "name"):
            part = getattr(n, field, None)
            if part is None or t is nodes.Attribute:
                continue
            for p in part if type(part) in (list, tuple) else (part,):
                hit = mentions(p, name)
                if hit is not None:
                    bound.add(id(hit))  # ``Assign.targets`` and each ``AssignTarget`` both
        todo.extend(c for c in n.children if c is not None)
    return count + len(bound)


#: what a module may be asked without any of its tensors changing
_KEEPS_TENSORS = frozenset({"state_dict", "eval", "train"})


def never_changed(ctx, receiver) -> bool:
    """Is the snapshot's owner a name of the scope bound only to modules made here (each
    binding a call inference reads as a module: ``template = nn.Linear(3, 1)``), not a
    parameter, ``global`` or ``nonlocal``, and never used anywhere under the scope (nested
    functions too) but through ``state_dict()``, ``eval()`` or ``train()``? No alias, no
    forward pass, no optimizer and no call is handed it: nothing can change its tensors (a
    template copied into fresh models that are trained instead)."""
    if type(receiver) is not nodes.Name:
        return False
    name = receiver.value
    scope = ctx.scope_node
    if type(scope) is nodes.FunctionDef and name in param_names(scope):
        return False
    allowed: set = set()
    made = 0
    todo = [scope]
    while todo:
        n = todo.pop()
        t = type(n)
        if t is nodes.Call and type(n.func) is nodes.Attribute and \
                type(n.func.value) is nodes.Name and n.func.value.value == name and \
                n.func.attr.value in _KEEPS_TENSORS:
            allowed.add(id(n.func.value))
        elif t is nodes.Assign:
            for target in n.targets:
                if type(target.target) is nodes.Name and target.target.value == name:
                    if type(n.value) is not nodes.Call or \
                            module_call(ctx.infer(n.value)) is None:
                        return False
                    allowed.add(id(target.target))
                    made += 1
        elif (t is nodes.Global or t is nodes.Nonlocal) and any(
                dotted_name(getattr(a, "name", a)) == name for a in n.names):
            return False
        elif t is nodes.Name and n.value == name and id(n) not in allowed:
            return False
        todo.extend(reversed([c for c in n.children if c is not None]))
    return made > 0


def _stepped(call) -> str:
    """``opt`` of ``opt.step()``."""
    return dotted_name(call.func.value) or "" if type(call.func) is nodes.Attribute else ""


def _mode_switch(ctx, call) -> bool:
    """``student.train()`` of a name the scope binds once, before it, to a module: it sets the
    training flag and changes no tensor (``trainer.train()`` of anything else trains)."""
    func = call.func
    value = sole_binding(ctx.scope_node, func.value.value, call) if len(call.args) < 2 and \
        last_name(func) == "train" and type(func.value) is nodes.Name else None
    return value is not None and is_module(ctx.inf.infer(value))


def _steps_another(ctx, where, receiver: str) -> bool:
    """Is every optimizer step in ``where`` (a step call, or the loop holding a ``backward()``:
    the steps it feeds), and at least one, a step of an optimizer the scope makes once over
    another module's parameters than ``receiver``'s (``probe_opt = SGD(probe.parameters())``
    for ``probe = copy.deepcopy(model)``)?"""
    if where is None or not receiver or "." in receiver or "opt" in receiver.lower():
        return False  # (an optimizer's own snapshot: its steps change it)
    _, optimizers, by_name = cached(ctx, "_optimized_modules", ctx.scope_node,
                                    lambda: _optimized_modules(ctx, ctx.scope_node))
    if receiver in optimizers:
        return False
    steps = []
    todo = [where]
    while todo:
        n = todo.pop()
        if type(n) is nodes.Call and last_name(n.func) == "step" and "opt" in _stepped(n).lower():
            steps.append(_stepped(n))
        if type(n) not in DEFS and type(n) is not nodes.Lambda:
            todo.extend(c for c in n.children if c is not None)
    return bool(steps) and all(
        by_name.get(opt) is not None and by_name[opt] != receiver and
        not by_name[opt].startswith(receiver + ".") for opt in steps)


def steps_others_only(ctx, receiver: str) -> bool:
    """Does the scope make optimizers (``torch.optim.X(M.parameters(), ...)``) and every one of
    them over another module's parameters than ``receiver``'s (its name a plain name, neither a
    part of the other)? Then its steps, and the ``backward()`` calls they apply, change no
    tensor of ``receiver`` (a teacher's snapshot while the student trains). Memoised per scope."""
    if not receiver or "." in receiver:
        return False
    scope = ctx.scope_node
    modules, optimizers, _ = cached(ctx, "_optimized_modules", scope,
                                    lambda: _optimized_modules(ctx, scope))
    return modules is not None and bool(modules) and receiver not in optimizers and \
        "opt" not in receiver.lower() and all(
            m != receiver and not m.startswith(receiver + ".") for m in modules)


def _optimized_modules(ctx, scope) -> Tuple[Optional[set], set, Dict[str, Optional[str]]]:
    """(the modules whose ``parameters()`` the scope's optimizers are made over, None where one
    is made over something else; the names the scope binds optimizers to; each such name -> the
    module it is made over, None where that is not one module's ``parameters()`` or the name is
    bound to more than one)."""
    out: Optional[set] = set()
    names: set = set()
    by_name: Dict[str, Optional[str]] = {}
    todo = [scope]
    while todo:
        n = todo.pop()
        q = ctx.inf.qualname(n.func) or "" if type(n) is nodes.Call else ""
        if q.startswith("torch.optim.") and "lr_scheduler" not in q:
            module = _parameters_of(n, ctx)
            if module is None:
                out = None
            elif out is not None:
                out.add(module)
        elif type(n) is nodes.Assign and type(n.value) is nodes.Call and \
                (ctx.inf.qualname(n.value.func) or "").startswith("torch.optim."):
            module = _parameters_of(n.value, ctx)
            for t in n.targets:
                name = dotted_name(t.target)
                names.add(name)
                if name is not None:
                    by_name[name] = module if by_name.get(name, module) == module else None
        todo.extend(c for c in n.children if c is not None)
    return out, names, by_name


def _parameters_of(call, ctx=None) -> Optional[str]:
    """``M`` of an optimizer made as ``torch.optim.X(M.parameters(), ...)``, else None; with
    ``ctx``, also of a name the scope binds once to ``list(M.parameters())`` or
    ``M.parameters()`` before (``trainable = list(head.parameters())``; ``SGD(trainable)``)."""
    first = call.args[0].value if call.args and call.args[0].keyword is None else None
    if ctx is not None and type(first) is nodes.Name:
        first = sole_binding(ctx.scope_node, first.value, call)
        if type(first) is nodes.Call and dotted_name(first.func) == "list" and \
                len(first.args) == 1 and first.args[0].keyword is None and \
                not first.args[0].star:
            first = first.args[0].value
    if type(first) is not nodes.Call or type(first.func) is not nodes.Attribute or \
            first.func.attr.value not in ("parameters", "named_parameters"):
        return None
    return dotted_name(first.func.value)
