import copy
import heapq
import itertools
import math
import os

import torch


def _better(mode, new, old):
    return new < old if mode == "min" else new > old


class ModelCheckpoint:
    """Write ``last.ckpt`` every epoch and ``best.ckpt`` whenever the monitored metric improves."""

    def __init__(self, dirpath, monitor="val_loss", mode="min", save_last=True):
        self.dirpath = dirpath
        self.monitor = monitor
        self.mode = mode
        self.save_last = save_last
        self.best = math.inf if mode == "min" else -math.inf
        os.makedirs(dirpath, exist_ok=True)

    def on_epoch_end(self, trainer, logs):
        value = float(logs[self.monitor])
        if self.save_last:
            self._write(trainer, os.path.join(self.dirpath, "last.ckpt"), value)
        if _better(self.mode, value, self.best):
            self.best = value
            self._write(trainer, os.path.join(self.dirpath, "best.ckpt"), value)

    def _write(self, trainer, path, value):
        payload = {
            "epoch": trainer.epoch,
            "global_step": trainer.global_step,
            self.monitor: value,
            "state_dict": trainer.model.state_dict(),  # ok
            "optimizer": trainer.optimizer.state_dict(),
        }
        tmp = path + ".tmp"
        torch.save(payload, tmp)
        os.replace(tmp, path)


class TopKInMemory:
    """Keep the ``k`` highest-scoring models around and write them out when training ends.

    Avoids hammering a slow network filesystem with a checkpoint every epoch.
    """

    def __init__(self, dirpath, k=3, monitor="val_acc"):
        self.dirpath = dirpath
        self.k = k
        self.monitor = monitor
        self._heap = []
        self._tiebreak = itertools.count()

    def on_epoch_end(self, trainer, logs):
        score = float(logs[self.monitor])
        entry = (score, next(self._tiebreak), trainer.epoch, trainer.model.state_dict())  # expect: TEN402
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, entry)
        elif score > self._heap[0][0]:
            heapq.heapreplace(self._heap, entry)

    def on_train_end(self, trainer, logs=None):
        os.makedirs(self.dirpath, exist_ok=True)
        ranked = sorted(self._heap, key=lambda e: (e[0], e[1]), reverse=True)
        for rank, (score, _, epoch, sd) in enumerate(ranked):
            name = f"top{rank}-epoch{epoch:03d}-{self.monitor}{score:.4f}.pt"
            torch.save(sd, os.path.join(self.dirpath, name))


class BestWeightsInMemory:
    """Remember the best weights and put them back into the model at the end of ``fit``."""

    def __init__(self, monitor="val_loss", mode="min"):
        self.monitor = monitor
        self.mode = mode
        self.best = math.inf if mode == "min" else -math.inf
        self.record = None

    def on_epoch_end(self, trainer, logs):
        value = float(logs[self.monitor])
        if _better(self.mode, value, self.best):
            self.best = value
            self.record = {"epoch": trainer.epoch, "score": value, "state": copy.deepcopy(trainer.model.state_dict())}  # ok

    def on_train_end(self, trainer, logs=None):
        if self.record is not None:
            trainer.model.load_state_dict(self.record["state"])
