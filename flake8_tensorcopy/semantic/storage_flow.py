"""Flow queries over storage facts: after a value was bound to something that shares storage
with a base (``semantic/storage.py``), is one side written in place, and is the other read
after that? One walk in source order per question, in the function (or module) that holds
both; a side that is bound again stops it (what it holds then is a new value). TEN401 asks
``read_after``/``original_used_after``/``swapped_between``; TEN404-406 ask ``first_write``."""
from __future__ import annotations

from typing import Optional

from ..syntax import nodes
from . import torch_api
from .kinds import NON_TENSOR_ATTRS, is_value_write

_LOOPS = (nodes.For, nodes.While)


def swapped_between(scope: nodes.CSTNode, start: Optional[nodes.CSTNode], end: nodes.CSTNode,
                     source: str, rebound: bool = False) -> bool:
    """Is ``source.data`` assigned (``p.data = other``) after ``start`` and before ``end``?
    With ``rebound``, also: is the name ``source`` itself bound again there?"""
    if start is None:
        return False
    walk = _Swap(start, end, source)
    walk.rebound = rebound
    walk.visit(scope)
    return walk.swapped


class _Swap:
    __slots__ = ("start", "end", "source", "state", "swapped", "rebound")

    def __init__(self, start, end, source: str) -> None:
        self.start, self.end, self.source = start, end, source
        self.state = 0  # 0: before start, 1: between, 2: past the end
        self.swapped = False

    def visit(self, node: nodes.CSTNode) -> None:
        if self.state == 2:
            return
        if node is self.end:
            self.state = 2
            return
        if self.state == 1 and type(node) is nodes.Assign and any(
                (type(a.target) is nodes.Attribute and a.target.attr.value == "data"
                 and nodes.dotted_name(a.target.value) == self.source)
                or (self.rebound and type(a.target) is nodes.Name and a.target.value == self.source)
                for a in node.targets):
            self.swapped = True
            self.state = 2
            return
        if node is self.start:
            self.state = 1
            return
        for child in node.children:
            self.visit(child)


def original_used_after(scope: nodes.CSTNode, write: nodes.CSTNode, source: str,
                        alias_expr: Optional[nodes.CSTNode]) -> bool:
    """Is the aliased ``source`` (a plain name) used after ``write``: read again, or saved by
    autograd for a backward that follows? The latter is approximated as a ``.backward()`` /
    ``torch.autograd.grad`` call after the write while ``source`` took part in a computation
    before it (a mention other than its own binding and the alias's ``source.detach()``)."""
    if read_after(scope, write, source):
        return True
    walk = _Mentions(write, source, alias_expr)
    walk.visit(scope, [])
    return walk.used_before and walk.backward_after


def backward_after(scope: nodes.CSTNode, write: nodes.CSTNode, source: str,
                   alias_expr: Optional[nodes.CSTNode]) -> bool:
    """``original_used_after`` less its reads: for ``h = h.detach()``, whose later reads of
    ``h`` are the alias's, the original is used after only by a backward that saved it."""
    walk = _Mentions(write, source, alias_expr)
    walk.visit(scope, [])
    return walk.used_before and walk.backward_after


_BACKWARD_FUNCS = frozenset({"grad", "backward"})


class _Mentions:
    """One walk in source order: is ``name`` used in a computation before ``write``, and is a
    backward run after it (or anywhere in a loop that holds it)?"""

    __slots__ = ("write", "name", "alias_expr", "seen", "used_before", "backward_after", "loops")

    def __init__(self, write, name: str, alias_expr) -> None:
        self.write = write
        self.name = name
        self.alias_expr = alias_expr
        self.seen = False
        self.used_before = False
        self.backward_after = False
        self.loops: list = []

    def visit(self, node: nodes.CSTNode, stack: list) -> None:
        if node is self.write:
            self.seen = True
            self.loops = [n for n in stack if type(n) in _LOOPS]
        t = type(node)
        if node is self.alias_expr:
            return
        if t is nodes.Name and node.value == self.name and not self.seen:
            parent = stack[-1] if stack else None
            if not (type(parent) is nodes.AssignTarget or (
                    type(parent) is nodes.For and parent.target is node)):
                self.used_before = True
        if t is nodes.Call and type(node.func) is nodes.Attribute and \
                node.func.attr.value in _BACKWARD_FUNCS and (
                    self.seen or any(n in stack for n in self.loops)):
            self.backward_after = True
        if t in (nodes.FunctionDef, nodes.ClassDef) and stack:
            return  # another scope
        stack.append(node)
        try:
            for child in node.children:
                self.visit(child, stack)
        finally:
            stack.pop()


