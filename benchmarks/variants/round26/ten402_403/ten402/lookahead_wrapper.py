import torch
import torch.nn as nn

torch.manual_seed(0)


class Lookahead:
    def __init__(self, optimizer, k=5, alpha=0.5):
        self.optimizer = optimizer
        self.k = k
        self.alpha = alpha
        self.counter = 0
        self.slow = [[p.data for p in g["params"]] for g in optimizer.param_groups]  # expect: TEN402

    def zero_grad(self):
        self.optimizer.zero_grad()

    def step(self):
        self.optimizer.step()
        self.counter += 1
        if self.counter % self.k == 0:
            for group, slow in zip(self.optimizer.param_groups, self.slow):
                for fast, s in zip(group["params"], slow):
                    s += self.alpha * (fast.data - s)
                    fast.data.copy_(s)


class LookaheadCloned(Lookahead):
    def __init__(self, optimizer, k=5, alpha=0.5):
        super().__init__(optimizer, k, alpha)
        self.slow = [[p.detach().clone() for p in g["params"]] for g in optimizer.param_groups]  # ok


def run(wrapper):
    torch.manual_seed(3)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = wrapper(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9))
    X = torch.randn(100, 4)
    Y = X @ torch.tensor([[1.0], [-1.0], [2.0], [0.0]])
    out = []
    for it in range(40):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X), Y)
        loss.backward()
        opt.step()
        if it % 10 == 9:
            out.append(round(loss.item(), 6))
    return out


print("Lookahead       ", run(Lookahead))
print("LookaheadCloned ", run(LookaheadCloned))
