"""Matrix-factorisation recommender with BPR loss."""
from .model import MFModel
from .meters import AverageMeter, StatBank

__all__ = ["MFModel", "AverageMeter", "StatBank"]
