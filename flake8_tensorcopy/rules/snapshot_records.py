"""TEN402's records: a live state dict handed to the constructor of a namedtuple or a dataclass
the linted file defines (``best = Snapshot(epoch, score, model.state_dict())``,
``BestRecord(score=s, weights=model.state_dict())``). The object keeps the dict itself (a
generated ``__init__`` copies nothing), so its field holds the live tensors; a read of another
field (``best.score``) is no read of them (``snapshot_flow.mentions`` with keys ``(0,
fields)``)."""
from __future__ import annotations

import ast
from typing import Optional, Tuple

from ..semantic.graph_items import namedtuple_fields
from ..semantic.graph_terms import dotted
from ..syntax import nodes
from .context import cached

_DATACLASS = frozenset({"dataclass", "dataclasses.dataclass"})
_NAMEDTUPLE_BASES = frozenset({"NamedTuple", "typing.NamedTuple"})
_NAMEDTUPLE_CALLS = frozenset({"namedtuple", "collections.namedtuple", "NamedTuple",
                               "typing.NamedTuple"})


def record_fields(ctx, name: str) -> Optional[Tuple[str, ...]]:
    """The fields, in order, of the record class ``name`` the linted module defines at its top
    level once (a ``@dataclass`` without ``__init__``/``__post_init__`` of its own, a
    ``NamedTuple`` class, a ``namedtuple(...)`` assignment); None for anything else."""
    tree = getattr(ctx.module, "_a", None)
    if tree is None:
        return None
    return cached(ctx, "_snapshot_records", tree, lambda: _records(tree)).get(name)


def _records(tree: ast.Module) -> dict:
    out: dict = {}
    seen: dict = {}
    for s in tree.body:
        name, fields = None, None
        if type(s) is ast.ClassDef:
            name = s.name
            decorated = any(dotted(d.func if type(d) is ast.Call else d) in _DATACLASS
                            for d in s.decorator_list)
            tupled = any(dotted(b) in _NAMEDTUPLE_BASES for b in s.bases)
            own = {f.name for f in s.body if type(f) in (ast.FunctionDef, ast.AsyncFunctionDef)}
            if (decorated and not own & {"__init__", "__post_init__"}) or \
                    (tupled and not decorated):
                fields = tuple(a.target.id for a in s.body if type(a) is ast.AnnAssign and
                               type(a.target) is ast.Name and
                               "ClassVar" not in (dotted(a.annotation) or ast.dump(a.annotation)))
        elif type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name \
                and type(s.value) is ast.Call and dotted(s.value.func) in _NAMEDTUPLE_CALLS:
            name = s.targets[0].id
            fields = namedtuple_fields(s.value)
        elif type(s) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Import, ast.ImportFrom):
            for n in ([s.name] if type(s) is not ast.ImportFrom and type(s) is not ast.Import
                      else [a.asname or a.name.split(".")[0] for a in s.names]):
                seen[n] = seen.get(n, 0) + 1
            continue
        if name is not None:
            seen[name] = seen.get(name, 0) + 1
            if fields:
                out[name] = fields
    return {k: v for k, v in out.items() if seen.get(k) == 1}


def live_fields(ctx, call, snapshot):
    """(the first live argument, its ``Live``, the fields holding live state dicts) of a
    constructor call of a record class (``record_fields``), or None (``snapshot(ctx, node)``:
    is ``node`` a live state dict)."""
    if type(call.func) is not nodes.Name:
        return None
    fields = record_fields(ctx, call.func.value)
    if fields is None:
        return None
    live = []
    for i, a in enumerate(call.args):
        if a.star:
            return None
        field = a.keyword.value if a.keyword is not None else \
            (fields[i] if i < len(fields) else None)
        if field is None or field not in fields:
            return None
        snap = snapshot(ctx, a.value)
        if snap is not None:
            live.append((field, a.value, snap))
    if not live:
        return None
    return live[0][1], live[0][2], frozenset(f for f, _, _ in live)
