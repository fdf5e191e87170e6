"""One-step advantage actor-critic on a toy bandit-like environment."""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ToyEnv:
    def __init__(self, n_states=6, n_actions=3, horizon=20):
        self.n_states, self.n_actions, self.horizon = n_states, n_actions, horizon
        self.rewards = torch.randn(n_states, n_actions)

    def reset(self):
        self.t, self.s = 0, 0
        return self._obs()

    def _obs(self):
        o = torch.zeros(self.n_states)
        o[self.s] = 1.0
        return o

    def step(self, a):
        r = float(self.rewards[self.s, a])
        self.s = (self.s + a + 1) % self.n_states
        self.t += 1
        return self._obs(), r, self.t >= self.horizon


class ActorCritic(nn.Module):
    def __init__(self, n_obs, n_act, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_act)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def main(episodes=500, gamma=0.99, ent_coef=0.01):
    env = ToyEnv()
    ac = ActorCritic(env.n_states, env.n_actions)
    opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
    entropy_log, reward_log = [], []
    for ep in range(episodes):
        obs, done, ep_reward = env.reset(), False, 0.0
        while not done:
            dist, value = ac(obs)
            action = dist.sample()
            next_obs, reward, done = env.step(action.item())
            with torch.no_grad():
                _, next_value = ac(next_obs)
                target = reward + gamma * next_value * (0.0 if done else 1.0)
            advantage = target - value
            entropy = dist.entropy()
            loss = -dist.log_prob(action) * advantage.detach() + advantage.pow(2) - ent_coef * entropy
            opt.zero_grad()
            loss.backward()
            opt.step()
            entropy_log.append(entropy)  # expect: TEN501
            ep_reward += reward  # ok
            obs = next_obs
        reward_log.append(ep_reward)  # ok
        if ep % 50 == 0:
            recent_ent = torch.stack(entropy_log[-env.horizon:]).mean().item()
            print(f"ep {ep}: reward {ep_reward:.2f} entropy {recent_ent:.3f}")


if __name__ == "__main__":
    main()
