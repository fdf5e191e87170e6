"""Assorted in-place shifts: masks, time-major views, embedding tables, age buckets."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

# 1. "previous token was padding" mask, computed by shifting a bool mask
pad = torch.rand(4, 12) < 0.3
prev_ref = torch.zeros_like(pad)
prev_ref[:, 1:] = pad[:, :-1]  # ok
prev = pad.clone()
prev[:, 1:] = prev[:, :-1]  # expect: TEN403
prev[:, 0] = False
print("prev-pad mask correct:", torch.equal(prev, prev_ref))

# 2. a time-major view of a batch-major activation tensor
acts = torch.randn(3, 10, 5)  # (B, T, H)
want = torch.cat([torch.zeros(3, 1, 5), acts[:, :-1]], dim=1)
seq = acts.transpose(0, 1)  # (T, B, H), a non-contiguous view
seq[1:] = seq[:-1]  # expect: TEN403
seq[0] = 0
print("time-major shift correct:", torch.equal(acts, want))

# 3. growing a learned position table by moving rows down
table = nn.Embedding(16, 4)
with torch.no_grad():
    before = table.weight.clone()
    try:
        table.weight[2:] = table.weight[:-2]  # expect: TEN403
        print("table shift correct:", torch.equal(table.weight[2:], before[:-2]))
    except RuntimeError as err:
        print("table shift rejected:", str(err)[:40])
    table.weight[2:] = before[:-2]  # ok
print("table rows moved:", torch.equal(table.weight[2:], before[:-2]))


# 4. age buckets for a replay buffer: every step, counts move one bucket older
class AgeHistogram:
    def __init__(self, n, buckets):
        self.counts = torch.zeros(n, buckets, dtype=torch.long)

    def tick(self, new_items):
        self.counts[:, 1:] = self.counts[:, :-1]  # expect: TEN403
        self.counts[:, 0] = new_items


hist = AgeHistogram(2, 5)
arrivals = torch.randint(1, 9, (7, 2))
for a in arrivals:
    hist.tick(a)
ref = arrivals.flip(0)[:5].t()
print("age histogram correct:", torch.equal(hist.counts, ref), hist.counts.tolist())
