"""Greedy / sampled decoding and beam scoring, all under no_grad or inference_mode."""
import torch
import torch.nn as nn


class TinyDecoder(nn.Module):
    def __init__(self, vocab=15, dim=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)

    def step(self, token, h):
        h = self.cell(self.emb(token), h)
        return self.out(h), h


@torch.no_grad()
def greedy_decode(model, start, max_len=6):
    h = torch.zeros(start.size(0), 8)
    tokens = start.unsqueeze(1)
    step_logits = []
    scores = torch.zeros(start.size(0))
    for _ in range(max_len):
        logits, h = model.step(tokens[:, -1], h)
        step_logits.append(logits)  # ok
        logp = logits.log_softmax(-1)
        nxt = logp.argmax(-1)
        scores = scores + logp.gather(1, nxt[:, None]).squeeze(1)  # ok
        tokens = torch.cat([tokens, nxt.unsqueeze(1)], dim=1)  # ok
    return tokens, scores, torch.stack(step_logits, 1)


def sample_decode(model, start, max_len=6, temperature=0.8):
    with torch.inference_mode():
        h = torch.zeros(start.size(0), 8)
        tok, out, entropies = start, [], []
        for _ in range(max_len):
            logits, h = model.step(tok, h)
            probs = (logits / temperature).softmax(-1)
            tok = torch.multinomial(probs, 1).squeeze(1)
            out.append(tok)  # ok
            entropies.append(-(probs * probs.log()).sum(-1))  # ok
    return torch.stack(out, 1), torch.stack(entropies, 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDecoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(3):
        tok = torch.randint(0, 15, (4,))
        logits, _ = model.step(tok, torch.zeros(4, 8))
        loss = nn.functional.cross_entropy(logits, (tok + 1) % 15)
        opt.zero_grad()
        loss.backward()
        opt.step()
    t, s, _ = greedy_decode(model, torch.tensor([1, 2]))
    print(t.tolist(), sample_decode(model, torch.tensor([3, 4]))[0].shape)
