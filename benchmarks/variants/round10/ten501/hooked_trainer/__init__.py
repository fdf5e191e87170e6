from .hooks import CheckpointHook, EMALossHook, Hook, LossHistoryHook, LRSchedulerHook
from .meters import MetricLogger, SmoothedValue
from .trainer import Trainer
