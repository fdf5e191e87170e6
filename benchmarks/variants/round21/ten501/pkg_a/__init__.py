"""Small supervised-training package: losses, metrics, logging utilities and a Trainer."""
