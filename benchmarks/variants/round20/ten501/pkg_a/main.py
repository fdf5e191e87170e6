import torch
import torch.nn as nn

from .trainer import Trainer

torch.manual_seed(0)
torch.set_num_threads(1)


def main():
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    train = [(torch.randn(12, 6), torch.randint(0, 3, (12,))) for _ in range(5)]
    val = [(torch.randn(12, 6), torch.randint(0, 3, (12,))) for _ in range(2)]
    t = Trainer(model, opt).fit(train, val, epochs=3)
    print("ce", round(t.history.mean("ce"), 4), round(t.clean.mean("ce"), 4))
    print("store", round(float(t.store["total"]) / t.store["steps"], 4), round(t.store["total_item"] / t.store["steps"], 4))
    print("val", [round(float(v), 4) for v in t.val_curve], round(t.clean.mean("val"), 4))


if __name__ == "__main__":
    main()
