"""Back the weights up to host memory, try fake quantization, then restore."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def fake_quantize_(model, bits):
    levels = 2 ** (bits - 1) - 1
    with torch.no_grad():
        for p in model.parameters():
            scale = p.abs().max() / levels
            p.copy_(torch.round(p / scale) * scale)


def accuracy(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def experiment(bits_list, backup_kind):
    torch.manual_seed(2)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    x = torch.randn(300, 10)
    y = torch.bucketize(x[:, 0] + x[:, 1], torch.tensor([-0.5, 0.5]))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(60):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    if backup_kind == "cpu":
        host = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
    elif backup_kind == "to_copy":
        host = {k: v.to("cpu", copy=True) for k, v in model.state_dict().items()}  # ok
    else:
        host = {k: v.cpu().clone() for k, v in model.state_dict().items()}  # ok
    report = {"fp32": accuracy(model, x, y)}
    for bits in bits_list:
        fake_quantize_(model, bits)
        report[f"int{bits}"] = accuracy(model, x, y)
        model.load_state_dict(host)
    report["restored"] = accuracy(model, x, y)
    return report


if __name__ == "__main__":
    for kind in ("cpu", "to_copy", "clone"):
        print(kind, experiment([2, 3, 8], kind))
