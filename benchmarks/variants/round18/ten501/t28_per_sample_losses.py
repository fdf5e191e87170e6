"""Per-example losses (reduction='none') tracked for hard-example mining."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N = 12
data = torch.randn(N, 5)
labels = torch.randint(0, 3, (N,))
model = nn.Linear(5, 3)
criterion = nn.CrossEntropyLoss(reduction="none")
opt = torch.optim.SGD(model.parameters(), lr=0.1)

per_example = {}
per_example_values = {}
hard_examples = []
loss_table = torch.zeros(N)
seen_counts = torch.zeros(N, dtype=torch.long)
threshold = 1.0
for epoch in range(2):
    perm = torch.randperm(N)
    for start in range(0, N, 4):
        idx = perm[start:start + 4]
        losses = criterion(model(data[idx]), labels[idx])
        loss = losses.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        for i, l in zip(idx.tolist(), losses):
            per_example[i] = l  # expect: TEN501
            per_example_values[i] = l.item()  # ok
        hard_examples.extend(losses[losses > threshold])  # expect: TEN501
        loss_table[idx] = losses.detach()  # ok
        seen_counts[idx] += 1  # ok

hardest = sorted(per_example_values, key=per_example_values.get)[-3:]
print("hardest:", hardest, "hard count:", len(hard_examples), "seen:", seen_counts.tolist())
