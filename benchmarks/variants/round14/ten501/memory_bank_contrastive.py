"""Instance discrimination with a FIFO memory bank of past embeddings (InfoNCE)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, dim_in=20, dim_out=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim_in, 64), nn.ReLU(), nn.Linear(64, dim_out))

    def forward(self, x):
        return F.normalize(self.body(x), dim=-1)


class MemoryBank:
    def __init__(self, dim, size=96):
        self.size = size
        self.bank = F.normalize(torch.randn(size, dim), dim=-1)
        self.bank_labels = torch.full((size,), -1, dtype=torch.long)
        self.nce_log = []

    def negatives(self):
        # stop gradients into old entries
        return self.bank.detach()

    def push(self, z, labels):
        self.bank = torch.cat([self.bank, z], dim=0)[-self.size:]
        self.bank_labels = torch.cat([self.bank_labels, labels])[-self.size:]  # ok


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def info_nce(q, k, negatives, temperature=0.2):
    pos = (q * k).sum(-1, keepdim=True)
    neg = q @ negatives.t()
    logits = torch.cat([pos, neg], dim=1) / temperature
    return F.cross_entropy(logits, torch.zeros(q.size(0), dtype=torch.long))


def main(steps=8, batch=24):
    torch.manual_seed(0)
    data = torch.randn(192, 20)
    ids = torch.arange(192)
    encoder = Encoder()
    opt = torch.optim.SGD(encoder.parameters(), lr=0.1, momentum=0.9)
    memory = MemoryBank(16)
    for step in range(steps):
        idx = torch.randint(0, data.size(0), (batch,))
        x = data[idx]
        q, k = encoder(augment(x)), encoder(augment(x))
        loss = info_nce(q, k, memory.negatives())
        opt.zero_grad()
        loss.backward()
        opt.step()
        memory.push(q, ids[idx])  # expect: TEN501
        memory.nce_log.append(loss.detach().cpu())  # ok
        if step % 2 == 0:
            print(f"step {step}: nce={loss.item():.4f}")
    print("bank shape", tuple(memory.bank.shape), "logged", len(memory.nce_log))


if __name__ == "__main__":
    main()
