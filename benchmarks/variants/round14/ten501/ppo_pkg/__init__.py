"""Minimal PPO on a toy 1-D navigation task (run with `python -m ppo_pkg.main`)."""
