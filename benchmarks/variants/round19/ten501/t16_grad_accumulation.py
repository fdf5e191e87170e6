"""Gradient accumulation over micro-batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    accum_steps = 3
    step_losses, step_losses_f, all_micro = [], [], []
    for step in range(4):
        opt.zero_grad()
        accum_loss = 0.0
        micro_losses = []
        for micro in range(accum_steps):
            x, y = torch.randn(4, 4), torch.randn(4, 1)
            loss = F.mse_loss(model(x), y) / accum_steps
            loss.backward()
            accum_loss += loss  # ok
            micro_losses.append(loss)  # ok
            all_micro.append(loss)  # expect: TEN501
        opt.step()
        step_losses.append(accum_loss)  # expect: TEN501
        step_losses_f.append(float(accum_loss))  # ok
        worst = max(micro_losses, key=lambda t: t.item())
    print(len(step_losses), float(sum(step_losses)), sum(step_losses_f), len(all_micro), float(worst))


if __name__ == "__main__":
    main()
