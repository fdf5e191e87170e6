"""Training loop that accumulates only graph-free values: labels, argmax preds, numpy arrays, counts."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def confusion_matrix(preds, targets, n_cls):
    idx = targets * n_cls + preds
    return torch.bincount(idx, minlength=n_cls * n_cls).reshape(n_cls, n_cls)


def main(epochs=2, n_cls=5):
    model = nn.Sequential(nn.Linear(40, 128), nn.ReLU(), nn.Linear(128, n_cls))
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    loader = [(torch.randn(64, 40), torch.randint(0, n_cls, (64,))) for _ in range(60)]

    for epoch in range(epochs):
        all_preds, prob_chunks = [], []
        all_targets = torch.empty(0, dtype=torch.long)
        correct = torch.zeros((), dtype=torch.long)
        conf = torch.zeros(n_cls, n_cls, dtype=torch.long)
        seen = 0
        for x, y in loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()

            pred = logits.argmax(dim=1)
            all_preds.append(pred)  # ok
            all_targets = torch.cat((all_targets, y))  # ok
            correct += (pred == y).sum()  # ok
            conf += confusion_matrix(pred, y, n_cls)  # ok
            prob_chunks.append(logits.softmax(-1).detach().cpu().numpy())  # ok
            seen += y.size(0)

        preds = torch.cat(all_preds)
        probs = np.concatenate(prob_chunks)
        per_class = conf.diag().float() / conf.sum(1).clamp(min=1).float()
        print(
            f"epoch {epoch}: acc {correct.item() / seen:.3f} "
            f"agree {(preds == all_targets).float().mean().item():.3f} "
            f"mean max-prob {probs.max(1).mean():.3f} "
            f"per-class {np.round(per_class.numpy(), 2).tolist()}"
        )


if __name__ == "__main__":
    main()
