import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(10, 20), nn.GELU(), nn.Linear(20, 2))
opt = torch.optim.AdamW(net.parameters(), lr=1e-2, weight_decay=0.01)
decay = 0.9

# shadow weights for evaluation
ema = {n: p.detach() for n, p in net.named_parameters()}  # expect: TEN402
# a second shadow with a slower decay, kept for comparison
ema_slow = {n: p.detach().clone() for n, p in net.named_parameters()}  # ok

x = torch.randn(128, 10)
y = (x[:, :3].sum(1) > 0).long()

for step in range(60):
    idx = torch.randint(0, 128, (16,))
    loss = F.cross_entropy(net(x[idx]), y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for n, p in net.named_parameters():
            ema[n].mul_(decay).add_(p.detach(), alpha=1 - decay)
            ema_slow[n].mul_(0.99).add_(p.detach(), alpha=0.01)


def evaluate(params):
    out = torch.func.functional_call(net, params, (x,))
    return F.cross_entropy(out, y).item()


with torch.no_grad():
    print(f"live  loss {F.cross_entropy(net(x), y).item():.6f}")
    print(f"ema   loss {evaluate(ema):.6f}")
    print(f"slow  loss {evaluate(ema_slow):.6f}")
