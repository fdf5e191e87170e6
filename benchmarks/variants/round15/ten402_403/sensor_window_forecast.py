"""Online forecasting on a multi-sensor stream with a fixed-length context window."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class ContextWindow:
    def __init__(self, n_sensors, length):
        self.data = torch.zeros(n_sensors, length)
        self.time_major = self.data.t()  # (length, n_sensors) view of the same storage

    def advance(self, readings, step=1):
        self.data[:, :-step] = self.data[:, step:]  # expect: TEN403
        self.data[:, -step:] = readings  # ok

    def advance_time_major(self, readings):
        tm = self.time_major
        tm[:-1] = tm[1:]  # expect: TEN403
        tm[-1] = readings  # ok

    def snapshot(self):
        return self.data.clone()  # ok


class LinearForecaster(nn.Module):
    def __init__(self, length):
        super().__init__()
        self.fc = nn.Linear(length, 1)

    def forward(self, window):
        return self.fc(window).squeeze(-1)


if __name__ == "__main__":
    S, L = 3, 6
    win, ref = ContextWindow(S, L), []
    model = LinearForecaster(L)
    stream = torch.randn(12, S)
    preds = []
    for t, r in enumerate(stream):
        if t % 2:
            win.advance(r.unsqueeze(1))
        else:
            win.advance_time_major(r)
        ref.append(r)
        with torch.no_grad():
            preds.append(model(win.snapshot()))
    expected = torch.stack(ref[-L:], 1)
    print("window matches last L readings:", torch.equal(win.data, expected), len(preds))
