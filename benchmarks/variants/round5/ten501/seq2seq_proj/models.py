"""GRU encoder-decoder for the toy sequence-reversal task, plus its loss function."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS = 0, 1


class Seq2Seq(nn.Module):
    def __init__(self, vocab=20, d=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD)
        self.encoder = nn.GRU(d, d, batch_first=True)
        self.decoder = nn.GRU(d, d, batch_first=True)
        self.proj = nn.Linear(d, vocab)

    def forward(self, src, tgt_in):
        _, h = self.encoder(self.emb(src))
        out, _ = self.decoder(self.emb(tgt_in), h)
        return self.proj(out)


def compute_losses(model, batch, label_smoothing=0.1):
    logits = model(batch["src"], batch["tgt_in"])
    vocab = logits.size(-1)
    mask = batch["tgt_mask"]
    nll = F.cross_entropy(logits.reshape(-1, vocab), batch["tgt_out"].reshape(-1), ignore_index=PAD)
    smooth = -(F.log_softmax(logits, -1).mean(-1) * mask).sum() / mask.sum()
    loss = (1 - label_smoothing) * nll + label_smoothing * smooth
    tok_acc = ((logits.argmax(-1) == batch["tgt_out"]).float() * mask).sum() / mask.sum()
    return {"loss": loss, "nll": nll, "tok_acc": tok_acc}


def make_batch(n=16, length=8, vocab=20, generator=None):
    src = torch.randint(2, vocab, (n, length), generator=generator)
    tgt_out = src.flip(1)
    tgt_in = torch.cat([torch.full((n, 1), BOS), tgt_out[:, :-1]], dim=1)
    return {"src": src, "tgt_in": tgt_in, "tgt_out": tgt_out, "tgt_mask": (tgt_out != PAD).float()}
