"""A wandb-ish MetricLogger taking **kwargs, with functools.partial prefixes."""
import functools
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class MetricLogger:
    def __init__(self):
        self.meters = defaultdict(list)

    def log(self, prefix="", **metrics):
        for name, val in metrics.items():
            self.meters[prefix + name].append(val)

    def summary(self):
        return {k: round(sum(float(v) for v in vs) / len(vs), 4) for k, vs in self.meters.items()}


class ProbClassifier(nn.Module):
    """Classifier with a Gaussian bottleneck regularised by a KL term."""

    def __init__(self, d=12, z=6, k=3):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.cls = nn.Linear(z, k)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, -1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        kl = 0.5 * (mu.pow(2) + logvar.exp() - 1 - logvar).sum(-1).mean()
        return self.cls(z), kl


def main(epochs=2, bs=24):
    torch.manual_seed(0)
    x = torch.randn(144, 12)
    y = x[:, :3].argmax(-1)
    model = ProbClassifier()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * 6)
    logger = MetricLogger()
    log_train = functools.partial(logger.log, prefix="train/")
    log_val = functools.partial(logger.log, prefix="val/")
    for epoch in range(epochs):
        for i in range(0, 144, bs):
            logits, kl_div = model(x[i:i + bs])
            ce = F.cross_entropy(logits, y[i:i + bs])
            loss = ce + 1e-2 * kl_div
            opt.zero_grad()
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), 2.0)
            opt.step()
            sched.step()
            acc = (logits.argmax(-1) == y[i:i + bs]).float().mean()
            logger.log(loss=loss, lr=sched.get_last_lr()[0])  # expect: TEN501
            log_train(kl=kl_div)  # expect: TEN501
            logger.log(acc=acc.item(), grad_norm=float(gn))  # ok
        with torch.no_grad():
            vlogits, vkl = model(x[:48])
            vloss = F.cross_entropy(vlogits, y[:48])
        log_val(loss=vloss, kl=vkl)  # ok
    print(logger.summary())


if __name__ == "__main__":
    main()
