"""Evaluate with EMA weights, then swap the raw weights back for further training."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class EMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            self.shadow[k].mul_(self.decay).add_(v, alpha=1 - self.decay)


def evaluate_with_ema(model, ema, x, y):
    backup = model.state_dict()  # expect: TEN402
    model.load_state_dict(ema.shadow)
    with torch.no_grad():
        loss = ((model(x) - y) ** 2).mean().item()
    model.load_state_dict(backup)
    return loss


def evaluate_with_ema_safe(model, ema, x, y):
    backup = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    model.load_state_dict(ema.shadow)
    with torch.no_grad():
        loss = ((model(x) - y) ** 2).mean().item()
    model.load_state_dict(backup)
    return loss


def run(evaluator):
    torch.manual_seed(3)
    model = nn.Linear(5, 1)
    ema = EMA(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(30, 5), torch.randn(30, 1)
    for step in range(6):
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        if step % 2 == 1:
            evaluator(model, ema, x, y)
    return model.weight.sum().item()


print("raw weights after training (swap): %.6f" % run(evaluate_with_ema))
print("raw weights after training (safe swap): %.6f" % run(evaluate_with_ema_safe))
