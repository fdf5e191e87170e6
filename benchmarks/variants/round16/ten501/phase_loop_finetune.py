"""Train/val phase loop driven by torch.set_grad_enabled, as in many fine-tuning scripts."""
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def build_loaders():
    x = torch.randn(260, 14)
    y = ((x[:, :3].sum(1) > 0).long() * 2 + (x[:, 3] > 0).long())
    return {
        "train": DataLoader(TensorDataset(x[:200], y[:200]), batch_size=25, shuffle=True),
        "val": DataLoader(TensorDataset(x[200:], y[200:]), batch_size=30),
    }


def train_model(model, loaders, criterion, optimizer, scheduler, num_epochs=3):
    since = time.time()
    best_acc = 0.0
    best_weights = {k: v.clone() for k, v in model.state_dict().items()}
    batch_losses = {"train": [], "val": []}
    epoch_acc_log = {"train": [], "val": []}

    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train() if phase == "train" else model.eval()
            running_loss, running_corrects = 0.0, 0
            for inputs, labels in loaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    preds = outputs.argmax(1)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                batch_losses[phase].append(loss)  # expect: TEN501
                running_loss += loss.item() * inputs.size(0)  # ok
                running_corrects += torch.sum(preds == labels)  # ok
            if phase == "train":
                scheduler.step()
            n = len(loaders[phase].dataset)
            epoch_acc = running_corrects.double() / n
            epoch_acc_log[phase].append(epoch_acc)  # ok
            print(f"{epoch} {phase}: loss {running_loss / n:.4f} acc {epoch_acc.item():.4f}")
            if phase == "val" and epoch_acc > best_acc:
                best_acc = epoch_acc.item()  # ok
                best_weights = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    print(f"done in {time.time() - since:.1f}s, best val acc {best_acc:.4f}")
    model.load_state_dict(best_weights)
    return model, batch_losses


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(14, 48), nn.ReLU(), nn.Dropout(0.1), nn.Linear(48, 4))
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    train_model(net, build_loaders(), nn.CrossEntropyLoss(), opt,
                torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1))
