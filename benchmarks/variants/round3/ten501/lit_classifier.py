import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import lightning.pytorch as pl
from torch.optim.lr_scheduler import OneCycleLR
from torchmetrics.functional import accuracy


def create_model(num_classes=10):
    model = torchvision.models.resnet18(weights=None, num_classes=num_classes)
    model.conv1 = nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1, bias=False)
    model.maxpool = nn.Identity()
    return model


class LitResnet(pl.LightningModule):
    def __init__(self, lr=0.05, num_classes=10, steps_per_epoch=196):
        super().__init__()
        self.save_hyperparameters()
        self.model = create_model(num_classes)
        self.training_step_outputs = []

    def forward(self, x):
        out = self.model(x)
        return F.log_softmax(out, dim=1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.nll_loss(logits, y)
        self.log("train_loss", loss, prog_bar=True)
        self.training_step_outputs.append(loss)  # expect: TEN501
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        self.log("train_loss_epoch", epoch_mean)
        self.training_step_outputs.clear()

    def evaluate(self, batch, stage=None):
        x, y = batch
        logits = self(x)
        loss = F.nll_loss(logits, y)
        preds = torch.argmax(logits, dim=1)
        acc = accuracy(preds, y, task="multiclass", num_classes=self.hparams.num_classes)
        if stage:
            self.log(f"{stage}_loss", loss, prog_bar=True)
            self.log(f"{stage}_acc", acc, prog_bar=True)

    def validation_step(self, batch, batch_idx):
        self.evaluate(batch, "val")

    def test_step(self, batch, batch_idx):
        self.evaluate(batch, "test")

    def configure_optimizers(self):
        optimizer = torch.optim.SGD(
            self.parameters(), lr=self.hparams.lr, momentum=0.9, weight_decay=5e-4
        )
        scheduler = OneCycleLR(
            optimizer,
            0.1,
            epochs=self.trainer.max_epochs,
            steps_per_epoch=self.hparams.steps_per_epoch,
        )
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "interval": "step"}}


if __name__ == "__main__":
    from lightning.pytorch.callbacks import LearningRateMonitor
    from torch.utils.data import DataLoader
    from torchvision import datasets, transforms

    tf = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.RandomHorizontalFlip(),
                             transforms.ToTensor()])
    train_ds = datasets.CIFAR10("data", train=True, download=True, transform=tf)
    val_ds = datasets.CIFAR10("data", train=False, download=True, transform=transforms.ToTensor())
    model = LitResnet(lr=0.05, steps_per_epoch=len(train_ds) // 256 + 1)
    trainer = pl.Trainer(max_epochs=30, accelerator="auto", devices=1,
                         callbacks=[LearningRateMonitor(logging_interval="step")])
    trainer.fit(model, DataLoader(train_ds, batch_size=256, shuffle=True, num_workers=4),
                DataLoader(val_ds, batch_size=512, num_workers=4))
