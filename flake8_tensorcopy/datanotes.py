"""How the walk notes each use of ``.data``, as a mixin of the engine's ``Walker``.

``TEN1xx`` judge an ``X.data`` by what is done with it: the method called on it, the function
it is passed to, the store it is the target of. The walk notes the first such use of each
``.data`` node (``Context.data_use``, ``Context.data_chain``) as it passes the call or store
holding it, from the callee's qualified name and the torch table, before the rules are asked.
"""
from __future__ import annotations

from typing import Optional

from .semantic import kinds, torch_api
from .syntax import nodes
from .syntax.nodes import dotted_name
from .rules.context import UNASKED


#: torch functions that accept any data: an argument passed to them is no evidence of a tensor
_CONVERTERS = frozenset(
    {"torch.tensor", "torch.as_tensor", "torch.asarray", "torch.from_numpy", "torch.save",
     "torch.is_tensor", "torch.numel", "torch.Tensor", "torch.FloatTensor", "torch.LongTensor",
     "torch.utils.data.DataLoader", "torch.utils.data.TensorDataset"}
) | kinds.LEGACY_CONSTRUCTORS


#: ``torch.distributed`` collectives that write into their first tensor argument
_COLLECTIVE_WRITES = frozenset(
    f"torch.distributed.{f}" for f in ("broadcast", "all_reduce", "reduce", "recv", "irecv",
                                       "scatter", "all_gather_into_tensor",
                                       "reduce_scatter_tensor"))
#: tensor methods that take any data (lists, arrays): what they are given is no evidence
_ANY_DATA_METHODS = frozenset({"new_tensor", "new", "set_"})


def _data_under_tensor_methods(call: nodes.Call) -> Optional[nodes.Attribute]:
    """The ``X.data`` under ``X.data.view(-1).narrow(0, i, n)``: a chain of tensor methods that
    each give a tensor (None: the chain starts elsewhere, or has another call in it)."""
    inner: nodes.BaseExpression = call
    while type(inner) is nodes.Call and type(inner.func) is nodes.Attribute:
        inner = inner.func.value  # where the chain starts, first: rarely at an ``X.data``
    if type(inner) is not nodes.Attribute or inner.attr.value != "data":
        return None
    inner = call
    while type(inner) is nodes.Call:
        func = inner.func
        if type(func) is not nodes.Attribute:
            return None
        kws = [a.keyword.value for a in inner.args if a.keyword is not None]
        star = any(a.star for a in inner.args)
        if torch_api.method_return(func.attr.value, len(inner.args) - len(kws) - star, kws,
                                   star) != "T":
            return None
        inner = func.value
    if type(inner) is nodes.Attribute and inner.attr.value == "data":
        return inner
    return None


def _initializer(func: nodes.BaseExpression) -> bool:
    """A callee named like an in-place initializer (``weight_init``, ``init_fn``): what it is
    given first is written into."""
    name = nodes.last_name(func) or ""
    return "init" in name.lower() and not name.startswith("__") and name != "init_hidden"


def _is_init(q: str) -> bool:
    """``torch.nn.init.normal_`` and its deprecated in-place alias ``torch.nn.init.normal``."""
    if not q.startswith("torch.nn.init."):
        return False
    return q.endswith("_") or torch_api.function_return(q + "_") is not None


def _takes_data(q: str, i: int, arg: nodes.Arg) -> bool:
    """Does torch function ``q`` take any data (a list, an array) where ``arg`` goes? Then the
    argument is no evidence of a tensor (``torch.sparse_csr_tensor(a.indptr, a.indices, a.data)``
    with SciPy's ``a``)."""
    positions = torch_api.data_arg_positions(q)
    if positions is None:
        return False
    return arg.keyword is not None or i in positions


