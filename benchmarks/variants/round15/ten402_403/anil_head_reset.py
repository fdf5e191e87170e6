"""ANIL-style few-shot evaluation: adapt only the head per task, then reset it."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_WAY, K_SHOT, DIM = 3, 5, 16


class ProtoNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(DIM, 32), nn.ReLU())
        self.head = nn.Linear(32, N_WAY)

    def forward(self, x):
        return self.head(self.body(x))


def sample_episode():
    centers = torch.randn(N_WAY, DIM) * 2
    ys = torch.arange(N_WAY).repeat_interleave(K_SHOT)
    xs = centers[ys] + torch.randn(len(ys), DIM)
    yq = torch.arange(N_WAY).repeat_interleave(4)
    return xs, ys, centers[yq] + torch.randn(len(yq), DIM), yq


def adapt_head(model, xs, ys, steps=10, lr=0.5):
    opt = torch.optim.SGD(model.head.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(xs), ys).backward()
        opt.step()


def evaluate(model, episodes=6):
    head_init = model.head.state_dict()  # expect: TEN402
    body_init = copy.deepcopy(model.body.state_dict())  # ok
    accs = []
    for _ in range(episodes):
        xs, ys, xq, yq = sample_episode()
        adapt_head(model, xs, ys)
        with torch.no_grad():
            accs.append((model(xq).argmax(1) == yq).float().mean().item())
        model.head.load_state_dict(head_init)
    model.body.load_state_dict(body_init)
    return sum(accs) / len(accs)


def evaluate_fixed(model, episodes=6):
    head_init = {k: v.clone() for k, v in model.head.state_dict().items()}  # ok
    accs = []
    for _ in range(episodes):
        xs, ys, xq, yq = sample_episode()
        adapt_head(model, xs, ys)
        with torch.no_grad():
            accs.append((model(xq).argmax(1) == yq).float().mean().item())
        model.head.load_state_dict(head_init)
    return sum(accs) / len(accs)


if __name__ == "__main__":
    net = ProtoNet()
    fresh = copy.deepcopy(net)  # ok
    print("acc (head never reset):", evaluate(net))
    print("acc (head reset):", evaluate_fixed(fresh))
