import torch
import torch.nn as nn

from .losses import detection_losses


class BoxRegressor(nn.Module):
    def __init__(self, d_in=16, n_classes=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.box = nn.Linear(64, 4)
        self.cls = nn.Linear(64, n_classes)

    def forward(self, x):
        h = self.body(x)
        raw = self.box(h)
        xy = raw[:, :2]
        wh = nn.functional.softplus(raw[:, 2:])
        return torch.cat([xy, xy + wh], dim=1), self.cls(h)


class Engine:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self._epoch_terms = {}
        self._n = 0

    def train_step(self, batch):
        self.model.train()
        boxes, logits = self.model(batch["x"])
        terms = detection_losses(boxes, logits, batch["boxes"], batch["labels"])
        self.optimizer.zero_grad()
        terms["total"].backward()
        self.optimizer.step()
        for k, v in terms.items():
            self._epoch_terms[k] = self._epoch_terms.get(k, 0.0) + v.detach()  # ok
        self._n += 1
        return terms

    @torch.no_grad()
    def eval_step(self, batch):
        self.model.eval()
        boxes, logits = self.model(batch["x"])
        return detection_losses(boxes, logits, batch["boxes"], batch["labels"])

    def end_epoch(self):
        summary = {k: v.item() / self._n for k, v in self._epoch_terms.items()}
        self._epoch_terms, self._n = {}, 0
        return summary
