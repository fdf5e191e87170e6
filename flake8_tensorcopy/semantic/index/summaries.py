"""Graph summaries of the project's functions (``FuncFacts.graph_summary``): what a function does
to autograd graphs, read once from its ``ast`` with ``semantic.graph`` and kept with its facts,
so that a caller asks a dictionary, not the callee's body (the cost stays linear):

- ``returns``: it returns a value it differentiated (``loss.backward(); return loss``), or a
  tuple whose items at ``items`` are such values (``return loss, acc``);
- ``differentiates``: positions of the parameters it calls backward on (``def step(loss):
  loss.backward()``), counted as its callers pass them (a method's ``self`` is not counted);
- ``accumulates``: call positions of the parameters a method adds into an attribute of
  ``self`` that outlives the call (``def update(self, val, n=1): self.sum += val * n``) ->
  that attribute (``self.sum``), when no ``with`` turns grad off around it;
- ``sources`` / ``regions``: per returned item (the value, a tuple item, a key of the returned
  dict) what it is derived from (the caller's argument k or an item of it, a forward pass inside)
  and the grad region it was computed in (``semantic.graph_sources``): a caller that
  differentiated one item knows the call ran with grad on, and so which other items hold graphs.

A function calling another reads the callee's summary (project functions by name, methods of
``self`` through the class, the ``forward`` of a project module the class holds in ``self.X``); a
cycle of calls reads nothing for the call that closes it.
"""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Optional, Tuple

from .evaluate import Evaluator
from .kept_attrs import held_attributes
from .method_accumulates import method_accumulates
from .. import graph, graph_sources, kinds
from ..graph_items import elements, namedtuple_fields, returned_fields, summed_items, \
    call_bindings
from ..graph_facts import module_call, sum_of, unpacked_tuple
from ..graph_yields import summary_items, yielded_differentiated, yielded_items
from ...syntax.walk import statements
from ..graph_terms import keeps_graph_function, keyed_values, leaf_attributes, module_attributes

_BUSY = object()


