"""torchvision fine-tuning tutorial loop with train/val phases and set_grad_enabled."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 3))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
dataloaders = {p: [(torch.randn(5, 12), torch.randint(0, 3, (5,))) for _ in range(3)] for p in ("train", "val")}
epoch_outputs = {"train": [], "val": []}
val_outs = []
for epoch in range(2):
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
            epoch_outputs[phase].append(outputs)  # expect: TEN501
        print(epoch, phase, running_loss, int(running_corrects))
    with torch.set_grad_enabled(False):
        for inputs, _ in dataloaders["val"]:
            val_outs.append(model(inputs))  # ok
print(len(epoch_outputs["train"]), len(val_outs))
