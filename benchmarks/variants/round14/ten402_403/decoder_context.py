"""Greedy/beam decoding of a toy GRU LM with a recent-token repetition penalty."""
import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab=12, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h[:, -1])


class RecentTokens:
    """recent[:, 0] is the newest token; used to penalise repeats."""

    def __init__(self, batch, size, safe):
        self.recent = torch.full((batch, size), -1, dtype=torch.long)
        self.safe = safe

    def push(self, tok):
        if self.safe:
            self.recent[:, 1:] = self.recent[:, :-1].clone()  # ok
        else:
            prev = self.recent[:, :-1]
            self.recent[:, 1:] = prev  # expect: TEN403
        self.recent[:, 0] = tok  # ok

    def penalty(self, vocab):
        hits = torch.zeros(self.recent.shape[0], vocab)
        valid = self.recent.clamp(min=0)
        hits.scatter_add_(1, valid, (self.recent >= 0).float())
        return hits


@torch.no_grad()
def greedy(model, prompt, steps, window, safe):
    ctx = prompt.clone()
    recent = RecentTokens(prompt.shape[0], 4, safe)
    for _ in range(steps):
        logits = model(ctx[:, -window:]) - 2.0 * recent.penalty(logits_dim(model))
        tok = logits.argmax(-1)
        recent.push(tok)
        ctx = torch.cat([ctx, tok[:, None]], dim=1)  # ok
    return ctx, recent.recent


def logits_dim(model):
    return model.out.out_features


@torch.no_grad()
def beam_step(history, scores, logits, beam):
    logp = torch.log_softmax(logits, -1) + scores[:, None]
    top = logp.flatten().topk(beam)
    src_beam, tok = top.indices // logits.shape[1], top.indices % logits.shape[1]
    t = history.shape[1]
    history = torch.cat([history, torch.zeros(beam, 1, dtype=torch.long)], 1)
    history[:, :t] = history[src_beam, :t]  # ok
    history[:, t] = tok  # ok
    return history, top.values


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM().eval()
    prompt = torch.randint(0, 12, (3, 5))
    out_bad, rec_bad = greedy(model, prompt, 6, 4, safe=False)
    out_ok, rec_ok = greedy(model, prompt, 6, 4, safe=True)
    print("recent (view write) :", rec_bad[0].tolist())
    print("recent (cloned)     :", rec_ok[0].tolist(), "tail of output", out_ok[0, -4:].flip(0).tolist())
    hist, scores = torch.randint(0, 12, (3, 2)), torch.zeros(3)
    for _ in range(3):
        hist, scores = beam_step(hist, scores, model(hist), beam=3)
    print("beam histories:", hist.tolist())
