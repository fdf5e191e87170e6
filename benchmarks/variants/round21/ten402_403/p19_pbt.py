"""Population Based Training (Jaderberg et al. 2017), synchronous toy version:
each member checkpoints before `explore`; if the perturbed hyper-parameters make it worse
it reverts to that checkpoint, and the bottom quartile copies the best member (exploit)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

g = torch.Generator().manual_seed(12)
X = torch.randn(256, 6, generator=g)
Y = torch.sin(X[:, :1] * 2) + X[:, 1:2] ** 2
XV = torch.randn(256, 6, generator=g)
YV = torch.sin(XV[:, :1] * 2) + XV[:, 1:2] ** 2


def make_member(i):
    torch.manual_seed(i)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
    lr = 10 ** random.Random(i).uniform(-2.0, -0.6)
    return {"id": i, "model": model, "lr": lr, "ckpt": None, "score": None}


def train_steps(m, steps=10):
    opt = torch.optim.SGD(m["model"].parameters(), lr=m["lr"])
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(m["model"](X), Y).backward()
        opt.step()


def evaluate(m):
    with torch.no_grad():
        return F.mse_loss(m["model"](XV), YV).item()


def pbt(clone_ckpt, generations=6):
    rng = random.Random(0)
    pop = [make_member(i) for i in range(4)]
    reverts = 0
    for gen in range(generations):
        for m in pop:
            train_steps(m)
            m["score"] = evaluate(m)
            if clone_ckpt:
                m["ckpt"] = {k: v.clone() for k, v in m["model"].state_dict().items()}  # ok
            else:
                m["ckpt"] = m["model"].state_dict()  # expect: TEN402
            m["ckpt_lr"] = m["lr"]
        pop.sort(key=lambda m: m["score"])
        best, worst = pop[0], pop[-1]
        worst["model"].load_state_dict(best["model"].state_dict())  # exploit (copies the values)
        worst["lr"] = best["lr"]
        for m in pop:  # explore, trial step, revert if it hurt
            m["lr"] = min(0.3, m["lr"] * rng.choice([0.5, 2.0]))
            train_steps(m, steps=5)
            if evaluate(m) > m["score"]:
                m["model"].load_state_dict(m["ckpt"])
                m["lr"] = m["ckpt_lr"]
                reverts += 1
    scores = sorted(round(evaluate(m), 4) for m in pop)
    print(f"clone_ckpt={clone_ckpt}: reverts={reverts} final val losses={scores}")


if __name__ == "__main__":
    pbt(clone_ckpt=False)
    pbt(clone_ckpt=True)
