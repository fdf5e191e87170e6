"""Fine-tuning with the L2-SP regularizer (Li et al., 2018): penalise distance to pretrained weights."""
import torch
import torch.nn as nn
import torchvision


class L2SP:
    def __init__(self, model, alpha=0.01, beta=0.01):
        self.alpha = alpha
        self.beta = beta
        backbone = [p for n, p in model.named_parameters() if not n.startswith("fc.")]
        self.source_params = [p.data for p in backbone]  # expect: TEN402
        self.backbone = backbone
        self.head = [p for n, p in model.named_parameters() if n.startswith("fc.")]

    def penalty(self):
        sp = sum(((p - p0) ** 2).sum() for p, p0 in zip(self.backbone, self.source_params))
        head = sum((p ** 2).sum() for p in self.head)
        return 0.5 * self.alpha * sp + 0.5 * self.beta * head

    def drift(self):
        with torch.no_grad():
            return sum((p - p0).norm().item() for p, p0 in zip(self.backbone, self.source_params))


def finetune(train_loader, num_classes, epochs=10, device="cuda"):
    model = torchvision.models.resnet50(weights="IMAGENET1K_V2")
    model.fc = nn.Linear(model.fc.in_features, num_classes)
    model.to(device)

    reg = L2SP(model, alpha=0.1, beta=0.01)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=4, gamma=0.1)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(epochs):
        model.train()
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            ce = criterion(model(images), labels)
            loss = ce + reg.penalty()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scheduler.step()
        print(f"epoch {epoch}: ce={ce.item():.4f} drift from source={reg.drift():.4f}")

    return model
