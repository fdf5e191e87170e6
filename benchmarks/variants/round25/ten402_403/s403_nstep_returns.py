"""n-step bootstrapped returns from a rollout buffer (envs x time)."""
import torch


class Rollout:
    def __init__(self, n_envs, T):
        self.rew = torch.zeros(n_envs, T)
        self.done = torch.zeros(n_envs, T)
        self.val = torch.zeros(n_envs, T)

    def nstep_targets(self, k, gamma):
        T = self.rew.shape[1]
        ret = self.rew.clone()
        rew, done = self.rew.clone(), self.done.clone()
        for i in range(1, k):
            rew[:, :-1] = rew[:, 1:]  # expect: TEN403
            done[:, :-1] = done[:, 1:]  # expect: TEN403
            rew[:, -1] = 0  # ok
            ret = ret + (gamma ** i) * rew * (1 - done)
        boot = torch.zeros_like(self.val)
        boot[:, :T - k] = self.val[:, k:]  # ok
        return ret + gamma ** k * boot

    def advance_window(self, k):
        self.rew[:, :-k] = self.rew[:, k:]  # expect: TEN403
        self.val[:, :-k] = self.val[:, k:].clone()  # ok


torch.manual_seed(0)
ro = Rollout(3, 10)
ro.rew.uniform_(0, 1)
ro.val.normal_()
ro.done[:, 6] = 1
tg = ro.nstep_targets(3, 0.9)
print("targets env0", [round(v, 5) for v in tg[0].tolist()])
ro.advance_window(4)
print("rew after advance", [round(v, 4) for v in ro.rew[0].tolist()])
