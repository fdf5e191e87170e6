"""A model that returns a dict of outputs, including its own loss (HF style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, vocab=50, dim=16, n_cls=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.head = nn.Linear(dim, n_cls)

    def forward(self, tokens, labels=None):
        logits = self.head(self.emb(tokens))
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = F.cross_entropy(logits, labels)
            out["acc"] = (logits.argmax(-1) == labels).float().mean()
        return out


def train_epoch(model, batches, optimizer):
    epoch_loss = 0.0
    epoch_acc = 0.0
    outputs = []
    for tokens, labels in batches:
        out = model(tokens, labels=labels)
        optimizer.zero_grad()
        out["loss"].backward()
        optimizer.step()
        epoch_loss += out["loss"]  # expect: TEN501
        epoch_acc += out["acc"]  # ok
        outputs.append(out)  # expect: TEN501
    n = len(batches)
    return epoch_loss / n, epoch_acc / n, outputs


if __name__ == "__main__":
    model = Classifier()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    data = [(torch.randint(0, 50, (8, 6)), torch.randint(0, 4, (8,))) for _ in range(6)]
    for ep in range(2):
        loss, acc, _ = train_epoch(model, data, opt)
        print(f"epoch {ep} loss {float(loss):.3f} acc {float(acc):.3f}")
