"""What a function returns and what a generator yields, in the graph facts' terms
(``graph_sources``): the sources of each item every ``return`` (``summary_items``) or ``yield``
(``yielded_items``) statement gives, which the function's summary keeps (what it yields under
``YIELDED`` keys beside what it returns), and a call of it or a loop over one reads
(``graph_loop_items.loop_item_fact``)."""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, List, Optional, Tuple

from .graph_facts import DIFFERENTIATED, unpacked_tuple
from .graph_sources import Source, computed_in, displayed_dict, region, shared, \
    shifted, sources
from .graph_terms import keyed_values, path_of, path_root
from ..syntax.walk import own_nodes


#: the start of the key of what a generator yields, in a summary's sources (``yielded``)
YIELDED = "<yield>"


def yielded_items(g, offset: int, positional: int) -> Tuple[
        Dict[str, FrozenSet[Source]], Dict[str, str]]:
    """The sources and regions of what the generator of ``g`` yields, keyed as ``yielded``
    groups them, in its callers' terms (``grouped``): merged into its summary's
    ``sources`` and ``regions`` beside what it returns."""
    return grouped(yielded(g), offset, positional)


def yielded(g) -> Dict[str, list]:
    """What every ``yield`` statement of a generator gives (``YIELDED``: the value;
    ``YIELDED + "[i]"``: item ``i`` of the tuple each yields, of one length), as
    ``summary_items`` groups them: ``for loss, n in batches(model, loader)`` takes a forward
    pass of the generator's where ``yield criterion(model(x), y), len(y)``."""
    stmts = [s for s in g.expr_stmts if type(s.value) is ast.Yield and s.value.value is not None]
    if not stmts:
        return {}
    whole, items, size = [], {}, None
    for stmt in stmts:
        v, r = stmt.value.value, region(g, stmt)
        whole.append((sources(g, v, r), computed_in(g, v, stmt)))
        n = len(v.elts) if type(v) is ast.Tuple and \
            not any(type(e) is ast.Starred for e in v.elts) else -1
        if size is not None and n != size:
            return {YIELDED: whole} if size == -1 and n == -1 else {}
        size = n
        for i, e in enumerate(v.elts if n != -1 else ()):
            items.setdefault(f"{YIELDED}[{i}]", []).append((sources(g, e, r),
                                                           computed_in(g, e, stmt)))
    return {YIELDED: whole, **items}


