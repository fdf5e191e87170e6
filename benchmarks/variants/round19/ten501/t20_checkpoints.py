"""Keeping checkpoints / best-model snapshots in memory during training."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    checkpoints, light_ckpts = [], []
    best = {"loss": float("inf"), "state": None}
    metrics_per_epoch = {}
    for epoch in range(4):
        x, y = torch.randn(12, 4), torch.randint(0, 2, (12,))
        out = model(x)
        loss = F.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        checkpoints.append({"epoch": epoch, "loss": loss, "model": copy.deepcopy(model.state_dict())})  # expect: TEN501
        light_ckpts.append({"epoch": epoch, "loss": loss.item(), "opt": copy.deepcopy(opt.state_dict())})  # ok
        metrics_per_epoch[epoch] = {"loss": loss.detach().clone(), "out_mean": out.mean()}  # expect: TEN501
        if loss.item() < best["loss"]:
            best["loss"] = loss.item()  # ok
            best["state"] = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    print(len(checkpoints), float(checkpoints[-1]["loss"]), light_ckpts[-1]["loss"], best["loss"],
          float(metrics_per_epoch[3]["out_mean"]), sorted(best["state"]))


if __name__ == "__main__":
    main()
