"""Metric meters and an ImageNet-style training loop."""
from .average import AverageMeter, ProgressMeter, ScalarMeter

__all__ = ["AverageMeter", "ProgressMeter", "ScalarMeter"]
