"""Trainer callbacks: stochastic weight averaging over the tail of training, and gradient clipping."""
import torch


class Callback:
    def on_train_begin(self, trainer): ...
    def on_after_backward(self, trainer): ...
    def on_epoch_end(self, trainer, epoch): ...
    def on_train_end(self, trainer): ...


def average_state_dicts(state_dicts):
    out = {}
    for key, ref in state_dicts[0].items():
        if ref.is_floating_point():
            out[key] = torch.stack([sd[key].float() for sd in state_dicts]).mean(0).to(ref.dtype)
        else:
            out[key] = state_dicts[-1][key].clone()
    return out


@torch.no_grad()
def recompute_bn_stats(model, loader, device):
    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not bns:
        return
    for m in bns:
        m.reset_running_stats()
        m.momentum = None
    model.train()
    for x, _ in loader:
        model(x.to(device))


class SWACallback(Callback):
    """Izmailov et al. (2018): average weights collected every `every` epochs after `start_epoch`."""

    def __init__(self, start_epoch, every=1, swa_lr=0.05):
        self.start_epoch = start_epoch
        self.every = every
        self.swa_lr = swa_lr
        self.snapshots = []

    def on_epoch_end(self, trainer, epoch):
        if epoch < self.start_epoch:
            return
        for g in trainer.optimizer.param_groups:
            g["lr"] = self.swa_lr
        if (epoch - self.start_epoch) % self.every == 0:
            self.snapshots.append(trainer.model.state_dict())  # expect: TEN402

    def on_train_end(self, trainer):
        if not self.snapshots:
            return
        averaged = average_state_dicts(self.snapshots)
        trainer.model.load_state_dict(averaged)
        recompute_bn_stats(trainer.model, trainer.train_loader, trainer.device)
        print(f"SWA: averaged {len(self.snapshots)} checkpoints")


class GradClipCallback(Callback):
    def __init__(self, max_norm=1.0):
        self.max_norm = max_norm
        self.params = None

    def on_train_begin(self, trainer):
        self.params = [p for p in trainer.model.parameters() if p.requires_grad]  # ok

    def on_after_backward(self, trainer):
        norm = torch.nn.utils.clip_grad_norm_(self.params, self.max_norm)
        trainer.log("grad_norm", norm.item())
