"""Teacher-forcing inputs for a tiny GRU decoder: shift targets right by one."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)

BOS, VOCAB = 1, 12


def shift_right_aliased(tgt):
    dec = tgt
    dec[:, 1:] = tgt[:, :-1]  # expect: TEN403
    dec[:, 0] = BOS  # ok
    return dec


def shift_right_filled(tgt):
    dec = torch.full_like(tgt, BOS)
    dec[:, 1:] = tgt[:, :-1]  # ok
    return dec


def shift_right_cat(tgt):
    return torch.cat([tgt.new_full((tgt.size(0), 1), BOS), tgt[:, :-1]], dim=1)  # ok


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16)
        self.rnn = nn.GRU(16, 32, batch_first=True)
        self.out = nn.Linear(32, VOCAB)

    def forward(self, dec_in):
        h, _ = self.rnn(self.emb(dec_in))
        return self.out(h)


def train(shift):
    torch.manual_seed(0)
    model = Decoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    seqs = torch.randint(2, VOCAB, (16, 20))
    for _ in range(8):
        tgt = seqs.clone()
        dec_in = shift(tgt)
        logits = model(dec_in)
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    for fn in (shift_right_aliased, shift_right_filled, shift_right_cat):
        print(f"{fn.__name__:>20}: final loss {train(fn):.4f}")
