import torch
import torch.nn as nn
import torch.nn.functional as F

from trainer_kit import callbacks, features

torch.manual_seed(0)
torch.set_num_threads(1)


class Trainer:
    def __init__(self, model, cbs):
        self.model, self.cbs = model, cbs
        self.opt = torch.optim.Adam(model.parameters(), lr=0.05)

    def fit(self, train, val, epochs=30):
        for epoch in range(epochs):
            self.opt.zero_grad()
            F.mse_loss(self.model(train[0]), train[1]).backward()
            self.opt.step()
            with torch.no_grad():
                vl = F.mse_loss(self.model(val[0]), val[1]).item()
            for cb in self.cbs:
                cb.on_epoch_end(self, epoch, vl)
        for cb in self.cbs:
            cb.on_fit_end(self)
        return vl


def lag_features():
    series = torch.randn(2, 40).cumsum(1)
    outs = []
    for buf in (features.LagBuffer(2, 8, 3), features.LagBufferSafe(2, 8, 3), features.LagBufferNumpy(2, 8, 3)):
        for t in range(0, 39, 3):
            last = buf.update(series[:, t:t + 3].contiguous())
        outs.append(last.clone())
    taps = features.DelayTaps(2, 6)
    for t in range(40):
        tap_state = taps.update(series[:, t])
    return [(o - outs[-1]).abs().max().item() for o in outs], tap_state[0].tolist()


if __name__ == "__main__":
    w = torch.randn(18, 1)
    x, xv = torch.randn(14, 18), torch.randn(60, 18)
    train, val = (x, x @ w + torch.randn(14, 1)), (xv, xv @ w + torch.randn(60, 1))
    model = nn.Sequential(nn.Linear(18, 24), nn.ReLU(), nn.Linear(24, 1))
    best, ens = callbacks.BestModel(), callbacks.SnapshotEnsemble()
    safe, anchor = callbacks.SafeSnapshotEnsemble(), callbacks.InitAnchor(model)
    last = Trainer(model, [best, ens, safe, anchor]).fit(train, val)
    with torch.no_grad():
        restored = F.mse_loss(model(val[0]), val[1]).item()
    print("best", round(best.best_loss, 4), "last", round(last, 4), "restored", round(restored, 4))
    print("live snapshot spread", round(ens.spread, 4), "copied snapshot spread", round(safe.spread, 4),
          "moved from init", round(anchor.moved, 4))
    print("lag feature errors vs numpy", *lag_features())
