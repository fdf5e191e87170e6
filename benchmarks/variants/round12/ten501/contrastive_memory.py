"""MoCo-style queue plus two hand-rolled memory banks used for ablations."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoCo(nn.Module):
    def __init__(self, encoder_q, encoder_k, dim=128, K=4096, m=0.999, T=0.07):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q, self.encoder_k = encoder_q, encoder_k
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))
        self.pos_history = torch.empty(0)
        self.pos_history_safe = torch.empty(0)

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.data = pk.data * self.m + pq.data * (1.0 - self.m)  # ok

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + batch_size] = keys.T  # ok
        self.queue_ptr[0] = (ptr + batch_size) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)
        self._dequeue_and_enqueue(k)  # ok
        self.pos_history = torch.cat((self.pos_history, l_pos.squeeze(1)))  # expect: TEN501
        self.pos_history_safe = torch.cat((self.pos_history_safe, l_pos.detach().squeeze(1)))  # ok
        return logits, labels


class NaiveFeatureBank(nn.Module):
    """FIFO bank of recent query features (ablation: no momentum encoder)."""

    def __init__(self, encoder, dim=128, size=1024, T=0.1):
        super().__init__()
        self.encoder, self.size, self.T = encoder, size, T
        self.bank = torch.zeros(0, dim)
        self.bank_detached = torch.zeros(0, dim)

    def forward(self, x1, x2):
        z1 = F.normalize(self.encoder(x1), dim=1)
        z2 = F.normalize(self.encoder(x2), dim=1)
        negatives = torch.cat([z2, self.bank_detached], 0)
        logits = z1 @ negatives.t() / self.T
        labels = torch.arange(z1.size(0), device=z1.device)
        self.bank = torch.cat([self.bank, z1], 0)[-self.size:]  # expect: TEN501
        self.bank_detached = torch.cat([self.bank_detached, z1.detach()], 0)[-self.size:]  # ok
        return F.cross_entropy(logits, labels)


class InstanceMemory(nn.Module):
    """Non-parametric instance discrimination memory (one slot per sample)."""

    def __init__(self, n_samples, dim=128, momentum=0.5):
        super().__init__()
        self.momentum = momentum
        self.register_buffer("memory", F.normalize(torch.randn(n_samples, dim), dim=1))
        self.register_buffer("memory_eval", F.normalize(torch.randn(n_samples, dim), dim=1))

    def update(self, feats, idx):
        mixed = self.memory[idx] * self.momentum + feats * (1 - self.momentum)
        self.memory[idx] = F.normalize(mixed, dim=1)

    def update_safe(self, feats, idx):
        with torch.no_grad():
            mixed = self.memory_eval[idx] * self.momentum + feats * (1 - self.momentum)
            self.memory_eval.index_copy_(0, idx, F.normalize(mixed, dim=1))


def train_instance_disc(encoder, memory, loader, optimizer, T=0.07, epochs=1):
    for epoch in range(epochs):
        for x, _, idx in loader:
            feats = F.normalize(encoder(x), dim=1)
            logits = feats @ memory.memory_eval.t() / T
            loss = F.cross_entropy(logits, idx)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            memory.update(feats, idx)  # expect: TEN501
            memory.update_safe(feats, idx)  # ok
