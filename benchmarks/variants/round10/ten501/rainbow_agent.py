"""Rainbow DQN agent (distributional, dueling, noisy, n-step, prioritized replay)."""
import os

import torch
from torch import optim
from torch.nn.utils import clip_grad_norm_

from rainbow.model import DQN

TRAIN_LOG = []


class Agent:
    def __init__(self, args, env):
        self.action_space = env.action_space()
        self.atoms = args.atoms
        self.Vmin = args.V_min
        self.Vmax = args.V_max
        self.support = torch.linspace(args.V_min, args.V_max, self.atoms).to(device=args.device)
        self.delta_z = (args.V_max - args.V_min) / (self.atoms - 1)
        self.batch_size = args.batch_size
        self.n = args.multi_step
        self.discount = args.discount
        self.norm_clip = args.norm_clip
        self.updates = 0

        self.online_net = DQN(args, self.action_space).to(device=args.device)
        self.online_net.train()
        self.target_net = DQN(args, self.action_space).to(device=args.device)
        self.update_target_net()
        self.target_net.train()
        for param in self.target_net.parameters():
            param.requires_grad = False
        self.optimiser = optim.Adam(self.online_net.parameters(), lr=args.learning_rate, eps=args.adam_eps)

    def act(self, state):
        with torch.no_grad():
            return (self.online_net(state.unsqueeze(0)) * self.support).sum(2).argmax(1).item()

    @torch.no_grad()
    def evaluate_q(self, state):
        return (self.online_net(state.unsqueeze(0)) * self.support).sum(2).max(1)[0]

    def learn(self, mem):
        idxs, states, actions, returns, next_states, nonterminals, weights = mem.sample(self.batch_size)

        log_p = self.online_net(states, log=True)
        log_p_a = log_p[range(self.batch_size), actions]

        with torch.no_grad():
            pns = self.online_net(next_states)
            dns = self.support.expand_as(pns) * pns
            argmax_indices_ns = dns.sum(2).argmax(1)
            self.target_net.reset_noise()
            pns = self.target_net(next_states)
            pns_a = pns[range(self.batch_size), argmax_indices_ns]

            Tz = returns.unsqueeze(1) + nonterminals * (self.discount ** self.n) * self.support.unsqueeze(0)
            Tz = Tz.clamp(min=self.Vmin, max=self.Vmax)
            b = (Tz - self.Vmin) / self.delta_z
            l, u = b.floor().to(torch.int64), b.ceil().to(torch.int64)
            l[(u > 0) * (l == u)] -= 1
            u[(l < (self.atoms - 1)) * (l == u)] += 1

            m = states.new_zeros(self.batch_size, self.atoms)
            offset = torch.linspace(0, ((self.batch_size - 1) * self.atoms), self.batch_size).unsqueeze(1)
            offset = offset.expand(self.batch_size, self.atoms).to(actions)
            m.view(-1).index_add_(0, (l + offset).view(-1), (pns_a * (u.float() - b)).view(-1))
            m.view(-1).index_add_(0, (u + offset).view(-1), (pns_a * (b - l.float())).view(-1))

        loss = -torch.sum(m * log_p_a, 1)
        weighted = (weights * loss).mean()
        self.online_net.zero_grad()
        weighted.backward()
        clip_grad_norm_(self.online_net.parameters(), self.norm_clip)
        self.optimiser.step()
        self.updates += 1

        mem.update_priorities(idxs, loss.detach().cpu().numpy())  # ok
        TRAIN_LOG.append({"update": self.updates, "loss": weighted})  # expect: TEN501

    def update_target_net(self):
        self.target_net.load_state_dict(self.online_net.state_dict())

    def reset_noise(self):
        self.online_net.reset_noise()

    def save(self, path, name="model.pth"):
        torch.save(self.online_net.state_dict(), os.path.join(path, name))


def validation_q(agent, val_mem):
    q_vals = []
    for state in val_mem:
        q_vals.append(agent.evaluate_q(state))  # ok
    return torch.cat(q_vals).mean().item()
