"""EMA of weights with swap-in for evaluation and swap-back afterwards."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class ModelEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = [p.detach().clone() for p in model.parameters()]  # ok
        self.backup = None

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow, model.parameters()):
            s.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)

    @torch.no_grad()
    def apply_shadow(self, model):
        self.backup = [p.data for p in model.parameters()]  # expect: TEN402
        for p, s in zip(model.parameters(), self.shadow):
            p.data.copy_(s)

    @torch.no_grad()
    def restore(self, model):
        for p, b in zip(model.parameters(), self.backup):
            p.data.copy_(b)
        self.backup = None


class SafeEMA(ModelEMA):
    @torch.no_grad()
    def apply_shadow(self, model):
        self.backup = [p.detach().clone() for p in model.parameters()]  # ok
        for p, s in zip(model.parameters(), self.shadow):
            p.copy_(s)


def train(model, ema, steps=20):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(32, 4)
    y = x.sum(1, keepdim=True)
    evals = []
    for step in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        if step % 5 == 4:
            ema.apply_shadow(model)
            with torch.no_grad():
                evals.append(nn.functional.mse_loss(model(x), y).item())
            ema.restore(model)
    with torch.no_grad():
        return evals, nn.functional.mse_loss(model(x), y).item()


if __name__ == "__main__":
    m1 = nn.Linear(4, 1)
    m2 = nn.Linear(4, 1)
    m2.load_state_dict(m1.state_dict())
    ev1, final1 = train(m1, ModelEMA(m1))
    ev2, final2 = train(m2, SafeEMA(m2))
    print("ema evals", [round(v, 6) for v in ev1], f"final {final1:.6f}")
    print("safe evals", [round(v, 6) for v in ev2], f"final {final2:.6f}")
