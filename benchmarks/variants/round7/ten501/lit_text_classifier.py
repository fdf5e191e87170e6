import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchmetrics
from lightning.pytorch.callbacks import EarlyStopping, ModelCheckpoint
from torch.utils.data import DataLoader


class ConvTextEncoder(nn.Module):
    def __init__(self, vocab_size, emb_dim=128, n_filters=100, kernel_sizes=(3, 4, 5), dropout=0.5):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(emb_dim, n_filters, k) for k in kernel_sizes])
        self.dropout = nn.Dropout(dropout)
        self.out_dim = n_filters * len(kernel_sizes)

    def forward(self, tokens):
        x = self.embedding(tokens).transpose(1, 2)
        pooled = [F.relu(conv(x)).max(dim=2).values for conv in self.convs]
        return self.dropout(torch.cat(pooled, dim=1))


class LitTextClassifier(L.LightningModule):
    def __init__(self, vocab_size, num_classes, lr=1e-3, weight_decay=1e-4):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = ConvTextEncoder(vocab_size)
        self.head = nn.Linear(self.encoder.out_dim, num_classes)
        self.train_acc = torchmetrics.Accuracy(task="multiclass", num_classes=num_classes)
        self.val_f1 = torchmetrics.F1Score(task="multiclass", num_classes=num_classes, average="macro")
        self.training_step_outputs = []
        self.validation_step_outputs = []

    def forward(self, tokens):
        return self.head(self.encoder(tokens))

    def training_step(self, batch, batch_idx):
        tokens, labels = batch
        logits = self(tokens)
        loss = F.cross_entropy(logits, labels)
        self.train_acc(logits, labels)
        self.log("train/loss", loss, prog_bar=True)
        self.log("train/acc", self.train_acc, on_step=False, on_epoch=True)
        self.training_step_outputs.append({"loss": loss, "n": tokens.size(0)})  # expect: TEN501
        return loss

    def on_train_epoch_end(self):
        total = sum(o["loss"] * o["n"] for o in self.training_step_outputs)
        count = sum(o["n"] for o in self.training_step_outputs)
        self.log("train/epoch_loss", total / count)
        self.training_step_outputs.clear()

    def validation_step(self, batch, batch_idx):
        tokens, labels = batch
        logits = self(tokens)
        loss = F.cross_entropy(logits, labels)
        self.val_f1.update(logits, labels)
        self.validation_step_outputs.append({"loss": loss.detach(), "preds": logits.argmax(-1), "labels": labels})  # ok
        self.log("val/loss", loss, prog_bar=True)

    def on_validation_epoch_end(self):
        preds = torch.cat([o["preds"] for o in self.validation_step_outputs])
        labels = torch.cat([o["labels"] for o in self.validation_step_outputs])
        per_class = torch.bincount(labels[preds == labels], minlength=self.hparams.num_classes)
        self.log("val/f1", self.val_f1.compute())
        self.log("val/min_class_hits", per_class.min().float())
        self.val_f1.reset()
        self.validation_step_outputs.clear()

    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr, weight_decay=self.hparams.weight_decay)
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=self.trainer.max_epochs)
        return {"optimizer": opt, "lr_scheduler": sched}


def main():
    from data import AGNewsDataModule

    dm = AGNewsDataModule(batch_size=64, max_len=256)
    dm.prepare_data()
    dm.setup("fit")
    model = LitTextClassifier(vocab_size=dm.vocab_size, num_classes=4)
    trainer = L.Trainer(
        max_epochs=20,
        accelerator="auto",
        callbacks=[EarlyStopping("val/loss", patience=3), ModelCheckpoint(monitor="val/f1", mode="max")],
        log_every_n_steps=25,
    )
    trainer.fit(model, datamodule=dm)


if __name__ == "__main__":
    main()