def read_after(scope: nodes.CSTNode, write: nodes.CSTNode, name: str,
               writes: bool = False, values: bool = False) -> bool:
    """Is ``name`` read as a value after ``write`` in ``scope`` (a function or the module)?

    In source order after the write, until ``name`` is rebound; in a loop that holds the write,
    also from the top of the loop down to the write (the next turn). Being the receiver of
    another in-place write statement (``y.add_(1)``, ``y[i] = v``, ``y += v``) is not a read; any
    other mention is, including one in a nested function. With ``writes``, every mention counts
    (``p.copy_(p32)`` uses ``p`` too). With ``values``, a read of what the write cannot change
    (``x.shape``, ``x.size()``, ``x.dtype``, ``len(x)``...) is not counted.
    """
    walk = _ReadAfter(write, name, writes)
    walk.values = values
    if walk.visit(scope, []):
        return True
    walk.loop = True
    for loop in walk.loops:
        if type(loop) is nodes.For and _mentions(loop.target, name):
            continue  # the next turn rebinds ``name``: what it reads is a new value
        if walk.visit(loop.body, [loop]):
            return True
    return False


class _ReadAfter:
    """``read_after``'s walk (an object, not a recursive closure: a closure that calls itself
    is a reference cycle, and would keep the whole tree for the garbage collector)."""

    __slots__ = ("write", "name", "loops", "found", "loop", "writes", "values", "line")

    def __init__(self, write: nodes.CSTNode, name: str, writes: bool = False) -> None:
        self.write = write
        #: before the write is found, a subtree that ends on an earlier line is passed over
        self.line = _line_of(write)
        self.name = name
        #: count the receiver of an in-place write as a use too
        self.writes = writes
        #: count only reads of the values (not ``x.shape``, ``len(x)``)
        self.values = False
        #: the loops that hold the write (found on the way down to it)
        self.loops: list = []
        self.found = False
        #: walking a loop's body again from its top (the next turn)
        self.loop = False

    def visit(self, node: nodes.CSTNode, stack: list) -> Optional[bool]:
        if node is self.write:
            if self.loop:
                return False  # back at the write: the turn read nothing
            self.found = True
            self.loops.extend(n for n in stack if type(n) in _LOOPS)
            return None
        if self.found:
            t = type(node)
            name = self.name
            if t is nodes.Assign and any(type(a.target) is nodes.Name and a.target.value == name
                                       for a in node.targets):
                return _mentions(node.value, name)  # rebound: later reads are of a new value
            if t is nodes.For and _mentions(node.target, name):
                return _mentions(node.iter, name)  # each turn binds a new value
            if t is nodes.Name and node.value == name:
                if self.values and _metadata_read(node, stack):
                    return None
                return None if not self.writes and _write_receiver(node, stack) else True
        stack.append(node)
        line = None if self.found else self.line
        try:
            for child in _read_children(node):
                if line is not None and not self.found and _ends_before(child, line):
                    continue  # the write is not in it, and no read before the write counts
                r = self.visit(child, stack)
                if r is not None:
                    return r
        finally:
            stack.pop()
        return None


#: what a read of does not depend on the values (an in-place write cannot change it)
_METADATA = NON_TENSOR_ATTRS | {"size", "dim", "numel", "nelement", "element_size", "stride",
                                "is_contiguous", "data_ptr", "is_floating_point", "type",
                                "storage_offset", "get_device"}


