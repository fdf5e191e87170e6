"""Subclass overrides training_step and forgets the base class's detach().

The base class's `tr_loss = tr_loss + step_loss` was safe with the base
implementation, but with this override every step's graph is chained into
tr_loss (and tr_loss is never reset between logging steps here).
"""
import torch
import torch.nn as nn


class SimpleTrainer:
    def __init__(self, model, batches, grad_accum=1):
        self.model = model
        self.batches = batches
        self.grad_accum = grad_accum
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05)
        self.logs = []

    def training_step(self, model, inputs):
        loss = model(**inputs)
        (loss / self.grad_accum).backward()
        return loss.detach()

    def train(self, epochs):
        tr_loss = torch.zeros(())
        steps = 0
        for _ in range(epochs):
            for inputs in self.batches:
                step_loss = self.training_step(self.model, inputs)
                tr_loss = tr_loss + step_loss  # expect: TEN501
                steps += 1
                self.opt.step()
                self.opt.zero_grad()
            self.logs.append({"epoch_avg": (tr_loss / steps).item()})  # ok
        return tr_loss / steps


class ContrastiveTrainer(SimpleTrainer):
    def training_step(self, model, inputs):
        model.train()
        loss = model(**inputs)
        loss.backward()
        return loss


class PairModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(12, 6)

    def forward(self, anchor, positive):
        a = nn.functional.normalize(self.enc(anchor), dim=-1)
        p = nn.functional.normalize(self.enc(positive), dim=-1)
        logits = a @ p.t() / 0.1
        return nn.functional.cross_entropy(logits, torch.arange(len(a)))


if __name__ == "__main__":
    torch.manual_seed(0)
    data = []
    for _ in range(4):
        x = torch.randn(6, 12)
        data.append({"anchor": x, "positive": x + 0.1 * torch.randn_like(x)})
    trainer = ContrastiveTrainer(PairModel(), data)
    final = trainer.train(epochs=2)
    print(trainer.logs, final.requires_grad)
