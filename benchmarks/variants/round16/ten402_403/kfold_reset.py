# K-fold cross validation that re-uses one network and resets it between folds.
import copy
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class FoldRunner:
    def __init__(self, net, lr=0.05):
        self.net = net
        self.lr = lr
        self._initial = self.net.state_dict()  # expect: TEN402

    def make_optimizer(self):
        return torch.optim.SGD(self.net.parameters(), lr=self.lr, momentum=0.8)

    def train(self, x, y, epochs=15):
        opt = self.make_optimizer()
        for _ in range(epochs):
            for i in range(0, len(x), 20):
                opt.zero_grad()
                nn.functional.binary_cross_entropy_with_logits(self.net(x[i:i + 20]).squeeze(1), y[i:i + 20]).backward()
                opt.step()

    @torch.no_grad()
    def accuracy(self, x, y):
        return ((self.net(x).squeeze(1) > 0).float() == y).float().mean().item()


class ResettingFoldRunner(FoldRunner):
    def before_fold(self):
        self.net.load_state_dict(self._initial)


class SerializedResetRunner(FoldRunner):
    def __init__(self, net, lr=0.05):
        super().__init__(net, lr)
        self._blob = io.BytesIO()
        torch.save(self.net.state_dict(), self._blob)  # ok

    def before_fold(self):
        self._blob.seek(0)
        self.net.load_state_dict(torch.load(self._blob))


class TemplateResetRunner(FoldRunner):
    def __init__(self, net, lr=0.05):
        super().__init__(net, lr)
        self.template = copy.deepcopy(net)  # ok

    def before_fold(self):
        self.net = copy.deepcopy(self.template)  # ok


def data(n=200):
    x = torch.randn(n, 5)
    y = ((x[:, 0] * x[:, 1] + x[:, 2]) > 0).float()
    return x, y


def cross_validate(runner_cls, k=4):
    torch.manual_seed(9)
    x, y = data()
    net = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
    runner = runner_cls(net)
    folds = torch.arange(len(x)) % k
    scores, first_w = [], []
    for f in range(k):
        runner.before_fold()
        first_w.append(round(runner.net[0].weight[0, 0].item(), 4))
        tr, te = folds != f, folds == f
        runner.train(x[tr], y[tr])
        scores.append(round(runner.accuracy(x[te], y[te]), 3))
    return scores, first_w


def main():
    for cls in (ResettingFoldRunner, SerializedResetRunner, TemplateResetRunner):
        scores, w = cross_validate(cls)
        print(cls.__name__, "fold acc", scores, "w[0,0] at fold start", w)


if __name__ == "__main__":
    main()
