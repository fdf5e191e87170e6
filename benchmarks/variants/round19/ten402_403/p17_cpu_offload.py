"""Offload a 'previous' copy of the weights to host memory to compute update ratios."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Linear(8, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(32, 8, device=device)
y = torch.randint(0, 2, (32,), device=device)


def offload(sd):
    return {k: (v.detach().cpu() if v.is_cuda else v.detach().clone()) for k, v in sd.items()}


for step in range(5):
    prev = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
    prev_host = offload(model.state_dict())  # ok
    prev_half = {k: v.to(torch.float16) for k, v in model.state_dict().items()}  # ok
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()
    cur = model.state_dict()  # ok
    ratio = max(((cur[k].cpu() - prev[k]).norm() / prev[k].norm()).item() for k in cur)
    ratio_ok = max(((cur[k].cpu() - prev_host[k]).norm() / prev_host[k].norm()).item() for k in cur)
    ratio_half = max(((cur[k].cpu().half() - prev_half[k]).float().norm()).item() for k in cur)
    print(f"step {step}: update ratio naive={ratio:.5f} offloaded={ratio_ok:.5f} half={ratio_half:.4f}")
