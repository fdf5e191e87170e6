"""Callbacks used by the trainer."""
import copy


class EarlyStopping:
    def __init__(self, patience=3, min_delta=1e-4):
        self.patience = patience
        self.min_delta = min_delta
        self.best_loss = float("inf")
        self.best_weights = None
        self.num_bad = 0
        self.should_stop = False

    def step(self, val_loss, model):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_weights = model.state_dict()  # expect: TEN402
            self.num_bad = 0
        else:
            self.num_bad += 1
            self.should_stop = self.num_bad >= self.patience


class ModelCheckpoint:
    """Keeps an in-memory copy of the best model (correctly deep-copied)."""

    def __init__(self):
        self.best_metric = -float("inf")
        self.best_state = None

    def step(self, metric, model):
        if metric > self.best_metric:
            self.best_metric = metric
            self.best_state = copy.deepcopy(model.state_dict())  # ok: TEN402
