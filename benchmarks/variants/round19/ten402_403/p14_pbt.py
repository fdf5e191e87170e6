"""Population-based training: exploit copies weights of the best member, explore perturbs lr."""
import random
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)


class Member:
    def __init__(self, lr):
        self.model = nn.Linear(4, 1)
        self.lr = lr
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.score = None
        self.ckpt = None


X, Y = torch.randn(40, 4), torch.randn(40, 1)
pop = [Member(lr) for lr in (0.001, 0.01, 0.1, 0.3)]
for gen in range(3):
    for m in pop:
        for _ in range(5):
            m.opt.zero_grad()
            ((m.model(X) - Y) ** 2).mean().backward()
            m.opt.step()
        m.score = -((m.model(X) - Y) ** 2).mean().item()
    pop.sort(key=lambda m: m.score, reverse=True)
    best, worst = pop[0], pop[-1]
    best.ckpt = best.model.state_dict()  # expect: TEN402
    worst.ckpt = {k: v.detach().clone() for k, v in best.model.state_dict().items()}  # ok
    worst.model.load_state_dict(worst.ckpt)
    worst.lr = best.lr * random.choice((0.8, 1.2))
    for g in worst.opt.param_groups:
        g["lr"] = worst.lr
    print(f"gen {gen}: best score {best.score:.4f}")

# at the end, report how far each leader moved since it was checkpointed
for m in pop:
    if m.ckpt is not None:
        moved = sum((m.ckpt[k] - v).abs().sum().item() for k, v in m.model.state_dict().items())
        print(f"lr={m.lr:.4f} moved since ckpt: {moved:.4f}")
