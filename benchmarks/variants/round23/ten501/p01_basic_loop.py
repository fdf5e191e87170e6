"""Plain supervised loop with several running statistics."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()
data = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(5)]

running_loss = 0.0
epoch_loss = 0.0
losses = []
history = []
n_correct = 0
for epoch in range(2):
    for x, y in data:
        opt.zero_grad()
        logits = model(x)
        loss = crit(logits, y)
        loss.backward()
        opt.step()
        running_loss += loss  # expect: TEN501
        epoch_loss += loss.item()  # ok
        losses.append(loss)  # expect: TEN501
        history.append(loss.detach())  # ok
        n_correct += (logits.argmax(dim=1) == y).sum()  # ok
print("avg", float(running_loss) / len(losses), epoch_loss, int(n_correct), len(history))
