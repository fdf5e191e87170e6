from .buffers import FrameStack, NStepReturns, RecentTransitions
from .dqn import DQNAgent, QNetwork

__all__ = ["FrameStack", "NStepReturns", "RecentTransitions", "DQNAgent", "QNetwork"]
