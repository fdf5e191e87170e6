"""Minimal actor-critic utilities: rollout storage, episode statistics, A2C agent."""
from .storage import EpisodeStats, RolloutStorage

__all__ = ["RolloutStorage", "EpisodeStats"]