class GraphSummary:
    __slots__ = ("name", "returns", "items", "differentiated", "accumulates", "terms",
                 "key_terms", "fields", "key_derived", "sources", "regions", "keys",
                 "proves_on", "yields", "followed", "consumed", "holds", "kept_items",
                 "adds_into")

    def __init__(self, name: str, returns: bool = False, items: FrozenSet[int] = frozenset(),
                 differentiated: FrozenSet[int] = frozenset(),
                 accumulates: Optional[Dict[int, str]] = None,
                 terms: Optional[Dict[int, FrozenSet[int]]] = None,
                 key_terms: Optional[Dict[str, FrozenSet[str]]] = None,
                 fields: Tuple[str, ...] = (),
                 key_derived: Optional[Dict[str, FrozenSet[str]]] = None,
                 sources: Optional[Dict[str, FrozenSet[Tuple[str, str]]]] = None,
                 regions: Optional[Dict[str, str]] = None,
                 keys: FrozenSet[str] = frozenset(), proves_on: bool = False,
                 yields: FrozenSet[int] = frozenset(),
                 followed: Optional[FrozenSet[str]] = frozenset(),
                 consumed: FrozenSet[int] = frozenset(),
                 holds: Optional[Dict[str, FrozenSet[int]]] = None,
                 kept_items: Optional[Dict[int, Tuple[str, str]]] = None,
                 adds_into: bool = False) -> None:
        self.name = name
        #: every return gives back a dict it made into whose items it adds what it
        #: differentiated (``sums[k] += v`` of the loss's terms): it holds those graphs
        self.adds_into = adds_into
        #: call position -> (key path, ``self`` attribute) of a parameter one item of which the
        #: method adds into the attribute (``self.losses.append(logs["loss"])``: ``['loss']``)
        self.kept_items = kept_items or {}
        #: ``self`` attribute -> the parameters whose graph it holds after a call (``holds``)
        self.holds = holds or {}
        #: the call positions a ``backward()`` of the function runs through: those it
        #: differentiates and the terms of a sum it differentiates (``update(model, opt, ent)``
        #: with ``loss = pg - 0.01 * ent``): what the caller hands there is consumed by it
        self.consumed = consumed | differentiated
        #: the items of what it returns (``"[i]"``, key paths) that ``sources`` followed, with
        #: a source or none (``graph_sources.unfollowed``: none followed, a record it builds;
        #: None: nothing is followed in a function that turns grad off, none of it is attached)
        self.followed = followed
        #: a generator every ``yield`` of which gives a value it differentiated (``loss.backward();
        #: yield loss``: ``-1``), or has one at a tuple's position (``yield loss, out``: ``0``):
        #: what a loop over a call of it takes there holds that graph
        self.yields = yields
        #: every call differentiates a value computed in the mode it was called in (a
        #: ``backward()`` among the body's own statements, no ``return`` before it): grad was
        #: on where a call of it ran (``graph_sources.proven_regions`` of the caller)
        self.proves_on = proves_on
        #: key paths of the dict every return gives back that it differentiated
        #: (``out = {"loss": ...}; out["loss"].backward(); return out``: ``['loss']``)
        self.keys = keys
        self.returns = returns
        self.items = items
        self.differentiated = differentiated
        self.accumulates: Dict[int, str] = accumulates or {}
        #: returned tuple item -> the items that are computed terms of its sum in every
        #: return (``loss = c + r; return loss, c, r``: 0 -> {1, 2}): when the caller
        #: differentiates the item, those are the loss's terms too
        self.terms: Dict[int, FrozenSet[int]] = terms or {}
        #: the same for a returned dict: key path -> the key paths that are computed terms of
        #: its sum (``out["loss"] = w * out["mse"] + out["bpp"]; return out``:
        #: ``['loss']`` -> {``['mse']``, ``['bpp']``})
        self.key_terms: Dict[str, FrozenSet[str]] = key_terms or {}
        #: key path of that dict -> the key paths computed from it through operations that keep
        #: a graph (``out["psnr"] = 10 * torch.log10(1 / out["mse"])``: ``['mse']`` ->
        #: {``['psnr']``}): attached when it is
        self.key_derived: Dict[str, FrozenSet[str]] = key_derived or {}
        #: the namedtuple fields of what every return gives back (``LossTuple(*losses)``):
        #: ``out.total_loss`` is item ``fields.index("total_loss")``
        self.fields = fields
        #: returned item (``""`` the value, ``"[i]"``, a key path of a returned dict) -> the
        #: sources it is derived from (``graph_sources``: "a forward pass inside, in this
        #: region", "the caller's argument k"), and -> the region it was computed in
        self.sources = sources or {}
        self.regions = regions or {}
        for j, others in self.terms.items():  # ``out[0].backward()``: ``out[1]`` is a term
            self.key_terms.setdefault(f"[{j}]", frozenset(f"[{i}]" for i in others))
            if j < len(fields) and all(i < len(fields) for i in others):
                self.key_terms.setdefault("." + fields[j],
                                          frozenset("." + fields[i] for i in others))

    def returns_item(self, i: Optional[int]) -> bool:
        """Does a call's value (``i`` None) or its item ``i`` hold a differentiated graph?"""
        return self.returns if i is None else i in self.items

    def returns_path(self, key: str) -> bool:
        """Does item ``key`` (``[0]``, or ``.total_loss`` of a namedtuple) of the call's value
        hold a differentiated graph?"""
        if key in self.keys:
            return True
        if key.startswith("[") and key[1:-1].isdigit():
            return int(key[1:-1]) in self.items
        return key.startswith(".") and key[1:] in self.fields and \
            self.fields.index(key[1:]) in self.items

    def differentiates(self, k: int) -> bool:
        return k in self.differentiated

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return (f"GraphSummary({self.name}, returns={self.returns}, items={set(self.items)}, "
                f"differentiates={set(self.differentiated)}, accumulates={self.accumulates})")


EMPTY = GraphSummary("")


