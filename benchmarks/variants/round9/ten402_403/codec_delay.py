"""Codebook interleaving for multi-stream audio-token language models (MusicGen-style).

Codes are (B, K, T): K residual codebooks over T frames.
"""
import torch


def apply_delay_pattern_(codes, pad_id):
    """Delay codebook k by k frames, in place. The last K-1 frames of the higher codebooks are dropped."""
    B, K, T = codes.shape
    for k in range(1, K):
        codes[:, k, k:] = codes[:, k, :-k]  # expect: TEN403
        codes[:, k, :k] = pad_id
    return codes


def apply_delay_pattern(codes, pad_id):
    """Out-of-place version that grows the time axis by K-1 so nothing is dropped."""
    B, K, T = codes.shape
    out = codes.new_full((B, K, T + K - 1), pad_id)
    for k in range(K):
        out[:, k, k:k + T] = codes[:, k]  # ok
    return out


def revert_delay_pattern(delayed, num_codebooks):
    T = delayed.shape[-1] - (num_codebooks - 1)
    return torch.stack([delayed[:, k, k:k + T] for k in range(num_codebooks)], dim=1)


def offset_right_channel_(codes, pad_id, offset=1):
    """Stereo codes interleave the channels per codebook: [L0, R0, L1, R1, ...] on dim 1.
    Delay every right-channel codebook by ``offset`` frames."""
    if offset <= 0:
        return codes
    codes[:, 1::2, offset:] = codes[:, 1::2, :-offset]  # expect: TEN403
    codes[:, 1::2, :offset] = pad_id
    return codes


def mono_to_stereo_(codes):
    """Fill the right-channel codebooks (odd rows) from the left-channel ones (even rows)."""
    codes[:, 1::2] = codes[:, 0::2]  # ok
    return codes


def copy_coarse_to_fine_(codes, n_coarse):
    """Initialise the fine codebooks [n_coarse, 2*n_coarse) from the coarse ones [0, n_coarse)."""
    codes[:, n_coarse:2 * n_coarse] = codes[:, 0:n_coarse]  # ok
    return codes
