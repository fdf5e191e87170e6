"""Actor-critic agent split across modules (agent, buffers, stats)."""
