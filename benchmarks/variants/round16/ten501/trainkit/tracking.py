"""Experiment tracking helpers."""
import json

RUN_REGISTRY = {}


class Tracker:
    def __init__(self, name):
        self.name = name
        self.rows = []

    def log_step(self, step, terms):
        self.rows.append({"step": step, **terms})

    def dump(self, n=2):
        return json.dumps([{k: round(float(v), 4) for k, v in r.items()} for r in self.rows[-n:]])


def register_best(key, value):
    RUN_REGISTRY.setdefault(key, []).append(value)
