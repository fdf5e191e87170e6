import argparse

import lightning.pytorch as pl
import timm
import torch
import torch.nn.functional as F
from lightning.pytorch.callbacks import LearningRateMonitor, ModelCheckpoint
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class LitClassifier(pl.LightningModule):
    def __init__(self, arch="resnet34", num_classes=102, lr=1e-3, weight_decay=0.05, label_smoothing=0.1):
        super().__init__()
        self.save_hyperparameters()
        self.net = timm.create_model(arch, pretrained=True, num_classes=num_classes)
        self.training_step_outputs = []
        self.validation_step_outputs = []

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y, label_smoothing=self.hparams.label_smoothing)
        self.training_step_outputs.append(loss)  # expect: TEN501
        self.log("train/loss", loss, prog_bar=True)
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        self.log("train/epoch_loss", epoch_mean)
        self.training_step_outputs.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.validation_step_outputs.append({"loss": loss, "preds": logits.argmax(dim=1), "target": y})  # ok

    def on_validation_epoch_end(self):
        outs = self.validation_step_outputs
        preds = torch.cat([o["preds"] for o in outs])
        target = torch.cat([o["target"] for o in outs])
        self.log("val/loss", torch.stack([o["loss"] for o in outs]).mean(), prog_bar=True)
        self.log("val/acc", (preds == target).float().mean(), prog_bar=True)
        self.validation_step_outputs.clear()

    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr, weight_decay=self.hparams.weight_decay)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.hparams.lr,
                                                    total_steps=self.trainer.estimated_stepping_batches)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}


class FlowersDataModule(pl.LightningDataModule):
    def __init__(self, root="data", batch_size=64, num_workers=8):
        super().__init__()
        self.root, self.batch_size, self.num_workers = root, batch_size, num_workers
        norm = transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
        self.train_tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(),
                                            transforms.ToTensor(), norm])
        self.eval_tf = transforms.Compose([transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor(), norm])

    def setup(self, stage=None):
        self.train_ds = datasets.Flowers102(self.root, split="train", transform=self.train_tf, download=True)
        self.val_ds = datasets.Flowers102(self.root, split="val", transform=self.eval_tf, download=True)

    def train_dataloader(self):
        return DataLoader(self.train_ds, batch_size=self.batch_size, shuffle=True, num_workers=self.num_workers)

    def val_dataloader(self):
        return DataLoader(self.val_ds, batch_size=self.batch_size, num_workers=self.num_workers)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="resnet34")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--devices", type=int, default=1)
    args = parser.parse_args()

    model = LitClassifier(arch=args.arch)
    dm = FlowersDataModule()
    trainer = pl.Trainer(
        max_epochs=args.epochs,
        accelerator="gpu",
        devices=args.devices,
        precision="16-mixed",
        callbacks=[ModelCheckpoint(monitor="val/acc", mode="max"), LearningRateMonitor("step")],
    )
    trainer.fit(model, datamodule=dm)
