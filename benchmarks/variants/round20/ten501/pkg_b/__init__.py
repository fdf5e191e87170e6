"""Actor-critic agent on a toy contextual bandit, split over modules."""
