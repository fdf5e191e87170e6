"""Lightning-style module, driven by a small hand-written loop (no Lightning dependency)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    def __init__(self, backbone, num_classes, lr=1e-3):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(backbone.out_dim, num_classes)
        self.lr = lr
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.train_losses = []
        self.train_acc_parts = []
        self.logged = {}

    def forward(self, x):
        return self.head(self.backbone(x))

    def log(self, name, value):
        self.logged[name] = value.item() if torch.is_tensor(value) else value

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        preds = logits.argmax(dim=-1)
        self.training_step_outputs.append(logits)  # expect: TEN501
        self.train_losses.append(loss.detach())  # ok
        self.train_acc_parts.append((preds == y).float().mean())  # ok
        self.log("train_loss", loss)  # ok
        return loss

    def on_train_epoch_end(self):
        all_logits = torch.cat(self.training_step_outputs)
        self.log("train_logit_norm", all_logits.norm(dim=-1).mean())
        self.log("train_loss_epoch", torch.stack(self.train_losses).mean())
        self.training_step_outputs.clear()
        self.train_losses.clear()
        self.train_acc_parts.clear()

    @torch.no_grad()
    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.validation_step_outputs.append({"loss": loss, "logits": logits})  # ok
        return loss

    def on_validation_epoch_end(self):
        losses = torch.stack([o["loss"] for o in self.validation_step_outputs])
        self.log("val_loss", losses.mean())
        self.validation_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)


def fit(module, train_loader, val_loader, epochs):
    opt = module.configure_optimizers()
    last_losses = []
    for epoch in range(epochs):
        module.train()
        for i, batch in enumerate(train_loader):
            loss = module.training_step(batch, i)
            opt.zero_grad()
            loss.backward()
            opt.step()
            last_losses.append(loss.item())  # ok
        module.on_train_epoch_end()
        module.eval()
        for i, batch in enumerate(val_loader):
            module.validation_step(batch, i)
        module.on_validation_epoch_end()
        print(epoch, module.logged)
    return last_losses
