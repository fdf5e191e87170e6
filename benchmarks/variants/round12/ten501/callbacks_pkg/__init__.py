from .callbacks import Callback, EarlyStopping, History, PrintLogger
from .loop import LoopTrainer

__all__ = ["Callback", "EarlyStopping", "History", "PrintLogger", "LoopTrainer"]
