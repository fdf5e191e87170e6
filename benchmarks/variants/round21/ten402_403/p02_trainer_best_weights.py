"""A minimal classification trainer that keeps the best-accuracy weights in memory."""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_blobs(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.tensor([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.0]])
    y = torch.randint(0, 3, (n,), generator=g)
    x = centers[y] + 1.3 * torch.randn(n, 2, generator=g)
    return x, y


class Trainer:
    def __init__(self, model, lr=0.3, clone_best=False):
        self.model = model
        self.params = [p for p in model.parameters() if p.requires_grad]  # ok
        self.opt = torch.optim.SGD(self.params, lr=lr, momentum=0.9)
        self.clone_best = clone_best
        self.best_acc = -1.0
        self.best_weights = None
        self.best_vars = None

    def train_epoch(self, x, y):
        self.model.train()
        for i in range(0, len(x), 8):
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(x[i:i + 8]), y[i:i + 8])
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.params, 1.0)
            self.opt.step()

    @torch.no_grad()
    def accuracy(self, x, y):
        self.model.eval()
        return (self.model(x).argmax(1) == y).float().mean().item()

    def maybe_keep_best(self, acc):
        if acc <= self.best_acc:
            return
        self.best_acc = acc
        if self.clone_best:
            self.best_weights = {k: v.detach().clone() for k, v in self.model.state_dict().items()}  # ok
        else:
            self.best_weights = {k: v for k, v in self.model.state_dict().items()}  # expect: TEN402
        # also keep the Parameter objects themselves for the report below
        self.best_vars = self.model.state_dict(keep_vars=True)  # expect: TEN402

    def fit(self, train, val, epochs):
        for _ in range(epochs):
            self.train_epoch(*train)
            self.maybe_keep_best(self.accuracy(*val))
        buf = io.BytesIO()
        torch.save(self.model.state_dict(), buf)  # ok
        return buf.getbuffer().nbytes


if __name__ == "__main__":
    train, val = make_blobs(48, 1), make_blobs(300, 2)
    for clone_best in (False, True):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 3))
        tr = Trainer(model, clone_best=clone_best)
        nbytes = tr.fit(train, val, epochs=25)
        last_acc = tr.accuracy(*val)
        w_last = model[0].weight.detach().clone()
        drift_vars = (tr.best_vars["0.weight"].detach() - w_last).norm().item()
        model.load_state_dict(tr.best_weights)
        print(f"clone_best={clone_best}: best_acc={tr.best_acc:.4f} last_acc={last_acc:.4f} "
              f"acc_after_restore={tr.accuracy(*val):.4f} keep_vars_snapshot_vs_last={drift_vars:.4f} "
              f"ckpt_bytes>0={nbytes > 0}")
