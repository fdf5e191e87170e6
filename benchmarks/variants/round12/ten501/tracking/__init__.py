from .tracker import MetricTracker, write_jsonl

__all__ = ["MetricTracker", "write_jsonl"]
