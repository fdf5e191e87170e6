"""Buffer utilities for streaming models (TEN403 cases live in buffers.py)."""
