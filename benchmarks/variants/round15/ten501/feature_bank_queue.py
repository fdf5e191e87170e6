"""Contrastive training with a MoCo-style key queue and a kNN feature bank."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoCoLite(nn.Module):
    def __init__(self, dim=8, K=32, m=0.9, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, dim))
        self.encoder_k = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, dim))
        self.encoder_k.load_state_dict(self.encoder_q.state_dict())
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.queue = F.normalize(torch.randn(K, dim), dim=1)
        self.feature_bank = torch.empty(0, dim)
        self.recent_q = torch.empty(0, dim)

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data = pk.data * self.m + pq.data * (1.0 - self.m)

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.t()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        self.queue = torch.cat([k, self.queue], dim=0)[: self.K]  # ok
        self.feature_bank = torch.cat([self.feature_bank, q])  # expect: TEN501
        self.recent_q = torch.cat([self.recent_q, q])[-16:]  # expect: TEN501
        return F.cross_entropy(logits, torch.zeros(len(q), dtype=torch.long))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MoCoLite()
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
    for step in range(6):
        x = torch.randn(8, 16)
        loss = model(x + 0.05 * torch.randn_like(x), x + 0.05 * torch.randn_like(x))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(model.queue.shape, model.feature_bank.shape, model.recent_q.shape)
