from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskNet(nn.Module):
    def __init__(self, d_in=64, n_cls=7):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU())
        self.cls_head = nn.Linear(256, n_cls)
        self.reg_head = nn.Linear(256, 3)
        self.aux_head = nn.Linear(256, 1)

    def forward(self, x):
        h = self.trunk(x)
        return {"cls": self.cls_head(h), "reg": self.reg_head(h), "aux": self.aux_head(h).squeeze(-1)}


LOSS_WEIGHTS = {"cls": 1.0, "reg": 0.5, "aux": 0.1}


def compute_losses(out, batch):
    return {
        "cls": F.cross_entropy(out["cls"], batch["label"]),
        "reg": F.l1_loss(out["reg"], batch["box"]),
        "aux": F.binary_cross_entropy_with_logits(out["aux"], batch["flag"]),
    }


def random_batch(bs=32):
    return {
        "x": torch.randn(bs, 64),
        "label": torch.randint(0, 7, (bs,)),
        "box": torch.rand(bs, 3),
        "flag": (torch.rand(bs) > 0.5).float(),
    }


def train(num_epochs=5, steps_per_epoch=100):
    model = MultiTaskNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    history = defaultdict(list)

    for epoch in range(num_epochs):
        for _ in range(steps_per_epoch):
            batch = random_batch()
            out = model(batch["x"])
            loss_dict = compute_losses(out, batch)
            loss = sum(LOSS_WEIGHTS[k] * v for k, v in loss_dict.items())

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            for name, value in loss_dict.items():
                history[name].append(value)  # expect: TEN501
            history["total"].append(loss.item())  # ok

        summary = {k: float(torch.as_tensor(v[-steps_per_epoch:]).mean()) if k == "total"
                   else torch.stack(v[-steps_per_epoch:]).mean().item() for k, v in history.items()}
        print(f"epoch {epoch}: " + ", ".join(f"{k}={v:.4f}" for k, v in summary.items()))
    return model, history


if __name__ == "__main__":
    train()
