"""What a generator yields, in the graph facts' terms (``graph_sources``): the sources of each
item every ``yield`` statement gives, which the generator's summary keeps under ``YIELDED`` keys
beside what it returns, and a loop over a call of it reads (``graph_items.loop_item_fact``)."""
from __future__ import annotations

import ast
from typing import Dict, FrozenSet, Tuple

from .graph_sources import Source, computed_in, grouped, region, sources


#: the start of the key of what a generator yields, in a summary's sources (``yielded``)
YIELDED = "<yield>"


def yielded_items(g, offset: int, positional: int) -> Tuple[
        Dict[str, FrozenSet[Source]], Dict[str, str]]:
    """The sources and regions of what the generator of ``g`` yields, keyed as ``yielded``
    groups them, in its callers' terms (``graph_sources.grouped``): merged into its summary's
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
