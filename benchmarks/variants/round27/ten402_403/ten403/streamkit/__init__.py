"""streamkit: streaming feature buffers."""
