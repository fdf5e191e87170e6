"""Speech front-end: pre-emphasis, framing, log-mel, and keep-probability masks."""
import torch
import torchaudio


def preemphasis_(wav: torch.Tensor, coeff: float = 0.97) -> torch.Tensor:
    """In-place pre-emphasis: y[t] = x[t] - coeff * x[t-1]."""
    wav[..., 1:].sub_(wav[..., :-1], alpha=coeff)  # expect: TEN403
    return wav


def preemphasis_tmp_(wav: torch.Tensor, coeff: float = 0.97) -> torch.Tensor:
    wav[..., 1:].sub_(coeff * wav[..., :-1])  # ok
    return wav


def preemphasis(wav: torch.Tensor, coeff: float = 0.97) -> torch.Tensor:
    return torch.cat([wav[..., :1], wav[..., 1:] - coeff * wav[..., :-1]], dim=-1)  # ok


def deemphasis(wav: torch.Tensor, coeff: float = 0.97) -> torch.Tensor:
    out = wav.clone()
    for t in range(1, out.shape[-1]):
        out[..., t] += coeff * out[..., t - 1]
    return out


class LogMel(torch.nn.Module):
    def __init__(self, sr=16000, n_fft=400, hop=160, n_mels=80):
        super().__init__()
        self.mel = torchaudio.transforms.MelSpectrogram(sr, n_fft=n_fft, hop_length=hop,
                                                        n_mels=n_mels)

    def forward(self, wav):
        wav = preemphasis(wav)
        return torch.log(self.mel(wav) + 1e-6)


def pairwise_keep_prob_(keep: torch.Tensor) -> torch.Tensor:
    """keep: (batch, frames) per-frame keep probabilities.

    Returns the probability that frame t AND frame t-1 are both kept.
    """
    keep[:, 1:].mul_(keep[:, :-1])  # expect: TEN403
    return keep


def pairwise_keep_prob(keep: torch.Tensor) -> torch.Tensor:
    out = keep.clone()
    out[:, 1:].mul_(keep[:, :-1])  # ok
    return out


def frame_energy_delta(energy: torch.Tensor) -> torch.Tensor:
    """First-order difference along time, zero for the first frame."""
    delta = torch.zeros_like(energy)
    delta[..., 1:] = torch.diff(energy, dim=-1)  # ok
    return delta
