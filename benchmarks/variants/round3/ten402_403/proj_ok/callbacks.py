"""Training callbacks: early stopping with restore, EMA evaluation swap, and SWA bookkeeping."""
import copy

import torch


class EarlyStopping:
    def __init__(self, patience=10, min_delta=0.0, restore_best=True):
        self.patience = patience
        self.min_delta = min_delta
        self.restore_best = restore_best
        self.best_score = None
        self.best_state = None
        self.best_opt_state = None
        self.num_bad = 0

    def step(self, score, model, optimizer=None):
        """Returns True when training should stop. Higher score is better."""
        if self.best_score is None or score > self.best_score + self.min_delta:
            self.best_score = score
            self.num_bad = 0
            self.best_state = copy.deepcopy(model.state_dict())
            if optimizer is not None:
                self.best_opt_state = copy.deepcopy(optimizer.state_dict())
            return False
        self.num_bad += 1
        return self.num_bad >= self.patience

    def restore(self, model, optimizer=None):
        if self.restore_best and self.best_state is not None:
            model.load_state_dict(self.best_state)
            if optimizer is not None and self.best_opt_state is not None:
                optimizer.load_state_dict(self.best_opt_state)


class ModelEMA:
    def __init__(self, model, decay=0.9998):
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}
        self.backup = None

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                self.shadow[k].mul_(self.decay).add_(v.detach(), alpha=1 - self.decay)
            else:
                self.shadow[k].copy_(v)

    def swap_in(self, model):
        self.backup = {k: v.detach().clone() for k, v in model.state_dict().items()}
        model.load_state_dict(self.shadow)

    def swap_out(self, model):
        model.load_state_dict(self.backup)
        self.backup = None


class SWACollector:
    """Running average of parameters collected at the end of each epoch after `start_epoch`."""

    def __init__(self, start_epoch):
        self.start_epoch = start_epoch
        self.avg = None
        self.n = 0

    @torch.no_grad()
    def on_epoch_end(self, epoch, model):
        if epoch < self.start_epoch:
            return
        params = [p.detach().clone() for p in model.parameters()]
        if self.avg is None:
            self.avg = params
        else:
            for a, p in zip(self.avg, params):
                a.add_(p - a, alpha=1.0 / (self.n + 1))
        self.n += 1

    @torch.no_grad()
    def write_into(self, model):
        for p, a in zip(model.parameters(), self.avg):
            p.copy_(a)
