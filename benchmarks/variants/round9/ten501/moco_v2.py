"""MoCo v2 pre-training with a feature-bank kNN monitor."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class MoCo(nn.Module):
    def __init__(self, dim=128, K=65536, m=0.999, T=0.2):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = torchvision.models.resnet50(num_classes=dim)
        self.encoder_k = torchvision.models.resnet50(num_classes=dim)
        dim_mlp = self.encoder_q.fc.weight.shape[1]
        self.encoder_q.fc = nn.Sequential(nn.Linear(dim_mlp, dim_mlp), nn.ReLU(), self.encoder_q.fc)
        self.encoder_k.fc = nn.Sequential(nn.Linear(dim_mlp, dim_mlp), nn.ReLU(), self.encoder_k.fc)
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data.copy_(param_q.data)
            param_k.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)  # ok

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        assert self.K % batch_size == 0
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
        self._dequeue_and_enqueue(k)
        return logits, labels, q


class KNNMonitor:
    def __init__(self, max_items=50_000):
        self.max_items = max_items
        self.feats, self.labels = [], []

    @torch.no_grad()
    def add(self, feats, labels):
        self.feats.append(F.normalize(feats.float(), dim=1))
        self.labels.append(labels)
        while sum(f.size(0) for f in self.feats) > self.max_items:
            self.feats.pop(0)
            self.labels.pop(0)

    @torch.no_grad()
    def accuracy(self, k=200):
        bank = torch.cat(self.feats)
        labels = torch.cat(self.labels)
        sim = bank @ bank.t()
        sim.fill_diagonal_(-1.0)
        nn_idx = sim.topk(k, dim=1).indices
        pred = torch.mode(labels[nn_idx], dim=1).values
        return (pred == labels).float().mean().item()


def train_epoch(model, loader, optimizer, epoch, device, monitor=None, print_freq=50):
    model.train()
    criterion = nn.CrossEntropyLoss()
    loss_sum, n = 0.0, 0
    top1_hits = 0
    for i, ((im_q, im_k), y) in enumerate(loader):
        im_q, im_k = im_q.to(device, non_blocking=True), im_k.to(device, non_blocking=True)
        logits, labels, q = model(im_q, im_k)
        loss = criterion(logits, labels)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        loss_sum += loss.item() * im_q.size(0)  # ok
        top1_hits += (logits.argmax(1) == labels).sum()  # ok
        n += im_q.size(0)
        if monitor is not None:
            monitor.add(q, y.to(device))  # ok
        if i % print_freq == 0:
            print(f"epoch {epoch} [{i}/{len(loader)}] loss {loss_sum / n:.4f} "
                  f"inst-acc {top1_hits.item() / n:.3f}")
    return loss_sum / n


def main(loader, epochs=200, lr=0.03, device="cuda"):
    model = MoCo().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
    monitor = KNNMonitor()
    for epoch in range(epochs):
        train_epoch(model, loader, optimizer, epoch, device, monitor)
        print(f"epoch {epoch}: kNN acc on recent features {monitor.accuracy():.4f}")
        torch.save(model.state_dict(), f"moco_{epoch:04d}.pt")
