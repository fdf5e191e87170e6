"""Small contrastive-learning toolkit: feature queues and an InfoNCE loss."""
from .bank import DetachingQueue, FeatureQueue, ListBank, info_nce

__all__ = ["FeatureQueue", "DetachingQueue", "ListBank", "info_nce"]
__version__ = "0.1.0"
