# Fine-tuning with an L2-SP penalty (pull the backbone towards its pretrained values).
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Net(nn.Module):
    def __init__(self, n_out):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
        self.head = nn.Linear(32, n_out)

    def forward(self, x):
        return self.head(self.backbone(x))


class L2SP:
    def __init__(self, backbone, alpha=0.5):
        self.alpha = alpha
        self.params = list(backbone.parameters())  # either
        self.start_point = [p.data for p in self.params]  # expect: TEN402

    def __call__(self):
        return self.alpha * sum(((p - p0) ** 2).sum() for p, p0 in zip(self.params, self.start_point))


class L2SPCloned(L2SP):
    def __init__(self, backbone, alpha=0.5):
        self.alpha = alpha
        self.params = list(backbone.parameters())  # either
        self.start_point = [p.detach().clone() for p in self.params]  # ok


def pretrain_data(n=400):
    x = torch.randn(n, 8)
    return x, (x[:, :4].sum(1) > 0).long()


def target_data(n=60):
    x = torch.randn(n, 8)
    return x, torch.stack([x[:, 0] - x[:, 5], x[:, 2] * x[:, 3]], 1)


def pretrain(seed):
    torch.manual_seed(seed)
    net = Net(2)
    x, y = pretrain_data()
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    for _ in range(100):
        opt.zero_grad()
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
    return net


def finetune(net, reg_cls):
    net.head = nn.Linear(32, 2)
    reg = reg_cls(net.backbone, alpha=0.05)
    x, y = target_data()
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    for step in range(120):
        opt.zero_grad()
        (nn.functional.mse_loss(net(x), y) + reg()).backward()
        opt.step()
    return reg().item()


def main():
    for reg_cls in (L2SP, L2SPCloned):
        net = pretrain(1)
        first = net.backbone[0].weight.detach().clone()  # ok
        pen = finetune(net, reg_cls)
        drift = (net.backbone[0].weight.detach() - first).norm().item()
        print(f"{reg_cls.__name__:10s} final penalty {pen:.5f}, drift of first layer {drift:.4f}")


if __name__ == "__main__":
    main()
