# unit-test style sanity check: "did every parameter get updated by one step?"
import torch
import torch.nn as nn


class TinyConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(2)
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


def check_all_params_change(model, batch, copy_first):
    if copy_first:
        before = [(n, p.clone()) for n, p in model.named_parameters()]  # ok
    else:
        before = [(n, p) for n, p in model.named_parameters()]  # expect: TEN402
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = batch
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    unchanged = [n for (n, b), p in zip(before, model.parameters()) if torch.equal(b, p)]
    return unchanged


torch.manual_seed(0)
batch = (torch.randn(8, 1, 6, 6), torch.randint(0, 3, (8,)))
for copy_first in (False, True):
    bad = check_all_params_change(TinyConvNet(), batch, copy_first)
    print("copy_first", copy_first, "unchanged params:", bad if bad else "none")