class DataNotes:
    """``Walker``'s notes on ``.data`` uses (``self.ctx``, ``self.inf``: the walk's)."""

    def _note_call(self, node: nodes.Call) -> None:
        use = self.ctx.data_use
        func = node.func
        if type(func) is nodes.Attribute:
            recv = func.value
            if type(recv) is nodes.Attribute and recv.attr.value == "data":
                use.setdefault(id(recv), ("method", func.attr.value))
        q = UNASKED  # the callee's qualified name, worked out when an argument needs it
        writes = None
        for i, arg in enumerate(node.args):
            value = arg.value
            t = type(value)
            if t is nodes.Call:
                # ``dst.copy_(g.data.view(-1))``: a tensor method's argument whose tensor methods
                # start from an ``X.data``
                root = _data_under_tensor_methods(value)
                if root is not None:
                    if q is UNASKED:
                        q = self.ctx.qualname(func)
                    if q is None and self._tensor_method(func):
                        use.setdefault(id(root), ("torch-arg", func.attr.value))
                continue
            if t is nodes.Attribute and value.attr.value == "data":
                if q is UNASKED:
                    q = self.ctx.qualname(func)
                if writes is None:
                    writes = self.inf.written_params(node)
                if q and _is_init(q) and i == 0:
                    use.setdefault(id(value), ("init", q))
                elif q in _COLLECTIVE_WRITES and (
                        (arg.keyword is None and i == 0) or (
                            arg.keyword is not None and arg.keyword.value in ("tensor", "output"))):
                    # ``dist.broadcast(p.data, src)``: written in place on the receiving ranks
                    use.setdefault(id(value), ("helper-write", q))
                elif (i if arg.keyword is None else arg.keyword.value) in writes or (
                        q is None and i == 0 and arg.keyword is None and _initializer(func)):
                    # ``normal_(w.data)`` with a helper of the project that writes into its
                    # argument; ``weight_init(m.weight.data)`` with an initializer passed in
                    use.setdefault(id(value), ("helper-write", dotted_name(func) or "the helper"))
                elif q and q.startswith("torch.") and q not in _CONVERTERS \
                        and not _takes_data(q, i, arg):
                    use.setdefault(id(value), ("torch-arg", q))
                elif q is None and self._tensor_method(func):
                    # ``dst.data.copy_(src.data)``, ``p.add_(g.data)``: a tensor method takes
                    # tensors (a Python number has no ``.data``; a memoryview is refused)
                    use.setdefault(id(value), ("torch-arg", func.attr.value))
                else:
                    use.setdefault(id(value), ("arg", None))
        if type(func) is nodes.Attribute and type(func.value) is nodes.Call:
            # ``x.data.clone().detach()``: the calls chained on an ``x.data``, innermost first
            # (the outermost call is walked first, so the whole chain is noted)
            calls = [node]
            inner = func.value
            while type(inner) is nodes.Call and type(inner.func) is nodes.Attribute:
                calls.append(inner)
                inner = inner.func.value
            if type(inner) is nodes.Attribute and inner.attr.value == "data":
                self.ctx.data_chain.setdefault(id(inner), tuple(reversed(calls)))
        if type(func) is nodes.Attribute and type(func.value) is nodes.Subscript:
            # ``w.data[idx].zero_()``: an in-place change through ``.data``
            inner = func.value.value
            if type(inner) is nodes.Attribute and inner.attr.value == "data" \
                    and kinds.is_value_write(func.attr.value):
                use.setdefault(id(inner), ("subscript-store", None))
        self.inf.register_buffer_call(node)
        self.inf.note_append(node)

    def _tensor_method(self, func: nodes.BaseExpression) -> bool:
        """``func`` is an in-place or tensor-only method of a tensor (its receiver a tensor, or
        an ``X.data`` that the rules judge on its own; ``copy_`` exists on tensors only)."""
        if type(func) is not nodes.Attribute:
            return False
        m = func.attr.value
        if m in _ANY_DATA_METHODS or not (kinds.is_value_write(m) or torch_api.is_tensor_only_method(m)):
            return False
        recv = func.value
        if m == "copy_" or (type(recv) is nodes.Attribute and recv.attr.value == "data"):
            return True
        k = self.inf.infer(recv)
        # a method only tensors have: a receiver of no known kind is a tensor (as ``infer`` says)
        return kinds.is_tensor(k) or (torch_api.is_tensor_only_method(m) and k in (
            None, kinds.UNKNOWN, kinds.FREE, kinds.MODULE_OUT))

    def _note_store(self, target: nodes.BaseExpression, aug: bool,
                    value_tensor: bool = False) -> None:
        use = self.ctx.data_use
        t = type(target)
        if t is nodes.Attribute and target.attr.value == "data":
            # ``p.data = q.data`` with ``q`` a tensor: noted, a parameter-like name is then one
            use.setdefault(id(target), ("augassign" if aug else "assign",
                                        "tensor" if value_tensor else None))
        elif t is nodes.Subscript:
            value = target.value
            if type(value) is nodes.Attribute and value.attr.value == "data":
                use.setdefault(id(value), ("subscript-store", None))
        elif t is nodes.Tuple or t is nodes.List:
            for e in target.elements:
                self._note_store(e.value, aug)
