"""Teacher forcing: decoder inputs are the labels shifted right by one."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

PAD, BOS, VOCAB = 0, 1, 20


def shift_right_inplace(labels):
    ids = labels.clone()
    ids[:, 1:] = ids[:, :-1]  # expect: TEN403
    ids[:, 0] = BOS
    return ids


def shift_right(labels):
    ids = labels.new_zeros(labels.shape)
    ids[:, 1:] = labels[:, :-1]  # ok
    ids[:, 0] = BOS
    return ids


class TinyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16)
        self.rnn = nn.GRU(16, 16, batch_first=True)
        self.out = nn.Linear(16, VOCAB)
        self.history = None

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.out(h)

    def remember(self, h_t, depth=4, safe=False):
        """Keep the last `depth` step outputs, newest at index 0: (B, depth, H)."""
        if self.history is None:
            self.history = h_t.new_zeros(h_t.shape[0], depth, h_t.shape[1])
        if safe:
            self.history[:, 1:] = self.history[:, :-1].clone()  # ok
        else:
            self.history[:, 1:] = self.history[:, :-1]  # expect: TEN403
        self.history[:, 0] = h_t
        return self.history


labels = torch.randint(2, VOCAB, (3, 7))
good, bad = shift_right(labels), shift_right_inplace(labels)
print("in-place shift_right equals reference:", torch.equal(good, bad))
dec = TinyDecoder()
loss_good = nn.functional.cross_entropy(dec(good).transpose(1, 2), labels).item()
loss_bad = nn.functional.cross_entropy(dec(bad).transpose(1, 2), labels).item()
print(f"loss with correct inputs={loss_good:.4f} with smeared inputs={loss_bad:.4f}")

hist_ref, hist_bad = TinyDecoder(), TinyDecoder()
steps = torch.randn(6, 2, 16)
for h in steps:
    r = hist_ref.remember(h, safe=True)
    s = hist_bad.remember(h, safe=False)
print("history buffer matches:", torch.equal(r, s))
