"""A compact HF-Trainer-like class with TrainerState.log_history and a Lightning-like module API."""
from dataclasses import dataclass, field
from typing import Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class TrainerState:
    epoch: float = 0.0
    global_step: int = 0
    log_history: List[Dict[str, float]] = field(default_factory=list)
    best_metric: float = None


class LitClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 48), nn.GELU(), nn.Linear(48, 3))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        return {"loss": loss, "preds": logits.argmax(1), "logits": logits}

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        return {"val_loss": F.cross_entropy(logits, y), "correct": (logits.argmax(1) == y).sum()}


class Trainer:
    def __init__(self, model, train_batches, eval_batches, lr=3e-3, logging_steps=3):
        self.model = model
        self.train_batches = train_batches
        self.eval_batches = eval_batches
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.state = TrainerState()
        self.logging_steps = logging_steps
        self.train_outputs = []
        self.all_logits = []

    def compute_loss(self, model, batch, batch_idx, return_outputs=False):
        outputs = model.training_step(batch, batch_idx)
        return (outputs["loss"], outputs) if return_outputs else outputs["loss"]

    def training_step(self, model, batch, batch_idx):
        model.train()
        loss, outputs = self.compute_loss(model, batch, batch_idx, return_outputs=True)
        loss.backward()
        self.all_logits.append(outputs["logits"])  # expect: TEN501
        return loss.detach(), outputs

    def evaluate(self):
        self.model.eval()
        outs = []
        with torch.no_grad():
            for i, batch in enumerate(self.eval_batches):
                outs.append(self.model.validation_step(batch, i))  # ok
        val_loss = torch.stack([o["val_loss"] for o in outs]).mean().item()
        acc = sum(o["correct"].item() for o in outs) / sum(len(b[1]) for b in self.eval_batches)
        return {"eval_loss": val_loss, "eval_acc": acc}

    def train(self, num_epochs):
        tr_loss = torch.tensor(0.0)
        logged_loss = 0.0
        for epoch in range(num_epochs):
            for batch_idx, batch in enumerate(self.train_batches):
                tr_loss_step, outputs = self.training_step(self.model, batch, batch_idx)
                tr_loss += tr_loss_step  # ok
                self.train_outputs.append(outputs)  # expect: TEN501
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.state.global_step += 1
                self.state.epoch = epoch + (batch_idx + 1) / len(self.train_batches)
                if self.state.global_step % self.logging_steps == 0:
                    tr_loss_scalar = tr_loss.item()
                    logs = {"loss": round((tr_loss_scalar - logged_loss) / self.logging_steps, 4),
                            "epoch": round(self.state.epoch, 2)}
                    logged_loss = tr_loss_scalar
                    self.state.log_history.append(logs)
            metrics = self.evaluate()
            self.state.log_history.append({**metrics, "step": self.state.global_step})
            if self.state.best_metric is None or metrics["eval_loss"] < self.state.best_metric:
                self.state.best_metric = metrics["eval_loss"]  # ok
        return tr_loss.item() / self.state.global_step


x = torch.randn(300, 12)
y = (x[:, :4].sum(1) > 0).long() + (x[:, 4] > 1).long()
train_batches = [(x[i:i + 30], y[i:i + 30]) for i in range(0, 240, 30)]
eval_batches = [(x[i:i + 30], y[i:i + 30]) for i in range(240, 300, 30)]
trainer = Trainer(LitClassifier(), train_batches, eval_batches)
avg = trainer.train(3)
epoch_preds = torch.cat([o["preds"] for o in trainer.train_outputs[-len(train_batches):]])
print("avg train loss:", round(avg, 4), "best eval:", round(trainer.state.best_metric, 4))
print("log history tail:", trainer.state.log_history[-2:])
print("train acc last epoch:", (epoch_preds == torch.cat([b[1] for b in train_batches])).float().mean().item(),
      "logit std:", torch.cat(trainer.all_logits).std().item())
