"""LSTM autoencoder for sensor anomaly detection; scoring and thresholding."""
import torch
import torch.nn as nn


class LSTMAE(nn.Module):
    def __init__(self, n_feat, hidden=64):
        super().__init__()
        self.enc = nn.LSTM(n_feat, hidden, batch_first=True)
        self.dec = nn.LSTM(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_feat)

    def forward(self, x):
        _, (h, _) = self.enc(x)
        rep = h[-1][:, None].expand(-1, x.size(1), -1)
        return self.out(self.dec(rep)[0])


def train(model, windows, epochs=30, batch=128, accum=4):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    epoch_losses = []
    for epoch in range(epochs):
        perm = torch.randperm(windows.size(0))
        running = torch.zeros(())
        chunk_loss = 0.0
        for i, idx in enumerate(perm.split(batch)):
            x = windows[idx]
            loss = (model(x) - x).pow(2).mean() / accum
            loss.backward()
            chunk_loss += loss.item()  # ok
            running += loss.detach()  # ok
            if (i + 1) % accum == 0:
                opt.step()
                opt.zero_grad()
                chunk_loss = 0.0
        epoch_losses.append(running.item())  # ok
    return epoch_losses


def score(model, windows, batch=512):
    model.eval()
    errs = []
    with torch.no_grad():
        for chunk in windows.split(batch):
            err = (model(chunk) - chunk).pow(2).mean(dim=(1, 2))
            errs.append(err)  # ok
    return torch.cat(errs)


@torch.inference_mode()
def score_stream(model, stream, window=50):
    buf, scores = [], []
    for reading in stream:
        buf.append(reading)  # ok
        if len(buf) < window:
            continue
        x = torch.stack(buf[-window:])[None]
        scores.append(float((model(x) - x).pow(2).mean()))  # ok
    return scores


def pick_threshold(model, normal_windows, q=0.995):
    s = score(model, normal_windows)
    thresholds = []
    for qq in (q, 0.99, 0.98):
        thresholds.append(torch.quantile(s, qq))  # ok
    return thresholds[0], thresholds
