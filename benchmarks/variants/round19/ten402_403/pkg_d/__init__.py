"""Streaming feature buffers used by an online model."""
