"""Transfer learning with the L2-SP regularizer (Li et al., 2018).

The backbone is pulled towards its pretrained values instead of towards zero;
the freshly initialized head gets plain weight decay.
"""
import torch
import torch.nn.functional as F
import torchvision


class L2SP:
    def __init__(self, model, alpha=1e-2, beta=1e-2, head_prefix="fc."):
        self.alpha = alpha
        self.beta = beta
        self.anchor = {n: p.detach() for n, p in model.named_parameters()  # expect: TEN402
                       if not n.startswith(head_prefix)}
        self.head = [p for n, p in model.named_parameters() if n.startswith(head_prefix)]  # ok

    def __call__(self, model):
        sp = sum((p - self.anchor[n]).pow(2).sum() for n, p in model.named_parameters() if n in self.anchor)
        head = sum(p.pow(2).sum() for p in self.head)
        return 0.5 * self.alpha * sp + 0.5 * self.beta * head


def finetune(train_loader, num_classes, epochs=30, lr=0.01, device="cuda"):
    model = torchvision.models.resnet50(weights="IMAGENET1K_V2")
    model.fc = torch.nn.Linear(model.fc.in_features, num_classes)
    model.to(device)
    reg = L2SP(model)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[int(epochs * 2 / 3)], gamma=0.1)
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y) + reg(model)
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
    return model
