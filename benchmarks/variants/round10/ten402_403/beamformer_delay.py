"""Time-domain delay-and-sum beamforming for small microphone arrays."""
import math

import torch

SPEED_OF_SOUND = 343.0


def steering_delays(mic_xyz, direction, fs):
    """Integer sample delays (>= 0) that align a far-field source from `direction` across mics."""
    direction = direction / direction.norm()
    tau = -(mic_xyz @ direction) / SPEED_OF_SOUND
    tau = tau - tau.min()
    return torch.round(tau * fs).long()


def integer_delay_(sig, delays):
    """Delay each channel of `sig` (C, T) by `delays[c]` samples, in place."""
    for c, d in enumerate(delays.tolist()):
        if d > 0:
            sig[c, d:] = sig[c, :-d]  # expect: TEN403
            sig[c, :d] = 0
    return sig


def integer_delay(sig, delays):
    out = torch.zeros_like(sig)
    for c, d in enumerate(delays.tolist()):
        if d > 0:
            out[c, d:] = sig[c, :-d]  # ok
        else:
            out[c] = sig[c]
    return out


def delay_and_sum(sig, mic_xyz, direction, fs=16000, inplace=False):
    delays = steering_delays(mic_xyz, direction, fs)
    max_d = int(delays.max())
    aligned = integer_delay_(sig, max_d - delays) if inplace else integer_delay(sig, max_d - delays)
    return aligned.mean(dim=0)


def endfire_pair_delay_(sig, spacing, fs=16000):
    """Interleaved front/rear capsule pairs (C even): delay every rear capsule by the acoustic
    travel time across the pair, turning each pair into a differential (cardioid-like) element."""
    lag = max(1, int(round(spacing / SPEED_OF_SOUND * fs)))
    sig[1::2, lag:] = sig[1::2, :-lag]  # expect: TEN403
    sig[1::2, :lag] = 0
    return sig[0::2] - sig[1::2]


def fill_dead_rear_capsules(sig, dead):
    """When rear capsules are reported dead, mirror their front partners so the pair still sums coherently."""
    if dead:
        sig[1::2] = sig[0::2]  # ok
    return sig


def array_gain(n_mics):
    return 10 * math.log10(n_mics)
