"""A training loop with the bugs that cost the most: a "best weights" snapshot that keeps
following training (TEN402), a running loss that keeps every step's graph (TEN501), and a
shift written over its own source (TEN403)."""
import torch
from torch import nn


def fit(model: nn.Module, batches, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    best_loss, best_state = float("inf"), None
    for epoch in range(epochs):
        total = 0.0
        for x, y in batches:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            total += loss
        if total < best_loss:
            best_loss = total
            best_state = model.state_dict()
    model.load_state_dict(best_state)
    return best_loss


def shift_right(x: torch.Tensor) -> torch.Tensor:
    x[:, 1:] = x[:, :-1]
    return x
