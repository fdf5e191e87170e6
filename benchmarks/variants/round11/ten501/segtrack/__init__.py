"""U-Net style segmentation training with pluggable logging and callbacks."""
from .logger import MetricLogger
from .callbacks import Callback, LossCurve, BestCheckpoint

__all__ = ["MetricLogger", "Callback", "LossCurve", "BestCheckpoint"]
