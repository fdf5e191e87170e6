"""DQN learner with a hard-updated target network and a frozen teacher
policy used for a distillation warm start."""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(obs_dim, n_actions, hidden=64):
    return nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))


class Learner:
    def __init__(self, obs_dim=4, n_actions=2, gamma=0.99, sync_every=10, ckpt_every=25):
        self.online = mlp(obs_dim, n_actions)
        self.target = mlp(obs_dim, n_actions)
        self.target.load_state_dict(self.online.state_dict())  # ok
        self.target.requires_grad_(False)
        self.teacher = mlp(obs_dim, n_actions)
        self.teacher.requires_grad_(False).eval()
        self.teacher_sd = self.teacher.state_dict()  # ok
        self.opt = torch.optim.Adam(self.online.parameters(), lr=1e-3)
        self.gamma = gamma
        self.sync_every = sync_every
        self.ckpt_every = ckpt_every
        self.steps = 0
        self.checkpoints = []
        sd = self.online.state_dict()  # ok
        blob = io.BytesIO()
        torch.save(sd, blob)
        self.checkpoints.append(blob.getvalue())

    def warm_start_from_teacher(self):
        self.online.load_state_dict(self.teacher_sd)
        self.target.load_state_dict(self.teacher_sd)

    def update(self, obs, act, rew, next_obs, done):
        with torch.no_grad():
            q_next = self.target(next_obs).max(1).values
            target = rew + self.gamma * (1.0 - done) * q_next
        q = self.online(obs).gather(1, act.unsqueeze(1)).squeeze(1)
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.steps += 1
        if self.steps % self.sync_every == 0:
            self.target.load_state_dict(self.online.state_dict())  # ok
        if self.steps % self.ckpt_every == 0:
            blob = io.BytesIO()
            torch.save(self.online.state_dict(), blob)  # ok
            self.checkpoints.append(blob.getvalue())
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    L = Learner()
    teacher_w = L.teacher[0].weight.detach().clone()
    for round_ in range(2):
        L.warm_start_from_teacher()
        print("online starts at teacher:", torch.equal(L.online[0].weight.detach(), teacher_w))
        for _ in range(50):
            b = 32
            L.update(torch.randn(b, 4), torch.randint(0, 2, (b,)), torch.randn(b),
                     torch.randn(b, 4), torch.zeros(b))
    first = torch.load(io.BytesIO(L.checkpoints[0]))
    print("checkpoints:", len(L.checkpoints), "first differs from current:",
          not torch.equal(first["0.weight"], L.online[0].weight.detach()))
