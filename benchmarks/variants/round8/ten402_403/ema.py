"""Exponential moving average of model parameters, evaluated with swapped weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ExponentialMovingAverage:
    def __init__(self, parameters, decay, use_num_updates=True):
        if not 0.0 <= decay <= 1.0:
            raise ValueError("decay must be between 0 and 1")
        parameters = list(parameters)
        self.decay = decay
        self.num_updates = 0 if use_num_updates else None
        self.shadow_params = [p.clone().detach() for p in parameters if p.requires_grad]  # ok
        self.collected_params = []

    @torch.no_grad()
    def update(self, parameters):
        decay = self.decay
        if self.num_updates is not None:
            self.num_updates += 1
            decay = min(decay, (1 + self.num_updates) / (10 + self.num_updates))
        one_minus_decay = 1.0 - decay
        params = [p for p in parameters if p.requires_grad]
        for s_param, param in zip(self.shadow_params, params):
            s_param.sub_(one_minus_decay * (s_param - param))

    def copy_to(self, parameters):
        params = [p for p in parameters if p.requires_grad]
        for s_param, param in zip(self.shadow_params, params):
            param.data.copy_(s_param.data)

    def store(self, parameters):
        self.collected_params = [param.data for param in parameters]  # expect: TEN402

    def restore(self, parameters):
        for c_param, param in zip(self.collected_params, parameters):
            param.data.copy_(c_param)

    def state_dict(self):
        return {"decay": self.decay, "num_updates": self.num_updates, "shadow_params": self.shadow_params}

    def load_state_dict(self, state):
        self.decay = state["decay"]
        self.num_updates = state["num_updates"]
        for s, t in zip(self.shadow_params, state["shadow_params"]):
            s.copy_(t)


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        correct += (model(x).argmax(1) == y).sum().item()
        total += y.numel()
    return correct / total


def train(model, train_loader, val_loader, epochs, device, lr=0.1, ema_decay=0.9999, ckpt="ema_ckpt.pt"):
    model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs * len(train_loader))
    ema = ExponentialMovingAverage(model.parameters(), decay=ema_decay)

    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            scheduler.step()
            ema.update(model.parameters())

        raw_acc = accuracy(model, val_loader, device)
        ema.store(model.parameters())
        ema.copy_to(model.parameters())
        ema_acc = accuracy(model, val_loader, device)
        ema.restore(model.parameters())
        print(f"epoch {epoch}: acc={raw_acc:.4f} ema_acc={ema_acc:.4f}")

        torch.save({"model": model.state_dict(), "ema": ema.state_dict(), "epoch": epoch}, ckpt)  # ok
    return model, ema
