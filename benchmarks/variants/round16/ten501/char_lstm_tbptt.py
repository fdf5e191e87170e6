"""Character-level LSTM trained with truncated BPTT on a synthetic periodic corpus."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, EMB, HID, CHUNK, STREAMS, EVAL_STREAMS = 30, 16, 32, 8, 4, 2


class CharLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.lstm = nn.LSTM(EMB, HID)
        self.proj = nn.Linear(HID, VOCAB)

    def forward(self, tokens, state):
        seq, state = self.lstm(self.emb(tokens), state)
        return self.proj(seq).flatten(0, 1), state

    def zero_state(self, streams):
        z = torch.zeros(1, streams, HID)
        return z, z.clone()


def cut_from_history(state):
    if isinstance(state, torch.Tensor):
        return state.detach()
    return type(state)(cut_from_history(s) for s in state)


def to_streams(tokens, streams):
    usable = (len(tokens) // streams) * streams
    return tokens[:usable].reshape(streams, -1).T.contiguous()


def chunk_at(streams, pos):
    n = min(CHUNK, streams.shape[0] - 1 - pos)
    return streams[pos:pos + n], streams[pos + 1:pos + 1 + n].flatten()


def synthetic_text(n):
    g = torch.Generator().manual_seed(0)
    out = [0]
    for _ in range(n - 1):
        nxt = (out[-1] * 7 + 3) % VOCAB
        if torch.rand(1, generator=g).item() > 0.8:
            nxt = torch.randint(0, VOCAB, (1,), generator=g).item()
        out.append(nxt)
    return torch.tensor(out)


def train_pass(model, streams, lr, ppl_curve):
    model.train()
    loss_sum, n_chunks = 0.0, 0
    state = model.zero_state(STREAMS)
    for pos in range(0, streams.shape[0] - 1, CHUNK):
        inp, tgt = chunk_at(streams, pos)
        state = cut_from_history(state)  # ok
        model.zero_grad()
        logits, state = model(inp, state)
        loss = F.cross_entropy(logits, tgt)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        with torch.no_grad():
            for p in model.parameters():
                p -= lr * p.grad
        loss_sum += loss.item()  # ok
        n_chunks += 1
        ppl_curve.append(loss.exp())  # expect: TEN501
    return loss_sum / n_chunks


def eval_pass(model, streams):
    model.eval()
    nll, count = 0.0, 0
    state = model.zero_state(EVAL_STREAMS)
    with torch.no_grad():
        for pos in range(0, streams.shape[0] - 1, CHUNK):
            inp, tgt = chunk_at(streams, pos)
            logits, state = model(inp, state)
            nll += F.cross_entropy(logits, tgt, reduction="sum")  # ok
            count += tgt.numel()
    return nll / count


def main():
    text = synthetic_text(600)
    train_streams, val_streams = to_streams(text[:480], STREAMS), to_streams(text[480:], EVAL_STREAMS)
    model = CharLSTM()
    lr, best_val = 5.0, None
    ppl_curve = []
    for epoch in range(1, 3):
        train_loss = train_pass(model, train_streams, lr, ppl_curve)
        val_nll = eval_pass(model, val_streams)
        print(f"epoch {epoch}: train {train_loss:.2f} val {val_nll.item():.2f} val ppl {math.exp(val_nll):.2f}")
        if best_val is None or val_nll < best_val:
            best_val = val_nll  # ok
        else:
            lr *= 0.25


if __name__ == "__main__":
    main()
