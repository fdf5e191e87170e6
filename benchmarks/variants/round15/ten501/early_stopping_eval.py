"""EarlyStopping helper fed by a validation function that forgot torch.no_grad()."""
import numpy as np
import torch
import torch.nn as nn


class EarlyStopping:
    """Stop training when validation loss has not improved for `patience` epochs."""

    def __init__(self, patience=3, delta=0.0):
        self.patience = patience
        self.delta = delta
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = np.inf
        self.scores = []

    def __call__(self, val_loss, model):
        score = -val_loss
        self.scores.append(score)
        if self.best_score is None or score > self.best_score + self.delta:
            self.best_score = score
            self.val_loss_min = val_loss
            self.best_state = {k: v.clone() for k, v in model.state_dict().items()}
            self.counter = 0
        else:
            self.counter += 1
            if self.counter >= self.patience:
                self.early_stop = True


def validate(model, batches, criterion):
    model.eval()
    total_loss = 0
    for x, y in batches:
        out = model(x)
        total_loss += criterion(out, y)  # expect: TEN501
    return total_loss / len(batches)


@torch.no_grad()
def validate_clean(model, batches, criterion):
    model.eval()
    losses = []
    for x, y in batches:
        losses.append(criterion(model(x), y).item())  # ok
    return float(np.mean(losses))


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 1))
    crit = nn.MSELoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    train = [(torch.randn(10, 5), torch.randn(10, 1)) for _ in range(4)]
    val = [(torch.randn(10, 5), torch.randn(10, 1)) for _ in range(5)]
    stopper = EarlyStopping(patience=2)
    clean_stopper = EarlyStopping(patience=2)
    avg_valid_losses = []
    for epoch in range(6):
        model.train()
        for x, y in train:
            opt.zero_grad()
            loss = crit(model(x), y)
            loss.backward()
            opt.step()
        valid_loss = validate(model, val, crit)
        avg_valid_losses.append(valid_loss)  # expect: TEN501
        stopper(valid_loss, model)  # expect: TEN501
        clean_stopper(validate_clean(model, val, crit), model)  # ok
        if stopper.early_stop:
            print("early stop at", epoch)
            break
    print(len(avg_valid_losses), clean_stopper.val_loss_min)


if __name__ == "__main__":
    main()
