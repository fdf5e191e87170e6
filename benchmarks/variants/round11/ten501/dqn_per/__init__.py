"""Double DQN with proportional prioritized experience replay."""
from .buffer import PrioritizedReplay
from .stats import EpisodeStats
