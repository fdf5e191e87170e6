"""Forward hooks that capture activations for analysis while training runs."""
from collections import defaultdict

import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(
    nn.Conv1d(2, 4, 3, padding=1), nn.ReLU(),
    nn.Conv1d(4, 4, 3, padding=1), nn.ReLU(),
    nn.Flatten(), nn.Linear(4 * 10, 2),
)

captured = []
captured_det = []
act_stats = defaultdict(float)
act_counts = defaultdict(int)
eval_feats = []


def keep_output(module, inputs, output):
    captured.append(output)  # expect: TEN501


def keep_output_detached(module, inputs, output):
    captured_det.append(output.detach())  # ok


def make_stats_hook(name):
    def hook(module, inputs, output):
        act_stats[name] += output.abs().mean()  # expect: TEN501
        act_counts[name] += 1  # ok
    return hook


def eval_hook(module, inputs, output):
    eval_feats.append(output)  # ok


handles = [
    net[1].register_forward_hook(keep_output),
    net[3].register_forward_hook(keep_output_detached),
    net[1].register_forward_hook(make_stats_hook("relu1")),
]

opt = torch.optim.SGD(net.parameters(), lr=0.01)
for step in range(5):
    x = torch.randn(6, 2, 10)
    y = torch.randint(0, 2, (6,))
    loss = nn.functional.cross_entropy(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

for h in handles:
    h.remove()

eh = net[4].register_forward_hook(eval_hook)
net.eval()
with torch.no_grad():
    for _ in range(3):
        net(torch.randn(6, 2, 10))
eh.remove()

print(len(captured), len(captured_det), float(act_stats["relu1"].detach()), act_counts["relu1"], len(eval_feats))
