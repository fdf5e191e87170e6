"""Module-level store of named states."""
STORE = {}


def remember(name, model, copy=False):
    if copy:
        STORE[name] = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    else:
        STORE[name] = model.state_dict()  # expect: TEN402
