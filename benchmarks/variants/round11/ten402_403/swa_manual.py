# Manual stochastic weight averaging over the last few epochs of a small CNN.
import torch
from torch import nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel


class SmallCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, 3, padding=1)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.head = nn.Linear(64, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.conv2(x))
        return self.head(x.mean(dim=(2, 3)))


def fake_batches(steps, bs=32):
    for _ in range(steps):
        yield torch.randn(bs, 3, 32, 32), torch.randint(0, 10, (bs,))


def average_state_dicts(states):
    avg = {}
    for key in states[0]:
        avg[key] = torch.stack([s[key].float() for s in states]).mean(0)
    return avg


def train(epochs=12, swa_start=8):
    net = SmallCNN()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    collected = []
    swa_model = AveragedModel(net)  # ok

    for epoch in range(epochs):
        for images, labels in fake_batches(50):
            opt.zero_grad(set_to_none=True)
            F.cross_entropy(net(images), labels).backward()
            opt.step()
        sched.step()
        if epoch >= swa_start:
            collected.append(net.state_dict())  # expect: TEN402
            swa_model.update_parameters(net)

    averaged = average_state_dicts(collected)
    final = SmallCNN()
    final.load_state_dict(averaged)
    return final, swa_model


if __name__ == "__main__":
    manual, reference = train()
    print(sum(p.numel() for p in manual.parameters()))
