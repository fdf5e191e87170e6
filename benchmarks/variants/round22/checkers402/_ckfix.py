"""Fix helpers injected by check.py (copied next to the programs in a temp dir).

snap(o)  -- TEN402 fix: a deep, storage-independent copy of a snapshot.
clone(o) -- TEN403 fix: `.clone()` of the slice source (numpy/list: a copy).
"""
import copy
import dataclasses

import numpy as np
import torch


def snap(o):
    if isinstance(o, torch.nn.Parameter):
        return torch.nn.Parameter(o.detach().clone(), requires_grad=o.requires_grad)
    if isinstance(o, torch.Tensor):
        return o.detach().clone()
    if isinstance(o, np.ndarray):
        return o.copy()
    if isinstance(o, dict):
        d = copy.copy(o)  # keeps the mapping type (and e.g. OrderedDict._metadata)
        for k in list(o.keys()):
            d[k] = snap(o[k])
        return d
    if isinstance(o, tuple) and hasattr(o, "_fields"):
        return type(o)(*[snap(v) for v in o])
    if isinstance(o, (list, tuple)):
        return type(o)(snap(v) for v in o)
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        kw = {f.name: snap(getattr(o, f.name)) for f in dataclasses.fields(o) if f.init}
        return dataclasses.replace(o, **kw)
    return copy.deepcopy(o)


def clone(o):
    if isinstance(o, torch.Tensor):
        return o.clone()
    if isinstance(o, np.ndarray):
        return o.copy()
    if isinstance(o, list):
        return list(o)
    return copy.copy(o)
