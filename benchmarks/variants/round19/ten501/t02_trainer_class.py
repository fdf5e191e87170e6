"""A Trainer class that keeps its own history on self."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.history = []
        self.scalar_history = []
        self.total_loss = 0.0
        self.clean_total = 0.0
        self.best_loss = None
        self.last_batch_loss = None
        self.log = {"train_loss": [], "lr": []}

    def train_step(self, x, y):
        self.opt.zero_grad()
        pred = self.model(x)
        loss = F.mse_loss(pred, y)
        loss.backward()
        self.opt.step()
        self.history.append(loss)  # expect: TEN501
        self.scalar_history.append(loss.item())  # ok
        self.total_loss += loss  # expect: TEN501
        self.clean_total += loss.item()  # ok
        self.last_batch_loss = loss  # either
        self.log["lr"].append(self.opt.param_groups[0]["lr"])  # ok
        return loss

    def fit(self, data, epochs=3):
        for epoch in range(epochs):
            epoch_loss = 0.0
            for x, y in data:
                loss = self.train_step(x, y)
                epoch_loss += loss.item()  # ok
            self.log["train_loss"].append(epoch_loss / len(data))  # ok
            if self.best_loss is None or epoch_loss < self.best_loss:
                self.best_loss = epoch_loss  # ok
        return self


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(4)]
    tr = Trainer(nn.Linear(4, 1)).fit(data)
    print(len(tr.history), float(tr.total_loss), tr.clean_total, tr.best_loss, tr.log["train_loss"][-1],
          float(tr.last_batch_loss), sum(tr.scalar_history))


if __name__ == "__main__":
    main()
