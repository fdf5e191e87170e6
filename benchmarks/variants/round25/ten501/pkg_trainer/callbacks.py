class HistoryCallback:
    def __init__(self):
        self.steps = []

    def on_step_end(self, step, logs):
        self.steps.append((step, logs))


class BestCheckpoint:
    def __init__(self):
        self.best_loss = None
        self.best_state = None

    def on_epoch_end(self, epoch, val_loss, model):
        if self.best_loss is None or val_loss < self.best_loss:
            self.best_loss = val_loss
            self.best_state = {k: v.clone() for k, v in model.state_dict().items()}
