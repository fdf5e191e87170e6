class LossHistory:
    def __init__(self):
        self.steps = []
        self.epochs = []

    def on_step_end(self, logs):
        self.steps.append(logs)

    def on_epoch_end(self, logs):
        self.epochs.append(logs)


class ProgressPrinter:
    def on_step_end(self, logs):
        pass

    def on_epoch_end(self, logs):
        print("epoch", {k: round(float(v), 4) for k, v in logs.items()})
