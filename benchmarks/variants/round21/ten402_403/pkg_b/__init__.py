"""Streaming DSP helpers: shift primitives in ops.py, used by stream.py and main.py."""