def _metadata_read(node: nodes.Name, stack: list) -> bool:
    """``x.shape``, ``x.size(0)``, ``len(x)``, ``x.device``: a read of ``x`` that no in-place
    write of its values changes."""
    if not stack:
        return False
    parent = stack[-1]
    if type(parent) is nodes.Attribute and parent.value is node:
        return parent.attr.value in _METADATA
    if type(parent) is nodes.Arg and len(stack) > 1:
        call = stack[-2]
        return type(call) is nodes.Call and type(call.func) is nodes.Name and \
            call.func.value in ("len", "id", "type", "isinstance") and len(call.args) <= 2
    return False


def sole_binding(scope: nodes.CSTNode, name: str, before: nodes.CSTNode,
                 items: bool = False):
    """The value of the one ``name = value`` statement of ``scope`` (not counting nested
    scopes), when it comes before ``before`` and nothing else binds ``name`` there (no loop
    target, ``with ... as``, augmented or tuple assignment, ``global``; a parameter only where
    that statement is one of the function's own, before the one holding ``before``: every path
    to ``before`` rebinds it); else None. A write into an item or attribute of it
    (``name[i] = v``) is one more binding, unless ``items`` (a question of what the write
    keeps: its dtype, device and layout)."""
    param = _parameter(scope, name)
    if param is None:
        return None
    found = _assigned(scope, name, before, _rebinds if items else None)
    if found is None or len(found) != 1 or found[0][1]:
        return None
    if param and (not _rebinds_first(scope, found[0][0], before) or
                  _mentions(found[0][0], name)):
        return None  # (``x = x.cuda()``: its ``x`` is the parameter, bound nowhere here)
    return found[0][0]


def _parameter(scope: nodes.CSTNode, name: str) -> Optional[bool]:
    """Is ``name`` a plain parameter of function ``scope`` (None: its ``*args`` or
    ``**kwargs``)?"""
    if type(scope) is not nodes.FunctionDef:
        return False
    params = scope.params
    for p in (params.star_arg, params.star_kwarg):
        if type(p) is nodes.Param and p.name.value == name:
            return None
    return any(p.name.value == name for group in (
        params.params, params.kwonly_params, getattr(params, "posonly_params", ()))
        for p in group or ())


def _assigned(scope: nodes.CSTNode, name: str, before: Optional[nodes.CSTNode],
              mentions=None):
    """The ``name = value`` statements of ``scope`` (not counting nested scopes), each as
    (value, whether it comes after ``before``), or None where something else binds ``name``
    (a loop target, ``with ... as``, an augmented or tuple assignment, ``global``, a nested
    definition of that name) or, with ``mentions`` left as ``_mentions``, a target reads it
    (``name[i] = v``)."""
    mentions = mentions or _mentions
    found = []
    seen = [False]
    todo = [scope]
    # in source order: a stack of children reversed
    while todo:
        node = todo.pop()
        if node is before:
            seen[0] = True
            continue
        t = type(node)
        if node is not scope and t in (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda):
            if t is not nodes.Lambda and node.name.value == name:
                return None
            continue
        if t is nodes.Assign:
            if any(type(a.target) is nodes.Name and a.target.value == name for a in node.targets):
                if len(node.targets) != 1:
                    return None
                found.append((node.value, seen[0]))
            elif any(mentions(a.target, name) for a in node.targets):
                return None
        elif t in (nodes.AugAssign, nodes.AnnAssign, nodes.For, nodes.WithItem,
                   nodes.NamedExpr, nodes.CompFor):
            target = getattr(node, "target", None) if t is not nodes.WithItem else node.asname
            if target is not None and mentions(target, name):
                return None
        elif t in (nodes.Global, nodes.Nonlocal) or (t is nodes.ExceptHandler and node.name):
            if _mentions(node, name):
                return None
        todo.extend(reversed([c for c in node.children if c is not None]))
    return found


def plain_parameter(scope: nodes.CSTNode, name: str) -> bool:
    """Is ``name`` a parameter of function ``scope`` that nothing in it binds again?"""
    return bool(_parameter(scope, name)) and _assigned(scope, name, None, _rebinds) == []


