from .callbacks import Callback, LossCurve, ProgressLogger, TensorBoardCallback
from .meters import AUCMeter, AverageMeter
from .trainer import CTRTrainer

__all__ = [
    "AUCMeter",
    "AverageMeter",
    "Callback",
    "CTRTrainer",
    "LossCurve",
    "ProgressLogger",
    "TensorBoardCallback",
]
