"""PPO-style rollout storage with a bootstrap slot, and a sliding variant."""
import torch

torch.manual_seed(0)


class RolloutStorage:
    def __init__(self, steps, n_envs, obs_dim):
        self.obs = torch.zeros(steps + 1, n_envs, obs_dim)
        self.masks = torch.ones(steps + 1, n_envs, 1)
        self.rewards = torch.zeros(steps, n_envs, 1)
        self.returns = torch.zeros(steps + 1, n_envs, 1)
        self.step = 0

    def insert(self, obs, reward, mask):
        self.obs[self.step + 1].copy_(obs)  # ok
        self.rewards[self.step].copy_(reward)  # ok
        self.masks[self.step + 1].copy_(mask)  # ok
        self.step = (self.step + 1) % self.rewards.size(0)

    def after_update(self):
        # carry the last observation over as the first one of the next rollout
        self.obs[0].copy_(self.obs[-1])  # ok
        self.masks[0].copy_(self.masks[-1])  # ok

    def compute_returns(self, next_value, gamma):
        self.returns[-1] = next_value
        for t in reversed(range(self.rewards.size(0))):
            self.returns[t] = self.returns[t + 1] * gamma * self.masks[t + 1] + self.rewards[t]


class SlidingStorage(RolloutStorage):
    """Keeps a sliding window of the most recent steps instead of starting over."""

    def slide_obs(self, k):
        self.obs[:-k].copy_(self.obs[k:])  # expect: TEN403

    def slide_rest(self, k):
        self.rewards[:-k] = self.rewards[k:].clone()  # ok
        self.masks = torch.cat([self.masks[k:], torch.ones_like(self.masks[:k])])  # ok
        self.step -= k


def fill(st, n_envs):
    for t in range(st.rewards.size(0)):
        obs = torch.full((n_envs, 2), float(t + 1))
        st.insert(obs, torch.full((n_envs, 1), float(t)), torch.ones(n_envs, 1) * (t % 3 != 2))


st = RolloutStorage(5, 2, 2)
fill(st, 2)
st.compute_returns(torch.zeros(2, 1), 0.9)
print("returns env0:", [round(v, 4) for v in st.returns[:, 0, 0].tolist()])
st.after_update()
print("first obs after update:", st.obs[0, 0].tolist(), "mask", st.masks[0, 0].item())

sl = SlidingStorage(6, 2, 2)
fill(sl, 2)
sl.step = 6
for name, fn in (("obs", lambda: sl.slide_obs(2)), ("rewards/masks", lambda: sl.slide_rest(2))):
    try:
        fn()
    except RuntimeError as err:
        print(f"slide {name} failed:", str(err).split(".")[0])
print("slid obs env0:", sl.obs[:, 0, 0].tolist())
print("slid rewards env0:", sl.rewards[:, 0, 0].tolist(), "masks:", sl.masks[:, 0, 0].tolist())
