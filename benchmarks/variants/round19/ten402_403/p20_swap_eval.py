"""Swap in averaged weights for evaluation, then swap the training weights back."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Linear(4, 2)
avg = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
opt = torch.optim.SGD(model.parameters(), lr=0.2)
X, Y = torch.randn(20, 4), torch.randint(0, 2, (20,))

for step in range(1, 9):
    opt.zero_grad()
    nn.functional.cross_entropy(model(X), Y).backward()
    opt.step()
    with torch.no_grad():
        for k, v in model.state_dict().items():
            avg[k] += (v - avg[k]) / (step + 1)
    if step % 4 == 0:
        train_weights = model.state_dict()  # expect: TEN402
        train_weights_ok = {k: v.clone() for k, v in train_weights.items()}  # ok
        model.load_state_dict(avg)
        acc = (model(X).argmax(1) == Y).float().mean().item()
        model.load_state_dict(train_weights)
        naive_lost = torch.equal(model.weight.detach(), avg["weight"])
        model.load_state_dict(train_weights_ok)
        print(f"step {step}: eval acc with avg={acc:.3f}; naive swap-back kept avg weights: {naive_lost}")
