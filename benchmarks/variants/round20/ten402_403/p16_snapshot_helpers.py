"""Snapshot helpers that move weights 'off the model' before training continues."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def to_host(model):
    return {k: v.cpu() for k, v in model.state_dict().items()}  # either


def to_host_copy(model):
    return {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}  # ok


class Trainer:
    def __init__(self):
        self.model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.x = torch.randn(50, 4)
        self.y = self.x[:, :1] - self.x[:, 1:2]

    def weights(self):
        return self.model.state_dict()  # either

    def fit(self, n):
        for _ in range(n):
            self.opt.zero_grad()
            nn.functional.mse_loss(self.model(self.x), self.y).backward()
            self.opt.step()


t = Trainer()
t.fit(5)
phase1_host = to_host(t.model)  # expect: TEN402
phase1_method = t.weights()  # expect: TEN402
phase1_copy = to_host_copy(t.model)  # ok
t.fit(20)
final_w = t.model[2].weight
for name, snap in [("to_host", phase1_host), ("method", phase1_method), ("copy", phase1_copy)]:
    print(f"{name}: phase-1 snapshot equals final weights -> {torch.equal(snap['2.weight'], final_w)}")
