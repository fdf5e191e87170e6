"""Stochastic weight averaging done by hand, with a flawed and a sound accumulator."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def batches(n_batches, bs=32):
    g = torch.Generator().manual_seed(7)
    for _ in range(n_batches):
        x = torch.randn(bs, 4, generator=g)
        yield x, x.sum(1, keepdim=True).sin()


def train_with_swa(start_avg_after, make_avg):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 16), nn.SiLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    avg, n_avg = None, 0
    for i, (x, y) in enumerate(batches(40)):
        opt.zero_grad()
        nn.functional.mse_loss(net(x), y).backward()
        opt.step()
        if i < start_avg_after:
            continue
        if avg is None:
            avg = make_avg(net)
            n_avg = 1
        else:
            n_avg += 1
            with torch.no_grad():
                for name, p in net.named_parameters():
                    avg[name] += (p - avg[name]) / n_avg
    return net, avg, n_avg


def shallow_avg(net):
    avg = {k: v for k, v in net.state_dict().items()}  # expect: TEN402
    return avg


def cloned_avg(net):
    avg = {k: v.detach().clone() for k, v in net.named_parameters()}  # ok
    return avg


if __name__ == "__main__":
    for maker in (shallow_avg, cloned_avg):
        net, avg, n = train_with_swa(20, maker)
        drift = sum((avg[k] - p).abs().sum().item() for k, p in net.named_parameters())
        print(maker.__name__, "averaged", n, "iterates, |avg - last| =", round(drift, 5))
