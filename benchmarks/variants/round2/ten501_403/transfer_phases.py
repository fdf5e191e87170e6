"""Transfer-learning tutorial loop with train/val phases under set_grad_enabled."""
import torch
import torch.nn as nn


def loaders():
    return {p: [(torch.randn(4, 10), torch.randint(0, 2, (4,))) for _ in range(3)] for p in ("train", "val")}


def train_model(model, criterion, optimizer, num_epochs=2):
    dataloaders = loaders()
    running_hist = []
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train() if phase == "train" else model.eval()
            running_loss = 0.0
            running_corrects = 0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss * inputs.size(0)  # expect: TEN501
                running_corrects += torch.sum(preds == labels.data)  # ok
            epoch_loss = running_loss / 12
            running_hist.append(epoch_loss.item())  # ok
    return running_loss


def train_model_fixed(model, criterion, optimizer, num_epochs=2):
    dataloaders = loaders()
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            running_loss = 0.0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)  # ok
    return running_loss


def finetune_head(backbone, head, steps=4):
    for p in backbone.parameters():
        p.requires_grad_(False)
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    cached = []
    for _ in range(steps):
        x = torch.randn(4, 10)
        feats = backbone(x)
        cached.append(feats)  # ok
        loss = head(feats).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return cached


if __name__ == "__main__":
    torch.manual_seed(0)
    m = nn.Linear(10, 2)
    rl = train_model(m, nn.CrossEntropyLoss(), torch.optim.SGD(m.parameters(), lr=0.1))
    print("running_loss after val phase:", getattr(rl, "grad_fn", None))
    # show that the train phase keeps the graph chain
    m2 = nn.Linear(10, 2)
    opt = torch.optim.SGD(m2.parameters(), lr=0.1)
    rl_train = 0.0
    for x, y in loaders()["train"]:
        loss = nn.functional.cross_entropy(m2(x), y)
        loss.backward()
        rl_train += loss * 4  # expect: TEN501
    print("train phase running grad_fn:", rl_train.grad_fn)
    c = finetune_head(nn.Linear(10, 10), nn.Linear(10, 1))
    print("cached feats grad_fn:", c[0].grad_fn)
