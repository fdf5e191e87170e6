import torch

torch.manual_seed(0)

num_envs, hist_len, obs_dim = 4, 6, 3
history = torch.zeros(num_envs, hist_len, obs_dim)
history_ref = torch.zeros(num_envs, hist_len, obs_dim)

for step in range(10):
    obs = torch.randn(num_envs, obs_dim) + step
    # newest observation first
    history[:, 1:] = history[:, :-1]  # expect: TEN403
    history[:, 0] = obs  # ok
    history_ref = torch.roll(history_ref, shifts=1, dims=1)  # ok
    history_ref[:, 0] = obs  # ok

print("per-slot mean (in place):", [round(v, 4) for v in history.mean((0, 2)).tolist()])
print("per-slot mean (roll):    ", [round(v, 4) for v in history_ref.mean((0, 2)).tolist()])
print("max abs diff", round((history - history_ref).abs().max().item(), 4))
