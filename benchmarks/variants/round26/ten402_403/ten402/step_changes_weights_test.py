import torch
import torch.nn as nn

torch.manual_seed(0)

# quick sanity test in the style of "make sure every parameter gets updated"
model = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 2))
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
tokens = torch.randint(0, 10, (8, 3))
target = torch.randint(0, 2, (8,))

emb_before = model[0].weight.data  # expect: TEN402
head_before = model[2].weight.detach().clone()  # ok
bias_before = model[2].bias.data  # ok
print("bias before", [round(v, 6) for v in bias_before.tolist()])

loss = nn.functional.cross_entropy(model(tokens), target)
opt.zero_grad()
loss.backward()
opt.step()

print("embedding changed:", not torch.equal(emb_before, model[0].weight))
print("head changed:", not torch.equal(head_before, model[2].weight))
used = tokens.unique()
print(f"mean |delta| on used rows {(emb_before[used] - model[0].weight[used]).abs().mean().item():.6f}")
print(f"mean |delta| head {(head_before - model[2].weight).abs().mean().item():.6f}")
