"""WiSE-FT (Wortsman et al. 2022): interpolate zero-shot and fine-tuned weights,
theta_alpha = (1 - alpha) * theta_0 + alpha * theta_1, and sweep alpha on two eval sets."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def pretrain(model):
    g = torch.Generator().manual_seed(30)
    x = torch.randn(400, 10, generator=g)
    y = x[:, :4].argmax(1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(80):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    return x, y


def wise_ft(clone_zero_shot, clone_finetuned):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
    x_src, y_src = pretrain(model)
    if clone_zero_shot:
        theta_0 = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    else:
        theta_0 = model.state_dict()  # expect: TEN402
    g = torch.Generator().manual_seed(31)
    x_ft = torch.randn(200, 10, generator=g) + 0.8
    y_ft = (x_ft[:, :4] * torch.tensor([1.0, -1.0, 0.5, 2.0])).argmax(1)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for _ in range(60):
        opt.zero_grad()
        F.cross_entropy(model(x_ft), y_ft).backward()
        opt.step()
    if clone_finetuned:
        theta_1 = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
    else:
        theta_1 = model.state_dict()  # expect: TEN402
    row = []
    for alpha in (0.0, 0.5, 1.0):
        model.load_state_dict({k: (1 - alpha) * theta_0[k] + alpha * theta_1[k] for k in theta_0})
        with torch.no_grad():
            a_src = (model(x_src).argmax(1) == y_src).float().mean().item()
            a_ft = (model(x_ft).argmax(1) == y_ft).float().mean().item()
        row.append(f"a={alpha}: src={a_src:.3f} ft={a_ft:.3f}")
    print(f"clone theta_0={clone_zero_shot!s:5} theta_1={clone_finetuned!s:5}: " + " | ".join(row))


if __name__ == "__main__":
    wise_ft(False, True)
    wise_ft(True, False)
    wise_ft(True, True)
