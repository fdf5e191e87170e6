"""Target-network strategies that evaluate the online module with frozen weights."""
import torch
from torch.func import functional_call


def online_weights(agent):
    return agent.online.state_dict()  # either


class FrozenTarget:
    def __init__(self, agent):
        self.agent = agent
        self.sync()

    def sync(self):
        self.frozen = online_weights(self.agent)  # expect: TEN402

    @torch.no_grad()
    def q_values(self, obs):
        return functional_call(self.agent.online, self.frozen, (obs,))


class ClonedTarget(FrozenTarget):
    def sync(self):
        self.frozen = {k: v.clone() for k, v in online_weights(self.agent).items()}  # ok
