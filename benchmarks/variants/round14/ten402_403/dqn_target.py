"""DQN on a tiny random MDP with a functional target network."""
import random
from collections import deque

import torch
from torch import nn
from torch.func import functional_call


class ChainMDP:
    def __init__(self, n=6, seed=0):
        self.n, self.rng = n, random.Random(seed)
        self.s = 0

    def reset(self):
        self.s = 0
        return self.obs()

    def obs(self):
        return nn.functional.one_hot(torch.tensor(self.s), self.n).float()

    def step(self, a):
        self.s = min(self.s + 1, self.n - 1) if a == 1 else max(self.s - 1, 0)
        done = self.s == self.n - 1
        return self.obs(), float(done), done


class Agent:
    def __init__(self, n_obs, n_act, sync_every=10, clone_target=True):
        self.q = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU(), nn.Linear(32, n_act))
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-2)
        self.sync_every, self.clone_target, self.updates = sync_every, clone_target, 0
        self.sync()

    def sync(self):
        sd = self.q.state_dict()
        if self.clone_target:
            self.target = {k: v.detach().clone() for k, v in sd.items()}  # ok
        else:
            self.target = {k: v.detach() for k, v in sd.items()}  # expect: TEN402

    def act(self, obs, eps):
        if random.random() < eps:
            return random.randrange(2)
        with torch.no_grad():
            return int(self.q(obs).argmax())

    def learn(self, batch, gamma=0.9):
        obs, act, rew, nxt, done = map(torch.stack, zip(*batch))
        with torch.no_grad():
            target_q = functional_call(self.q, self.target, (nxt,)).max(1).values
            y = rew + gamma * (1 - done) * target_q
        q = self.q(obs).gather(1, act.long().unsqueeze(1)).squeeze(1)
        loss = nn.functional.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.sync()
        return loss.item()


def run(clone_target):
    torch.manual_seed(0)
    random.seed(0)
    env, agent, buf = ChainMDP(), Agent(6, 2, clone_target=clone_target), deque(maxlen=500)
    lag = []
    for ep in range(15):
        obs = env.reset()
        for t in range(20):
            a = agent.act(obs, eps=max(0.1, 1 - ep / 10))
            nxt, r, done = env.step(a)
            buf.append((obs, torch.tensor(float(a)), torch.tensor(r), nxt, torch.tensor(float(done))))
            obs = nxt
            if len(buf) >= 32:
                agent.learn(random.sample(buf, 32))
                w = agent.q.state_dict()["0.weight"]
                lag.append((w - agent.target["0.weight"]).abs().max().item())
            if done:
                break
    print(f"clone_target={clone_target}: mean online/target gap {sum(lag) / len(lag):.5f}")


if __name__ == "__main__":
    run(False)
    run(True)
