"""Joint training of a shared trunk on a classification task (A) and a regression task (B)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SharedTrunk(nn.Module):
    def __init__(self, d_in=24, d_hid=64, n_cls=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, d_hid), nn.ReLU(), nn.Linear(d_hid, d_hid), nn.ReLU())
        self.heads = nn.ModuleDict({"a": nn.Linear(d_hid, n_cls), "b": nn.Linear(d_hid, 1)})

    def forward(self, x, task):
        return self.heads[task](self.trunk(x))


def main(epochs=3, lam=0.5):
    torch.manual_seed(0)
    xa, ya = torch.randn(320, 24), torch.randint(0, 3, (320,))
    xb = torch.randn(320, 24)
    yb = xb[:, :3].sum(dim=1)
    loader_a = DataLoader(TensorDataset(xa, ya), batch_size=32, shuffle=True)
    loader_b = DataLoader(TensorDataset(xb, yb), batch_size=32, shuffle=True)

    model = SharedTrunk()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        total_a = 0.0
        total_b = 0.0
        for i, ((in_a, tgt_a), (in_b, tgt_b)) in enumerate(zip(loader_a, loader_b)):
            cls_loss = F.cross_entropy(model(in_a, "a"), tgt_a)
            reg_loss = F.mse_loss(model(in_b, "b").squeeze(-1), tgt_b)
            joint = cls_loss + lam * reg_loss
            opt.zero_grad()
            joint.backward()
            opt.step()
            total_a += cls_loss  # expect: TEN501
            total_b += reg_loss.detach()  # ok
        n = i + 1
        print(f"epoch {epoch}: cls {float(total_a) / n:.4f} reg {float(total_b) / n:.4f}")


if __name__ == "__main__":
    main()
