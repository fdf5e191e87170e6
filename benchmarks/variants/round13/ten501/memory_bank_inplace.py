"""Instance discrimination with a non-parametric memory bank (NCE-style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InstanceBank(nn.Module):
    def __init__(self, n, dim, momentum=0.5, t=0.1, recent=12):
        super().__init__()
        self.register_buffer("bank", F.normalize(torch.randn(n, dim), dim=1))
        self.register_buffer("loss_sum", torch.zeros(()))
        self.register_buffer("hits", torch.zeros(n))
        self.momentum, self.t, self.recent_size = momentum, t, recent
        self.recent = torch.empty(0, dim)

    def logits(self, z, idx, k=8):
        neg_idx = torch.randint(0, self.bank.size(0), (z.size(0), k))
        pos = (z * self.bank[idx].detach()).sum(-1, keepdim=True)
        neg = torch.einsum("bd,bkd->bk", z, self.bank[neg_idx].detach())
        return torch.cat([pos, neg], 1) / self.t

    def write(self, z, idx):
        mixed = self.momentum * self.bank[idx].detach() + (1 - self.momentum) * z
        self.bank[idx] = F.normalize(mixed, dim=1)


class Embedder(nn.Module):
    def __init__(self, d_in=10, d_out=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 20), nn.ReLU(), nn.Linear(20, d_out))

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


def main(n=40, steps=4, bs=8):
    torch.manual_seed(0)
    data = torch.randn(n, 10)
    model = Embedder()
    bank = InstanceBank(n, 6)
    proto_bank = InstanceBank(n, 6)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    epoch_losses = []
    for step in range(steps):
        idx = torch.randperm(n)[:bs]
        z = model(data[idx] + 0.05 * torch.randn(bs, 10))
        logits = bank.logits(z, idx)
        loss = F.cross_entropy(logits, torch.zeros(bs, dtype=torch.long))
        opt.zero_grad()
        loss.backward()
        opt.step()

        bank.write(z, idx)  # expect: TEN501
        proto_bank.write(z.detach(), idx)  # ok
        bank.loss_sum += loss  # expect: TEN501
        bank.hits.index_add_(0, idx, torch.ones(bs))  # ok
        bank.recent = torch.cat([z, bank.recent])[: bank.recent_size]  # expect: TEN501
        proto_bank.recent = torch.cat([z.detach(), proto_bank.recent])[: proto_bank.recent_size]  # ok
        epoch_losses.append(loss.item())  # ok
    print(f"mean loss {sum(epoch_losses) / len(epoch_losses):.3f}, bank hits {int(bank.hits.sum())}")
    return bank, proto_bank


if __name__ == "__main__":
    main()
