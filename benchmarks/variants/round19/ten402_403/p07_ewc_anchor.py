"""EWC / L2-SP: penalise drift away from the weights learned on task A."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class EWC:
    def __init__(self, model, data, lam=10.0):
        self.lam = lam
        self.anchor = {n: p.data for n, p in model.named_parameters()}  # expect: TEN402
        self.anchor_ok = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        self.fisher = {n: torch.zeros_like(p) for n, p in model.named_parameters()}  # ok
        for x in data:
            model.zero_grad()
            model(x[None]).pow(2).sum().backward()
            for n, p in model.named_parameters():
                self.fisher[n] += p.grad.detach() ** 2 / len(data)

    def penalty(self, model, naive=True):
        ref = self.anchor if naive else self.anchor_ok
        return self.lam * sum((self.fisher[n] * (p - ref[n]) ** 2).sum() for n, p in model.named_parameters())


model = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
task_a = torch.randn(10, 3)
ewc = EWC(model, task_a)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xb, yb = torch.randn(20, 3), torch.randn(20, 1)
for _ in range(8):
    opt.zero_grad()
    loss = ((model(xb) - yb) ** 2).mean() + ewc.penalty(model, naive=False)
    loss.backward()
    opt.step()
print("naive penalty:", ewc.penalty(model, naive=True).item(), "real penalty:", round(ewc.penalty(model, naive=False).item(), 5))
