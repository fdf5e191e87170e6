"""Trainer with early stopping: keeps the best weights seen on validation."""
import copy
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=0.05, patience=3):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.loss_fn = nn.MSELoss()
        self.patience = patience
        self.best_loss = float("inf")
        self.best_state = None
        self.best_opt = None
        self.bad_epochs = 0

    def train_epoch(self, x, y):
        self.model.train()
        for i in range(0, len(x), 16):
            self.opt.zero_grad()
            loss = self.loss_fn(self.model(x[i:i + 16]), y[i:i + 16])
            loss.backward()
            self.opt.step()

    @torch.no_grad()
    def evaluate(self, x, y):
        self.model.eval()
        return self.loss_fn(self.model(x), y).item()

    def fit(self, data, val, epochs=12):
        for ep in range(epochs):
            self.train_epoch(*data)
            vl = self.evaluate(*val)
            if vl < self.best_loss:
                self.best_loss = vl
                self.best_state = self.model.state_dict()  # expect: TEN402
                self.best_opt = copy.deepcopy(self.opt.state_dict())  # ok
                self.bad_epochs = 0
            else:
                self.bad_epochs += 1
            print(f"epoch {ep} val {vl:.5f}")
            if self.bad_epochs >= self.patience:
                break
        self.model.load_state_dict(self.best_state)
        self.opt.load_state_dict(self.best_opt)


def main():
    torch.manual_seed(0)
    x = torch.randn(64, 6)
    y = x @ torch.randn(6, 1) + 0.3 * torch.randn(64, 1)
    vx = torch.randn(32, 6) * 2.0
    vy = torch.sin(vx[:, :1]) * 3
    model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
    tr = Trainer(model)
    tr.fit((x, y), (vx, vy))
    print(f"best recorded {tr.best_loss:.5f} restored {tr.evaluate(vx, vy):.5f}")
    print("momentum norm", sum(v["momentum_buffer"].norm().item() for v in tr.opt.state.values()))


if __name__ == "__main__":
    main()
