"""Binary classifier whose step function reports into module-level globals."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

_LOSS_REGISTRY = []
STEP_TIMES = []
GLOBAL_STATS = {"best": float("inf"), "steps": 0}
EPOCH_PREDICTIONS = {}


def train_step(model, opt, x, y):
    t0 = time.perf_counter()
    logits = model(x).squeeze(-1)
    loss = F.binary_cross_entropy_with_logits(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    _LOSS_REGISTRY.append(loss)  # expect: TEN501
    STEP_TIMES.append(time.perf_counter() - t0)  # ok
    GLOBAL_STATS["best"] = min(GLOBAL_STATS["best"], loss.item())  # ok
    GLOBAL_STATS["steps"] += 1
    return logits


@torch.inference_mode()
def predict(model, x):
    return torch.sigmoid(model(x).squeeze(-1))


def main():
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    x = torch.randn(200, 5)
    y = ((x[:, 0] - x[:, 2]) > 0).float()
    for epoch in range(3):
        for i in range(0, 200, 50):
            train_step(model, opt, x[i:i + 50], y[i:i + 50])
        EPOCH_PREDICTIONS[epoch] = predict(model, x)  # ok
        print(f"epoch {epoch}: best {GLOBAL_STATS['best']:.4f} after {GLOBAL_STATS['steps']} steps")
    print("mean step time %.2f ms" % (1000 * sum(STEP_TIMES) / len(STEP_TIMES)))


if __name__ == "__main__":
    main()
