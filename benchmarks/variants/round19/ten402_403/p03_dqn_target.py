"""DQN-style target network kept as a frozen state dict."""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

q_net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
target_net = copy.deepcopy(q_net)  # ok
frozen = dict(q_net.state_dict())  # expect: TEN402
opt = torch.optim.Adam(q_net.parameters(), lr=1e-2)
gamma = 0.9
SYNC_EVERY = 5

for it in range(1, 13):
    s = torch.randn(16, 4)
    a = torch.randint(0, 2, (16,))
    r = torch.randn(16)
    s2 = torch.randn(16, 4)
    with torch.no_grad():
        tgt = r + gamma * target_net(s2).max(1).values
    q = q_net(s).gather(1, a[:, None]).squeeze(1)
    loss = nn.functional.smooth_l1_loss(q, tgt)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % SYNC_EVERY == 0:
        target_net.load_state_dict(q_net.state_dict())  # ok
        drift = sum((frozen[k] - v).abs().sum().item() for k, v in q_net.state_dict().items())
        print(f"it={it} loss={loss.item():.4f} drift-vs-frozen={drift:.4f}")