def tensor_parameter(scope: nodes.CSTNode, name: str) -> bool:
    """Is ``name`` a parameter of function ``scope`` that nothing in it binds again, on which
    (or on an item of which: ``x[..., -n:].zero_()``) the function calls a method only a tensor
    has (``x.unsqueeze(0)``, ``x.masked_fill_(m, 0)``: ``torch_api.is_tensor_only_method``; a
    ``view`` to a shape of three or more sizes; ``.float()`` of an item taken by a tuple index:
    ``x[:, :-1].float()``), or ``x.size(d)`` (a NumPy array's ``size`` is
    a number)? A tensor on every call that gets that far: evidence for a storage question asked
    of it (which views of it overlap), a signal, not a proof."""
    if not _parameter(scope, name) or _assigned(scope, name, None, _rebinds) != []:
        return False
    for node in nodes.within(scope.body, (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)):
        if type(node) is nodes.Call and type(node.func) is nodes.Attribute:
            recv = node.func.value
            m = node.func.attr.value
            items = False
            while type(recv) is nodes.Subscript and m != "size":
                items = items or len(recv.slice) > 1
                recv = recv.value  # ``x[..., -n:].zero_()``: a method of an item of it
            if type(recv) is nodes.Name and recv.value == name and (
                    (m == "size" and node.args) or torch_api.is_tensor_only_method(m) or
                    _view_of_many(node) or (items and m in _DTYPE_METHODS and not node.args)):
                return True
    return False


#: a tensor's dtype conversions that ``nn.Module`` has too (``model.float()``): of an item taken
#: by a tuple index (``x[:, :-1].float()``) only a tensor has one (an array, a list or a module
#: container has no such item or no such method)
_DTYPE_METHODS = frozenset({"float", "double", "half", "bfloat16"})


def _view_of_many(call) -> bool:
    """``x.view(b, t, c, h, w)``: a tensor's ``view`` to a shape (NumPy's takes a dtype and a
    type, two at most)."""
    return call.func.attr.value == "view" and len(call.args) >= 3 and \
        not any(a.star or a.keyword is not None for a in call.args)


def tensor_local(scope: nodes.CSTNode, name: str) -> bool:
    """Is ``name`` bound in function ``scope`` only by ``name = X.clone()`` (or another method
    only a tensor has: ``X.detach()``, ``X.contiguous()``; ``torch_api.is_tensor_only_method``;
    or ``X.view(b, t, c, h, w)``, ``_view_of_many``)?
    A NumPy array copies with ``copy()``: such a value is a tensor wherever the call returns.
    Evidence for a storage question, as ``tensor_parameter``'s: a signal, not a proof."""
    bound = _assigned(scope, name, None, _rebinds)
    return bool(bound) and all(
        type(value) is nodes.Call and type(value.func) is nodes.Attribute and (
            value.func.attr.value == "clone" or _view_of_many(value) or
            torch_api.is_tensor_only_method(value.func.attr.value)) for value, _ in bound)


def _rebinds_first(scope, value, before) -> bool:
    """Is the statement binding ``value`` one of the function's own statements (no branch, no
    loop around it), before the one that holds ``before``?"""
    for stmt in getattr(scope.body, "body", ()):
        if type(stmt) is nodes.SimpleStatementLine and any(
                type(small) is nodes.Assign and small.value is value for small in stmt.body):
            return True
        if nodes.holds(stmt, before):
            return False
    return False



def _rebinds(target: nodes.CSTNode, name: str) -> bool:
    """Does assigning to ``target`` bind ``name`` (not ``name[i] = v``, ``name.a = v``: writes
    into the object it holds)?"""
    t = type(target)
    if t is nodes.Name:
        return target.value == name
    if t is nodes.Tuple or t is nodes.List:
        return any(_rebinds(e.value, name) for e in target.elements)
    if t is nodes.StarredElement:
        return _rebinds(target.value, name)
    return False


