"""Deep supervision (one classifier per stage) and a shared output-collection helper."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class DeeplySupervisedNet(nn.Module):
    def __init__(self, d=12, width=24, n_classes=3, stages=3):
        super().__init__()
        dims = [d] + [width] * stages
        self.stages = nn.ModuleList(nn.Sequential(nn.Linear(a, b), nn.ReLU()) for a, b in zip(dims[:-1], dims[1:]))
        self.heads = nn.ModuleList(nn.Linear(width, n_classes) for _ in range(stages))

    def forward(self, x):
        outs = []
        for stage, head in zip(self.stages, self.heads):
            x = stage(x)
            outs.append(head(x))
        return outs


def collect(model, x, sink):
    """Run the model and keep the final head's probabilities for later analysis."""
    probs = model(x)[-1].softmax(dim=-1)
    sink.append(probs)  # expect: TEN501
    return probs


def main():
    x = torch.randn(240, 12)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    model = DeeplySupervisedNet()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    stage_weights = [0.3, 0.3, 1.0]
    train_probs, val_probs = [], []
    val_np = []

    for epoch in range(3):
        model.train()
        for i in range(0, 200, 40):
            xb, yb = x[i:i + 40], y[i:i + 40]
            outs = model(xb)
            loss = 0.0
            for w, logits in zip(stage_weights, outs):
                loss += w * F.cross_entropy(logits, yb)  # ok
            opt.zero_grad()
            loss.backward()
            opt.step()
            collect(model, xb, train_probs)

        model.eval()
        with torch.no_grad():
            p = collect(model, x[200:], val_probs)  # ok
            val_np.append(p.cpu().numpy())  # ok
        acc = (val_np[-1].argmax(1) == y[200:].numpy()).mean()
        print(f"epoch {epoch}: last loss {float(loss):.4f} val acc {acc:.3f}")
    print(np.stack(val_np).shape, len(train_probs))


if __name__ == "__main__":
    main()
