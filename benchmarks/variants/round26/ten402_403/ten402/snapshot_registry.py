import io
import torch
import torch.nn as nn

torch.manual_seed(0)

SNAPSHOTS = {}


def register(name, state):
    SNAPSHOTS[name] = state


def restore(model, name):
    obj = SNAPSHOTS[name]
    if isinstance(obj, (bytes, bytearray)):
        obj = torch.load(io.BytesIO(obj))
    model.load_state_dict(obj)


def serialize(state):
    buf = io.BytesIO()
    torch.save(state, buf)
    return buf.getvalue()


net = nn.Sequential(nn.Linear(3, 16), nn.Sigmoid(), nn.Linear(16, 1))
X = torch.randn(80, 3)
Y = (X ** 2).sum(1, keepdim=True)
opt = torch.optim.SGD(net.parameters(), lr=0.2)

register("init", serialize(net.state_dict()))  # ok
for phase in range(3):
    for _ in range(15):
        opt.zero_grad()
        nn.functional.mse_loss(net(X), Y).backward()
        opt.step()
    SNAPSHOTS[f"phase{phase}"] = net.state_dict()  # expect: TEN402

for name in ["init", "phase0", "phase1", "phase2"]:
    restore(net, name)
    with torch.no_grad():
        print(f"{name}: loss {nn.functional.mse_loss(net(X), Y).item():.6f}")
