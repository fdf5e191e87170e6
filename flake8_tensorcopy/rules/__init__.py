"""The rule catalog. One class per rule; codes are fixed (tests, docs and users depend on them).

| family | module |
| --- | --- |
| TEN1xx `.data` | ``rules/data.py`` |
| TEN2xx copy construction | ``rules/construct.py`` |
| TEN3xx copy order and waste | ``rules/order.py`` |
| TEN4xx aliasing mistaken for copying | ``rules/alias.py``, ``rules/snapshot.py`` (TEN402), ``rules/overlap.py`` (TEN403), ``rules/conversion.py`` (TEN404-406) |
| TEN5xx graph lifetime | ``rules/accumulate.py`` (TEN501) |
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from .accumulate import GraphKeepingAccumulator
from .alias import AliasWrite
from ..diagnostics import selected
from .base import Rule
from .conversion import ConversionAlias, NumpyBridgeAlias, RepeatedTensorWrite
from .construct import LegacyConstructorAlias, NewTensorOfTensor, TensorOfTensor, TensorOfTensorList
from .data import DataAssign, DataInplace, DataRead
from .order import CloneDetach, LikeThenCopy
from .overlap import OverlappingSliceWrite
from .snapshot import StateDictSnapshot

RULE_CLASSES: Tuple[type, ...] = (
    DataRead, DataInplace, DataAssign,
    TensorOfTensor, NewTensorOfTensor, LegacyConstructorAlias, TensorOfTensorList,
    CloneDetach, LikeThenCopy,
    AliasWrite, StateDictSnapshot, OverlappingSliceWrite,
    ConversionAlias, NumpyBridgeAlias, RepeatedTensorWrite,
    GraphKeepingAccumulator,
)
ALL_RULES: List[Rule] = [cls() for cls in RULE_CLASSES]
RULES_BY_CODE: Dict[str, Rule] = {r.code: r for r in ALL_RULES}


def select_rules(select=None, ignore=None) -> List[Rule]:
    """Rules whose code starts with a selected prefix and with no ignored prefix."""
    return [r for r in ALL_RULES if selected(r.code, select, ignore)]
