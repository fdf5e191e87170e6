"""Training loop for the tabular regressor."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from .callbacks import EarlyStopping, ModelCheckpoint


def fit(model, train_data, val_data, max_epochs=30, lr=1e-2):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    early_stopping = EarlyStopping(patience=4)
    ckpt = ModelCheckpoint()
    for epoch in range(max_epochs):
        model.train()
        for x, y in train_data:
            optimizer.zero_grad()
            F.mse_loss(model(x), y).backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            val = sum(F.mse_loss(model(x), y).item() for x, y in val_data)
        early_stopping.step(val, model)
        ckpt.step(-val, model)
        if early_stopping.should_stop:
            break
    model.load_state_dict(early_stopping.best_weights)
    return model, ckpt.best_state


if __name__ == "__main__":
    d = [(torch.randn(16, 4), torch.randn(16, 1)) for _ in range(4)]
    fit(nn.Linear(4, 1), d, d)
