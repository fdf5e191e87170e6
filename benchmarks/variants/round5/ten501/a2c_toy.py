"""Advantage actor-critic on a tiny CartPole-like toy environment."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

GAMMA = 0.99
N_EPISODES = 60


class ToyPole:
    """4-d state, 2 actions, terminates when |x| drifts too far or after 40 steps."""

    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.t = 0
        self.state = self.rng.normal(scale=0.1, size=4).astype(np.float32)
        return self.state

    def step(self, action):
        self.t += 1
        push = 0.05 if action == 1 else -0.05
        self.state = (self.state + push + self.rng.normal(scale=0.05, size=4)).astype(np.float32)
        done = bool(abs(self.state[0]) > 1.0 or self.t >= 40)
        reward = 0.0 if abs(self.state[0]) > 1.0 else 1.0
        return self.state, reward, done, {}


class ActorCritic(nn.Module):
    def __init__(self, n_obs=4, n_act=2, hidden=64):
        super().__init__()
        self.fc = nn.Linear(n_obs, hidden)
        self.actor = nn.Linear(hidden, n_act)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = F.relu(self.fc(obs))
        return F.softmax(self.actor(h), dim=-1), self.critic(h)


def discounted_returns(rewards, gamma=GAMMA):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.insert(0, g)
    ret = torch.tensor(out)
    return (ret - ret.mean()) / (ret.std() + 1e-8) if len(out) > 1 else ret


def main():
    torch.manual_seed(0)
    env = ToyPole()
    ac = ActorCritic()
    optimizer = torch.optim.Adam(ac.parameters(), lr=3e-3)

    episode_rewards = []
    critic_losses = []
    for episode in range(N_EPISODES):
        state = env.reset()
        log_probs, values, rewards = [], [], []
        entropy_term = 0.0
        done = False
        while not done:
            probs, value = ac(torch.from_numpy(state))
            dist = Categorical(probs)
            action = dist.sample()
            log_probs.append(dist.log_prob(action))  # ok
            values.append(value.squeeze(-1))  # ok
            entropy_term = entropy_term + dist.entropy()  # ok
            state, reward, done, _ = env.step(action.item())
            rewards.append(reward)

        returns = discounted_returns(rewards)
        log_probs_t = torch.stack(log_probs)
        values_t = torch.stack(values)
        advantage = returns - values_t
        actor_loss = -(log_probs_t * advantage.detach()).mean()
        critic_loss = advantage.pow(2).mean()
        ac_loss = actor_loss + 0.5 * critic_loss - 0.001 * entropy_term

        optimizer.zero_grad()
        ac_loss.backward()
        optimizer.step()

        episode_rewards.append(sum(rewards))
        critic_losses.append(critic_loss)  # expect: TEN501
        if episode % 20 == 0:
            print(f"episode {episode}: reward {np.mean(episode_rewards[-20:]):.1f} "
                  f"critic {torch.stack(critic_losses[-20:]).mean().item():.3f}")


if __name__ == "__main__":
    main()
