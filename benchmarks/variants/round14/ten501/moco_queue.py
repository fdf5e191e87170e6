"""MoCo-style training: momentum key encoder and a dictionary queue of negatives."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class MoCo(nn.Module):
    def __init__(self, dim_in=12, dim=16, K=64, m=0.99, T=0.1):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = nn.Sequential(nn.Linear(dim_in, 48), nn.ReLU(), nn.Linear(48, dim))
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data = pk.data * self.m + pq.data * (1.0 - self.m)  # ok

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        bs = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + bs] = keys.T  # ok
        self.queue_ptr[0] = (ptr + bs) % self.K  # ok

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", q, k).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", q, self.queue.clone().detach())
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels, l_pos


def main(steps=10, bs=16):
    torch.manual_seed(0)
    model = MoCo()
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
    data = torch.randn(160, 12)
    loss_log, pos_sims, queue_norms = [], [], []
    for step in range(steps):
        x = data[torch.randint(0, 160, (bs,))]
        logits, labels, l_pos = model(x + 0.05 * torch.randn_like(x), x + 0.05 * torch.randn_like(x))
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_log.append(loss.item())  # ok
        pos_sims.append(l_pos.mean().detach())  # ok
        queue_norms.append(model.queue.norm(dim=0).mean())  # ok
    print("loss", [round(v, 3) for v in loss_log[::3]])
    print("pos sim", torch.stack(pos_sims).mean().item(), "queue ptr", int(model.queue_ptr))


if __name__ == "__main__":
    main()
