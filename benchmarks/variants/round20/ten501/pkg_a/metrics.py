from collections import defaultdict


class History:
    """Keeps every value it is given, per key."""

    def __init__(self):
        self.data = defaultdict(list)

    def record(self, **values):
        for k, v in values.items():
            self.data[k].append(v)

    def last(self, key):
        return self.data[key][-1]

    def mean(self, key):
        vals = self.data[key]
        return sum(float(v) for v in vals) / len(vals)


def accumulate(store, key, value):
    store[key] = store.get(key, 0.0) + value
    return store[key]
