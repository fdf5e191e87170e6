"""Online inference context for a decision-transformer-style policy (batch of one)."""
from dataclasses import dataclass

import torch
from torch import nn


class TinyDT(nn.Module):
    def __init__(self, s_dim, a_dim, k, h=16):
        super().__init__()
        self.embed = nn.Linear(s_dim + a_dim + 1, h)
        self.pos = nn.Parameter(torch.zeros(1, k, h))
        self.head = nn.Linear(h, a_dim)

    def forward(self, states, actions, rtg):
        z = self.embed(torch.cat([states, actions, rtg], -1)) + self.pos
        return torch.tanh(self.head(z.mean(1)))


@dataclass
class Context:
    states: torch.Tensor
    actions: torch.Tensor
    rtg: torch.Tensor

    @classmethod
    def empty(cls, k, s_dim, a_dim):
        return cls(torch.zeros(1, k, s_dim), torch.zeros(1, k, a_dim), torch.zeros(1, k, 1))

    def advance(self, state, action, ret):
        self.states[:, :-1], self.actions[:, :-1], self.rtg[:, :-1] = self.states[:, 1:], self.actions[:, 1:], self.rtg[:, 1:]  # expect: TEN403
        self.states[:, -1], self.actions[:, -1], self.rtg[:, -1] = state, action, ret


@dataclass
class CatContext(Context):
    def advance(self, state, action, ret):
        self.states = torch.cat([self.states[:, 1:], state.view(1, 1, -1)], 1)  # ok
        self.actions = torch.cat([self.actions[:, 1:], action.view(1, 1, -1)], 1)  # ok
        self.rtg = torch.cat([self.rtg[:, 1:], ret.view(1, 1, 1)], 1)  # ok


@dataclass
class CloneContext(Context):
    def advance(self, state, action, ret):
        self.states[:, :-1], self.actions[:, :-1] = self.states[:, 1:].clone(), self.actions[:, 1:].clone()  # ok
        self.rtg[:, :-1] = self.rtg[:, 1:].clone()  # ok
        self.states[:, -1], self.actions[:, -1], self.rtg[:, -1] = state, action, ret  # ok


@torch.no_grad()
def rollout(ctx_cls, steps=6, k=4, s_dim=3, a_dim=2, target=5.0):
    torch.manual_seed(0)
    model = TinyDT(s_dim, a_dim, k)
    ctx = ctx_cls.empty(k, s_dim, a_dim)
    state, remaining, actions = torch.randn(s_dim), torch.tensor(target), []
    for _ in range(steps):
        action = model(ctx.states, ctx.actions, ctx.rtg)[0]
        reward = -action.pow(2).sum()
        remaining = remaining - reward
        ctx.advance(state, action, remaining)
        state = state + 0.1 * torch.randn(s_dim)
        actions.append(round(action[0].item(), 4))
    return actions


if __name__ == "__main__":
    for cls in (Context, CatContext, CloneContext):
        try:
            print(cls.__name__, rollout(cls))
        except RuntimeError as err:
            print(cls.__name__, "failed:", str(err)[:60])
