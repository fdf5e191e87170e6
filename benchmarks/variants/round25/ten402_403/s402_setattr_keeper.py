"""Per-submodule freeze points stored as attributes on a keeper object via setattr."""
import copy
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(6, 12)
        self.block = nn.Sequential(nn.ReLU(), nn.Linear(12, 12))
        self.head = nn.Linear(12, 2)

    def forward(self, x):
        return self.head(self.block(self.embed(x)))


class FreezePoints:
    def capture(self, model, names):
        for name in names:
            setattr(self, f"{name}_state", getattr(model, name).state_dict())  # expect: TEN402

    def capture_safe(self, model, names):
        for name in names:
            setattr(self, f"{name}_copy", copy.deepcopy(getattr(model, name).state_dict()))  # ok


torch.manual_seed(0)
enc = Encoder()
x = torch.randn(64, 6)
y = (x.sum(1) > 0).long()
keeper = FreezePoints()
keeper.capture(enc, ["embed", "block"])
keeper.capture_safe(enc, ["embed", "block"])
opt = torch.optim.SGD(enc.parameters(), lr=0.2)
for _ in range(20):
    opt.zero_grad()
    nn.functional.cross_entropy(enc(x), y).backward()
    opt.step()
# revert the lower layers to their pre-finetuning values, keep the trained head
enc.embed.load_state_dict(keeper.embed_state)
enc.block.load_state_dict(keeper.block_state)
with torch.no_grad():
    a1 = nn.functional.cross_entropy(enc(x), y).item()
    enc.embed.load_state_dict(keeper.embed_copy)
    enc.block.load_state_dict(keeper.block_copy)
    a2 = nn.functional.cross_entropy(enc(x), y).item()
print("loss after revert via attrs", round(a1, 6), "via copies", round(a2, 6))
