"""Keyword spotting on Speech Commands with an M5-style 1-D CNN."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchaudio
from torch.utils.data import DataLoader


class M5(nn.Module):
    def __init__(self, n_input=1, n_output=35, stride=16, n_channel=32):
        super().__init__()
        self.conv1 = nn.Conv1d(n_input, n_channel, kernel_size=80, stride=stride)
        self.bn1 = nn.BatchNorm1d(n_channel)
        self.conv2 = nn.Conv1d(n_channel, n_channel, kernel_size=3)
        self.bn2 = nn.BatchNorm1d(n_channel)
        self.conv3 = nn.Conv1d(n_channel, 2 * n_channel, kernel_size=3)
        self.bn3 = nn.BatchNorm1d(2 * n_channel)
        self.conv4 = nn.Conv1d(2 * n_channel, 2 * n_channel, kernel_size=3)
        self.bn4 = nn.BatchNorm1d(2 * n_channel)
        self.fc1 = nn.Linear(2 * n_channel, n_output)

    def forward(self, x):
        for conv, bn in ((self.conv1, self.bn1), (self.conv2, self.bn2),
                         (self.conv3, self.bn3), (self.conv4, self.bn4)):
            x = F.max_pool1d(F.relu(bn(conv(x))), 4)
        x = F.avg_pool1d(x, x.shape[-1]).squeeze(-1)
        return self.fc1(x)


def pad_collate(batch, labels):
    waves = [w.t() for w, _, label, *_ in batch]
    targets = torch.tensor([labels.index(label) for _, _, label, *_ in batch])
    waves = nn.utils.rnn.pad_sequence(waves, batch_first=True).permute(0, 2, 1)
    return waves, targets


def run_epoch(model, loader, criterion, optimizer=None, transform=None, device="cpu"):
    train = optimizer is not None
    model.train(train)
    epoch_losses = []
    n_correct, n = 0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        if transform is not None:
            x = transform(x)
        with torch.set_grad_enabled(train):
            out = model(x)
            loss = criterion(out, y)
            if train:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        epoch_losses.append(loss)  # expect: TEN501
        n_correct += (out.argmax(1) == y).sum().item()  # ok
        n += y.size(0)
    return torch.stack(epoch_losses).mean().item(), n_correct / n


def main(epochs=30, device="cuda"):
    train_set = torchaudio.datasets.SPEECHCOMMANDS("./data", download=True, subset="training")
    val_set = torchaudio.datasets.SPEECHCOMMANDS("./data", download=True, subset="validation")
    labels = sorted({item[2] for item in val_set})
    collate = lambda b: pad_collate(b, labels)  # noqa: E731
    train_loader = DataLoader(train_set, batch_size=256, shuffle=True, collate_fn=collate, num_workers=4)
    val_loader = DataLoader(val_set, batch_size=256, collate_fn=collate, num_workers=4)

    resample = torchaudio.transforms.Resample(16000, 8000).to(device)
    model = M5(n_output=len(labels)).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.1)
    for epoch in range(epochs):
        tr_loss, tr_acc = run_epoch(model, train_loader, criterion, optimizer, resample, device)
        va_loss, va_acc = run_epoch(model, val_loader, criterion, None, resample, device)
        scheduler.step()
        print(f"epoch {epoch}: train {tr_loss:.4f}/{tr_acc:.3f} val {va_loss:.4f}/{va_acc:.3f}")
