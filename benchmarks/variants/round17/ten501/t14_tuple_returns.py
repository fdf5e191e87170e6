"""Step functions that return (loss, accuracy) tuples."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def train_step(model, optimizer, xb, yb):
    model.train()
    logits = model(xb)
    loss = nn.functional.cross_entropy(logits, yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(-1) == yb).float().mean().item()
    return loss, acc


@torch.no_grad()
def eval_step(model, xb, yb):
    model.eval()
    logits = model(xb)
    return nn.functional.cross_entropy(logits, yb), (logits.argmax(-1) == yb).float().mean()


model = nn.Sequential(nn.Linear(9, 20), nn.ReLU(), nn.Dropout(0.1), nn.Linear(20, 4))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

step_log = []
step_log_plain = []
eval_log = []
for it in range(10):
    xb, yb = torch.randn(16, 9), torch.randint(0, 4, (16,))
    loss, acc = train_step(model, optimizer, xb, yb)
    step_log.append((loss, acc))  # expect: TEN501
    step_log_plain.append((loss.item(), acc))  # ok
    if it % 2 == 1:
        eval_log.append(eval_step(model, xb, yb))  # ok

print(len(step_log), step_log_plain[-1], eval_log[-1][0].item())
