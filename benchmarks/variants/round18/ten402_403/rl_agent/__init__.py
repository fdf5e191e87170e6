"""Tiny DQN-style agent split over several modules."""
from .agent import Agent
from .buffers import FrameStacker, CatFrameStacker

__all__ = ["Agent", "FrameStacker", "CatFrameStacker"]
