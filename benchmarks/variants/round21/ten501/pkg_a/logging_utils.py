"""Process-wide scalar log (module globals), the way many research repos do it."""
_RECORDS = []
_LAST = {}


def log_scalars(step, **scalars):
    _RECORDS.append({"step": step, **scalars})


def log_last(name, value):
    _LAST[name] = value


def records(key=None):
    if key is None:
        return list(_RECORDS)
    return [r[key] for r in _RECORDS if key in r]


def last(name):
    return _LAST.get(name)
