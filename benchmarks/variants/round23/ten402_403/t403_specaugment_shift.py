"""Time-shift augmentation for a batch of spectrograms (B, F, T)."""
import torch

torch.manual_seed(0)


class TimeShiftAug:
    def __init__(self, shift):
        self.shift = shift

    def __call__(self, spec):
        s = self.shift
        spec[:, :, s:] = spec[:, :, :-s]  # expect: TEN403
        spec[:, :, :s] = spec.min()
        return spec


class TimeShiftAugSafe(TimeShiftAug):
    def __call__(self, spec):
        s = self.shift
        shifted = spec.new_full(spec.shape, float(spec.min()))
        shifted[:, :, s:] = spec[:, :, :-s]  # ok
        return shifted


spec = torch.randn(2, 5, 40).abs().log1p()
a = TimeShiftAug(4)(spec.clone())
b = TimeShiftAugSafe(4)(spec.clone())
print("aug sum: %.6f" % a.sum().item())
print("safe aug sum: %.6f" % b.sum().item())
print("equal:", torch.equal(a, b))
