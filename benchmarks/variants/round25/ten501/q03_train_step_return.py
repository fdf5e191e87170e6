import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_data(n=128):
    x = torch.randn(n, 5)
    w = torch.tensor([1.0, -2.0, 0.5, 0.0, 3.0])
    return x, x @ w + 0.1 * torch.randn(n)


def train_step(model, optimizer, xb, yb):
    pred = model(xb).squeeze(-1)
    loss = F.smooth_l1_loss(pred, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss


def train_step_scalar(model, optimizer, xb, yb):
    return train_step(model, optimizer, xb, yb).item()


def fit(epochs=3):
    x, y = make_data()
    model = nn.Linear(5, 1)
    model_b = nn.Linear(5, 1)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    optimizer_b = torch.optim.Adam(model_b.parameters(), lr=0.05)
    per_epoch = []
    per_epoch_b = []
    step_losses = []
    for epoch in range(epochs):
        running = 0.0
        running_b = 0.0
        for i in range(0, len(x), 32):
            last = train_step(model, optimizer, x[i:i + 32], y[i:i + 32])
            running += last  # expect: TEN501
            step_losses.append(last)  # expect: TEN501
            running_b += train_step_scalar(model_b, optimizer_b, x[i:i + 32], y[i:i + 32])  # ok
        per_epoch.append(running / 4)  # expect: TEN501
        per_epoch_b.append(running_b / 4)  # ok
        print(f"epoch {epoch}: {float(per_epoch[-1]):.4f} {per_epoch_b[-1]:.4f}")
    return per_epoch_b


if __name__ == "__main__":
    fit()
