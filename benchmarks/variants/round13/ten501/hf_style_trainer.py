"""HF-style trainer with an overridable compute_loss and a two-task head."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainerState:
    global_step: int = 0
    log_history: list = field(default_factory=list)
    best_metric: float = float("inf")


class MultiHeadModel(nn.Module):
    def __init__(self, d=12, n_cls=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 24), nn.GELU())
        self.cls_head = nn.Linear(24, n_cls)
        self.reg_head = nn.Linear(24, 1)

    def forward(self, features, labels=None, targets=None):
        h = self.body(features)
        return {"logits": self.cls_head(h), "pred": self.reg_head(h).squeeze(-1)}


class MiniTrainer:
    def __init__(self, model, lr=3e-3, logging_steps=2, task_weights=None):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.state = TrainerState()
        self.logging_steps = logging_steps
        self.task_weights = task_weights or {"cls": 1.0, "reg": 0.5}
        self.task_totals = {k: 0.0 for k in self.task_weights}
        self.loss_by_step = {}
        self._aux = []
        self._train_logits = []

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        parts = {
            "cls": F.cross_entropy(outputs["logits"], inputs["labels"]),
            "reg": F.smooth_l1_loss(outputs["pred"], inputs["targets"]),
        }
        loss = sum(self.task_weights[k] * v for k, v in parts.items())
        outputs["parts"] = parts
        return (loss, outputs) if return_outputs else loss

    def training_step(self, model, inputs):
        model.train()
        loss, outputs = self.compute_loss(model, inputs, return_outputs=True)
        loss.backward()
        for name, value in outputs["parts"].items():
            self.task_totals[name] += value  # expect: TEN501
        self._aux.extend(outputs["parts"].values())  # expect: TEN501
        self._train_logits.append(outputs["logits"])  # expect: TEN501
        return loss.detach()

    def train(self, batches, epochs=2):
        tr_loss = torch.tensor(0.0)
        for _ in range(epochs):
            for inputs in batches:
                step_loss = self.training_step(self.model, inputs)
                self.optimizer.step()
                self.optimizer.zero_grad()
                tr_loss += step_loss  # ok
                self.state.global_step += 1
                self.loss_by_step[self.state.global_step] = step_loss  # ok
                if self.state.global_step % self.logging_steps == 0:
                    logs = {"loss": round(tr_loss.item() / self.logging_steps, 4),
                            "step": self.state.global_step}
                    self.state.log_history.append(logs)  # ok
                    tr_loss -= tr_loss
        return self.state

    def evaluate(self, batches):
        self.model.eval()
        losses = []
        with torch.no_grad():
            for inputs in batches:
                losses.append(self.compute_loss(self.model, inputs))  # ok
        metric = torch.stack(losses).mean().item()
        self.state.best_metric = min(self.state.best_metric, metric)
        self.state.log_history.append({"eval_loss": metric})  # ok
        return metric


def synthetic_batches(n=4, bs=6, d=12, n_cls=3):
    out = []
    for _ in range(n):
        out.append({"features": torch.randn(bs, d),
                    "labels": torch.randint(0, n_cls, (bs,)),
                    "targets": torch.randn(bs)})
    return out


if __name__ == "__main__":
    torch.manual_seed(1)
    trainer = MiniTrainer(MultiHeadModel())
    trainer.train(synthetic_batches(), epochs=2)
    print(trainer.evaluate(synthetic_batches(2)), trainer.state.log_history[-1])
