"""Loss-spike guard: undo a step (model and optimizer) when the loss explodes."""
import copy

import torch


class SpikeGuard:
    def __init__(self, model, optimizer, factor=3.0, warmup=100):
        self.model = model
        self.optimizer = optimizer
        self.factor = factor
        self.warmup = warmup
        self.ema_loss = None
        self.seen = 0
        self.good_model = None
        self.good_optim = None

    def remember(self):
        self.good_model = copy.deepcopy(self.model.state_dict())  # ok
        self.good_optim = self.optimizer.state_dict()  # expect: TEN402

    def rollback(self):
        self.model.load_state_dict(self.good_model)
        self.optimizer.load_state_dict(self.good_optim)

    def check(self, loss_value):
        self.seen += 1
        if self.ema_loss is None:
            self.ema_loss = loss_value
            return True
        spike = self.seen > self.warmup and loss_value > self.factor * self.ema_loss
        if not spike:
            self.ema_loss = 0.98 * self.ema_loss + 0.02 * loss_value
        return not spike


def train(model, loader, steps, remember_every=50):
    opt = torch.optim.Adam(model.parameters(), lr=3e-4, betas=(0.9, 0.95))
    guard = SpikeGuard(model, opt)
    guard.remember()
    it = iter(loader)
    for step in range(steps):
        x, y = next(it)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        if not guard.check(loss.item()):
            print(f"step {step}: spike {loss.item():.3f}, rolling back")
            guard.rollback()
            continue
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % remember_every == 0:
            guard.remember()


def save_checkpoint(path, model, opt, step):
    torch.save({
        "model": model.state_dict(),  # ok
        "optim": opt.state_dict(),  # ok
        "step": step,
    }, path)


def load_checkpoint(path, model, opt):
    ckpt = torch.load(path, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    opt.load_state_dict(copy.deepcopy(ckpt["optim"]))
    return ckpt["step"]
