"""Streaming audio feature pipeline: ring buffers, feature transforms and a small causal model."""
