"""Batch audio effects implemented with in-place slice arithmetic."""
import torch

torch.manual_seed(0)


def preemphasis(y, coef=0.97):
    y[..., 1:] = y[..., 1:] - coef * y[..., :-1]  # ok
    return y


def feedforward_comb(y, d, g=0.5):
    y[..., d:] += g * y[..., :-d]  # ok
    return y


def integer_delay(sig, d):
    sig[..., d:] = sig[..., :-d]  # expect: TEN403
    sig[..., :d] = 0
    return sig


def integer_delay_cat(sig, d):
    return torch.cat([sig.new_zeros(sig.shape[:-1] + (d,)), sig[..., :-d]], -1)


def echo(sig, d, g=0.4):
    delayed = sig.clone()
    delayed[..., d:] = sig[..., :-d]  # ok
    delayed[..., :d] = 0
    return sig + g * delayed


if __name__ == "__main__":
    audio = torch.randn(2, 2, 40)
    print(f"preemph {preemphasis(audio.clone()).pow(2).mean().item():.6f}")
    print(f"comb {feedforward_comb(audio.clone(), 3).pow(2).mean().item():.6f}")
    a = integer_delay(audio.clone(), 5)
    b = integer_delay_cat(audio.clone(), 5)
    print(f"delay {a.pow(2).mean().item():.6f} delay_cat {b.pow(2).mean().item():.6f}")
    print(f"echo {echo(audio.clone(), 7).pow(2).mean().item():.6f}")
