"""n-step return computation over a rollout buffer (envs, steps)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

ENVS, STEPS, GAMMA = 3, 6, 0.9
rewards = torch.randn(ENVS, STEPS)
dones = torch.zeros(ENVS, STEPS)
dones[1, 3] = 1.0  # ok

# backward recursion written with a whole-slice update
ret = rewards.clone()  # ok
ret[:, :-1].addcmul_(ret[:, 1:], 1 - dones[:, :-1], value=GAMMA)  # expect: TEN403

# reference loop
ref = rewards.clone()  # ok
for t in reversed(range(STEPS - 1)):
    ref[:, t] += GAMMA * (1 - dones[:, t]) * ref[:, t + 1]  # ok

# 2-step returns only need the original next rewards: read them from the clean copy
two = rewards.clone()  # ok
two[:, :-1] += GAMMA * (1 - dones[:, :-1]) * rewards[:, 1:]  # ok

print("vectorised recursion equals loop:", torch.allclose(ret, ref), (ret - ref).abs().max().item())
print("two-step returns", two[0].tolist())
