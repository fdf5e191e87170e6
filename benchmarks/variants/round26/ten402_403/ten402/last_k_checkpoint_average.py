import copy
import torch
import torch.nn as nn

torch.manual_seed(0)

vocab, dim = 20, 8
model = nn.Sequential(nn.Embedding(vocab, dim), nn.Flatten(), nn.Linear(4 * dim, vocab))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
seqs = torch.randint(0, vocab, (256, 5))
inp, tgt = seqs[:, :4], seqs[:, 4]

keep = 4
recent = []
recent_np = []
first_np = None
for epoch in range(12):
    for i in range(0, 256, 64):
        opt.zero_grad()
        nn.functional.cross_entropy(model(inp[i:i + 64]), tgt[i:i + 64]).backward()
        opt.step()
    recent.append(copy.copy(model.state_dict()))  # expect: TEN402
    recent_np.append({k: v.numpy() for k, v in model.state_dict().items()})  # expect: TEN402
    if first_np is None:
        first_np = {k: v.numpy().copy() for k, v in model.state_dict().items()}  # ok
    recent, recent_np = recent[-keep:], recent_np[-keep:]

avg = {k: sum(sd[k] for sd in recent) / len(recent) for k in recent[0]}
avg_np = {k: torch.from_numpy(sum(sd[k] for sd in recent_np) / len(recent_np)) for k in recent_np[0]}
probe = copy.deepcopy(model)
with torch.no_grad():
    print(f"last     {nn.functional.cross_entropy(model(inp), tgt).item():.6f}")
    probe.load_state_dict(avg)
    print(f"avg      {nn.functional.cross_entropy(probe(inp), tgt).item():.6f}")
    probe.load_state_dict(avg_np)
    print(f"avg (np) {nn.functional.cross_entropy(probe(inp), tgt).item():.6f}")
    probe.load_state_dict({k: torch.from_numpy(v) for k, v in first_np.items()})
    print(f"epoch 0  {nn.functional.cross_entropy(probe(inp), tgt).item():.6f}")
