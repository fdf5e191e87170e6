"""On-policy rollout storage with GAE(lambda)."""
import torch


class RolloutBuffer:
    def __init__(self, gamma=0.99, lam=0.95):
        self.gamma = gamma
        self.lam = lam
        self.reset()

    def reset(self):
        self.obs, self.actions, self.logprobs = [], [], []
        self.values, self.rewards, self.dones = [], [], []

    def add(self, obs, action, logprob, value, reward, done):
        self.obs.append(obs)
        self.actions.append(action)
        self.logprobs.append(logprob)  # expect: TEN501
        self.values.append(value)  # expect: TEN501
        self.rewards.append(float(reward))
        self.dones.append(float(done))

    def __len__(self):
        return len(self.rewards)

    def compute_gae(self, last_value):
        values = torch.stack(self.values + [last_value]).view(-1)
        advantages = []
        gae = 0.0
        for t in reversed(range(len(self.rewards))):
            not_done = 1.0 - self.dones[t]
            delta = self.rewards[t] + self.gamma * values[t + 1] * not_done - values[t]
            gae = delta + self.gamma * self.lam * not_done * gae
            advantages.append(gae)
        advantages = torch.stack(advantages[::-1])
        returns = advantages + values[:-1]
        return advantages, returns

    def get(self, last_value):
        advantages, returns = self.compute_gae(last_value)
        return {
            "obs": torch.stack(self.obs),
            "actions": torch.stack(self.actions),
            "logprobs": torch.stack(self.logprobs),
            "advantages": advantages,
            "returns": returns,
        }

    @staticmethod
    def minibatches(data, batch_size):
        n = data["obs"].shape[0]
        perm = torch.randperm(n)
        for start in range(0, n, batch_size):
            idx = perm[start:start + batch_size]
            yield {k: v[idx] for k, v in data.items()}
