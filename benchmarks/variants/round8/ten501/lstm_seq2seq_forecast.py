"""Encoder-decoder LSTM for multi-step load forecasting (electricity dataset)."""
import argparse
import random

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class WindowDataset(Dataset):
    def __init__(self, series, lookback, horizon):
        self.x = torch.as_tensor(series, dtype=torch.float32)
        self.lookback = lookback
        self.horizon = horizon

    def __len__(self):
        return len(self.x) - self.lookback - self.horizon + 1

    def __getitem__(self, i):
        src = self.x[i:i + self.lookback]
        tgt = self.x[i + self.lookback:i + self.lookback + self.horizon, :1]
        return src, tgt


class Seq2SeqLSTM(nn.Module):
    def __init__(self, n_features, hidden=128, layers=2):
        super().__init__()
        self.encoder = nn.LSTM(n_features, hidden, layers, batch_first=True, dropout=0.1)
        self.decoder = nn.LSTM(1, hidden, layers, batch_first=True, dropout=0.1)
        self.proj = nn.Linear(hidden, 1)

    def encode(self, src):
        _, state = self.encoder(src)
        return state

    def decode_step(self, y_prev, state):
        out, state = self.decoder(y_prev, state)
        return self.proj(out), state


def run_decoder(model, src, horizon, tgt=None, tf_ratio=0.0):
    state = model.encode(src)
    dec_in = src[:, -1:, :1]
    outputs = []
    for t in range(horizon):
        out, state = model.decode_step(dec_in, state)
        outputs.append(out)  # ok
        use_tf = tgt is not None and random.random() < tf_ratio
        dec_in = tgt[:, t:t + 1] if use_tf else out
    return torch.cat(outputs, dim=1)


def train_epoch(model, loader, optimizer, horizon, tf_ratio, device):
    model.train()
    horizon_profile = [0.0] * horizon
    total, n_batches = 0.0, 0
    for src, tgt in loader:
        src, tgt = src.to(device), tgt.to(device)
        preds = run_decoder(model, src, horizon, tgt, tf_ratio)
        per_horizon = F.mse_loss(preds, tgt, reduction="none").mean(dim=(0, 2))
        loss = per_horizon.mean()

        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

        for step_idx, step_loss in enumerate(per_horizon):
            horizon_profile[step_idx] += step_loss  # expect: TEN501
        total += loss.item()  # ok
        n_batches += 1
    return total / n_batches, [float(v) / n_batches for v in horizon_profile]


@torch.no_grad()
def evaluate(model, loader, horizon, scale, device):
    model.eval()
    mae_sum = torch.zeros(horizon, device=device)
    count = 0
    for src, tgt in loader:
        src, tgt = src.to(device), tgt.to(device)
        preds = run_decoder(model, src, horizon)
        mae_sum += (preds - tgt).abs().sum(dim=(0, 2)) * scale  # ok
        count += src.size(0)
    return (mae_sum / count).cpu().numpy()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", default="data/electricity_hourly.csv")
    parser.add_argument("--lookback", type=int, default=168)
    parser.add_argument("--horizon", type=int, default=24)
    parser.add_argument("--epochs", type=int, default=50)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    df = pd.read_csv(args.csv, parse_dates=["timestamp"]).set_index("timestamp")
    df["hour_sin"] = np.sin(2 * np.pi * df.index.hour / 24)
    df["hour_cos"] = np.cos(2 * np.pi * df.index.hour / 24)
    values = df[["load", "temperature", "hour_sin", "hour_cos"]].values
    split = int(0.8 * len(values))
    mean, std = values[:split].mean(0), values[:split].std(0) + 1e-6
    values = (values - mean) / std

    train_dl = DataLoader(WindowDataset(values[:split], args.lookback, args.horizon), batch_size=64, shuffle=True)
    val_dl = DataLoader(WindowDataset(values[split:], args.lookback, args.horizon), batch_size=256)

    model = Seq2SeqLSTM(values.shape[1]).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        tf_ratio = max(0.0, 1.0 - epoch / (0.6 * args.epochs))
        loss, profile = train_epoch(model, train_dl, optimizer, args.horizon, tf_ratio, device)
        mae = evaluate(model, val_dl, args.horizon, float(std[0]), device)
        print(f"epoch {epoch} tf={tf_ratio:.2f} train_mse={loss:.4f} "
              f"h1={profile[0]:.4f} h{args.horizon}={profile[-1]:.4f} val_mae={mae.mean():.2f}")
    torch.save(model.state_dict(), "seq2seq_lstm.pt")


if __name__ == "__main__":
    main()
