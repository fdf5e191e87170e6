"""Sharpness-Aware Minimization, written like the popular davda54/sam optimizer wrapper."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, backup_clone=True, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups
        self.backup_clone = backup_clone

    @torch.no_grad()
    def first_step(self):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                if self.backup_clone:
                    self.state[p]["old_p"] = p.data.clone()  # ok
                else:
                    self.state[p]["old_p"] = p.data  # expect: TEN402
                e_w = p.grad * scale.to(p)
                p.add_(e_w)  # climb to the local maximum "w + e(w)"

    @torch.no_grad()
    def second_step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]  # get back to "w" from "w + e(w)"
        self.base_optimizer.step()

    def _grad_norm(self):
        return torch.norm(torch.stack([p.grad.norm(p=2) for g in self.param_groups
                                       for p in g["params"] if p.grad is not None]), p=2)


def train(backup_clone):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = SAM(model.parameters(), torch.optim.SGD, rho=0.5, lr=0.1, backup_clone=backup_clone)
    g = torch.Generator().manual_seed(7)
    x = torch.randn(256, 5, generator=g)
    y = (x[:, 0] * x[:, 1] > 0).long()
    for _ in range(30):
        F.cross_entropy(model(x), y).backward()
        opt.first_step()
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.second_step()
        opt.zero_grad()
    with torch.no_grad():
        loss = F.cross_entropy(model(x), y).item()
        w = torch.nn.utils.parameters_to_vector(model.parameters()).norm().item()
    print(f"backup_clone={backup_clone}: train_loss={loss:.5f} |w|={w:.5f}")


if __name__ == "__main__":
    train(backup_clone=False)
    train(backup_clone=True)
