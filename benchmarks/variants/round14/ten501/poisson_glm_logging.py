"""Poisson GLM-style regression with several flavours of loss logging."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def poisson_data(n=160, d=5):
    x = torch.randn(n, d) * 0.5
    rate = torch.exp(x @ torch.linspace(-0.5, 0.5, d) + 0.3)
    return x, torch.poisson(rate)


def main(epochs=2, bs=32):
    torch.manual_seed(0)
    x, y = poisson_data()
    model = nn.Sequential(nn.Linear(5, 16), nn.Softplus(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    on_cpu, as_float, cloned = [], [], []
    via_data, rebuilt, as_numpy = [], [], []
    per_sample_tensors, per_sample_values = [], []
    for epoch in range(epochs):
        for i in range(0, len(x), bs):
            log_rate = model(x[i:i + bs]).squeeze(-1)
            per_sample = F.poisson_nll_loss(log_rate, y[i:i + bs], reduction="none")
            loss = per_sample.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            on_cpu.append(loss.cpu())  # expect: TEN501
            as_float.append(loss.float())  # expect: TEN501
            cloned.append(loss.clone())  # expect: TEN501
            via_data.append(loss.data)  # ok
            rebuilt.append(torch.tensor(loss.item()))  # ok
            as_numpy.append(loss.detach().cpu().numpy())  # ok
            per_sample_tensors.extend(per_sample[:4])  # expect: TEN501
            per_sample_values.extend(per_sample[:4].tolist())  # ok
        print(f"epoch {epoch}: mean nll {np.mean(as_numpy[-5:]):.4f}")
    print(len(on_cpu), len(per_sample_tensors), round(float(np.percentile(per_sample_values, 90)), 4))


if __name__ == "__main__":
    main()
