"""SimCLR/MoCo-style contrastive training with a queue and a memory bank."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_in=12, d=8):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        return F.normalize(self.f(x), dim=-1)


def nt_xent(z1, z2, tau=0.5):
    z = torch.cat([z1, z2])
    sim = z @ z.t() / tau
    sim.fill_diagonal_(-1e9)
    n = z1.size(0)
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def simclr(steps=5, bs=6, K=24):
    enc = Encoder()
    opt = torch.optim.SGD(enc.parameters(), lr=0.05)
    queue = torch.zeros(0, 8)
    clean_queue = torch.zeros(0, 8)
    embeddings = []
    for step in range(steps):
        x = torch.randn(bs, 12)
        z1, z2 = enc(augment(x)), enc(augment(x))
        loss = nt_xent(z1, z2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        queue = torch.cat([queue, z1])[-K:]  # expect: TEN501
        clean_queue = torch.cat([clean_queue, z1.detach()])[-K:]  # ok
        embeddings += [z2]  # expect: TEN501
    return queue, embeddings


def memory_bank(n_items=30, steps=5, bs=6):
    enc = Encoder()
    opt = torch.optim.SGD(enc.parameters(), lr=0.05)
    bank = torch.zeros(n_items, 8)
    bank_ok = torch.zeros(n_items, 8)
    for step in range(steps):
        idx = torch.randperm(n_items)[:bs]
        z = enc(torch.randn(bs, 12))
        loss = (1 - (z * z.roll(1, 0)).sum(-1)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        bank[idx] = z  # expect: TEN501
        bank_ok[idx] = z.detach()  # ok
    return bank


@torch.no_grad()
def extract_features(enc, n_batches=3):
    feats = []
    for _ in range(n_batches):
        feats.append(enc(torch.randn(4, 12)))  # ok
    return torch.cat(feats)


def knn_monitor(enc, n_batches=3):
    bank = []
    enc.eval()
    with torch.inference_mode():
        for _ in range(n_batches):
            bank.append(enc(torch.randn(4, 12)))  # ok
    return torch.cat(bank)


if __name__ == "__main__":
    torch.manual_seed(0)
    q, emb = simclr()
    print("queue grad_fn:", q.grad_fn, "emb:", emb[0].grad_fn)
    b = memory_bank()
    print("bank grad_fn:", b.grad_fn, b.grad_fn.next_functions[0][0])
    e = Encoder()
    print(extract_features(e).grad_fn, knn_monitor(e).grad_fn)
