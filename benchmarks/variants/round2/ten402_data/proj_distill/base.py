import torch
import torch.nn.functional as F


class BaseTrainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def begin_generation(self):
        self.generation_start = self.model.state_dict()  # expect: TEN402

    def train_steps(self, x, y, n=3):
        for _ in range(n):
            self.opt.zero_grad()
            self.loss(x, y).backward()
            self.opt.step()

    def loss(self, x, y):
        return F.mse_loss(self.model(x), y)

    def export(self):
        return {"weights": self.model.state_dict(), "lr": self.opt.param_groups[0]["lr"]}  # ok
