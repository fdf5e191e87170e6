"""FedAvg simulation where all clients reuse one model object."""
import copy
from collections import OrderedDict
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

global_model = nn.Linear(5, 2)
worker = nn.Linear(5, 2)
clients = [(torch.randn(12, 5), torch.randint(0, 2, (12,))) for _ in range(3)]

for rnd in range(2):
    updates, updates_ok = [], []
    for x, y in clients:
        worker.load_state_dict(global_model.state_dict())  # ok
        opt = torch.optim.SGD(worker.parameters(), lr=0.3)
        for _ in range(4):
            opt.zero_grad()
            nn.functional.cross_entropy(worker(x), y).backward()
            opt.step()
        updates.append(OrderedDict(worker.state_dict()))  # expect: TEN402
        updates_ok.append(copy.deepcopy(worker.state_dict()))  # ok
    avg = {k: sum(u[k] for u in updates_ok) / len(updates_ok) for k in updates_ok[0]}
    naive = {k: sum(u[k] for u in updates) / len(updates) for k in updates[0]}
    global_model.load_state_dict(avg)
    print(f"round {rnd}: naive-vs-true avg gap {(naive['weight'] - avg['weight']).abs().sum().item():.4f}")