def _mentions(expr: nodes.CSTNode, name: str) -> bool:
    if type(expr) is nodes.Name:
        return expr.value == name
    return any(_mentions(child, name) for child in _read_children(expr))


def _read_children(node: nodes.CSTNode) -> list:
    """The children of ``node`` that may read a name: not an attribute's own name (``t.data``
    reads ``t``, not ``data``) nor a keyword's (``f(data=x)`` reads ``x``)."""
    t = type(node)
    if t is nodes.Attribute or t is nodes.Arg:
        return [node.value]
    return node.children


def _write_receiver(node: nodes.Name, stack: list) -> bool:
    """``node`` is the target of an in-place write statement (``y.add_(..)``, ``y[i] = v``,
    ``y += v``, ``y[i] += v``) whose result nothing uses."""
    if not stack:
        return False
    parent = stack[-1]
    if type(parent) is nodes.AugAssign:
        return parent.target is node
    grand = stack[-2] if len(stack) > 1 else None
    if type(parent) is nodes.Attribute and parent.value is node and is_value_write(parent.attr.value):
        top = stack[-3] if len(stack) > 2 else None
        return type(grand) is nodes.Call and grand.func is parent and type(top) is nodes.Expr
    if type(parent) is nodes.Subscript and parent.value is node:
        return (type(grand) is nodes.AssignTarget and grand.target is parent) or (
            type(grand) is nodes.AugAssign and grand.target is parent)
    return False


#: NumPy array methods that write the array in place
ARRAY_WRITES = frozenset({"fill", "sort", "put", "partition", "itemset", "resize"})


def first_write(scope: nodes.CSTNode, start: nodes.CSTNode, writers: frozenset,
                stop: frozenset = frozenset(), items: bool = False,
                array: bool = False, gathers: bool = False,
                views: bool = False) -> Optional[nodes.CSTNode]:
    """The first in-place write, in source order after the statement ``start``, into a value
    named in ``writers`` (dotted names): ``w.add_(..)``, ``w[i] = v``, ``w += v``,
    ``nn.init.*_(w)``, ``f(.., out=w)``; with ``array``, also ``a.fill(..)``, ``a.sort()``,
    ``np.copyto(a, ..)``; with ``items``, a write into an item instead (``l[i].add_(..)``,
    ``l[i][j] = v``, ``l[i] += v``) and, with ``gathers``, a call ``X.all_gather(l, ...)``
    (which fills the items of ``l``; the caller checks what ``X`` is). None when there is none before a name of ``writers`` or
    ``stop`` is bound again (it then holds a new value), or in another scope. With ``views``, a
    name of ``writers`` bound again to a view of itself (``x = x.permute(0, 3, 1, 2)``,
    ``x = torch.transpose(x, 0, 1)``: ``VIEWS``, always a view) still holds the same memory."""
    if writers.isdisjoint(_receivers(scope)):
        return None  # nothing in the scope writes through any of them
    walk = _FirstWrite(start, writers, writers | stop, items, array)
    walk.gathers = gathers
    walk.views = views
    walk.visit(scope)
    return walk.found


def _write_targets(node, array: bool, gathers: bool):
    """What ``node`` writes into in place, as ``first_write`` reads it: (the expression written
    through, whether it is the value itself rather than a receiver to match): ``w`` of
    ``w.add_(..)``, ``w[i] = v``, ``w += v``, ``nn.init.*_(w)``, ``f(.., out=w)``; with
    ``array``, ``a.fill(..)``, ``np.copyto(a, ..)``; with ``gathers``, ``l`` of
    ``X.all_gather(l, ...)`` (the value itself)."""
    t = type(node)
    if t is nodes.Call:
        func = node.func
        if type(func) is nodes.Attribute:
            m = func.attr.value
            if gathers and m == "all_gather" and node.args:
                yield node.args[0].value, True
            if is_value_write(m) or (array and m in ARRAY_WRITES):
                yield func.value, False
        name = _dotted(func) or ""
        first = node.args[0].value if node.args and node.args[0].keyword is None else None
        if first is not None and ((".init." in name and name.endswith("_"))
                                  or (array and name.endswith("copyto"))):
            yield first, False
        for a in node.args:
            if a.keyword is not None and a.keyword.value == "out":
                yield a.value, False
    elif t is nodes.AugAssign:
        yield node.target, False
        if type(node.target) is nodes.Subscript:
            yield node.target.value, False
    elif t is nodes.Assign:
        for a in node.targets:
            if type(a.target) is nodes.Subscript:
                yield a.target.value, False


