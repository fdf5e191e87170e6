"""Tiny semantic-segmentation reference project (torchvision references layout)."""
from .meters import AverageMeter, ConfusionMatrix, MetricLogger, SmoothedValue

__all__ = ["AverageMeter", "ConfusionMatrix", "MetricLogger", "SmoothedValue"]
