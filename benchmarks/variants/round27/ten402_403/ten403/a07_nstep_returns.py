import torch

torch.manual_seed(0)

N_ENVS, N, GAMMA = 4, 3, 0.9


class NStepTracker:
    """Keeps the last N rewards per env, most recent first."""

    def __init__(self):
        self.rew = torch.zeros(N_ENVS, N)
        self.discounts = GAMMA ** torch.arange(N, dtype=torch.float32).flip(0)

    def push(self, r):
        self.rew[:, 1:] = self.rew[:, :-1]  # expect: TEN403
        self.rew[:, :1] = r[:, None]  # ok

    def n_step_return(self):
        return (self.rew * self.discounts).sum(1)


def discounted_returns(rewards, gamma):
    G = rewards.clone()
    for t in range(rewards.shape[1] - 2, -1, -1):
        G[:, t] = rewards[:, t] + gamma * G[:, t + 1]  # ok
    return G


def discounted_returns_vectorised_step(G, gamma):
    G[:, :-1] = G[:, :-1] + gamma * G[:, 1:]  # ok
    return G


tracker = NStepTracker()
rewards = torch.randint(0, 3, (N_ENVS, 8)).float()
for t in range(8):
    tracker.push(rewards[:, t])
print("last rewards buffer", tracker.rew.tolist())
print("n-step returns", [round(v, 4) for v in tracker.n_step_return().tolist()])
print("mc returns t0", [round(v, 4) for v in discounted_returns(rewards, GAMMA)[:, 0].tolist()])
print("one backup step", [round(v, 4) for v in discounted_returns_vectorised_step(rewards.clone(), GAMMA)[:, 0].tolist()])
