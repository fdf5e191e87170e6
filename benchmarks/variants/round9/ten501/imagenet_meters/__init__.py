from .meters import AverageMeter, ProgressMeter, Summary, accuracy
from .engine import train, validate

__all__ = ["AverageMeter", "ProgressMeter", "Summary", "accuracy", "train", "validate"]
