"""DQN on a toy vectorised env: frame stack + target network (two target styles)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
N_ENVS, STACK, OBS = 4, 3, 5


class FrameStack:
    def __init__(self):
        self.frames = torch.zeros(N_ENVS, STACK, OBS)

    def push(self, obs):
        self.frames[:, :-1] = self.frames[:, 1:]  # expect: TEN403
        self.frames[:, -1] = obs  # ok
        return self.frames.flatten(1).clone()


class Agent:
    def __init__(self, style):
        self.policy = nn.Sequential(nn.Linear(STACK * OBS, 32), nn.ReLU(), nn.Linear(32, 2))
        self.target = nn.Sequential(nn.Linear(STACK * OBS, 32), nn.ReLU(), nn.Linear(32, 2))
        self.style = style
        self.frozen = None
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=1e-3)
        self.sync()

    def sync(self):
        if self.style == "functional":
            self.frozen = self.policy.state_dict()  # expect: TEN402
        else:
            self.target.load_state_dict(self.policy.state_dict())  # ok

    def target_q(self, obs):
        with torch.no_grad():
            if self.style == "functional":
                return functional_call(self.policy, self.frozen, (obs,))
            return self.target(obs)

    def learn(self, s, a, r, s2, gamma=0.99):
        q = self.policy(s).gather(1, a[:, None]).squeeze(1)
        y = r + gamma * self.target_q(s2).max(1).values
        loss = F.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    for style in ("functional", "module"):
        agent, stack = Agent(style), FrameStack()
        s = stack.push(torch.randn(N_ENVS, OBS))
        for t in range(30):
            a = torch.randint(0, 2, (N_ENVS,))
            s2 = stack.push(torch.randn(N_ENVS, OBS))
            loss = agent.learn(s, a, torch.randn(N_ENVS), s2)
            s = s2
            if t % 10 == 9:
                agent.sync()
        print(style, "final td loss", round(loss, 4))
