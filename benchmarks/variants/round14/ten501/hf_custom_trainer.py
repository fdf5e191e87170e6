"""A hand-rolled HF-Trainer look-alike with a subclass overriding compute_loss."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainerState:
    global_step: int = 0
    total_flos: int = 0
    log_history: list = field(default_factory=list)


class TinyLM(nn.Module):
    def __init__(self, vocab=32, dim=24):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids, labels=None):
        h = torch.tanh(self.mix(self.emb(input_ids)))
        logits = self.head(h)
        out = {"logits": logits, "hidden": h}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return out


class Trainer:
    def __init__(self, model, train_batches, lr=3e-3, logging_steps=3):
        self.model = model
        self.batches = train_batches
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.state = TrainerState()
        self.logging_steps = logging_steps
        self._tr_loss = torch.tensor(0.0)

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        return (outputs["loss"], outputs) if return_outputs else outputs["loss"]

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss.backward()
        return loss.detach()

    def train(self, epochs=2):
        for _ in range(epochs):
            for inputs in self.batches:
                tr_loss_step = self.training_step(self.model, inputs)
                self._tr_loss += tr_loss_step  # ok
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.state.global_step += 1  # ok
                self.state.total_flos += int(6 * inputs["input_ids"].numel())  # ok
                if self.state.global_step % self.logging_steps == 0:
                    avg = self._tr_loss.item() / self.state.global_step
                    self.state.log_history.append({"loss": round(avg, 4), "step": self.state.global_step})  # ok


class AuxLossTrainer(Trainer):
    """Adds a hidden-state norm penalty and a z-loss on the logits."""

    def __init__(self, *args, aux_weight=0.01, **kwargs):
        super().__init__(*args, **kwargs)
        self.aux_weight = aux_weight
        self._aux_log = []
        self._z_log = []

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        aux = outputs["hidden"].pow(2).mean()
        z_loss = outputs["logits"].logsumexp(-1).pow(2).mean()
        loss = outputs["loss"] + self.aux_weight * aux + 1e-4 * z_loss
        self._aux_log.append(aux)  # expect: TEN501
        self._z_log.append(z_loss)  # expect: TEN501
        return (loss, outputs) if return_outputs else loss


if __name__ == "__main__":
    torch.manual_seed(0)
    data = torch.randint(0, 32, (48, 10))
    batches = [{"input_ids": b, "labels": b} for b in data.split(8)]
    trainer = AuxLossTrainer(TinyLM(), batches)
    trainer.train()
    print(trainer.state.log_history[-2:], "flos", trainer.state.total_flos)
    print("aux terms logged:", len(trainer._aux_log), "last z", trainer._z_log[-1].item())
