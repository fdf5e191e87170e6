"""Early stopping helper with optional best-weight restore (Keras-style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EarlyStopping:
    """Stops training when a monitored loss has stopped improving."""

    def __init__(self, patience=7, min_delta=0.0, restore_best_weights=True,
                 checkpoint_path=None, verbose=False):
        self.patience = patience
        self.min_delta = min_delta
        self.restore_best_weights = restore_best_weights
        self.checkpoint_path = checkpoint_path
        self.verbose = verbose
        self.counter = 0
        self.best_score = None
        self.best_state = None
        self.early_stop = False

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None or score > self.best_score + self.min_delta:
            self.best_score = score
            self.counter = 0
            self.best_state = model.state_dict()  # expect: TEN402
            if self.checkpoint_path is not None:
                torch.save(model.state_dict(), self.checkpoint_path)  # ok
            if self.verbose:
                print(f"validation loss improved to {val_loss:.6f}")
        else:
            self.counter += 1
            if self.verbose:
                print(f"EarlyStopping counter: {self.counter} out of {self.patience}")
            if self.counter >= self.patience:
                self.early_stop = True

    def restore(self, model):
        if self.restore_best_weights and self.best_state is not None:
            model.load_state_dict(self.best_state)


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        return F.mse_loss(model(x), y).item()


def main(epochs=60):
    torch.manual_seed(0)
    x_train = torch.randn(64, 8)
    y_train = x_train @ torch.randn(8, 1) + 0.1 * torch.randn(64, 1)
    x_val = torch.randn(32, 8)
    y_val = x_val @ torch.randn(8, 1)  # shifted task: val loss turns around quickly
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    stopper = EarlyStopping(patience=3)
    for epoch in range(epochs):
        model.train()
        opt.zero_grad()
        loss = F.mse_loss(model(x_train), y_train)
        loss.backward()
        opt.step()
        stopper(evaluate(model, x_val, y_val), model)
        if stopper.early_stop:
            print(f"early stop at epoch {epoch}")
            break
    stopper.restore(model)
    print(f"best val {-stopper.best_score:.4f}, restored model val {evaluate(model, x_val, y_val):.4f}")
    return model, stopper, (x_val, y_val)


if __name__ == "__main__":
    main()
