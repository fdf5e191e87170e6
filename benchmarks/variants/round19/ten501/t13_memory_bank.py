"""Contrastive learning with a memory bank / MoCo-style queue."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Contrast(nn.Module):
    def __init__(self, d=8, k=32, z=4):
        super().__init__()
        self.enc_q = nn.Linear(d, z)
        self.enc_k = nn.Linear(d, z)
        self.enc_k.load_state_dict(self.enc_q.state_dict())
        for p in self.enc_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(k, z), dim=1))
        self.ptr = 0
        self.K = k
        self.bank = torch.zeros(0, z)
        self.bank_ok = torch.zeros(0, z)
        self.grad_queue = torch.zeros(k, z)

    @torch.no_grad()
    def momentum_update(self, m=0.99):
        for pq, pk in zip(self.enc_q.parameters(), self.enc_k.parameters()):
            pk.mul_(m).add_(pq.detach(), alpha=1 - m)

    def forward(self, xq, xk):
        q = F.normalize(self.enc_q(xq), dim=1)
        with torch.no_grad():
            self.momentum_update()
            k = F.normalize(self.enc_k(xk), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach().t()
        logits = torch.cat([l_pos, l_neg], 1) / 0.07
        b = k.shape[0]
        self.queue[self.ptr:self.ptr + b] = k  # ok
        self.grad_queue[self.ptr:self.ptr + b] = q  # expect: TEN501
        self.ptr = (self.ptr + b) % self.K
        self.bank = torch.cat([self.bank, q])[-self.K:]  # expect: TEN501
        self.bank_ok = torch.cat([self.bank_ok, q.detach()])[-self.K:]  # ok
        return logits


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = Contrast()
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.03)
    for step in range(5):
        x = torch.randn(8, 8)
        logits = model(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
        loss = F.cross_entropy(logits, torch.zeros(8, dtype=torch.long))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(model.bank.shape, float(model.bank.sum()), float(model.bank_ok.sum()), float(model.grad_queue.sum()), model.ptr)


if __name__ == "__main__":
    main()
