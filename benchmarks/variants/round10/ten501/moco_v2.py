"""MoCo v2 pre-training (single GPU variant, no shuffle-BN)."""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision.models as models


class MoCo(nn.Module):
    def __init__(self, base_encoder, dim=128, K=65536, m=0.999, T=0.2, mlp=True):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = base_encoder(num_classes=dim)
        self.encoder_k = base_encoder(num_classes=dim)
        if mlp:
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


class AverageMeter:
    def __init__(self, name, fmt=":f"):
        self.name, self.fmt = name, fmt
        self.reset()

    def reset(self):
        self.val = self.avg = self.sum = self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


@torch.no_grad()
def accuracy(output, target, topk=(1,)):
    maxk = max(topk)
    batch_size = target.size(0)
    _, pred = output.topk(maxk, 1, True, True)
    pred = pred.t()
    correct = pred.eq(target.view(1, -1).expand_as(pred))
    return [correct[:k].reshape(-1).float().sum(0, keepdim=True).mul_(100.0 / batch_size) for k in topk]


def adjust_learning_rate(optimizer, epoch, base_lr, epochs):
    lr = base_lr * 0.5 * (1.0 + math.cos(math.pi * epoch / epochs))
    for g in optimizer.param_groups:
        g["lr"] = lr
    return lr


def train(loader, model, criterion, optimizer, epoch, pos_sims, print_freq=10, device="cuda"):
    batch_time = AverageMeter("Time", ":6.3f")
    losses = AverageMeter("Loss", ":.4e")
    top1 = AverageMeter("Acc@1", ":6.2f")
    model.train()
    end = time.time()
    for i, (images, _) in enumerate(loader):
        images[0] = images[0].to(device, non_blocking=True)
        images[1] = images[1].to(device, non_blocking=True)
        output, target = model(im_q=images[0], im_k=images[1])
        loss = criterion(output, target)

        acc1, = accuracy(output, target, topk=(1,))
        losses.update(loss.item(), images[0].size(0))  # ok
        top1.update(acc1[0], images[0].size(0))  # ok
        pos_sims.append(output[:, 0].mean() * model.T)  # expect: TEN501

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        batch_time.update(time.time() - end)
        end = time.time()
        if i % print_freq == 0:
            print(f"Epoch [{epoch}][{i}/{len(loader)}] time {batch_time.avg:.3f} "
                  f"loss {losses.avg:.4e} acc@1 {float(top1.avg):.2f} pos-sim {float(pos_sims[-1]):.3f}")


def main(loader, epochs=200, lr=0.03, device="cuda"):
    model = MoCo(models.resnet50).to(device)
    criterion = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr, momentum=0.9, weight_decay=1e-4)
    pos_sims = []
    for epoch in range(epochs):
        adjust_learning_rate(optimizer, epoch, lr, epochs)
        train(loader, model, criterion, optimizer, epoch, pos_sims, device=device)
        torch.save({"epoch": epoch + 1, "state_dict": model.state_dict(), "optimizer": optimizer.state_dict()},
                   f"checkpoint_{epoch:04d}.pth.tar")
