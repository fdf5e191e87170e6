"""Small supervised-training toolkit."""
