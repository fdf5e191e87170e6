"""Classification epochs that keep running totals (`total_loss += loss`)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Linear(6, 3)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
batches = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(3)]

total_loss = 0
total_loss_value = 0.0
correct = 0
seen = 0
for epoch in range(2):
    running = 0.0
    epoch_loss_sum = torch.zeros(())
    for xb, yb in batches:
        opt.zero_grad()
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        loss.backward()
        opt.step()

        total_loss += loss  # expect: TEN501
        running = running + loss  # expect: TEN501
        total_loss_value += loss.item()  # ok
        correct += (logits.argmax(dim=1) == yb).sum()  # ok
        seen += yb.numel()  # ok
        epoch_loss_sum = epoch_loss_sum + loss.detach()  # ok
    print(f"epoch {epoch}: running {running.item() / len(batches):.4f} "
          f"detached {epoch_loss_sum.item() / len(batches):.4f}")

print(f"total {float(total_loss):.4f} / {total_loss_value:.4f}, acc {int(correct) / seen:.3f}")
