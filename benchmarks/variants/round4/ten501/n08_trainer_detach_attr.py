"""Phase-based trainer (train/val) keeping only detached state on self."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.running_loss = torch.zeros(())
        self.loss_history = []
        self.best_state = None
        self.best_val = float("inf")
        self.global_step = 0

    def train_step(self, x, y):
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.running_loss += loss.detach()  # ok
        self.loss_history.append(loss.item())  # ok
        self.global_step += 1
        return loss.detach()

    def run_phase(self, phase, batches):
        self.model.train(phase == "train")
        phase_loss, n = 0.0, 0
        for x, y in batches:
            with torch.set_grad_enabled(phase == "train"):
                if phase == "train":
                    loss = self.train_step(x, y)
                else:
                    loss = F.cross_entropy(self.model(x), y)
            phase_loss += loss.item() * x.size(0)  # ok
            n += x.size(0)
        return phase_loss / n

    def fit(self, train_batches, val_batches, epochs=3):
        for epoch in range(epochs):
            self.running_loss.zero_()
            tr = self.run_phase("train", train_batches)
            va = self.run_phase("val", val_batches)
            if va < self.best_val:
                self.best_val = va
                self.best_state = copy.deepcopy(self.model.state_dict())
            print(f"epoch {epoch}: train {tr:.4f} (sum {self.running_loss.item():.2f}) val {va:.4f}")
        self.model.load_state_dict(self.best_state)
        return self.model


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(12, 48), nn.Tanh(), nn.Linear(48, 3))
    mk = lambda n: [(torch.randn(20, 12), torch.randint(0, 3, (20,))) for _ in range(n)]
    Trainer(net).fit(mk(50), mk(8))
