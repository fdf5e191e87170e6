"""A Hugging Face Trainer look-alike: state, log history and callbacks."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainerState:
    global_step: int = 0
    log_history: list = field(default_factory=list)


class LoggingCallback:
    def __init__(self):
        self.seen = []

    def on_step_end(self, state, logs=None):
        if logs:
            self.seen.append(logs)


class TinyClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, input_ids, labels=None):
        logits = self.head(self.emb(input_ids).mean(1))
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits, labels)
        return out


class Trainer:
    def __init__(self, model, dataset, accum=2):
        self.model = model
        self.dataset = dataset
        self.accum = accum
        self.state = TrainerState()
        self.callback = LoggingCallback()
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self._total_flos = 0.0

    def compute_loss(self, inputs):
        outputs = self.model(**inputs)
        return outputs["loss"], outputs

    def training_step(self, inputs):
        loss, _ = self.compute_loss(inputs)
        loss = loss / self.accum
        loss.backward()
        return loss.detach()

    def train(self):
        tr_loss = torch.tensor(0.0)
        for step, inputs in enumerate(self.dataset):
            step_loss = self.training_step(inputs)
            tr_loss += step_loss  # ok
            self._total_flos += float(inputs["input_ids"].numel())  # ok
            if (step + 1) % self.accum == 0:
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.state.global_step += 1
            loss, outputs = self.compute_loss(inputs)
            self.state.log_history.append({"loss": loss, "step": step})  # expect: TEN501
            self.callback.on_step_end(self.state, logs={"logits": outputs["logits"]})  # expect: TEN501
        return tr_loss / len(self.dataset)


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [{"input_ids": torch.randint(0, 20, (4, 6)), "labels": torch.randint(0, 2, (4,))} for _ in range(6)]
    trainer = Trainer(TinyClassifier(), data)
    print(float(trainer.train()), len(trainer.state.log_history), len(trainer.callback.seen))
