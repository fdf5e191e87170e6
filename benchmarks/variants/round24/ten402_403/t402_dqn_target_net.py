"""DQN with a target network refreshed every N steps (functional target params)."""
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, gamma=0.9, functional_target=True):
        self.q = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.target = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.functional_target = functional_target
        self.gamma = gamma
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-2)
        self.sync()

    def sync(self):
        if self.functional_target:
            self.target_params = self.q.state_dict()  # expect: TEN402
        else:
            self.target.load_state_dict(self.q.state_dict())  # ok

    @torch.no_grad()
    def target_q(self, obs):
        if self.functional_target:
            return functional_call(self.q, self.target_params, (obs,))
        return self.target(obs)

    def learn(self, obs, act, rew, nxt, done):
        q = self.q(obs).gather(1, act[:, None]).squeeze(1)
        tgt = rew + self.gamma * (1 - done) * self.target_q(nxt).max(1).values
        loss = nn.functional.smooth_l1_loss(q, tgt)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def batch(g, n=32):
    obs = torch.randn(n, 4, generator=g)
    act = torch.randint(0, 2, (n,), generator=g)
    rew = obs[:, 0] * (act * 2 - 1)
    nxt = obs + 0.1 * torch.randn(n, 4, generator=g)
    done = (torch.rand(n, generator=g) < 0.1).float()
    return obs, act, rew, nxt, done


if __name__ == "__main__":
    for functional in (True, False):
        torch.manual_seed(0)
        agent = DQNAgent(4, 2, functional_target=functional)
        g = torch.Generator().manual_seed(1)
        losses = []
        for step in range(60):
            losses.append(agent.learn(*batch(g)))
            if step % 20 == 19:
                agent.sync()
        print(f"functional_target={functional} loss {sum(losses[-10:]) / 10:.6f}")