def summary_of(fn) -> GraphSummary:
    """The summary of ``fn`` (a ``FuncFacts``), made once and kept on it."""
    got = fn._graph if hasattr(fn, "_graph") else None
    if got is _BUSY:
        return EMPTY  # a cycle of calls: the call that closes it reads nothing
    if got is not None:
        return got
    fn._graph = _BUSY
    try:
        made = _summarise(fn)
    except RecursionError:
        made = EMPTY
    fn._graph = made
    return made


class IndexOracle(graph.Oracle):
    """Calls as a project module's own text shows them: ``name(...)`` of a function the module
    defines or imports from the project, ``self.m(...)`` of a method of the class."""

    def __init__(self, module, cls) -> None:
        self.module = module
        self.cls = cls
        #: what the class's text says of its attributes, by question (``_of_class``)
        self._memo: Dict[str, FrozenSet[str]] = {}
        self._globals: Dict[str, object] = {}  # (``_global``)

    def fields(self, node: ast.Call):
        f = node.func
        if type(f) is not ast.Name:
            return None
        try:
            if type(made := self.module.lookup(f.id)) is not kinds.NamedTupleClass:  # dataclass
                return getattr(made, "constructor_fields", lambda: None)()
            value = self.module.assigns.get(f.id)
        except (OSError, ValueError, RecursionError, AttributeError):
            return None
        return namedtuple_fields(value) if value is not None else None

    def call(self, node: ast.Call) -> Optional[str]:
        got = super().call(node)  # torch's functions as spelled
        held = self._held(node.func) if got is None else None
        if type(held) is kinds.ModuleOf:  # ``self.fc(x)``: a layer ``__init__`` made
            return "forward" if module_call(held) else "through"
        if got is None and type(node.func) is ast.Attribute and self._parameters_read(node.func):
            return "forward"  # ``self.encoder_q = base_encoder()``: only a module has them
        d = graph.dotted(node.func) if got is None else None
        if d is None:
            return got
        # through the module's absolute imports: ``hvd.allreduce`` (``import horovod.torch as
        # hvd``), ``allreduce`` (``from horovod.torch import allreduce``)
        head, _, rest = d.partition(".")
        imp = self.module.imports.get(head)
        if imp is None or imp[2] != 0:
            return None
        q = imp[1] if imp[0] == "module" else f"{imp[1]}.{imp[3]}"
        return "through" if keeps_graph_function(f"{q}.{rest}" if rest else q) else None

    def global_call(self, name: str) -> Optional[str]:
        """A module-level name of the function's module bound by an assignment
        (``model = RNNModel(ntokens)``, ``criterion = nn.NLLLoss()``): a forward pass where it
        is a module with parameters, ``"through"`` where one without (what the module's facts
        say it is)."""
        try:
            shape = self._global(name)
            if type(shape) is kinds.ProjInstance:  # ``model = RNNModel(ntokens)``
                return "forward" if _called_method(shape) == "forward" else None
            m = module_call(shape)
        except (OSError, ValueError, RecursionError):
            return None
        return None if m is None else "forward" if m else "through"

    def _global(self, name: str):
        """The shape of what a top-level ``name = call(...)`` of the module binds (None: not
        bound so), worked out once per oracle."""
        if name not in self._globals:
            value = self.module.assigns.get(name)
            self._globals[name] = Evaluator(self.module).eval(value) \
                if type(value) is ast.Call else None
        return self._globals[name]

    def leaf(self, attr: str) -> bool:
        """Is ``self.<attr>`` a tensor that requires grad, bound only so by the class's methods
        (``graph_terms.leaf_attributes``: ``self.log_vars = nn.Parameter(...)``)? What a method
        computes from it (``torch.exp(-self.log_vars)``) is attached where grad is on."""
        return attr in self._of_class("leaves", leaf_attributes)

    def module_attribute(self, root: str, attr: str) -> bool:
        """Is ``self.<attr>`` a module the class is handed (``graph_terms.module_attributes``)?"""
        return root == "self" and attr in self._of_class("handed", module_attributes)

    def _of_class(self, name: str, make) -> FrozenSet[str]:
        """``make(the class's ast)``, once (empty outside a class or where it cannot be read)."""
        got = self._memo.get(name)
        if got is None:
            got = self._memo[name] = frozenset()
            try:
                if self.cls is not None:
                    got = self._memo[name] = make(self.cls.node)
            except (OSError, ValueError, RecursionError):
                pass
        return got

    def _parameters_read(self, f) -> bool:
        """Does a method of the class (a module) read ``self.X.parameters()`` or
        ``named_parameters()`` for the ``self.X`` that ``f`` calls?"""
        return graph.dotted(f) in self._of_class("params", lambda node: frozenset(
            graph.dotted(n.func.value) for n in ast.walk(node)
            if type(n) is ast.Call and type(n.func) is ast.Attribute and
            n.func.attr in ("parameters", "named_parameters"))
            if self.cls.category() == "module" else frozenset())

    def _own_forward(self):
        """The summary of the class's ``forward`` when it is a module (``self(x)``), else None."""
        try:
            target = self.cls.method("forward") if self.cls.category() == "module" else None
        except (OSError, ValueError, RecursionError):
            return None
        return target.graph_summary() if hasattr(target, "graph_summary") else None

    def _held(self, f):
        """The shape of ``self.X`` the class binds (``self.fc = nn.Linear(...)``), for a call of
        ``self.X``; None for anything else."""
        if type(f) is not ast.Attribute or type(f.value) is not ast.Name or \
                f.value.id != "self" or self.cls is None:
            return None
        try:
            return self.cls.attr(f.attr)
        except (OSError, ValueError, RecursionError):
            return None

    def method_summary(self, made: ast.Call, name: str):
        f = made.func
        try:
            cls = self.module.lookup(f.id) if type(f) is ast.Name else None
            fn = cls.method(name) if isinstance(cls, kinds.ProjectClass) and \
                hasattr(cls, "method") else None
        except (OSError, ValueError, RecursionError):
            return None
        return fn.graph_summary() if hasattr(fn, "graph_summary") else None

    def summary(self, node: ast.Call, local: bool = False):
        f = node.func
        if type(f) is ast.Name and f.id == "self" and self.cls is not None:
            # ``self(x)`` in a method of a module: its own ``forward``, as ``self.forward(x)``
            return self._own_forward()
        if local and type(f) is ast.Name:
            return None  # a name this function binds: not the module's function of that name
        target = None
        try:
            if type(f) is ast.Name:
                target = self.module.lookup(f.id)
                made = self._global(f.id) if target is None else None
                if type(made) is kinds.ProjInstance:  # ``model(x)``, ``model = Net()`` above
                    target = made.facts.method(_called_method(made))
            elif type(f) is ast.Attribute and type(f.value) is ast.Name and \
                    f.value.id == "self" and self.cls is not None:
                target = self.cls.method(f.attr)
                held = self._held(f) if target is None else None
                if type(held) is kinds.ProjInstance:  # ``self.criterion(x, y)``
                    target = held.facts.method(_called_method(held))
        except (OSError, ValueError, RecursionError):
            return None
        if target is None or not hasattr(target, "graph_summary"):
            return None
        return target.graph_summary()


