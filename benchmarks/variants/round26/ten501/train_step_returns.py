"""train_step() returns the loss; the epoch loop sums what it gets back."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def train_step(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def train_step_scalar(model, optimizer, batch):
    return train_step(model, optimizer, batch).item()


def run_epoch(model, optimizer, loader, scalar):
    epoch_loss = 0
    for batch in loader:
        if scalar:
            epoch_loss += train_step_scalar(model, optimizer, batch)  # ok
        else:
            epoch_loss += train_step(model, optimizer, batch)  # expect: TEN501
    return epoch_loss / len(loader)


def loader(n=6):
    g = torch.Generator().manual_seed(3)
    out = []
    for _ in range(n):
        x = torch.randn(10, 8, generator=g)
        out.append((x, x[:, :2].sum(1, keepdim=True)))
    return out


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = loader()
for epoch in range(2):
    a = run_epoch(model, opt, data, scalar=False)
    b = run_epoch(model, opt, data, scalar=True)
    print(f"epoch {epoch} tensor-sum {float(a):.4f} float-sum {b:.4f}")
