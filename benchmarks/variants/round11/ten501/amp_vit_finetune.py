"""Mixed-precision fine-tuning of a small ViT classifier."""
import torch
import torch.nn as nn


class PatchViT(nn.Module):
    def __init__(self, img=64, patch=8, d=192, depth=4, n_cls=100):
        super().__init__()
        self.patch = nn.Conv2d(3, d, patch, patch)
        n = (img // patch) ** 2
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.randn(1, n + 1, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, 3, 4 * d, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.head = nn.Linear(d, n_cls)

    def forward(self, x):
        x = self.patch(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.size(0), -1, -1), x], 1) + self.pos
        return self.head(self.blocks(x)[:, 0])


def finetune(model, loader, epochs=3, device="cuda" if torch.cuda.is_available() else "cpu"):
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
    scaler = torch.amp.GradScaler(device, enabled=device == "cuda")
    crit = nn.CrossEntropyLoss(label_smoothing=0.1)
    epoch_loss = torch.zeros((), device=device)
    detached_sum = torch.zeros((), device=device)
    n_correct = torch.zeros((), device=device, dtype=torch.long)
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.autocast(device_type=device, dtype=torch.bfloat16):
                logits = model(x)
                loss = crit(logits, y)
            opt.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
            epoch_loss = epoch_loss + loss.float()  # expect: TEN501
            detached_sum += loss.detach().float()  # ok
            n_correct += (logits.argmax(-1) == y).sum()  # ok
        print(epoch, (epoch_loss / len(loader)).item(), (detached_sum / len(loader)).item())
        epoch_loss = torch.zeros((), device=device)
        detached_sum.zero_()
    return model