def summary_items(g, offset: int, positional: int, keyed: Dict[str, tuple],
                  root: str = "") -> Tuple[
        Dict[str, FrozenSet[Source]], Dict[str, str], FrozenSet[str]]:
    """(returned item -> its sources, returned item -> the region it was computed in, the
    items of what it returns that were followed, sources or none: ``unfollowed``) of a
    function (``offset``: 1 for a method's ``self``; ``positional``: how many parameters a call
    fills by position): ``""`` its value, ``"[i]"`` an item of the tuple every return gives back,
    ``keyed``: the key paths of the dict ``root`` it returns -> (value, statement writing it
    once)."""
    g.memo["keyed"] = (root, keyed)
    whole = []
    items: Optional[Dict[int, list]] = None
    values: Optional[list] = []  # ``"[*]"``: the values of the dict every return makes
    conditional = False  # a return gives a tuple on one branch only (``unpacked_tuple``)
    # the key paths of the dict display every return gives (None: not every return is one)
    keys: Optional[Dict[str, list]] = None
    displays = True
    # the fields of the dataclass every return constructs (``return StepOutput(loss=loss,
    # logits=logits)``: ``.logits``), None where not every return is one
    attrs: Optional[Dict[str, list]] = None
    constructed = True
    for value, stmt in g.returns:
        r = region(g, stmt)
        returned = value
        given = _constructed(g, value) if constructed else None
        if given is not None:
            attrs = _agreed(attrs, {k: (sources(g, v, r), computed_in(g, v, stmt))
                                    for k, v in given.items()})
        constructed = given is not None
        whole.append((sources(g, value, r), computed_in(g, value, stmt)))
        if values is not None and (type(value) in (ast.Dict, ast.DictComp, ast.ListComp) or
                                   type(value) is ast.List and not any(
                                       type(e) is ast.Starred for e in value.elts)):
            # ``return {f"dice_{c}": dice[c] for c in ...}``: what a loop over its items takes;
            # ``return [logits.softmax(-1)]``: what a list it returns holds
            vs = [value.value] if type(value) is ast.DictComp else [value.elt] \
                if type(value) is ast.ListComp else value.elts if type(value) is ast.List \
                else value.values
            got: FrozenSet[Source] = frozenset().union(*(sources(g, v, r) for v in vs))
            regs = {computed_in(g, v, stmt) for v in vs}
            values.append((got, regs.pop() if len(regs) == 1 else None))
        else:
            values = None
        conditional = conditional or type(value) is ast.IfExp
        value = unpacked_tuple(value)
        if value is not None:
            here = {i: (sources(g, e, r), computed_in(g, e, stmt))
                    for i, e in enumerate(value.elts)}
            for i, e in enumerate(value.elts):  # ``return loss, {"mse": mse, "l1": l1}``
                if type(e) in (ast.Tuple, ast.List) and not any(
                        type(x) is ast.Starred for x in e.elts):
                    # ``return total, (seg, depth)``: each item of the inner display too
                    here.update({f"[{i}][{j}]": (sources(g, x, r), computed_in(g, x, stmt))
                                 for j, x in enumerate(e.elts)})
                if type(e) is ast.Name and e.id in g.path_written:
                    # ``outputs["parts"] = parts; return loss, outputs``: what it wrote
                    here.update({f"[{i}]{k}": (sources(g, v, r) if v is not None else frozenset(),
                                               computed_in(g, v, w) if v is not None else None)
                                 for k, v, w in written_paths(g, e.id)})
                e = displayed_dict(g, e)
                if type(e) is ast.Dict and None not in e.keys:
                    here.update({f"[{i}]{k}": (sources(g, v, r), computed_in(g, v, stmt))
                                 for k, v in keyed_values(e)})
            items = _agreed(items, here)
        else:
            items = {}
        shown = displayed_dict(g, returned) if value is None else None
        if displays and type(shown) is ast.Dict and None not in shown.keys:
            # ``return {"loss": val_loss / n, "r2": r2}``: each constant key's value, where
            # every return gives a display with that key
            keys = _agreed(keys, {k: (sources(g, v, r), computed_in(g, v, stmt))
                                  for k, v in keyed_values(shown)})
        else:
            displays = False
    groups = {"": whole}
    if displays:
        groups.update(keys or {})
    if constructed:
        groups.update(attrs or {})
    groups.update({i if type(i) is str else f"[{i}]": v for i, v in (items or {}).items()})
    for key, (value, stmt) in keyed.items():
        groups[key] = [(sources(g, value, region(g, stmt)), computed_in(g, value, stmt))]
    if values:
        groups["[*]"] = values
    srcs, regions = grouped(groups, offset, positional)
    # (an item of a tuple one branch gives, with no source: followed only where every return
    # is a tuple, so that a forward pass's items still count as its output, ``unpacked_fact``)
    return srcs, regions, frozenset(k for k, got in groups.items() if k and got and not (
        conditional and k[:1] == "[" and k.count("[") == 1 and k not in srcs))


def _constructed(g, value) -> Optional[Dict[str, ast.expr]]:
    """``.field`` -> the value given for it, where ``value`` constructs a class whose instance
    keeps its fields as given (``g.oracle.fields``: a namedtuple, a dataclass of the project),
    by position or keyword (no ``*``/``**``); else None."""
    fields = g.oracle.fields(value) if type(value) is ast.Call else None
    if not fields or any(type(a) is ast.Starred for a in value.args) or \
            any(k.arg is None for k in value.keywords) or len(value.args) > len(fields):
        return None
    given = {f".{f}": a for f, a in zip(fields, value.args)}
    given.update({f".{k.arg}": k.value for k in value.keywords if k.arg in fields})
    return given


def _agreed(so_far: Optional[Dict], here: Dict) -> Dict:
    """``here``'s items joined to those every earlier return gave (``so_far`` None: the first
    return): an item is kept where every return has it."""
    return {k: [here[k]] for k in here} if so_far is None else {
        k: so_far[k] + [here[k]] for k in so_far if k in here}


