"""Small DQN package: replay buffer, agent, episode statistics and an entry point."""
