from . import state_utils


class SnapshotOnPlateau:
    """Remember the weights when the loss stops improving, to restart from them later."""

    def __init__(self, patience=2):
        self.patience = patience
        self.best = float("inf")
        self.wait = 0
        self.snapshot = None
        self.safe_snapshot = None

    def __call__(self, model, loss):
        if loss < self.best - 1e-4:
            self.best, self.wait = loss, 0
            self.snapshot = state_utils.get_weights(model)  # expect: TEN402
            self.safe_snapshot = state_utils.clone_weights(model)  # ok
        else:
            self.wait += 1
        return self.wait >= self.patience
