"""A small Trainer class; per-step bookkeeping lives on `self`."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.criterion = nn.BCEWithLogitsLoss()
        self.train_losses = []
        self.val_losses = []
        self.val_outputs = []
        self.lr_history = []
        self.global_step = 0
        self.best_val = float("inf")
        self.last_loss = None
        self.epoch_loss = 0.0

    def train_step(self, xb, yb):
        self.model.train()
        self.opt.zero_grad()
        loss = self.criterion(self.model(xb).squeeze(-1), yb)
        loss.backward()
        self.opt.step()
        self.train_losses.append(loss)  # expect: TEN501
        self.last_loss = loss  # either
        self.epoch_loss += loss  # expect: TEN501
        self.global_step += 1  # ok
        return loss

    @torch.no_grad()
    def validate(self, xv, yv):
        self.model.eval()
        logits = self.model(xv).squeeze(-1)
        val_loss = self.criterion(logits, yv)
        self.val_outputs.append(logits)  # ok
        self.val_losses.append(val_loss.item())  # ok
        self.best_val = min(self.best_val, val_loss.item())  # ok
        return val_loss

    def fit(self, batches, val, epochs=2):
        for epoch in range(epochs):
            self.epoch_loss = 0.0
            for xb, yb in batches:
                self.train_step(xb, yb)
            val_loss = self.validate(*val)
            self.lr_history.append(self.opt.param_groups[0]["lr"])  # ok
            print(f"epoch {epoch} train {self.epoch_loss.item() / len(batches):.4f} val {val_loss.item():.4f}")


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
    train = [(torch.randn(10, 3), torch.randint(0, 2, (10,)).float()) for _ in range(3)]
    val = (torch.randn(10, 3), torch.randint(0, 2, (10,)).float())
    trainer = Trainer(net)
    trainer.fit(train, val, epochs=2)
    print("steps:", trainer.global_step, "best val:", round(trainer.best_val, 4))
