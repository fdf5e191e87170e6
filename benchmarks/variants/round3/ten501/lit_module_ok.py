import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torchmetrics.classification import MulticlassAccuracy, MulticlassF1Score


class TextCNN(nn.Module):
    def __init__(self, vocab_size, emb_dim=300, n_filters=100, kernel_sizes=(3, 4, 5), n_classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(emb_dim, n_filters, k) for k in kernel_sizes])
        self.drop = nn.Dropout(0.5)
        self.fc = nn.Linear(n_filters * len(kernel_sizes), n_classes)

    def forward(self, ids):
        x = self.emb(ids).transpose(1, 2)
        x = torch.cat([F.relu(c(x)).max(dim=2).values for c in self.convs], dim=1)
        return self.fc(self.drop(x))


class LitTextClassifier(L.LightningModule):
    def __init__(self, vocab_size, n_classes=5, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.net = TextCNN(vocab_size, n_classes=n_classes)
        self.train_acc = MulticlassAccuracy(num_classes=n_classes)
        self.val_f1 = MulticlassF1Score(num_classes=n_classes, average="macro")
        self.training_step_outputs = []
        self.validation_step_outputs = []

    def forward(self, ids):
        return self.net(ids)

    def training_step(self, batch, batch_idx):
        ids, y = batch
        logits = self(ids)
        loss = F.cross_entropy(logits, y)
        self.train_acc(logits.argmax(-1), y)
        self.log("train/loss", loss, on_step=True, on_epoch=True, prog_bar=True)
        self.log("train/acc", self.train_acc, on_step=False, on_epoch=True)
        self.training_step_outputs.append(loss.detach())
        return loss

    def on_train_epoch_end(self):
        mean_loss = torch.stack(self.training_step_outputs).mean()
        self.print(f"epoch {self.current_epoch}: mean train loss {mean_loss:.4f}")
        self.training_step_outputs.clear()

    def validation_step(self, batch, batch_idx):
        ids, y = batch
        logits = self(ids)
        loss = F.cross_entropy(logits, y)
        self.validation_step_outputs.append({"loss": loss, "logits": logits, "y": y})
        return loss

    def on_validation_epoch_end(self):
        outs = self.validation_step_outputs
        loss = torch.stack([o["loss"] for o in outs]).mean()
        logits = torch.cat([o["logits"] for o in outs])
        y = torch.cat([o["y"] for o in outs])
        self.log("val/loss", loss, prog_bar=True)
        self.log("val/f1", self.val_f1(logits.argmax(-1), y), prog_bar=True)
        self.validation_step_outputs.clear()

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        ids, _ = batch
        return F.softmax(self(ids), dim=-1)

    def configure_optimizers(self):
        opt = torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
        sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "monitor": "val/loss"}}


if __name__ == "__main__":
    from datamodule import SSTDataModule  # project-local

    dm = SSTDataModule(batch_size=64)
    dm.setup("fit")
    model = LitTextClassifier(vocab_size=dm.vocab_size)
    trainer = L.Trainer(max_epochs=10, accelerator="auto", gradient_clip_val=1.0)
    trainer.fit(model, datamodule=dm)
    preds = trainer.predict(model, dataloaders=dm.test_dataloader())
