import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Stats:
    pass


def main():
    net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    stats, stats_ok = Stats(), Stats()
    per_sample, per_sample_ok = [], []
    newest_first, newest_first_ok = [], []
    for step in range(8):
        x = torch.randn(10, 6)
        y = x.mean(1, keepdim=True)
        loss_vec = F.mse_loss(net(x), y, reduction="none").squeeze(1)
        loss = loss_vec.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        setattr(stats, f"loss_{step}", loss)  # expect: TEN501
        setattr(stats_ok, f"loss_{step}", loss.item())  # ok
        per_sample.extend(loss_vec)  # expect: TEN501
        per_sample_ok.extend(loss_vec.tolist())  # ok
        newest_first.insert(0, loss)  # expect: TEN501
        newest_first_ok.insert(0, loss.detach())  # ok
    print("stored attrs:", len(vars(stats)), round(getattr(stats_ok, "loss_7"), 4))
    print("per-sample mean:", round(sum(per_sample_ok) / len(per_sample_ok), 4), len(per_sample))
    print("latest:", round(newest_first_ok[0].item(), 4), round(float(newest_first[-1]), 4))


if __name__ == "__main__":
    main()
