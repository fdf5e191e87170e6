"""SAC-style agent with automatic entropy tuning; stats kept on the agent."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SAC:
    def __init__(self, obs=3, act=1):
        self.actor = nn.Sequential(nn.Linear(obs, 32), nn.ReLU(), nn.Linear(32, 2 * act))
        self.q1 = nn.Sequential(nn.Linear(obs + act, 32), nn.ReLU(), nn.Linear(32, 1))
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.target_entropy = -float(act)
        self.a_opt = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.q_opt = torch.optim.Adam(self.q1.parameters(), lr=3e-4)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=3e-4)
        self.alpha_history = []
        self.alpha_values = []
        self.q_losses = []
        self.q_loss_values = []
        self.policy_logp = []

    @property
    def alpha(self):
        return self.log_alpha.exp()

    def sample(self, s):
        mu, log_std = self.actor(s).chunk(2, -1)
        std = log_std.clamp(-5, 2).exp()
        u = mu + std * torch.randn_like(mu)
        a = torch.tanh(u)
        logp = (-0.5 * ((u - mu) / std) ** 2 - std.log()).sum(-1) - torch.log(1 - a.pow(2) + 1e-6).sum(-1)
        return a, logp

    def update(self, s, a, r, s2):
        with torch.no_grad():
            a2, logp2 = self.sample(s2)
            target = r + 0.99 * (self.q1(torch.cat([s2, a2], -1)).squeeze(-1) - self.alpha * logp2)
        q_loss = F.mse_loss(self.q1(torch.cat([s, a], -1)).squeeze(-1), target)
        self.q_opt.zero_grad(); q_loss.backward(); self.q_opt.step()
        new_a, logp = self.sample(s)
        alpha = self.log_alpha.exp().detach()  # ok
        actor_loss = (alpha * logp - self.q1(torch.cat([s, new_a], -1)).squeeze(-1)).mean()
        self.a_opt.zero_grad(); actor_loss.backward(); self.a_opt.step()
        alpha_loss = -(self.log_alpha * (logp.detach() + self.target_entropy)).mean()
        self.alpha_opt.zero_grad(); alpha_loss.backward(); self.alpha_opt.step()
        self.alpha_history.append(self.alpha)  # expect: TEN501
        self.alpha_values.append(self.alpha.item())  # ok
        self.q_losses.append(q_loss)  # expect: TEN501
        self.q_loss_values.append(q_loss.detach().item())  # ok
        self.policy_logp.append(logp.mean())  # expect: TEN501


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    agent = SAC()
    for it in range(4):
        s, a, r, s2 = torch.randn(8, 3), torch.rand(8, 1) * 2 - 1, torch.randn(8), torch.randn(8, 3)
        agent.update(s, a, r, s2)
    print(len(agent.alpha_history), agent.alpha_values[-1], float(sum(agent.q_losses)), sum(agent.q_loss_values),
          float(sum(agent.policy_logp)))


if __name__ == "__main__":
    main()
