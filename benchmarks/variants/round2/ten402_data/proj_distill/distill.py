"""Born-again networks: the teacher of each generation is the student at its start."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from .base import BaseTrainer


class SelfDistillTrainer(BaseTrainer):
    def __init__(self, model, alpha=0.5):
        super().__init__(model)
        self.teacher = copy.deepcopy(model)
        self.alpha = alpha

    def refresh_teacher(self):
        self.teacher.load_state_dict(self.generation_start)

    def loss(self, x, y):
        with torch.no_grad():
            t = self.teacher(x)
        out = self.model(x)
        return (1 - self.alpha) * F.mse_loss(out, y) + self.alpha * F.mse_loss(out, t)


class CopyingDistillTrainer(BaseTrainer):
    def __init__(self, model):
        super().__init__(model)
        self.teacher = copy.deepcopy(model)

    def begin_generation(self):
        self.generation_start = copy.deepcopy(self.model.state_dict())  # ok

    def refresh_teacher(self):
        self.teacher.load_state_dict(self.generation_start)


def run(trainer_cls, gens=2):
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    tr = trainer_cls(model)
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    starts = []
    for g in range(gens):
        tr.begin_generation()
        starts.append({k: v.clone() for k, v in model.state_dict().items()})
        tr.train_steps(x, y)
        tr.refresh_teacher()
    return all(torch.equal(v, starts[-1][k]) for k, v in tr.teacher.state_dict().items())


def publish(trainer):
    blob = trainer.export()
    torch.save(blob, "/tmp/_distill_export.pt")


if __name__ == "__main__":
    print("self-distill teacher == generation start:", run(SelfDistillTrainer))
    print("copying teacher == generation start:", run(CopyingDistillTrainer))
