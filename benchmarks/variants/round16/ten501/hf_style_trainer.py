"""Custom loss via a compute_loss override, in the style of the HF Trainer API."""
from dataclasses import dataclass, field
from typing import Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


@dataclass
class TrainingArguments:
    num_train_epochs: int = 2
    per_device_train_batch_size: int = 16
    per_device_eval_batch_size: int = 32
    learning_rate: float = 3e-3
    gradient_accumulation_steps: int = 2
    logging_steps: int = 2


@dataclass
class TrainerState:
    global_step: int = 0
    epoch: float = 0.0
    log_history: List[Dict[str, float]] = field(default_factory=list)


class ToyTextDataset(Dataset):
    def __init__(self, n, vocab=50, seq_len=12):
        self.ids = torch.randint(1, vocab, (n, seq_len))
        self.labels = (self.ids[:, :4].sum(1) % 3)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.labels[i]}


class BagOfEmbeddingsClassifier(nn.Module):
    def __init__(self, vocab=50, dim=32, num_labels=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, num_labels)

    def forward(self, input_ids, labels=None):
        h = self.embed(input_ids).mean(1)
        logits = self.head(torch.tanh(h))
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits, labels)
        return out


class Trainer:
    def __init__(self, model, args, train_dataset, eval_dataset=None):
        self.model = model
        self.args = args
        self.train_dataset = train_dataset
        self.eval_dataset = eval_dataset
        self.state = TrainerState()
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        loss = outputs["loss"]
        return (loss, outputs) if return_outputs else loss

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss = loss / self.args.gradient_accumulation_steps
        loss.backward()
        return loss.detach()

    def log(self, logs):
        logs = dict(logs, step=self.state.global_step)
        self.state.log_history.append(logs)
        print(logs)

    def train(self):
        args = self.args
        loader = DataLoader(self.train_dataset, batch_size=args.per_device_train_batch_size, shuffle=True)
        tr_loss = torch.tensor(0.0)
        logged_at = 0
        for epoch in range(args.num_train_epochs):
            for step, inputs in enumerate(loader):
                tr_loss_step = self.training_step(self.model, inputs)
                tr_loss += tr_loss_step  # ok
                if (step + 1) % args.gradient_accumulation_steps == 0:
                    self.optimizer.step()
                    self.optimizer.zero_grad()
                    self.state.global_step += 1
                    if self.state.global_step % args.logging_steps == 0:
                        n = self.state.global_step - logged_at
                        logs = {"loss": round(tr_loss.item() / n, 4), "epoch": epoch}
                        self.log(logs)  # ok
                        tr_loss.zero_()
                        logged_at = self.state.global_step
        return self.state

    def evaluate(self):
        loader = DataLoader(self.eval_dataset, batch_size=self.args.per_device_eval_batch_size)
        self.model.eval()
        eval_losses, all_preds = [], []
        for inputs in loader:
            with torch.no_grad():
                loss, outputs = self.compute_loss(self.model, inputs, return_outputs=True)
            eval_losses.append(loss)  # ok
            all_preds.append(outputs["logits"].argmax(-1))  # ok
        preds = torch.cat(all_preds)
        acc = (preds == self.eval_dataset.labels).float().mean().item()
        metrics = {"eval_loss": torch.stack(eval_losses).mean().item(), "eval_accuracy": acc}
        self.log(metrics)
        return metrics


class WeightedLossTrainer(Trainer):
    """Class-weighted CE plus an explicit L2 term; both terms kept for a later plot."""

    def __init__(self, *a, class_weights=None, l2=1e-4, **kw):
        super().__init__(*a, **kw)
        self.class_weights = class_weights
        self.l2 = l2
        self.loss_parts = {"ce": [], "l2": []}

    def compute_loss(self, model, inputs, return_outputs=False):
        labels = inputs.get("labels")
        outputs = model(input_ids=inputs["input_ids"])
        logits = outputs["logits"]
        ce = F.cross_entropy(logits, labels, weight=self.class_weights)
        l2 = self.l2 * sum(p.pow(2).sum() for p in model.parameters())
        self.loss_parts["ce"].append(ce)  # expect: TEN501
        self.loss_parts["l2"].append(l2.item())  # ok
        loss = ce + l2
        return (loss, outputs) if return_outputs else loss


if __name__ == "__main__":
    trainer = WeightedLossTrainer(
        BagOfEmbeddingsClassifier(), TrainingArguments(),
        ToyTextDataset(128), ToyTextDataset(64),
        class_weights=torch.tensor([1.0, 1.5, 1.0]),
    )
    trainer.train()
    print(trainer.evaluate())
    print(len(trainer.loss_parts["ce"]), "ce terms recorded")
