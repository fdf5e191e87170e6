"""Forward hooks that record activations for later inspection."""
from collections import defaultdict

import torch
import torch.nn as nn

activation_stats = defaultdict(list)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(8, 16)
        self.l2 = nn.Linear(16, 16)
        self.out = nn.Linear(16, 2)

    def forward(self, x):
        return self.out(torch.relu(self.l2(torch.relu(self.l1(x)))))


def register_recorders(model):
    captured = {}

    def save_output(name):
        def hook(module, inputs, output):
            captured.setdefault(name, []).append(output)  # expect: TEN501
        return hook

    def save_stats(name):
        def hook(module, inputs, output):
            activation_stats[name].append((output.mean().item(), output.std().item()))  # ok
        return hook

    def save_detached(name, store):
        def hook(module, inputs, output):
            store[name] = output.detach()  # ok
        return hook

    last = {}
    model.l1.register_forward_hook(save_output("l1"))
    model.l2.register_forward_hook(save_stats("l2"))
    model.out.register_forward_hook(save_detached("out", last))
    return captured, last


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MLP()
    captured, last = register_recorders(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(5):
        x, y = torch.randn(4, 8), torch.randint(0, 2, (4,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(len(captured["l1"]), len(activation_stats["l2"]), last["out"].shape)