#: the scope ``_receivers`` last read, and its answer (one analysis asks of one scope at a time)
_LAST_RECEIVERS: list = [None, frozenset()]


def _receivers(scope) -> frozenset:
    """The dotted names anything in ``scope`` (nested scopes too) writes through in any of the
    ways ``first_write`` looks for, with every option on (``w``, ``l`` of ``l[i]``): a superset,
    read once per scope, so that most questions (a conversion's sides, in a function that
    never writes into them) cost a set look-up instead of a walk of the rest of the scope."""
    if _LAST_RECEIVERS[0] is scope:
        return _LAST_RECEIVERS[1]
    found = set()
    todo = [scope]
    while todo:
        node = todo.pop()
        for expr, _ in _write_targets(node, True, True):
            found.add(_dotted(expr))
            if type(expr) is nodes.Subscript:  # (``l[i].add_(..)``: ``l``)
                found.add(_dotted(expr.value))
        todo.extend(c for c in node.children if c is not None)
    found.discard(None)
    got = frozenset(found)
    _LAST_RECEIVERS[0], _LAST_RECEIVERS[1] = scope, got
    return got


def _line_of(node) -> Optional[int]:
    """The first line of ``node`` as its ``ast`` node has it (None: not known)."""
    a = node._a
    if type(a) is tuple:
        return a[0]
    return getattr(a, "lineno", None)


def _ends_before(node, line: int) -> bool:
    """Does ``node`` (as its ``ast`` node places it) end on a line before ``line``? Unknown: no."""
    a = node._a
    if type(a) is tuple:
        return a[2] < line
    end = getattr(a, "end_lineno", None)
    return end is not None and end < line


class _FirstWrite:
    __slots__ = ("start", "writers", "stop", "items", "array", "state", "found", "gathers",
                 "line", "views")

    def __init__(self, start, writers, stop, items: bool, array: bool) -> None:
        self.start, self.writers, self.stop = start, writers, stop
        self.items, self.array = items, array
        self.state = 0  # 0: before start, 1: after it, 2: done
        self.found: Optional[nodes.CSTNode] = None
        self.gathers = False
        self.views = False
        #: before ``start`` nothing is looked at but where it is: a subtree that ends on an
        #: earlier line is passed over whole (the walk used to visit every node of the scope)
        self.line = _line_of(start)

    def _receiver(self, expr) -> bool:
        """Is ``expr`` what a write into a watched value goes through?"""
        if self.items:
            if type(expr) is not nodes.Subscript or len(expr.slice) != 1 or \
                    type(expr.slice[0].slice) is not nodes.Index:
                return False
            expr = expr.value
        return _dotted(expr) in self.writers

    def _is_write(self, node) -> bool:
        t = type(node)
        if t is not nodes.Call and t is not nodes.AugAssign and t is not nodes.Assign:
            return False  # (most nodes: no generator made)
        return any(_dotted(expr) in self.writers if direct else self._receiver(expr)
                   for expr, direct in _write_targets(node, self.array, self.gathers))

    def _rebinds(self, node) -> bool:
        t = type(node)
        if t is nodes.Assign:
            return any(_binds_any(a.target, self.stop) for a in node.targets)
        if t in (nodes.For, nodes.AnnAssign):
            return _binds_any(node.target, self.stop)
        if t is nodes.NamedExpr:
            return _dotted(node.target) in self.stop
        return False

    def visit(self, node: nodes.CSTNode) -> None:
        if self.state == 2:
            return
        if node is self.start:
            self.state = 1
            return
        t = type(node)
        if self.state == 1:
            if t in (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda):
                return  # another scope
            if self._is_write(node):
                self.found = node
                self.state = 2
                return
            if t is nodes.Assign:
                self.visit(node.value)
                if self.state == 1 and self._rebinds(node) and not (
                        self.views and _view_of_itself(node, self.writers)):
                    self.state = 2
                return
            if self._rebinds(node):
                self.state = 2
                return
        line = self.line if self.state == 0 else None
        for child in node.children:
            if line is not None and self.state == 0 and _ends_before(child, line):
                continue  # ``start`` is not in it, and nothing before ``start`` counts
            self.visit(child)
            if self.state == 2:
                return


