"""Agent that keeps a short history of observations and actions."""
import torch

from buffers import ObsHistory, make_history, make_np_history


class Agent:
    def __init__(self, num_envs=2, length=4, feat=3, n_actions=5):
        self.obs_hist = ObsHistory(num_envs, length, feat)
        self.act_hist = make_history(num_envs, length, 1)
        self.np_hist = make_np_history(num_envs, length, feat)
        self.n_actions = n_actions

    def act(self, obs):
        self.obs_hist.add(obs)
        action = torch.randint(self.n_actions, (obs.shape[0], 1)).float()
        self.act_hist[:, :-1] = self.act_hist[:, 1:]  # expect: TEN403
        self.act_hist[:, -1] = action
        self.np_hist[:, :-1] = self.np_hist[:, 1:]  # ok: TEN403
        self.np_hist[:, -1] = obs.numpy()
        return action


def rollout(steps=3):
    agent = Agent()
    rewards = make_history(2, 6, 1)
    for _ in range(steps):
        agent.act(torch.randn(2, 3))
        rewards[:, 1:] = rewards[:, :-1]  # expect: TEN403
        rewards[:, 0] = torch.rand(2, 1)
    return rewards


if __name__ == "__main__":
    print(rollout()[..., 0])
