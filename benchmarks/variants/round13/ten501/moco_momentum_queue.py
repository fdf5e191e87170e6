"""MoCo-style contrastive learning with a momentum key encoder and a key queue."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class MoCo(nn.Module):
    def __init__(self, dim_in=20, dim=8, K=32, m=0.99, T=0.2):
        super().__init__()
        self.encoder_q = nn.Sequential(nn.Linear(dim_in, 32), nn.ReLU(), nn.Linear(32, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad_(False)
        self.K, self.m, self.T = K, m, T
        self.register_buffer("queue", F.normalize(torch.randn(K, dim), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))
        self.loss_history, self.pos_sims = [], []

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        n, p = keys.size(0), int(self.ptr)
        self.queue[p:p + n] = keys  # ok
        self.ptr.fill_((p + n) % self.K)

    @torch.no_grad()
    def _enqueue_by_cat(self, keys):
        self.queue = torch.cat([keys, self.queue], 0)[: self.K]  # ok

    def forward(self, xq, xk, use_cat=False):
        q = F.normalize(self.encoder_q(xq), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(xk), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach().t()
        logits = torch.cat([l_pos, l_neg], 1) / self.T
        labels = torch.zeros(q.size(0), dtype=torch.long)
        if use_cat:
            self._enqueue_by_cat(k)  # ok
        else:
            self._enqueue(k)  # ok
        return F.cross_entropy(logits, labels), l_pos


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def main(steps=4):
    torch.manual_seed(0)
    model = MoCo()
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
    key_snapshots = []
    epoch_sum = torch.zeros(())
    for step in range(steps):
        x = torch.randn(8, 20)
        loss, l_pos = model(augment(x), augment(x), use_cat=step % 2 == 1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        model.loss_history.append(loss.item())  # ok
        model.pos_sims.append(l_pos.detach().mean())  # ok
        key_snapshots.append(model.queue[:4].clone())  # ok
        epoch_sum += loss.detach()  # ok
    print(f"avg loss {epoch_sum.item() / steps:.4f}", len(key_snapshots))


if __name__ == "__main__":
    main()
