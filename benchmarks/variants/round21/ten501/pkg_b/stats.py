"""Episode statistics: a dataclass per episode, a class-level archive and a module-level TD log."""
from dataclasses import dataclass, field
from typing import ClassVar, List

import torch

TD_LOG = []


def record_td(td_error):
    TD_LOG.append(td_error)


def td_summary():
    return torch.stack([torch.as_tensor(t, dtype=torch.float32) for t in TD_LOG]).mean().item()


@dataclass
class EpisodeStats:
    rewards: List[float] = field(default_factory=list)
    q_values: list = field(default_factory=list)
    archive: ClassVar[list] = []

    def record_step(self, reward, q_value):
        self.rewards.append(reward)  # ok
        self.q_values.append(q_value)

    @property
    def ret(self):
        return sum(self.rewards)

    @classmethod
    def finish(cls, episode):
        cls.archive.append(episode)
