"""DQN with a prioritized replay buffer; TD errors update priorities."""
import random
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)


class PrioritizedReplay:
    def __init__(self, cap):
        self.cap = cap
        self.data = []
        self.prios = []

    def push(self, *transition):
        if len(self.data) >= self.cap:
            self.data.pop(0)
            self.prios.pop(0)
        self.data.append(transition)
        self.prios.append(max(self.prios, default=1.0))

    def sample(self, n):
        idx = random.choices(range(len(self.data)), weights=[float(p) for p in self.prios], k=n)
        return idx, [torch.stack(col) if torch.is_tensor(col[0]) else torch.tensor(col)
                     for col in zip(*[self.data[i] for i in idx])]

    def update_priorities(self, idx, errors):
        for i, e in zip(idx, errors):
            self.prios[i] = abs(e) + 1e-3


class QAgent:
    def __init__(self):
        self.q = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 2))
        self.target = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 2))
        self.target.load_state_dict(self.q.state_dict())
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)
        self.q_log = []
        self.max_q_seen = []

    def act(self, s):
        q = self.q(s)
        self.q_log.append(q.max())  # expect: TEN501
        return int(q.argmax())

    def learn(self, rb, n=8, gamma=0.9):
        idx, (s, a, r, s2) = rb.sample(n)
        q = self.q(s).gather(1, a.view(-1, 1)).squeeze(1)
        with torch.no_grad():
            tgt = r + gamma * self.target(s2).max(1).values
            self.max_q_seen.append(self.target(s2).max())  # ok
        td = tgt - q
        loss = (td ** 2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return idx, td, loss


rb = PrioritizedReplay(50)
rb_ok = PrioritizedReplay(50)
agent = QAgent()
s = torch.randn(3)
for t in range(12):
    a = agent.act(s) if random.random() > 0.2 else random.randint(0, 1)
    s2 = torch.randn(3)
    r = float(s2[0] > 0)
    rb.push(s, a, r, s2)  # ok
    rb_ok.push(s, a, r, s2)  # ok
    s = s2
    if t >= 3:
        idx, td, loss = agent.learn(rb)
        rb.update_priorities(idx, td)  # expect: TEN501
        idx2, td2, _ = agent.learn(rb_ok)
        rb_ok.update_priorities(idx2, td2.detach().tolist())  # ok
print("loss", round(loss.item(), 4), "q", round(agent.q_log[-1].item(), 4), "prio", round(float(rb_ok.prios[-1]), 4))
