import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)

N_STATES, N_ACTIONS, GAMMA = 6, 3, 0.9
qnet = nn.Sequential(nn.Linear(N_STATES, 32), nn.ReLU(), nn.Linear(32, N_ACTIONS))
optimizer = torch.optim.Adam(qnet.parameters(), lr=1e-2)

# toy transitions: one-hot states, random actions/rewards, deterministic next state
S = torch.eye(N_STATES)[torch.randint(0, N_STATES, (256,))]
A = torch.randint(0, N_ACTIONS, (256,))
R = torch.randn(256)
S2 = torch.roll(S, 1, dims=1)
DONE = torch.rand(256) < 0.1

target_params = {k: v.detach() for k, v in qnet.named_parameters()}  # expect: TEN402
sync_every = 25
td_log = []
for it in range(100):
    idx = torch.randint(0, 256, (32,))
    with torch.no_grad():
        q_next = functional_call(qnet, target_params, (S2[idx],)).max(1).values
        tgt = R[idx] + GAMMA * q_next * (~DONE[idx])
    q = qnet(S[idx]).gather(1, A[idx, None]).squeeze(1)
    loss = nn.functional.smooth_l1_loss(q, tgt)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (it + 1) % sync_every == 0:
        target_params = {k: v.detach().clone() for k, v in qnet.named_parameters()}  # ok
        td_log.append(round(loss.item(), 6))

print("td loss at syncs", td_log)
with torch.no_grad():
    print(f"mean Q {qnet(torch.eye(N_STATES)).mean().item():.6f}")
