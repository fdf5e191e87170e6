"""Store reference weights as NumPy arrays to compare after fine-tuning."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(6, 3)
ref_np = {k: v.detach().numpy() for k, v in model.state_dict().items()}  # expect: TEN402
ref_np_copy = {k: v.detach().numpy().copy() for k, v in model.state_dict().items()}  # ok
ref_list = {k: v.tolist() for k, v in model.state_dict().items()}  # ok

opt = torch.optim.SGD(model.parameters(), lr=0.5)
x, y = torch.randn(12, 6), torch.randn(12, 3)
for _ in range(3):
    opt.zero_grad()
    ((model(x) - y) ** 2).mean().backward()
    opt.step()

now = {k: v.detach().numpy() for k, v in model.state_dict().items()}
print("max change vs numpy view: %.6f" % max(np.abs(now[k] - ref_np[k]).max() for k in now))
print("max change vs numpy copy: %.6f" % max(np.abs(now[k] - ref_np_copy[k]).max() for k in now))
print("max change vs list: %.6f" % max(np.abs(now[k] - np.array(ref_list[k])).max() for k in now))