#: methods (and ``torch.<name>`` functions) whose result is always a view of their receiver
#: (first argument), tensor or NumPy array alike
VIEWS = frozenset({"permute", "transpose", "t", "view", "view_as", "unsqueeze", "squeeze",
                   "narrow", "movedim", "moveaxis", "swapaxes", "swapdims", "detach"})


def _view_of_itself(node, names: frozenset) -> bool:
    """``x = x.permute(...)``, ``x = torch.permute(x, ...)``, ``x = x.T`` for ``x`` in
    ``names``: the name is bound again to a view of what it held."""
    if len(node.targets) != 1 or type(node.targets[0].target) is not nodes.Name:
        return False
    name = node.targets[0].target.value
    value = node.value
    if name not in names:
        return False
    if type(value) is nodes.Attribute:
        return value.attr.value in ("T", "mT") and _dotted(value.value) == name
    if type(value) is not nodes.Call or type(value.func) is not nodes.Attribute or \
            value.func.attr.value not in VIEWS:
        return False
    recv = value.func.value
    if _dotted(recv) == name:
        return True
    return _dotted(recv) == "torch" and bool(value.args) and value.args[0].keyword is None \
        and not value.args[0].star and _dotted(value.args[0].value) == name


def bound_in(scope: nodes.CSTNode, name: str) -> bool:
    """Is ``name`` bound anywhere in ``scope``'s own statements (an assignment, an augmented
    one, a loop or ``with`` target, ``:=``, ``del``, ``global``, an import, a nested ``def``)?"""
    todo = list(scope.children)
    while todo:
        node = todo.pop()
        t = type(node)
        if t in (nodes.FunctionDef, nodes.ClassDef):
            if node.name.value == name:
                return True
            continue
        if t is nodes.Lambda:
            continue
        if t is nodes.Assign and any(_mentions(a.target, name) for a in node.targets):
            return True
        if t in (nodes.AugAssign, nodes.AnnAssign, nodes.For, nodes.NamedExpr, nodes.CompFor) \
                and _mentions(node.target, name):
            return True
        if t is nodes.WithItem and node.asname is not None and _mentions(node.asname, name):
            return True
        if t in (nodes.Global, nodes.Nonlocal, nodes.Del, nodes.Import, nodes.ImportFrom) and \
                _mentions(node, name):
            return True
        if t is nodes.ExceptHandler and node.name is not None and _mentions(node.name, name):
            return True
        todo.extend(c for c in node.children if c is not None)
    return False


def binds_itself(scope: nodes.CSTNode, name: str) -> bool:
    """Does ``scope`` bind ``name`` itself (a parameter, ``name = v``, a loop target, a
    declaration...), writes into what it holds (``name[k] = v``, ``name.a = v``) aside?"""
    return _parameter(scope, name) is not False or _assigned(scope, name, None, _rebinds) != []


def _dotted(expr) -> Optional[str]:
    return nodes.dotted_name(expr) if type(expr) in (nodes.Name, nodes.Attribute) else None


def _binds_any(target, names: frozenset) -> bool:
    t = type(target)
    if t is nodes.Name or t is nodes.Attribute:
        return _dotted(target) in names
    if t in (nodes.Tuple, nodes.List):
        return any(_binds_any(e.value, names) for e in target.elements)
    if t is nodes.StarredElement:
        return _binds_any(target.value, names)
    return False
