"""'Offload the best weights to CPU' - which is a no-op when training on CPU."""
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def to_cpu(state_dict, device="cpu"):
    return {k: v.to(device) for k, v in state_dict.items()}  # either


def to_cpu_copy(state_dict):
    return {k: v.detach().to("cpu", copy=True) for k, v in state_dict.items()}  # ok


def serialize_roundtrip(state_dict):
    buf = io.BytesIO()
    torch.save(state_dict, buf)
    buf.seek(0)
    return torch.load(buf)  # ok


class BestKeeper:
    def __init__(self, strategy):
        self.strategy = strategy
        self.best = None
        self.score = float("inf")

    def update(self, model, score):
        if score >= self.score:
            return
        self.score = score
        sd = model.state_dict()
        if self.strategy == "cpu":
            self.best = {k: v.cpu() for k, v in sd.items()}  # expect: TEN402
        elif self.strategy == "helper":
            self.best = to_cpu(sd)  # expect: TEN402
        elif self.strategy == "copy":
            self.best = to_cpu_copy(sd)  # ok
        elif self.strategy == "detach-cpu-clone":
            self.best = {k: v.detach().cpu().clone() for k, v in sd.items()}  # ok
        else:
            self.best = serialize_roundtrip(sd)  # ok


def run(strategy):
    torch.manual_seed(0)
    model = nn.Linear(12, 1).to(DEVICE)
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    x = torch.randn(10, 12, device=DEVICE)
    y = torch.randn(10, 1, device=DEVICE)
    xv = torch.randn(50, 12, device=DEVICE)
    yv = torch.randn(50, 1, device=DEVICE)
    keeper = BestKeeper(strategy)
    for _ in range(20):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        with torch.no_grad():
            keeper.update(model, nn.functional.mse_loss(model(xv), yv).item())
    model.load_state_dict(keeper.best)
    with torch.no_grad():
        return round(keeper.score, 4), round(nn.functional.mse_loss(model(xv), yv).item(), 4)


if __name__ == "__main__":
    for s in ("cpu", "helper", "copy", "detach-cpu-clone", "roundtrip"):
        print(f"{s:17s}", run(s))
