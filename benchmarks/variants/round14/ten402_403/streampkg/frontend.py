"""Log-energy filterbank over a sliding analysis window."""
import torch

from . import buffers


class StreamingFrontend:
    def __init__(self, win=8, hop=3, n_bands=4, safe=False, double_buffer=False):
        self.win, self.hop = win, hop
        self.frames = torch.zeros(win, 1)
        self.spare = torch.zeros(win, 1)
        self.safe, self.double_buffer = safe, double_buffer
        self.bands = torch.linspace(0.5, 2.0, n_bands)

    def feed(self, samples: torch.Tensor) -> torch.Tensor:
        k = samples.shape[0]
        if self.double_buffer:
            buffers.shift_left_out(self.frames, k, self.spare)
            self.frames, self.spare = self.spare, self.frames
        elif self.safe:
            buffers.shift_left_safe(self.frames, k)
        else:
            buffers.shift_left(self.frames, k)
        buffers.append_rows(self.frames, samples[:, None])
        window = self.frames[:, 0]
        energy = (window[None, :] * self.bands[:, None]).pow(2).mean(1)
        return torch.log1p(energy)

    def state_copy(self):
        return self.frames[:, 0].clone()  # ok
