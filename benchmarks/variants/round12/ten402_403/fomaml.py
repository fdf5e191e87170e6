import torch
import torch.nn as nn
import torch.nn.functional as F


class FOMAML:
    """First-order MAML.  The learner is adapted in place on the support set,
    its query gradient is accumulated, and the meta-parameters are put back
    before the next task."""

    def __init__(self, net: nn.Module, inner_lr=0.4, meta_lr=1e-3, inner_steps=1):
        self.net = net
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.meta_opt = torch.optim.Adam(net.parameters(), lr=meta_lr)

    def _adapt(self, xs, ys):
        for _ in range(self.inner_steps):
            loss = F.cross_entropy(self.net(xs), ys)
            grads = torch.autograd.grad(loss, list(self.net.parameters()))
            with torch.no_grad():
                for p, g in zip(self.net.parameters(), grads):
                    p.sub_(self.inner_lr * g)

    def meta_step(self, tasks):
        params = list(self.net.parameters())
        meta_grads = [torch.zeros_like(p) for p in params]
        meta_init = [p.data for p in params]  # expect: TEN402
        query_losses = []
        for xs, ys, xq, yq in tasks:
            self._adapt(xs, ys)
            qloss = F.cross_entropy(self.net(xq), yq)
            grads = torch.autograd.grad(qloss, params)
            for acc, g in zip(meta_grads, grads):
                acc.add_(g / len(tasks))
            query_losses.append(qloss.item())
            with torch.no_grad():
                for p, p0 in zip(params, meta_init):
                    p.copy_(p0)
        self.meta_opt.zero_grad()
        for p, g in zip(params, meta_grads):
            p.grad = g
        self.meta_opt.step()
        return sum(query_losses) / len(query_losses)

    @torch.no_grad()
    def finetune_and_eval(self, xs, ys, xq, yq):
        saved = [p.detach().clone() for p in self.net.parameters()]  # ok
        with torch.enable_grad():
            self._adapt(xs, ys)
        acc = (self.net(xq).argmax(-1) == yq).float().mean().item()
        for p, s in zip(self.net.parameters(), saved):
            p.copy_(s)
        return acc

    def checkpoint(self, path):
        torch.save({"net": self.net.state_dict(), "meta_opt": self.meta_opt.state_dict()}, path)  # ok


def conv_net(n_way=5):
    def block(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout),
                             nn.ReLU(), nn.MaxPool2d(2))
    return nn.Sequential(block(1, 64), block(64, 64), block(64, 64), block(64, 64),
                         nn.Flatten(), nn.Linear(64, n_way))
