import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, random_split

from datasets import ECGDataset


class EarlyStopping:
    """Early stops the training if validation loss doesn't improve after a given patience."""

    def __init__(self, patience=7, verbose=False, delta=0.0, trace_func=print):
        self.patience = patience
        self.verbose = verbose
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = np.inf
        self.delta = delta
        self.trace_func = trace_func
        self.best_state = None

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
        elif score < self.best_score + self.delta:
            self.counter += 1
            self.trace_func(f"EarlyStopping counter: {self.counter} out of {self.patience}")
            if self.counter >= self.patience:
                self.early_stop = True
        else:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
            self.counter = 0

    def save_checkpoint(self, val_loss, model):
        if self.verbose:
            self.trace_func(f"Validation loss decreased ({self.val_loss_min:.6f} --> {val_loss:.6f}). Keeping model ...")
        self.best_state = model.state_dict()  # expect: TEN402
        self.val_loss_min = val_loss


class ECGNet(nn.Module):
    def __init__(self, n_leads=12, n_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(n_leads, 64, 7, padding=3), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(64, 128, 5, padding=2), nn.BatchNorm1d(128), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(128, 128, 3, padding=1), nn.BatchNorm1d(128), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.head = nn.Linear(128, n_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def train_model(model, patience, n_epochs, device="cuda"):
    ds = ECGDataset("data/ptbxl")
    n_val = len(ds) // 10
    train_ds, valid_ds = random_split(ds, [len(ds) - n_val, n_val])
    train_loader = DataLoader(train_ds, batch_size=128, shuffle=True, num_workers=4)
    valid_loader = DataLoader(valid_ds, batch_size=256)

    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    early_stopping = EarlyStopping(patience=patience, verbose=True)
    model.to(device)

    for epoch in range(1, n_epochs + 1):
        model.train()
        for data, target in train_loader:
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            loss = criterion(model(data), target)
            loss.backward()
            optimizer.step()

        model.eval()
        valid_losses = []
        with torch.no_grad():
            for data, target in valid_loader:
                data, target = data.to(device), target.to(device)
                valid_losses.append(criterion(model(data), target).item())
        valid_loss = float(np.mean(valid_losses))
        print(f"[{epoch}/{n_epochs}] valid_loss: {valid_loss:.5f}")

        early_stopping(valid_loss, model)
        if early_stopping.early_stop:
            print("Early stopping")
            break

    model.load_state_dict(early_stopping.best_state)
    return model


if __name__ == "__main__":
    net = train_model(ECGNet(), patience=10, n_epochs=100)
    torch.save(net.state_dict(), "ecgnet_best.pt")
