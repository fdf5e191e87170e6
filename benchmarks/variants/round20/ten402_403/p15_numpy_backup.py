"""Back up parameters as NumPy arrays before a risky fine-tuning phase."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Linear(6, 2)
x, y = torch.randn(30, 6), torch.randn(30, 2)

backup_view = {n: p.detach().numpy() for n, p in model.named_parameters()}  # expect: TEN402
backup_copy = {n: p.detach().numpy().copy() for n, p in model.named_parameters()}  # ok
backup_arr = {n: p.detach().numpy().astype(np.float64) for n, p in model.named_parameters()}  # ok
n_params = sum(a.size for a in backup_view.values())

opt = torch.optim.SGD(model.parameters(), lr=0.5)
for _ in range(10):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()

live = model.weight.detach().numpy()  # ok
print("params:", n_params)
print("view backup tracks live weights:", np.array_equal(backup_view["weight"], live))
print("copy backup tracks live weights:", np.array_equal(backup_copy["weight"], live))
print("astype backup tracks live weights:", np.array_equal(backup_arr["weight"], live))
