"""Character-level CTC acoustic model training (ESPnet / deepspeech.pytorch flavour)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = ["_", " ", "a", "b", "c", "d", "e"]  # index 0 is the CTC blank


class Conv2dSubsampling(nn.Module):
    def __init__(self, idim, odim):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, odim, 3, stride=2, padding=1), nn.ReLU())
        self.out = nn.Linear(odim * ((idim + 1) // 2), odim)

    def forward(self, x, lengths):
        x = self.conv(x.unsqueeze(1))
        b, c, t, f = x.size()
        x = self.out(x.transpose(1, 2).reshape(b, t, c * f))
        return x, (lengths + 1) // 2


class CTCModel(nn.Module):
    def __init__(self, n_mels=16, hidden=32, n_tokens=len(VOCAB)):
        super().__init__()
        self.subsample = Conv2dSubsampling(n_mels, hidden)
        self.rnn = nn.LSTM(hidden, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, n_tokens)

    def forward(self, feats, feat_lens):
        x, out_lens = self.subsample(feats, feat_lens)
        packed = nn.utils.rnn.pack_padded_sequence(x, out_lens, batch_first=True, enforce_sorted=False)
        y, _ = self.rnn(packed)
        y, _ = nn.utils.rnn.pad_packed_sequence(y, batch_first=True, total_length=x.size(1))
        return F.log_softmax(self.proj(y), dim=-1), out_lens


def greedy_decode(log_probs, lengths):
    hyps = []
    best = log_probs.argmax(-1)
    for seq, n in zip(best.tolist(), lengths.tolist()):
        out, prev = [], 0
        for tok in seq[:n]:
            if tok != prev and tok != 0:
                out.append(VOCAB[tok])
            prev = tok
        hyps.append("".join(out))
    return hyps


def synthetic_batches(n_batches=5, bs=4, max_t=40, n_mels=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n_batches):
        feat_lens = torch.randint(max_t // 2, max_t + 1, (bs,), generator=g)
        feats = torch.randn(bs, max_t, n_mels, generator=g)
        target_lens = torch.randint(2, 6, (bs,), generator=g)
        targets = torch.randint(1, len(VOCAB), (int(target_lens.sum()),), generator=g)
        yield feats, feat_lens, targets, target_lens


def train_epoch(model, ctc, optimizer, epoch):
    model.train()
    total_loss, total_utts = 0.0, 0
    total_frames = 0
    hyps = []
    for step, (feats, feat_lens, targets, target_lens) in enumerate(synthetic_batches(seed=epoch)):
        log_probs, out_lens = model(feats, feat_lens)
        loss = ctc(log_probs.transpose(0, 1), targets, out_lens, target_lens)
        optimizer.zero_grad()
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        if torch.isfinite(grad_norm):
            optimizer.step()
        total_loss += loss * feats.size(0)  # expect: TEN501
        total_utts += feats.size(0)
        total_frames += out_lens.sum()  # ok
        hyps.extend(greedy_decode(log_probs, out_lens))  # ok
    return total_loss / total_utts, int(total_frames), hyps


def main():
    torch.manual_seed(0)
    model = CTCModel()
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        avg, frames, hyps = train_epoch(model, ctc, optimizer, epoch)
        print(f"epoch {epoch}: ctc {avg.item():.3f} frames {frames} sample hyp {hyps[0]!r}")


if __name__ == "__main__":
    main()
