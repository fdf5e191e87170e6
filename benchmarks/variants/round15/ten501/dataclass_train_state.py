"""Training state kept in a dataclass, as in many JAX-to-PyTorch ports."""
import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class TrainState:
    step: int = 0
    epoch: int = 0
    best_loss: float = math.inf
    losses: list = field(default_factory=list)
    grad_norms: list = field(default_factory=list)
    lrs: list = field(default_factory=list)
    tokens_seen: int = 0


@dataclass
class StepOutput:
    loss: torch.Tensor
    n_tokens: int


def lm_step(model, tokens):
    logits = model(tokens[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
    return StepOutput(loss=loss, n_tokens=tokens[:, 1:].numel())


class TinyLM(nn.Module):
    def __init__(self, vocab=20, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def train(model, data, epochs=2):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs * len(data))
    state = TrainState()
    for epoch in range(epochs):
        state.epoch = epoch
        for tokens in data:
            out = lm_step(model, tokens)
            opt.zero_grad()
            out.loss.backward()
            norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            state.step += 1  # ok
            state.tokens_seen += out.n_tokens  # ok
            state.losses.append(out.loss)  # expect: TEN501
            state.grad_norms.append(float(norm))  # ok
            state.lrs.append(sched.get_last_lr()[0])  # ok
            state.best_loss = min(state.best_loss, out.loss.item())  # ok
    return state


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [torch.randint(0, 20, (4, 9)) for _ in range(4)]
    st = train(TinyLM(), data)
    print(st.step, st.tokens_seen, round(st.best_loss, 3))
