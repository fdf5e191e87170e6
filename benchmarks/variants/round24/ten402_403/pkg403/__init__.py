"""Streaming-inference utilities: tensor shift helpers (ops.py) used by buffers.py."""
