"""First-order MAML: adapt in place, take the query gradient, roll back."""
import torch
from torch import nn


class FOMAML:
    def __init__(self, net, inner_lr=0.05, outer_lr=0.01, inner_steps=3):
        self.net = net
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.meta_opt = torch.optim.Adam(net.parameters(), lr=outer_lr)

    def _adapt(self, xs, ys):
        for _ in range(self.inner_steps):
            loss = nn.functional.cross_entropy(self.net(xs), ys)
            grads = torch.autograd.grad(loss, list(self.net.parameters()))  # ok
            with torch.no_grad():
                for p, g in zip(self.net.parameters(), grads):
                    p.sub_(self.inner_lr * g)

    def _backup(self):
        return [p.data for p in self.net.parameters()]  # expect: TEN402

    def _restore(self, saved):
        with torch.no_grad():
            for p, s in zip(self.net.parameters(), saved):
                p.copy_(s)

    def outer_step(self, tasks):
        saved = self._backup()  # either
        meta_grads = [torch.zeros_like(p) for p in self.net.parameters()]  # ok
        for xs, ys, xq, yq in tasks:
            self._adapt(xs, ys)
            q_loss = nn.functional.cross_entropy(self.net(xq), yq)
            grads = torch.autograd.grad(q_loss, list(self.net.parameters()))
            for acc, g in zip(meta_grads, grads):
                acc.add_(g / len(tasks))
            self._restore(saved)
        self.meta_opt.zero_grad()
        for p, g in zip(self.net.parameters(), meta_grads):
            p.grad = g
        self.meta_opt.step()


class FOMAMLCloned(FOMAML):
    def _backup(self):
        return [p.detach().clone() for p in self.net.parameters()]  # ok


def make_tasks(gen, n_tasks=4, way=3, shot=5, dim=8):
    tasks = []
    for _ in range(n_tasks):
        protos = torch.randn(way, dim, generator=gen) * 2
        def draw():
            labels = torch.arange(way).repeat_interleave(shot)
            return protos[labels] + torch.randn(way * shot, dim, generator=gen), labels
        tasks.append((*draw(), *draw()))
    return tasks


def run(cls):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(7)
    net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
    learner = cls(net)
    ref = [p.detach().clone() for p in net.parameters()]  # ok
    for _ in range(5):
        learner.outer_step(make_tasks(gen))
    moved = sum((p.detach() - r).norm().item() for p, r in zip(net.parameters(), ref))
    print(f"{cls.__name__}: parameter movement after meta-training {moved:.4f}")


if __name__ == "__main__":
    run(FOMAML)
    run(FOMAMLCloned)
