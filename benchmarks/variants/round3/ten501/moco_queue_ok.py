import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class MoCo(nn.Module):
    """Momentum contrast with a key encoder and a ring-buffer queue of negatives."""

    def __init__(self, base_encoder, dim=128, K=65536, m=0.999, T=0.07):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = base_encoder(num_classes=dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for param_k in self.encoder_k.parameters():
            param_k.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        assert self.K % batch_size == 0
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
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)
        self._dequeue_and_enqueue(k)
        return logits, labels


def train_epoch(model, loader, optimizer, device, epoch, print_freq=50):
    model.train()
    running, n = 0.0, 0
    pos_sims = []
    for i, (images, _) in enumerate(loader):
        im_q = images[0].to(device, non_blocking=True)
        im_k = images[1].to(device, non_blocking=True)
        output, target = model(im_q, im_k)
        loss = F.cross_entropy(output, target)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        running += float(loss) * im_q.size(0)
        n += im_q.size(0)
        pos_sims.append(output[:, 0].detach().mean().cpu())
        if i % print_freq == 0:
            print(f"epoch {epoch} [{i}/{len(loader)}] loss {running / n:.4f}")
    return running / n, torch.stack(pos_sims).mean().item()
