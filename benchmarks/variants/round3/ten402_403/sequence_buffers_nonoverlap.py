"""Buffer manipulations for a chunked speech recognizer: all writes use disjoint regions or separate tensors."""
import torch
import torch.nn.functional as F


class ChunkContext:
    """Keeps left context for chunked encoding using two ping-pong buffers."""

    def __init__(self, batch, n_mels=80, left=64, chunk=32, device="cpu"):
        self.left = left
        self.chunk = chunk
        self.cur = torch.zeros(batch, n_mels, left + chunk, device=device)
        self.nxt = torch.zeros_like(self.cur)

    def feed(self, feats):
        """feats: (B, n_mels, chunk). Returns (B, n_mels, left + chunk) input window."""
        self.cur[:, :, self.left:] = feats
        window = self.cur
        # next window's left context = last `left` frames of this one, written into the *other* buffer
        self.nxt[:, :, :self.left] = self.cur[:, :, -self.left:]
        self.cur, self.nxt = self.nxt, self.cur
        return window.clone()


def swap_halves_(x):
    """Swap first and second half of the channel axis in place (uses a temporary)."""
    c = x.size(1) // 2
    tmp = x[:, :c].clone()
    x[:, :c] = x[:, c:2 * c]
    x[:, c:2 * c] = tmp
    return x


def interleave_stereo(x):
    """(B, 4, T) -> duplicate channels 2..3 into 0..1: regions [0,2) and [2,4) are disjoint."""
    x[:, :2] = x[:, 2:4]
    return x


def delta_features(feats, width=2):
    """Regression deltas, built with torch.cat padding instead of in-place shifting."""
    padded = torch.cat([feats[..., :1].expand(-1, -1, width), feats, feats[..., -1:].expand(-1, -1, width)], -1)
    num = sum(n * (padded[..., width + n:padded.size(-1) - width + n] - padded[..., width - n:padded.size(-1) - width - n])
              for n in range(1, width + 1))
    return num / (2 * sum(n * n for n in range(1, width + 1)))


def shift_labels(labels, pad_id=-100):
    """Targets for next-token prediction: new tensor, source untouched."""
    shifted = torch.full_like(labels, pad_id)
    shifted[:, :-1] = labels[:, 1:]
    return shifted


def splice(feats, context=3):
    """Frame splicing via unfold (no in-place writes)."""
    padded = F.pad(feats, (context, context), mode="replicate")
    return padded.unfold(-1, 2 * context + 1, 1).permute(0, 1, 3, 2).flatten(1, 2)


if __name__ == "__main__":
    B, M, T = 2, 80, 320
    x = torch.randn(B, M, T)
    ctx = ChunkContext(B)
    for t0 in range(0, T, 32):
        w = ctx.feed(x[:, :, t0:t0 + 32])
    print(w.shape, delta_features(x).shape, splice(x).shape)
    print(swap_halves_(torch.randn(2, 8, 10)).shape, interleave_stereo(torch.randn(2, 4, 10)).shape)
    print(shift_labels(torch.randint(0, 100, (2, 12)))[0])
