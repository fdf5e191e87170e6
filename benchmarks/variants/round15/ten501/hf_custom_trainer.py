"""Hugging Face-style Trainer subclass with compute_loss override (stand-in base)."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainerState:
    global_step: int = 0
    log_history: list = field(default_factory=list)


class BaseTrainer:
    """Cut-down imitation of transformers.Trainer's inner loop."""

    def __init__(self, model, train_batches, lr=5e-3, logging_steps=2):
        self.model = model
        self.train_batches = train_batches
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.logging_steps = logging_steps
        self.state = TrainerState()
        self._total_loss_scalar = 0.0

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(inputs["input_ids"])
        loss = F.cross_entropy(outputs, inputs["labels"])
        return (loss, outputs) if return_outputs else loss

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss.backward()
        return loss.detach()

    def log(self, logs):
        logs["step"] = self.state.global_step
        self.state.log_history.append(logs)  # ok

    def train(self, epochs=2):
        tr_loss = torch.tensor(0.0)
        for _ in range(epochs):
            for inputs in self.train_batches:
                tr_loss_step = self.training_step(self.model, inputs)
                tr_loss += tr_loss_step  # ok
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.state.global_step += 1
                if self.state.global_step % self.logging_steps == 0:
                    tr_loss_scalar = tr_loss.item()
                    tr_loss -= tr_loss
                    self._total_loss_scalar += tr_loss_scalar  # ok
                    self.log({"loss": round(tr_loss_scalar / self.logging_steps, 4)})
        return self._total_loss_scalar / max(self.state.global_step, 1)


class DistillTrainer(BaseTrainer):
    def __init__(self, *args, alpha=0.5, **kwargs):
        super().__init__(*args, **kwargs)
        self.alpha = alpha
        self.loss_components = {"ce": [], "reg": []}

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(inputs["input_ids"])
        ce = F.cross_entropy(outputs, inputs["labels"])
        reg = outputs.pow(2).mean()
        self.loss_components["ce"].append(ce)  # expect: TEN501
        self.loss_components["reg"].append(reg.detach().cpu())  # ok
        loss = ce + self.alpha * 0.01 * reg
        return (loss, outputs) if return_outputs else loss


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab=30, dim=8, n_labels=2):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.cls = nn.Linear(dim, n_labels)

    def forward(self, input_ids):
        return self.cls(self.emb(input_ids))


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = [{"input_ids": torch.randint(0, 30, (4, 6)), "labels": torch.randint(0, 2, (4,))} for _ in range(4)]
    trainer = DistillTrainer(BagOfEmbeddings(), batches)
    print("avg loss", trainer.train())
    print(trainer.state.log_history[-1], len(trainer.loss_components["ce"]))
