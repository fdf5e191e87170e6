"""Fix functions installed as builtins._chk_fix."""
import builtins
import copy
import os
import runpy
import sys

import torch


def fix402(v):
    """Turn a (possibly aliasing) snapshot into a real, independent copy."""
    try:
        return copy.deepcopy(v)
    except Exception:
        if isinstance(v, torch.Tensor):
            return v.detach().clone()
        raise


def fix403(v):
    """Clone every tensor in the source so it cannot overlap the destination."""
    if isinstance(v, torch.Tensor):
        return v.clone()
    if type(v).__module__ == "numpy" and hasattr(v, "copy"):
        return v.copy()
    if isinstance(v, (tuple, list)):
        return type(v)(fix403(x) for x in v)
    return v


