# Iterative magnitude pruning with rewinding to the original initialisation.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 64)
        self.fc2 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, 4)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    def prunable(self):
        return {n: m.weight for n, m in self.named_children()}  # either


def dataset(n=600):
    x = torch.randn(n, 16)
    y = (x[:, :4].argmax(1) + (x[:, 4] > 1).long()) % 4
    return x, y


def train(net, masks, x, y, epochs=8):
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    for _ in range(epochs):
        for idx in torch.randperm(len(x)).split(50):
            opt.zero_grad()
            F.cross_entropy(net(x[idx]), y[idx]).backward()
            opt.step()
            with torch.no_grad():
                for name, w in net.prunable().items():
                    w.mul_(masks[name])


def prune(net, masks, fraction):
    new = {}
    for name, w in net.prunable().items():
        alive = w.detach().abs()[masks[name].bool()]
        cut = alive.kthvalue(max(1, int(fraction * alive.numel()))).values
        new[name] = masks[name] * (w.detach().abs() > cut).float()
    return new


def accuracy(net, x, y):
    with torch.no_grad():
        return (net(x).argmax(1) == y).float().mean().item()


def lottery(clone_init, rounds=3):
    torch.manual_seed(21)
    x, y = dataset()
    xt, yt = dataset(300)
    net = MLP()
    if clone_init:
        init_state = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}  # ok
    else:
        init_state = {k: v.cpu() for k, v in net.state_dict().items()}  # expect: TEN402
    masks = {n: torch.ones_like(w) for n, w in net.prunable().items()}
    history = []
    for r in range(rounds):
        train(net, masks, x, y)
        history.append(round(accuracy(net, xt, yt), 3))
        masks = prune(net, masks, 0.5)
        net.load_state_dict(init_state)
        with torch.no_grad():
            for name, w in net.prunable().items():
                w.mul_(masks[name])
    rewound_to = net.fc1.weight.abs().sum().item()
    return history, rewound_to


def main():
    for clone_init in (False, True):
        hist, l1 = lottery(clone_init)
        print(f"clone_init={clone_init}: acc per round {hist}, |fc1| after last rewind {l1:.2f}")


if __name__ == "__main__":
    main()
