import torch


class L2SP:
    """Penalise distance to the starting point of fine-tuning."""

    def __init__(self, model, alpha=0.1, copy=True):
        if copy:
            self.start = [p.detach().clone() for p in model.parameters()]  # ok
        else:
            self.start = [p.detach() for p in model.parameters()]  # expect: TEN402
        self.alpha = alpha

    def __call__(self, model):
        return self.alpha * sum(((p - s) ** 2).sum() for p, s in zip(model.parameters(), self.start))
