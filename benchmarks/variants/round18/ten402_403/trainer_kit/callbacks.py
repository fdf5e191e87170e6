from . import utils


class Callback:
    keep = staticmethod(utils.state_of)

    def take(self, model):
        return self.keep(model)  # either

    def on_epoch_end(self, trainer, epoch, val_loss):
        pass

    def on_fit_end(self, trainer):
        pass


class BestModel(Callback):
    def __init__(self):
        self.best_loss, self.best = float("inf"), None

    def on_epoch_end(self, trainer, epoch, val_loss):
        if val_loss < self.best_loss:
            self.best_loss = val_loss
            self.best = utils.state_of(trainer.model)  # expect: TEN402

    def on_fit_end(self, trainer):
        trainer.model.load_state_dict(self.best)


class SnapshotEnsemble(Callback):
    def __init__(self, every=3):
        self.every, self.snaps = every, []

    def on_epoch_end(self, trainer, epoch, val_loss):
        if epoch % self.every == self.every - 1:
            self.snaps.append(self.take(trainer.model))  # expect: TEN402

    def on_fit_end(self, trainer):
        self.spread = utils.distance(self.snaps[0], self.snaps[-1])


class SafeSnapshotEnsemble(SnapshotEnsemble):
    keep = staticmethod(utils.frozen_copy)

    def on_epoch_end(self, trainer, epoch, val_loss):
        if epoch % self.every == self.every - 1:
            self.snaps.append(self.take(trainer.model))  # ok


class InitAnchor(Callback):
    def __init__(self, model):
        self.anchor = utils.deep_state(model)  # ok

    def on_fit_end(self, trainer):
        self.moved = utils.distance(trainer.model.state_dict(), self.anchor)
