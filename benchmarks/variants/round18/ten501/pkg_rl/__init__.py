"""Tiny actor-critic RL package (run: python -m pkg_rl.main)."""