def _called_method(instance) -> str:
    """The method a call of a project class's instance runs: a module's ``forward``, any other
    class's ``__call__``."""
    return "forward" if instance.facts.category() == "module" else "__call__"


def _summarise(fn) -> GraphSummary:
    node = fn.node
    cls = fn.cls
    method = cls is not None and not class_level(node)
    offset = 1 if method else 0
    g = graph.scope_graph(node, IndexOracle(fn.module, cls))
    returns, items, fields = _returns(g)
    differentiated = frozenset(k - offset for k in g.differentiated_params if k >= offset)
    consumed = frozenset(k - offset for k in g.term_params if k >= offset)
    kept_items: Dict[int, Tuple[str, str]] = {}
    accumulates = method_accumulates(g, node, offset, cls, kept_items) if method else {}
    key_terms, key_derived, keyed = _key_terms(node, g)
    positional = len(node.args.posonlyargs) + len(node.args.args)
    grad = graph.decorated_grad(node) in (None, "on")
    sources, regions, followed = summary_items(g, offset, positional, *keyed) \
        if grad else ({}, {}, None)
    if grad and any(type(s.value) is ast.Yield for s in g.expr_stmts):
        # what a generator yields, beside what it returns (``for loss, n in batches(...)``)
        ys, yr = yielded_items(g, offset, positional)
        sources, regions = {**sources, **ys}, {**regions, **yr}
    # (asked of a function that returns what it computed or differentiates something itself:
    # the proof reads the summaries of every call it binds, a walk of the callees)
    proves = grad and (bool(sources) or any(
        f.why == graph.DIFFERENTIATED for f in (*g.marked.values(), *g.paths.values()))) and \
        _proves_on(g, node)
    return GraphSummary(fn.name, returns, items, differentiated, accumulates, _item_terms(g),
                        key_terms, fields, key_derived, sources, regions, _returned_keys(g),
                        proves, yielded_differentiated(g, node), followed, consumed,
                        held_attributes(g, node, offset, accumulates) if accumulates else None,
                        kept_items, grad and _adds_into_returned(g, node, proves))


