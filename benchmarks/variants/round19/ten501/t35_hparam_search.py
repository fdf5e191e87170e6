"""Small grid search: each trial trains a fresh model and returns its final loss."""
import itertools
import torch
import torch.nn as nn
import torch.nn.functional as F


def run_trial(lr, hidden, steps=3):
    model = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = torch.randn(16, 3), torch.randn(16, 1)
    for _ in range(steps):
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    final = F.mse_loss(model(x), y)
    return final, {"lr": lr, "hidden": hidden}


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    results, results_ok, leaderboard = [], [], {}
    best_loss, best_cfg = float("inf"), None
    for lr, hidden in itertools.product([0.01, 0.1], [4, 8]):
        final, cfg = run_trial(lr, hidden)
        results.append((cfg, final))  # expect: TEN501
        results_ok.append((cfg, final.item()))  # ok
        leaderboard[(lr, hidden)] = final  # expect: TEN501
        if final.item() < best_loss:
            best_loss, best_cfg = final.item(), cfg  # ok
    print(len(results), best_cfg, best_loss, float(min(leaderboard.values())), results_ok[0][1])


if __name__ == "__main__":
    main()
