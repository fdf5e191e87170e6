"""n-step transition builder in front of a replay buffer."""
import torch


class NStepShift:
    """Keeps the last n transitions packed as rows [obs..., reward, done]."""

    def __init__(self, n, obs_dim, gamma=0.9):
        self.n, self.gamma, self.count = n, gamma, 0
        self.window = torch.zeros(n, obs_dim + 2)
        self.discounts = gamma ** torch.arange(n, dtype=torch.float32)

    def push(self, obs, reward, done):
        row = torch.cat([obs, torch.tensor([reward, float(done)])])
        if self.count == self.n:
            self.window[:-1] = self.window[1:]  # expect: TEN403
            self.window[-1] = row
        else:
            self.window[self.count] = row  # ok
            self.count += 1
        return self.ready()

    def ready(self):
        if self.count < self.n:
            return None
        rewards = self.window[:, -2]
        return self.window[0, :-2], (rewards * self.discounts).sum().item()


class NStepCircular(NStepShift):
    def push(self, obs, reward, done):
        row = torch.cat([obs, torch.tensor([reward, float(done)])])
        self.window[self.count % self.n] = row  # ok
        self.count += 1
        if self.count < self.n:
            return None
        order = (torch.arange(self.n) + self.count) % self.n
        ordered = self.window[order]
        return ordered[0, :-2], (ordered[:, -2] * self.discounts).sum().item()


def one_step_bootstrap(rewards, values, gamma=0.9):
    returns = values.clone()
    returns[:-1] = rewards[:-1] + gamma * returns[1:]  # ok
    return returns


def gae(rewards, values, gamma=0.9, lam=0.95):
    adv = torch.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards) - 1)):
        delta = rewards[t] + gamma * values[t + 1] - values[t]
        last = delta + gamma * lam * last
        adv[t] = last  # ok
    return adv


if __name__ == "__main__":
    torch.manual_seed(0)
    traj = [(torch.randn(3), float(i), i == 7) for i in range(8)]
    for cls in (NStepShift, NStepCircular):
        builder = cls(n=3, obs_dim=3)
        out = []
        try:
            for obs, r, d in traj:
                res = builder.push(obs, r, d)
                if res is not None:
                    out.append(round(res[1], 3))
            print(cls.__name__, "n-step returns:", out)
        except RuntimeError as err:
            print(cls.__name__, "failed after", len(out), "returns:", str(err)[:40])
    rewards, values = torch.arange(6.0), torch.linspace(0, 1, 6)
    print("bootstrap:", one_step_bootstrap(rewards, values).tolist())
    print("gae:", [round(a, 3) for a in gae(rewards, values).tolist()])