def _proves_on(g: graph.ScopeGraph, node) -> bool:
    """Does every call of the function differentiate a value it computed in the mode it was
    called in: the region ``""`` proven on (``graph_sources.proven_regions``) by a statement of
    the body's own, or of a loop's body among them (each turn runs it: ``for x, y in loader:
    ... loss.backward()``; a call that runs no turn differentiates nothing, and a caller's grad
    mode matters only where the loops it times run), not inside an ``if`` or a ``try``, with no
    ``return`` before it?"""
    line = graph_sources.proven_regions(g).get("")
    body = node.body
    while line is not None:
        s = next((s for s in body if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
        if type(s) not in (ast.For, ast.While):
            own = type(s) in (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.With)
            return own and all(stmt.lineno > line for _, stmt in g.returns)
        body = s.body
    return False


def class_level(node) -> bool:
    """Is the function ``node`` a ``staticmethod`` or ``classmethod`` (called without an
    instance)?"""
    return any(graph.dotted(d) in ("staticmethod", "classmethod")
               for d in getattr(node, "decorator_list", ()))


def _returns(g: graph.ScopeGraph):
    """(every return is a differentiated value, the tuple items every return agrees are, the
    namedtuple fields every return agrees on)."""
    if not g.returns:
        return False, frozenset(), ()
    whole = True
    items: Optional[set] = None
    fields: object = _BUSY  # not yet known
    for value, _ in g.returns:
        shown = unpacked_tuple(value)
        elts = shown.elts if shown is not None else \
            elements(g, value) if type(value) is ast.Call else None
        here = None
        if elts is not None:
            here = {i for i, e in enumerate(elts) if _proven(g.attached(e))}
        got = returned_fields(g, value) if type(value) in (ast.Call, ast.Name) else None
        fields = () if not got or fields not in (_BUSY, got) else got
        if elts is None and type(value) is ast.Name:
            here = _returned_items(g, value, got or ())
            whole = whole and _proven(g.attached(value))
        if here is not None:
            whole = whole and elts is None and _proven(g.attached(value))
            items = here if items is None else items & here
        else:
            whole = whole and _proven(g.attached(value))
            items = set()
    return whole, frozenset(items or ()), fields if type(fields) is tuple else ()


#: calls making an empty dict, or one of numbers, that a function fills with sums
_SUM_DICTS = frozenset({"dict", "defaultdict", "OrderedDict", "Counter"})


def _adds_into_returned(g: graph.ScopeGraph, fn, proves: bool) -> bool:
    """Does every ``return`` give back a name bound only to a dict the function makes (a
    display of constants, ``defaultdict(float)``, ``dict()``), into an item of which its own
    code adds a value a differentiating read here proved attached (``for k, v in
    terms.items(): sums[k] += v`` after ``terms["loss"].backward()``; ``total["loss"] =
    total["loss"] + loss``)? Each such dict then holds that graph, and so does whatever a
    caller keeps of it (``history.append(train_epoch(...))``). ``proves``: every call runs
    with grad on (``GraphSummary.proves_on``), so a value computed in its grad mode counts."""
    names = set()
    for value, _ in g.returns:
        reach = g.uses.get(id(value)) if type(value) is ast.Name else None
        if not reach or not all(_made_dict(g.bindings[b]) for b in reach):
            return False
        names.add(value.id)
    if not names or not names <= g.path_written:
        return False  # (no item of one of them is written: nothing is added into it)
    added = set()
    for s in statements(fn):
        t = type(s)
        if t is ast.AugAssign and type(s.op) is ast.Add:
            target, v = s.target, s.value
        elif t is ast.Assign and len(s.targets) == 1 and type(s.value) is ast.BinOp and \
                type(s.value.op) is ast.Add:
            target, left = s.targets[0], s.value.left
            same = type(left) is ast.Subscript and ast.dump(left) == ast.dump(
                ast.Subscript(value=target.value, slice=target.slice, ctx=ast.Load())) \
                if type(target) is ast.Subscript else False
            if not same:
                continue
            v = s.value.right
        else:
            continue
        if type(target) is ast.Subscript and type(target.value) is ast.Name and \
                target.value.id in names and target.value.id not in added and \
                _proven(g.attached(v, s), proves):
            added.add(target.value.id)
    return added == names


def _made_dict(bd) -> bool:
    v = bd.value
    if bd.kind != "assign":
        return False
    if type(v) is ast.Dict:
        return None not in v.keys and all(type(x) is ast.Constant for x in v.values)
    return type(v) is ast.Call and not v.args[1:] and (
        graph.dotted(v.func) or "").rpartition(".")[2] in _SUM_DICTS


def _returned_keys(g: graph.ScopeGraph) -> FrozenSet[str]:
    """The constant keys of the dict every ``return`` gives back (a name no write of an item
    changes) that a differentiating read here proved attached on every binding reaching it
    (``out["loss"].backward(); return out``), or of the dict display it gives back whose value
    is proven attached (a differentiated loss, a term of it)."""
    out: Optional[set] = None
    for value, stmt in g.returns:
        shown = graph_sources.displayed_dict(g, value)
        # ``return {"loss": loss, "ce": ce}`` (or a name bound once to it) after ``loss = ce +
        # l2; loss.backward()``: the keys whose value that proved attached
        here = {k for k, v in keyed_values(shown)
                if _proven(g.attached(v, stmt))} if type(shown) is ast.Dict else set()
        reach = g.uses.get(id(value)) if type(value) is ast.Name else None
        if type(shown) is not ast.Dict and (not reach or value.id in g.path_written):
            return frozenset()
        for i, b in enumerate(reach or ()):  # (what every binding reaching it proves)
            proven = {k for (bb, k), f in g.paths.items()
                      if bb == b and k.startswith("['") and _proven(f)}
            here = here | proven if type(shown) is ast.Dict else proven if i == 0 else \
                here & proven
        out = here if out is None else out & here
        if not out:
            return frozenset()
    return frozenset(out or ())


def _returned_items(g: graph.ScopeGraph, name: ast.Name, fields) -> Optional[set]:
    """The items of a returned name bound to calls' values that a differentiating read here
    (``losses.total_loss.backward()``, its terms) or the callee's summary proves attached."""
    reach = call_bindings(g, name)
    if reach is None or name.id in g.path_written:
        return None
    out: Optional[set] = None
    for b in reach:
        s = g.summary(g.bindings[b].value)
        n = max(len(fields), max(s.items, default=-1) + 1 if s is not None else 0)
        here = {i for i in range(n) if (s is not None and i in s.items) or
                _proven(g.path_fact(b, f"[{i}]")) or
                (i < len(fields) and _proven(g.path_fact(b, "." + fields[i])))}
        out = here if out is None else out & here
    return out


def _item_terms(g: graph.ScopeGraph) -> Dict[int, FrozenSet[int]]:
    """Returned tuple item -> the other items that are computed terms of its sum, agreed by
    every return (``return c + r, c, r``; ``loss = c + r`` ... ``return loss, c, r``)."""
    out: Optional[Dict[int, FrozenSet[int]]] = None
    for value, _ in g.returns:
        shown = unpacked_tuple(value)
        elts = shown.elts if shown is not None else \
            elements(g, value) if type(value) is ast.Call else None
        if elts is None:
            return {}
        here: Dict[int, FrozenSet[int]] = {}
        for j, e in enumerate(elts):
            total = sum_of(g, e)
            if total is None:
                summed = summed_items(g, elts, j)
                if summed:
                    here[j] = summed
                continue
            reach = [g.uses.get(id(t)) for t in graph.terms(total) if type(t) is ast.Name]
            found = frozenset(i for i, x in enumerate(elts) if i != j and type(x) is ast.Name
                              and g.uses.get(id(x)) and g.uses.get(id(x)) in reach
                              and g.computed_read(x))
            if found:
                here[j] = found
        out = here if out is None else {j: out[j] & here[j] for j in out.keys() & here.keys()
                                        if out[j] & here[j]}
    return out or {}


def _key_terms(fn, g: graph.ScopeGraph):
    """Key path of the one dict name every return gives back -> the key paths of that dict
    that are computed terms of the sum written at that key (each key written once, by a plain
    assignment, none of them in a nested function); and key path -> the key paths whose value
    is computed from it (``GraphSummary.key_derived``)."""
    # the returns the walk met are some of those below: one that is not the same plain name
    # as the others already answers, without reading the whole body again
    names = {v.id if type(v) is ast.Name else None for v, _ in g.returns}
    if None in names or len(names) > 1:
        return {}, {}, ({}, "")
    returned = set()
    writes: Dict[str, list] = {}
    todo = list(fn.body)
    while todo:
        n = todo.pop()
        t = type(n)
        if t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue
        if t is ast.Return:
            returned.add(n.value.id if type(n.value) is ast.Name else None)
        elif t in (ast.Assign, ast.AugAssign, ast.AnnAssign):
            for tgt in (n.targets if t is ast.Assign else [n.target]):
                p = graph.path_of(tgt)
                if p is not None:
                    value = n.value if t is ast.Assign and len(n.targets) == 1 else None
                    writes.setdefault(p[0], []).append((p[1], value, n))
        todo.extend(ast.iter_child_nodes(n))
    if len(returned) != 1 or None in returned:
        return {}, {}, ({}, "")
    root = next(iter(returned))
    once: Dict[str, object] = {}
    seen: Dict[str, int] = {}
    keyed: Dict[str, tuple] = {}
    for key, value, stmt in writes.get(root, ()):
        seen[key] = seen.get(key, 0) + 1
        once[key] = value
        keyed[key] = (value, stmt)
    out: Dict[str, FrozenSet[str]] = {}
    for key, value in once.items():
        if seen[key] != 1 or value is None or not graph.is_sum(value):
            continue
        found = frozenset(
            p[1] for p in (graph.path_of(t) for t in graph.terms(value))
            if p is not None and p[0] == root and p[1] != key and seen.get(p[1]) == 1
            and once[p[1]] is not None and graph.computed(once[p[1]]))
        if found:
            out[key] = found
    derived: Dict[str, set] = {}
    for key, value in once.items():
        if seen[key] != 1 or value is None:
            continue
        reads = {p[1] for p in map(graph.path_of, ast.walk(value)) if p is not None and
                 p[0] == root and p[1] != key and seen.get(p[1]) == 1}
        for source in reads:
            if g.derived_from(value, root, source):
                derived.setdefault(source, set()).add(key)
    keyed = {k: v for k, v in keyed.items() if seen[k] == 1 and v[0] is not None and
             type(v[1]) is ast.Assign and root not in g.opaque}
    return out, {k: frozenset(v) for k, v in derived.items()}, (keyed, root)


def _proven(fact, grad_on: bool = False) -> bool:
    """Attached whatever grad mode the caller runs in (backward proved it; ``grad_on``: or the
    function proves grad is on wherever it runs); not a container that merely holds such a
    value (its other items are unknown)."""
    return fact is not None and (grad_on or not fact.needs_grad) and fact.why != graph.HOLDS
