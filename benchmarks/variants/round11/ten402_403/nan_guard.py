"""Language-model style training loop that rolls back when the loss blows up."""
import math

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=1000, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.out(h)


def run(steps=500, lr=5e-3):
    model = TinyLM()
    optim = torch.optim.Adam(model.parameters(), lr=lr)
    last_good = None
    rollbacks = 0
    for step in range(steps):
        tokens = torch.randint(0, 1000, (8, 65))
        logits = model(tokens[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 1000), tokens[:, 1:].reshape(-1))
        if not math.isfinite(loss.item()):
            rollbacks += 1
            if last_good is not None:
                model.load_state_dict(last_good)
            for group in optim.param_groups:
                group["lr"] *= 0.5
            continue
        if step % 50 == 0:
            last_good = dict(model.state_dict())  # expect: TEN402
        optim.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optim.step()
    return model, rollbacks


if __name__ == "__main__":
    _, n = run()
    print("rollbacks:", n)
