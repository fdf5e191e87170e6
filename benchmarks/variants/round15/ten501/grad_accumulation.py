"""Gradient accumulation over micro-batches; logging of the accumulated loss."""
import torch
import torch.nn as nn


def train(model, optimizer, micro_batches, accum_steps=3, log_every=2):
    criterion = nn.HuberLoss()
    accum_loss = 0.0
    micro_losses = []
    logged_loss = 0.0
    window = []
    optimizer_steps = 0
    for i, (x, y) in enumerate(micro_batches):
        loss = criterion(model(x), y)
        micro_losses.append(loss)  # ok
        accum_loss = accum_loss + loss / accum_steps  # ok
        if (i + 1) % accum_steps == 0:
            accum_loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            optimizer_steps += 1  # ok
            logged_loss += accum_loss  # expect: TEN501
            window.append(torch.stack(micro_losses).detach().mean().item())  # ok
            accum_loss = 0.0
            micro_losses = []
            if optimizer_steps % log_every == 0:
                print(f"step {optimizer_steps}: loss {float(logged_loss) / log_every:.4f} window {window[-1]:.4f}")
    return window


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
    micro = [(torch.randn(4, 4), torch.randn(4, 2)) for _ in range(12)]
    train(model, opt, micro)
