"""Iterative magnitude pruning with weight rewinding (lottery ticket hypothesis)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LotteryTicketPruner:
    def __init__(self, model, prune_frac=0.2):
        self.model = model
        self.prune_frac = prune_frac
        # theta_0: the weights every round is rewound to
        self.init_state = {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402
        self.masks = {
            name: torch.ones_like(p) for name, p in model.named_parameters() if p.dim() > 1
        }

    def sparsity(self):
        total = sum(m.numel() for m in self.masks.values())
        zeros = sum((m == 0).sum().item() for m in self.masks.values())
        return zeros / total

    @torch.no_grad()
    def prune(self):
        trained = {k: v.detach() for k, v in self.model.state_dict().items()}  # ok
        for name, mask in self.masks.items():
            w = trained[name].abs()
            alive = w[mask.bool()]
            k = max(1, int(alive.numel() * self.prune_frac))
            threshold = alive.kthvalue(k).values
            self.masks[name] = ((w > threshold) & mask.bool()).float()

    @torch.no_grad()
    def apply_masks(self):
        for name, p in self.model.named_parameters():
            if name in self.masks:
                p.mul_(self.masks[name])

    def rewind(self):
        self.model.load_state_dict(self.init_state)
        self.apply_masks()


def train(model, pruner, x, y, steps=100, lr=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        pruner.apply_masks()
    return F.cross_entropy(model(x), y).item()


def find_ticket(rounds=3, seed=0):
    torch.manual_seed(seed)
    x = torch.randn(128, 20)
    y = (x[:, :5].sum(1) > 0).long()
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    pruner = LotteryTicketPruner(model, prune_frac=0.3)
    for r in range(rounds):
        loss = train(model, pruner, x, y)
        pruner.prune()
        pruner.rewind()
        print(f"round {r}: loss {loss:.4f} sparsity {pruner.sparsity():.2f}")
    return model, pruner


if __name__ == "__main__":
    find_ticket()
