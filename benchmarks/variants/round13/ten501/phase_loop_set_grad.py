"""torchvision-tutorial style train/val phase loop, plus prediction helpers."""
import copy
from collections import defaultdict

import torch
import torch.nn as nn


def run_epoch(model, loaders, criterion, opt, history):
    for phase in ("train", "val"):
        model.train(phase == "train")
        running_loss, running_correct, seen = 0.0, 0, 0
        for x, y in loaders[phase]:
            opt.zero_grad()
            with torch.set_grad_enabled(phase == "train"):
                out = model(x)
                loss = criterion(out, y)
                preds = out.argmax(1)
                if phase == "train":
                    loss.backward()
                    opt.step()
            running_loss += loss.item() * x.size(0)  # ok
            running_correct += (preds == y).sum()  # ok
            seen += x.size(0)
            history[phase].append(loss)  # expect: TEN501
        history[f"{phase}_acc"].append(running_correct.double() / seen)  # ok
        history[f"{phase}_loss"].append(running_loss / seen)  # ok


def collect_predictions(model, loader):
    model.eval()
    probs, labels, top_conf = [], [], []
    for x, y in loader:
        p = torch.softmax(model(x), dim=1)
        probs.append(p)  # expect: TEN501
        labels.append(y)  # ok
        top_conf.append(p.max(1).values.cpu())  # expect: TEN501
    return torch.cat(probs), torch.cat(labels), top_conf


@torch.no_grad()
def collect_predictions_ok(model, loader):
    model.eval()
    probs = []
    for x, _ in loader:
        probs.append(torch.softmax(model(x), dim=1))  # ok
    return torch.cat(probs)


def main(epochs=3):
    torch.manual_seed(0)
    loaders = {p: [(torch.randn(6, 10), torch.randint(0, 4, (6,))) for _ in range(3)] for p in ("train", "val")}
    model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    history = defaultdict(list)
    best_acc, best_wts = 0.0, copy.deepcopy(model.state_dict())
    for epoch in range(epochs):
        run_epoch(model, loaders, criterion, opt, history)
        if history["val_acc"][-1] > best_acc:
            best_acc = history["val_acc"][-1].item()
            best_wts = copy.deepcopy(model.state_dict())
    model.load_state_dict(best_wts)
    probs, labels, conf = collect_predictions(model, loaders["val"])
    probs_ok = collect_predictions_ok(model, loaders["val"])
    print(best_acc, probs.shape, labels.shape, len(conf), probs_ok.shape)


if __name__ == "__main__":
    main()