def grouped(groups: Dict[str, list], offset: int, positional: int) -> Tuple[
        Dict[str, FrozenSet[Source]], Dict[str, str]]:
    """(key -> the sources every value of its group shares, in the callers' terms; key -> the
    one region they were computed in) of groups of (sources, region) pairs, one per ``return``
    (or ``yield``: ``graph_yields``)."""
    srcs: Dict[str, FrozenSet[Source]] = {}
    regions: Dict[str, str] = {}
    for key, got in groups.items():
        if not got:
            continue
        s = shifted(shared(x for x, _ in got), offset, positional)
        if s:
            srcs[key] = s
        regs = {reg for _, reg in got}
        if len(regs) == 1 and None not in regs:
            regions[key] = regs.pop()
    return srcs, regions


#: the methods of a dict that change none of its items
_READING = frozenset({"get", "items", "keys", "values", "copy"})


def written_paths(g, name: str) -> List[Tuple[str, Optional[ast.expr], ast.stmt]]:
    """(key path, the value written there when one plain assignment writes it alone, the
    statement) of each write into an item or attribute of ``name`` among the scope's own
    statements (``out["parts"] = parts``); ``"[?]"`` for one at a key not a constant, or a
    method that may change its items (``out.update(...)``)."""
    found: List[Tuple[str, Optional[ast.expr], ast.stmt]] = []
    for n in own_nodes(g):
        t = type(n)
        if t in (ast.Assign, ast.AugAssign, ast.AnnAssign):
            for tgt in (n.targets if t is ast.Assign else [n.target]):
                p = path_of(tgt)
                if p is not None and p[0] == name and p[1]:
                    plain = t is ast.Assign and len(n.targets) == 1
                    found.append((p[1], n.value if plain else None, n))
                elif p is None and type(tgt) in (ast.Subscript, ast.Attribute) and \
                        type(path_root(tgt)) is ast.Name and path_root(tgt).id == name:
                    found.append(("[?]", None, n))
        elif t is ast.Call and type(n.func) is ast.Attribute and \
                type(n.func.value) is ast.Name and n.func.value.id == name and \
                n.func.attr not in _READING:
            found.append(("[?]", None, n))
    return found


def yielded_differentiated(g, node) -> FrozenSet[int]:
    """What every ``yield`` of the function (none nested in another scope) gives that it
    differentiated: ``-1`` where each is a statement ``yield v`` of such a value, the positions
    ``i`` where each is ``yield (v0, v1, ...)`` (one length) with such a value at ``i``; empty
    where a yield is of another form, or there is none (or a ``yield from``)."""
    if not any(type(s.value) is ast.Yield for s in g.expr_stmts):
        return frozenset()  # (most functions: no walk of the body)
    found: Optional[FrozenSet[int]] = None
    length = None  # the one length of the tuples yielded (-1: a value yielded whole)
    plain = set()  # the ``yield`` of each statement ``yield v`` (met before it: a parent first)
    for n in own_nodes(node):
        t = type(n)
        if t is ast.YieldFrom:
            return frozenset()
        if t is ast.Expr and type(n.value) is ast.Yield:
            v = n.value.value
            if type(v) is ast.Tuple and not any(type(e) is ast.Starred for e in v.elts):
                size = len(v.elts)
                got = frozenset(i for i, e in enumerate(v.elts)
                                if _differentiated(g.attached(e, n)))
            else:
                size = -1
                got = frozenset({-1}) if v is not None and \
                    _differentiated(g.attached(v, n)) else frozenset()
            if length is not None and size != length:
                return frozenset()  # (tuples of two lengths, or a tuple and a value)
            length = size
            found = got if found is None else found & got
            if not found:
                return frozenset()
            plain.add(id(n.value))
        elif t is ast.Yield and id(n) not in plain:
            return frozenset()  # ``x = yield v``: a value sent in, not the plain shape
    return found or frozenset()


def _differentiated(fact) -> bool:
    return fact is not None and fact.why == DIFFERENTIATED
