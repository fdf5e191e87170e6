"""Training written as a generator of per-step logs consumed by a driver."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def train_steps(model, opt, n):
    for step in range(n):
        x, y = torch.randn(8, 4), torch.randn(8, 1)
        pred = model(x)
        loss = F.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield {"step": step, "loss": loss, "pred_std": pred.std()}


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    logs, logs_ok, losses = [], [], []
    for out in train_steps(model, opt, 5):
        logs.append(out)  # expect: TEN501
        logs_ok.append({k: (v.item() if torch.is_tensor(v) else v) for k, v in out.items()})  # ok
        losses.append(out["loss"].detach())  # ok
    std_hist = [float(d["pred_std"]) for d in logs]  # ok
    print(len(logs), logs_ok[-1], float(sum(losses)), sum(std_hist))


if __name__ == "__main__":
    main()
