"""Teacher-forced GRU decoder; per-batch outputs are built up then differentiated."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, vocab=20, hid=24):
        super().__init__()
        self.emb = nn.Embedding(vocab, hid)
        self.cell = nn.GRUCell(hid, hid)
        self.out = nn.Linear(hid, vocab)

    def forward(self, tokens, h):
        step_logits = torch.empty(tokens.size(0), 0, self.out.out_features)
        for t in range(tokens.size(1)):
            h = self.cell(self.emb(tokens[:, t]), h)
            step_logits = torch.cat((step_logits, self.out(h).unsqueeze(1)), dim=1)  # ok
        return step_logits, h


def train(dec, n_batches=4, n_epochs=2):
    opt = torch.optim.Adam(dec.parameters(), lr=1e-3)
    history = []
    for epoch in range(n_epochs):
        epoch_nll = torch.zeros(())
        for b in range(n_batches):
            tokens = torch.randint(0, 20, (8, 7))
            h0 = torch.zeros(8, 24)
            logits, _ = dec(tokens[:, :-1], h0)
            nll = F.cross_entropy(logits.reshape(-1, 20), tokens[:, 1:].reshape(-1))
            opt.zero_grad()
            nll.backward()
            opt.step()
            epoch_nll += nll.detach()  # ok
        history.append(epoch_nll.item() / n_batches)  # ok
    return history


if __name__ == "__main__":
    print(train(Decoder()))
