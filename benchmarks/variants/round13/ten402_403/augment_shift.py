"""Translation-style augmentations for images, waveforms and feature sequences."""
import random

import torch


def translate_down(img, dy):
    """Shift a (B, C, H, W) batch down by dy rows, zero-filling the top, in place."""
    if dy <= 0:
        return img
    img[:, :, dy:, :] = img[:, :, :-dy, :]  # expect: TEN403
    img[:, :, :dy, :] = 0  # ok
    return img


def translate(img, dy, dx):
    """Out-of-place translation with zero fill."""
    out = torch.zeros_like(img)
    h, w = img.shape[-2:]
    ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
    xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
    out[..., yd, xd] = img[..., ys, xs]  # ok
    return out


def random_roll(img, max_shift=2):
    dy, dx = random.randint(-max_shift, max_shift), random.randint(-max_shift, max_shift)
    return torch.roll(img, shifts=(dy, dx), dims=(-2, -1))  # ok


def time_shift_(wave, max_shift):
    """Delay a (B, C, T) waveform batch by a random number of samples, in place."""
    s = random.randint(1, max_shift)
    wave[..., s:] = wave[..., :-s]  # expect: TEN403
    wave[..., :s] = 0.0
    return wave


def time_shift(wave, max_shift):
    s = random.randint(1, max_shift)
    pad = wave.new_zeros(*wave.shape[:-1], s)
    return torch.cat((pad, wave[..., :-s]), dim=-1)  # ok


def repeat_previous_frame_(feats, p=0.2):
    """Frame-repeat jitter on (B, T, F): a random subset of batch items lags one step."""
    lag = torch.rand(feats.shape[0]) < p
    if not lag.any():
        return feats
    for b in lag.nonzero().flatten().tolist():
        prev = feats[b, :-1]
        feats[b, 1:] = prev  # expect: TEN403
    return feats


def repeat_previous_frame(feats, p=0.2):
    lag = torch.rand(feats.shape[0]) < p
    lagged = torch.cat((feats[:, :1], feats[:, :-1]), dim=1)  # ok
    return torch.where(lag.view(-1, 1, 1), lagged, feats)


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    imgs = torch.arange(2 * 1 * 5 * 5, dtype=torch.float32).view(2, 1, 5, 5)
    print(torch.equal(translate_down(imgs.clone(), 2), translate(imgs, 2, 0)))
    print(random_roll(imgs).shape)
    wave = torch.randn(2, 1, 50)
    print(time_shift_(wave.clone(), 5).shape, time_shift(wave, 5).shape)
    feats = torch.randn(4, 6, 3)
    print(repeat_previous_frame(feats, p=1.0)[0, 1:].equal(feats[0, :-1]))
    print(repeat_previous_frame_(feats.clone(), p=1.0)[0, 1:].equal(feats[0, :-1]))
