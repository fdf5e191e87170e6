"""Frame-by-frame wrapper that runs a spectral-mask enhancer on a live audio stream."""
import torch
import torch.nn as nn


class StreamingEnhancer(nn.Module):
    """Consumes `hop` new samples per call and emits `hop` enhanced samples.

    Uses a sqrt-Hann analysis/synthesis window pair with 75% overlap, so the
    algorithmic latency is one frame (n_fft samples).
    """

    def __init__(self, mask_net: nn.Module, n_fft: int = 512, hop: int = 128):
        super().__init__()
        assert n_fft % hop == 0
        self.mask_net = mask_net
        self.n_fft = n_fft
        self.hop = hop
        self.register_buffer("window", torch.hann_window(n_fft).sqrt(), persistent=False)
        self.register_buffer("in_buf", torch.zeros(1, n_fft), persistent=False)
        self.register_buffer("out_buf", torch.zeros(1, n_fft), persistent=False)

    def reset(self):
        self.in_buf.zero_()
        self.out_buf.zero_()

    @torch.no_grad()
    def forward(self, chunk: torch.Tensor) -> torch.Tensor:
        # chunk: (1, hop)
        hop = self.hop
        self.in_buf[:, :-hop] = self.in_buf[:, hop:]  # expect: TEN403
        self.in_buf[:, -hop:] = chunk

        spec = torch.fft.rfft(self.in_buf * self.window)
        mask = self.mask_net(spec.abs().unsqueeze(1)).squeeze(1)
        frame = torch.fft.irfft(spec * mask, n=self.n_fft) * self.window

        self.out_buf += frame
        out = self.out_buf[:, :hop].clone()
        self.out_buf = torch.cat([self.out_buf[:, hop:], torch.zeros_like(self.out_buf[:, :hop])], dim=1)  # ok
        return out

    @torch.no_grad()
    def process_file(self, wav: torch.Tensor) -> torch.Tensor:
        self.reset()
        pieces = []
        n = wav.shape[-1] - wav.shape[-1] % self.hop
        for start in range(0, n, self.hop):
            pieces.append(self(wav[:, start:start + self.hop]))
        return torch.cat(pieces, dim=-1)
