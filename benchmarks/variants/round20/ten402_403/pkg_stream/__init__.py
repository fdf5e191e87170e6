"""Streaming feature extraction with rolling buffers."""
