# compare Adam moment estimates before/after a burst of extra steps
import io
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Linear(10, 10)
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
x = torch.randn(32, 10)
for _ in range(5):
    opt.zero_grad()
    m(x).pow(2).mean().backward()
    opt.step()

saved = opt.state_dict()  # expect: TEN402
buf = io.BytesIO()
torch.save(opt.state_dict(), buf)  # ok
snap_steps = [float(s["step"]) for s in opt.state_dict()["state"].values()]  # ok

for _ in range(5):
    opt.zero_grad()
    (m(x) - 1).pow(2).mean().backward()
    opt.step()

buf.seek(0)
disk = torch.load(buf)
now = opt.state_dict()
for k in now["state"]:
    d_mem = (now["state"][k]["exp_avg"] - saved["state"][k]["exp_avg"]).norm().item()
    d_disk = (now["state"][k]["exp_avg"] - disk["state"][k]["exp_avg"]).norm().item()
    print(f"param {k}: exp_avg moved {d_mem:.6f} (in-memory snapshot) {d_disk:.6f} (serialized)")
print("steps at snapshot", snap_steps)
