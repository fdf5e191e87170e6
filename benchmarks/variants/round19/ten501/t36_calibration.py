"""Temperature scaling calibration fitted with LBFGS closures."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TemperatureScaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.temperature = nn.Parameter(torch.ones(1) * 1.5)
        self.temps_seen = []
        self.temp_values = []

    def forward(self, logits):
        t = self.temperature.clamp(min=0.05)
        self.temps_seen.append(t)  # expect: TEN501
        self.temp_values.append(t.item())  # ok
        return logits / t


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    logits = torch.randn(32, 4) * 3
    labels = torch.randint(0, 4, (32,))
    scaler = TemperatureScaler()
    opt = torch.optim.LBFGS([scaler.temperature], lr=0.01, max_iter=5)
    nll_hist, nll_vals = [], []

    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(scaler(logits), labels)
        loss.backward()
        nll_hist.append(loss)  # expect: TEN501
        nll_vals.append(loss.item())  # ok
        return loss

    for it in range(3):
        opt.step(closure)
    with torch.no_grad():
        cal = F.softmax(scaler(logits), -1)
    print(len(nll_hist), nll_vals[-1], float(scaler.temperature), float(cal.max(-1).values.mean()), len(scaler.temps_seen))


if __name__ == "__main__":
    main()
