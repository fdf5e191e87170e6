"""Streaming DSP blocks; buffer shifting lives in buffers.py and is used by processors.py."""
