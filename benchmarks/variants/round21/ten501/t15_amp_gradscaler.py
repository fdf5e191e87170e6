"""Mixed-precision training (CPU autocast bf16) with GradScaler and a step-stats tracker."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class StepStats:
    def __init__(self):
        self.data = defaultdict(list)

    def add(self, name, value):
        self.data[name].append(value)

    def last(self, name):
        return self.data[name][-1]

    def mean(self, name):
        vals = self.data[name]
        return sum(float(v) for v in vals) / len(vals)


class AmpTrainer:
    def __init__(self, model, lr=1e-3, max_grad_norm=1.0):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 8)
        self.max_grad_norm = max_grad_norm
        self.stats = StepStats()
        self.scaled_losses = []

    def train_step(self, x, y):
        self.optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            logits = self.model(x)
            loss = F.cross_entropy(logits, y)
        scaled = self.scaler.scale(loss)
        scaled.backward()
        self.scaler.unscale_(self.optimizer)
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.scaler.step(self.optimizer)
        self.scaler.update()

        self.scaled_losses.append(scaled)  # expect: TEN501
        self.stats.add("loss", loss.detach().float())  # ok
        self.stats.add("scale", self.scaler.get_scale())  # ok
        self.stats.add("grad_norm", grad_norm)  # ok
        self.stats.add("logit_mean", logits.float().mean())  # expect: TEN501
        return loss


model = nn.Sequential(nn.Linear(24, 64), nn.GELU(), nn.LayerNorm(64), nn.Linear(64, 5))
trainer = AmpTrainer(model)
x = torch.randn(320, 24)
y = torch.randint(0, 5, (320,))
returned = []
for epoch in range(2):
    for i in range(0, 320, 40):
        loss = trainer.train_step(x[i:i + 40], y[i:i + 40])
        returned.append(loss.float().item())
    print(f"epoch {epoch}: loss {trainer.stats.mean('loss'):.4f} scale {trainer.stats.last('scale')}")

print("scaled-loss mean:", torch.stack([s.float() for s in trainer.scaled_losses]).mean().item())
print("grad norm mean:", trainer.stats.mean("grad_norm"), "logit mean:", trainer.stats.mean("logit_mean"))
print("returned mean:", sum(returned) / len(returned))
