"""A miniature HF-Trainer look-alike with compute_loss overrides."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class TrainerState:
    global_step: int = 0
    log_history: list = field(default_factory=list)


class TinyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8)
        self.cls = nn.Linear(8, 2)

    def forward(self, input_ids, labels=None):
        logits = self.cls(self.emb(input_ids).mean(1))
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits, labels)
        return out


class Trainer:
    def __init__(self, model, train_data, eval_data, logging_steps=2):
        self.model = model
        self.train_data = train_data
        self.eval_data = eval_data
        self.logging_steps = logging_steps
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
        self.state = TrainerState()

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        loss = outputs["loss"]
        return (loss, outputs) if return_outputs else loss

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss.backward()
        return loss.detach()

    def train(self):
        tr_loss = torch.tensor(0.0)
        logged_loss = 0.0
        for inputs in self.train_data:
            tr_loss_step = self.training_step(self.model, inputs)
            tr_loss += tr_loss_step  # ok
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.state.global_step += 1
            if self.state.global_step % self.logging_steps == 0:
                avg = (tr_loss.item() - logged_loss) / self.logging_steps
                logged_loss = tr_loss.item()
                self.state.log_history.append({"loss": round(avg, 4), "step": self.state.global_step})  # ok
        return tr_loss.item() / max(self.state.global_step, 1)

    def evaluate(self):
        self.model.eval()
        eval_losses, all_logits = [], []
        for inputs in self.eval_data:
            loss, outputs = self.compute_loss(self.model, inputs, return_outputs=True)
            eval_losses.append(loss)  # expect: TEN501
            all_logits.append(outputs["logits"].detach())  # ok
        metrics = {"eval_loss": torch.stack(eval_losses).mean().item()}
        self.state.log_history.append(metrics)  # ok
        return metrics


class RegularizedTrainer(Trainer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reg_terms = []
        self.last_outputs = None

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        reg = 1e-3 * sum(p.pow(2).sum() for p in model.parameters())
        self.reg_terms.append(reg)  # expect: TEN501
        self.last_outputs = outputs  # either
        loss = outputs["loss"] + reg
        return (loss, outputs) if return_outputs else loss


def batch():
    ids = torch.randint(0, 20, (4, 6))
    return {"input_ids": ids, "labels": (ids.sum(1) > 57).long()}


train_data = [batch() for _ in range(6)]
eval_data = [batch() for _ in range(3)]
for cls in (Trainer, RegularizedTrainer):
    t = cls(TinyModel(), train_data, eval_data)
    print(cls.__name__, t.train(), t.evaluate(), len(t.state.log_history))
