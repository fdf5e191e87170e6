"""Regularisation-based continual learning baselines (EWC, L2-SP, LwF)."""
from .regularizers import EWC, L2SP, LwFDistiller
from .utils import parameter_change, params_of, snapshot, task_accuracy

__all__ = [
    "EWC",
    "L2SP",
    "LwFDistiller",
    "parameter_change",
    "params_of",
    "snapshot",
    "task_accuracy",
]
