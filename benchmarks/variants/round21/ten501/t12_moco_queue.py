"""MoCo-style contrastive learning: key queue, momentum encoder, plus a memory-bank variant."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_encoder(dim):
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, dim))


class MoCo(nn.Module):
    def __init__(self, dim=16, K=64, m=0.99, T=0.1):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = make_encoder(dim)
        self.encoder_k = make_encoder(dim)
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data.copy_(param_q.data)  # ok
            param_k.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)  # ok

    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + batch_size] = keys.T
        self.queue_ptr[0] = (ptr + batch_size) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        self._dequeue_and_enqueue(k)  # ok
        return logits, labels


class MoCoFrozenKey(MoCo):
    """Same model, but the key path is not wrapped in no_grad: encoder_k's
    parameters have requires_grad=False, so the keys still carry no graph."""

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        self._momentum_update_key_encoder()
        k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        self._dequeue_and_enqueue(k)  # ok
        return logits, torch.zeros(logits.shape[0], dtype=torch.long)


class SymmetricQueueModel(MoCo):
    """'Use the queries as extra negatives' variant: the queue is fed with q."""

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        self._dequeue_and_enqueue(q)  # expect: TEN501
        return logits, torch.zeros(logits.shape[0], dtype=torch.long)


class MemoryBankModel(nn.Module):
    """Negatives from a growing bank of past query embeddings (capped at K rows)."""

    def __init__(self, dim=16, K=64, T=0.1):
        super().__init__()
        self.encoder = make_encoder(dim)
        self.K, self.T = K, T
        self.bank = F.normalize(torch.randn(8, dim), dim=1)
        self.bank_ok = F.normalize(torch.randn(8, dim), dim=1)

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder(im_q), dim=1)
        k = F.normalize(self.encoder(im_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.bank.detach().T
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        self.bank = torch.cat([self.bank, q], dim=0)[-self.K:]  # expect: TEN501
        self.bank_ok = torch.cat([self.bank_ok, q.detach()], dim=0)[-self.K:]  # ok
        return logits, torch.zeros(logits.shape[0], dtype=torch.long)


def augment(x):
    return x + 0.1 * torch.randn_like(x)


def train(model, data, steps=12):
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9)
    losses = []
    for step in range(steps):
        x = data[(step * 16) % len(data):(step * 16) % len(data) + 16]
        logits, labels = model(augment(x), augment(x))
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


data = torch.randn(128, 32)
for cls in (MoCo, MoCoFrozenKey, SymmetricQueueModel, MemoryBankModel):
    model = cls()
    losses = train(model, data)
    extra = ""
    if hasattr(model, "queue"):
        extra = f"queue requires_grad={model.queue.requires_grad} norm={model.queue.norm().item():.3f}"
    else:
        extra = f"bank rows={model.bank.shape[0]} grad_fn={type(model.bank.grad_fn).__name__}"
    print(f"{cls.__name__:22s} first {losses[0]:.3f} last {losses[-1]:.3f} {extra}")
