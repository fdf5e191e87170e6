"""A Trainer that is handed model / optimizer / loss in __init__."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Trainer:
    def __init__(self, model, optimizer, loss_fn):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.history = []
        self.logits_seen = []
        self.step_losses = {}
        self.total_loss = 0
        self.global_step = 0
        self.best_item = float("inf")

    def train_step(self, x, y):
        self.model.train()
        logits = self.model(x)
        loss = self.loss_fn(logits, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss, "logits": logits}

    def fit(self, batches, epochs):
        for _ in range(epochs):
            for x, y in batches:
                out = self.train_step(x, y)
                self.history.append(out["loss"])  # expect: TEN501
                self.total_loss = self.total_loss + out["loss"]  # expect: TEN501
                self.logits_seen.append(out["logits"].detach())  # ok
                self.step_losses[self.global_step] = out["loss"].item()  # ok
                self.best_item = min(self.best_item, out["loss"].item())  # ok
                self.global_step += 1
        return self


model = nn.Sequential(nn.Linear(5, 20), nn.ReLU(), nn.Linear(20, 2))
trainer = Trainer(model, torch.optim.Adam(model.parameters(), lr=3e-3), nn.CrossEntropyLoss())
batches = [(torch.randn(16, 5), torch.randint(0, 2, (16,))) for _ in range(6)]
trainer.fit(batches, epochs=2)
print("steps", trainer.global_step, "avg", float(trainer.total_loss) / trainer.global_step)
print("first/last", trainer.history[0].item(), trainer.step_losses[trainer.global_step - 1])
print("logits", torch.cat(trainer.logits_seen).shape, round(trainer.best_item, 4))
