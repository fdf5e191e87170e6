"""Energy-based voice activity detection on a live 16 kHz stream."""
import torch


class EnergyVAD:
    def __init__(self, frame_len=400, hop=160, threshold_db=-35.0):
        self.frame_len = frame_len
        self.hop = hop
        self.threshold_db = threshold_db
        self.buffer = torch.zeros(frame_len)
        self.window = torch.hann_window(frame_len)

    def feed(self, samples):
        """samples: 1-D tensor with exactly `hop` new samples."""
        step = samples.numel()
        self.buffer[:-step] = self.buffer[step:]  # expect: TEN403
        self.buffer[-step:] = samples
        frame = self.buffer * self.window
        energy = frame.pow(2).mean().clamp_min(1e-10)
        return 10 * torch.log10(energy).item() > self.threshold_db


class DoubleBufferVAD(EnergyVAD):
    """Variant used with hop == frame_len // 2: the buffer is two halves."""

    def feed(self, samples):
        half = self.frame_len // 2
        self.buffer[:half] = self.buffer[half:]  # ok
        self.buffer[half:] = samples
        energy = (self.buffer * self.window).pow(2).mean().clamp_min(1e-10)
        return 10 * torch.log10(energy).item() > self.threshold_db


def synth(seconds=1.0, sr=16000, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(int(seconds * sr)) / sr
    speech = 0.3 * torch.sin(2 * torch.pi * 220 * t) * (t > 0.5).float()
    return speech + 0.001 * torch.randn(t.shape, generator=g)


if __name__ == "__main__":
    audio = synth()
    dvad = DoubleBufferVAD(frame_len=320, hop=160)
    flags = [dvad.feed(audio[i:i + 160]) for i in range(0, audio.numel() - 159, 160)]
    print("double-buffer speech frames:", sum(flags), "/", len(flags))
    vad = EnergyVAD()
    flags = [vad.feed(audio[i:i + 160]) for i in range(0, audio.numel() - 159, 160)]
    print("speech frames:", sum(flags), "/", len(flags))
