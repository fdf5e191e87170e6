# Building lagged feature columns for a batch of sequences (batch, time, features).
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

ALIGN_LAG = 0  # sensors and labels are already aligned in this dataset


def build_features(raw):
    """raw: (B, T) signal -> (B, T, 4) with [value, lag1 value, aligned value, lag2 slope]."""
    b, t = raw.shape
    feats = torch.zeros(b, t, 4)
    feats[:, :, 0] = raw  # ok
    feats[:, :, 2] = raw  # ok
    feats[:, 1:, 1] = feats[:, :-1, 0]  # ok
    feats[:, ALIGN_LAG:, 2] = feats[:, :t - ALIGN_LAG, 2]  # ok
    feats[:, 2:, 3] = feats[:, 2:, 0] - feats[:, :-2, 0]  # ok
    return feats


def shift_target(y):
    """Predict the next value: target at time t becomes the value at t+1."""
    y = y.clone()
    y[:, :-1, 0] = y[:, 1:, 0]  # expect: TEN403
    return y


def delay_target(y):
    """Compare with the previous value instead: target at t is the value at t-1."""
    y = y.clone()
    y[:, 1:, 0] = y[:, :-1, 0]  # expect: TEN403
    return y


def delay_target_safe(y):
    out = y.clone()
    out[:, 1:, 0] = y[:, :-1, 0]  # ok
    return out


def main():
    raw = torch.cumsum(torch.randn(3, 12), dim=1)
    feats = build_features(raw)
    print("lag-1 column correct:", torch.equal(feats[:, 1:, 1], raw[:, :-1]))
    print("aligned column untouched:", torch.equal(feats[:, :, 2], raw))
    y = raw.unsqueeze(-1)
    print("shift_target ok:", torch.equal(shift_target(y)[:, :-1, 0], raw[:, 1:]))
    print("delay_target ok:", torch.equal(delay_target(y)[:, 1:, 0], raw[:, :-1]))
    print("delay_target_safe ok:", torch.equal(delay_target_safe(y)[:, 1:, 0], raw[:, :-1]))


if __name__ == "__main__":
    main()
