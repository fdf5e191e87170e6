"""A toy population-based training loop (exploit the best member's best checkpoint)."""
import copy
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

X = torch.randn(20, 12)
Y = X @ torch.randn(12, 1) + 0.5 * torch.randn(20, 1)
XV = torch.randn(60, 12)
YV = XV @ torch.randn(12, 1) * 0 + XV[:, :1]


class Member:
    def __init__(self, idx, lr, keep_copy):
        torch.manual_seed(idx)
        self.idx, self.keep_copy = idx, keep_copy
        self.model = nn.Linear(12, 1)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.best_score = float("inf")
        self.best_state = None

    @property
    def lr(self):
        return self.opt.param_groups[0]["lr"]

    def train_and_eval(self, steps=6):
        for _ in range(steps):
            self.opt.zero_grad()
            nn.functional.mse_loss(self.model(X), Y).backward()
            self.opt.step()
            with torch.no_grad():
                score = nn.functional.mse_loss(self.model(XV), YV).item()
            if score < self.best_score:
                self.best_score = score
                if self.keep_copy:
                    self.best_state = copy.deepcopy(self.model.state_dict())  # ok
                else:
                    self.best_state = self.model.state_dict()  # expect: TEN402
        return self.best_score


def exploit_and_explore(population):
    ranked = sorted(population, key=lambda m: m.best_score)
    winner, loser = ranked[0], ranked[-1]
    loser.model.load_state_dict(winner.best_state)
    loser.best_state = {k: v.clone() for k, v in winner.best_state.items()}  # ok
    loser.best_score = winner.best_score
    for g in loser.opt.param_groups:
        g["lr"] = winner.lr * random.choice([0.8, 1.2])
    with torch.no_grad():
        return nn.functional.mse_loss(loser.model(XV), YV).item()


def run(keep_copy):
    random.seed(0)
    population = [Member(i, lr, keep_copy) for i, lr in enumerate([0.01, 0.05, 0.2])]
    copied_scores = []
    for _ in range(3):
        for m in population:
            m.train_and_eval()
        copied_scores.append(round(exploit_and_explore(population), 4))
    return copied_scores, [round(m.best_score, 4) for m in population]


if __name__ == "__main__":
    print("live best_state  :", run(False))
    print("copied best_state:", run(True))
