"""Guard against divergence: keep the last finite weights and fall back to them."""
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)


def train(style):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(20, 3)
    y = x.sum(1, keepdim=True)
    last_good = None
    for step in range(12):
        if step == 8:
            for g in opt.param_groups:
                g["lr"] = 1e3  # a bad schedule blows the weights up
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        if not torch.isfinite(loss) or loss.item() > 1e6:
            if style == "list":
                with torch.no_grad():
                    for p, q in zip(model.parameters(), last_good):
                        p.copy_(q)
            else:
                vector_to_parameters(last_good, model.parameters())
            break
        if style == "list":
            last_good = [p.detach() for p in model.parameters()]  # expect: TEN402
        else:
            last_good = parameters_to_vector(model.parameters()).detach()  # ok
        loss.backward()
        opt.step()
    with torch.no_grad():
        final = nn.functional.mse_loss(model(x), y).item()
    print(f"style={style} stopped_at={step} loss_after_fallback={final:.3e}")


train("list")
train("vector")
