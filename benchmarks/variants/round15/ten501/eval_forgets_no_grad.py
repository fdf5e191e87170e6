"""Three evaluation routines: one forgets no_grad, one relies on model.eval(), one is correct."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 20), nn.BatchNorm1d(20), nn.ReLU(), nn.Dropout(0.2), nn.Linear(20, 4))

    def forward(self, x):
        return self.net(x)


def evaluate(model, loader):
    model.eval()
    all_logits, all_labels = [], []
    val_loss = 0.0
    for x, y in loader:
        logits = model(x)
        val_loss += F.cross_entropy(logits, y, reduction="sum")  # expect: TEN501
        all_logits.append(logits)  # expect: TEN501
        all_labels.append(y)  # ok
    logits, labels = torch.cat(all_logits), torch.cat(all_labels)
    return val_loss.item() / len(labels), (logits.argmax(1) == labels).float().mean().item()


def predict(model, loader):
    model.eval()  # people often assume this disables autograd
    preds, probs = [], []
    for x, _ in loader:
        out = model(x)
        preds.append(out.argmax(1))  # ok
        probs.append(out.softmax(-1))  # expect: TEN501
    return torch.cat(preds), torch.cat(probs)


@torch.inference_mode()
def evaluate_fast(model, loader):
    model.eval()
    all_logits = []
    val_loss = 0.0
    n_correct = 0
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits)  # ok
        val_loss += F.cross_entropy(logits, y, reduction="sum")  # ok
        n_correct += (logits.argmax(1) == y).sum().item()  # ok
    return val_loss.item(), n_correct, torch.cat(all_logits).shape


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Classifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    train = [(torch.randn(16, 10), torch.randint(0, 4, (16,))) for _ in range(3)]
    val = [(torch.randn(8, 10), torch.randint(0, 4, (8,))) for _ in range(5)]
    for epoch in range(2):
        model.train()
        for x, y in train:
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
        print(epoch, evaluate(model, val), evaluate_fast(model, val))
    print(predict(model, val)[1].requires_grad)
