"""Interleaved (I/Q or stereo) sample buffers manipulated with stepped slices."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def delay_interleaved(buf, d):
    """buf = [L0, R0, L1, R1, ...]; delay the left channel by d frames in place."""
    buf[2 * d::2] = buf[0:-2 * d:2]  # expect: TEN403
    buf[0:2 * d:2] = 0.0
    return buf


def delay_interleaved_safe(buf, d):
    left = buf[0::2].clone()  # ok
    buf[2 * d::2] = left[:-d]  # ok
    buf[0:2 * d:2] = 0.0
    return buf


def decimate_inplace(x):
    """Keep every other sample, packed at the front of the same buffer."""
    n = x.numel()
    x[: n // 2] = x[::2]  # either: TEN403
    return x[: n // 2]


def swap_channels(buf):
    """Swap the L and R channels."""
    left = buf[0::2].clone()
    buf[0::2] = buf[1::2]  # ok
    buf[1::2] = left
    return buf


if __name__ == "__main__":
    frames = torch.arange(1.0, 9.0)
    inter = torch.stack([frames, -frames], 1).reshape(-1)
    print("delay (in place):", delay_interleaved(inter.clone(), 2).tolist())
    print("delay (safe)    :", delay_interleaved_safe(inter.clone(), 2).tolist())
    x = torch.arange(12.0)
    print("decimate in place:", decimate_inplace(x.clone()).tolist(), " ref:", x[::2].tolist())
    print("swap channels   :", swap_channels(inter.clone())[:6].tolist())
