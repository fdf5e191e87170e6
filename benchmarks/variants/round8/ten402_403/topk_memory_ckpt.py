"""Keeps the k best checkpoints in host memory and averages them at the end."""
import heapq
import itertools
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class TopKCheckpointer:
    def __init__(self, model, k=3, mode="max"):
        self.model = model
        self.k = k
        self.sign = 1.0 if mode == "max" else -1.0
        self._heap = []
        self._tiebreak = itertools.count()

    def update(self, metric, step):
        key = self.sign * metric
        entry = (key, next(self._tiebreak), step, self.model.state_dict())  # expect: TEN402
        if len(self._heap) < self.k:
            heapq.heappush(self._heap, entry)
        elif key > self._heap[0][0]:
            heapq.heapreplace(self._heap, entry)

    def steps(self):
        return [e[2] for e in sorted(self._heap, reverse=True)]

    def load_best(self):
        _, _, step, state = max(self._heap, key=lambda e: e[0])
        self.model.load_state_dict(state)
        return step

    def average_into_model(self):
        states = [e[3] for e in self._heap]
        avg = {}
        for name in states[0]:
            stacked = torch.stack([s[name].float() for s in states])
            avg[name] = stacked.mean(0).to(states[0][name].dtype)
        self.model.load_state_dict(avg)


class TextCNN(nn.Module):
    def __init__(self, vocab, dim=128, n_classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.convs = nn.ModuleList(nn.Conv1d(dim, 100, k) for k in (3, 4, 5))
        self.drop = nn.Dropout(0.5)
        self.out = nn.Linear(300, n_classes)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        h = torch.cat([F.relu(c(h)).amax(-1) for c in self.convs], dim=1)
        return self.out(self.drop(h))


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    hit = n = 0
    for tokens, labels in loader:
        hit += (model(tokens.to(device)).argmax(-1).cpu() == labels).sum().item()
        n += labels.numel()
    return hit / n


def train(model, train_loader, val_loader, device, max_steps=20000, eval_every=1000, out_dir="runs/textcnn"):
    os.makedirs(out_dir, exist_ok=True)
    model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    ckpt = TopKCheckpointer(model, k=5, mode="max")
    step = 0
    while step < max_steps:
        for tokens, labels in train_loader:
            model.train()
            loss = F.cross_entropy(model(tokens.to(device)), labels.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if step % eval_every == 0:
                acc = accuracy(model, val_loader, device)
                ckpt.update(acc, step)
                print(f"step {step} val_acc {acc:.4f} top-k steps {ckpt.steps()}")
            if step >= max_steps:
                break
    torch.save(model.state_dict(), os.path.join(out_dir, "final.pt"))  # ok
    ckpt.average_into_model()
    print(f"averaged top-k val_acc {accuracy(model, val_loader, device):.4f}")
    return model
