"""Transfer-learning tutorial style train/val phases with torch.set_grad_enabled."""
import copy

import torch
import torch.nn as nn


def train_model(model, dataloaders, criterion, optimizer, scheduler, num_epochs=2):
    best_model_wts = copy.deepcopy(model.state_dict())
    best_acc = 0.0
    phase_outputs = {"train": [], "val": []}
    epoch_log = []
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
                running_loss += loss.item() * inputs.size(0)  # ok
                running_corrects += torch.sum(preds == labels.data)  # ok
                phase_outputs[phase].append(outputs)  # expect: TEN501
            if phase == "train":
                scheduler.step()
            n = sum(len(b[1]) for b in dataloaders[phase])
            epoch_loss = running_loss / n
            epoch_acc = running_corrects.double() / n
            epoch_log.append((phase, epoch_loss, epoch_acc.item()))  # ok
            if phase == "val" and epoch_acc > best_acc:
                best_acc = epoch_acc
                best_model_wts = copy.deepcopy(model.state_dict())
    model.load_state_dict(best_model_wts)
    return model, epoch_log


if __name__ == "__main__":
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Linear(12, 16), nn.ReLU())
    for p in backbone.parameters():
        p.requires_grad = False
    model = nn.Sequential(backbone, nn.Linear(16, 3))
    loaders = {ph: [(torch.randn(6, 12), torch.randint(0, 3, (6,))) for _ in range(3)] for ph in ("train", "val")}
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.01, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=7, gamma=0.1)
    _, log = train_model(model, loaders, nn.CrossEntropyLoss(), opt, sched)
    print(log)
