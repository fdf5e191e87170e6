"""Checkpoint helpers split across modules (state_utils -> trainer/callbacks -> main)."""
