import io

import torch


def capture(module):
    """Cheap snapshot of the module weights (no extra memory)."""
    return {k: v.detach() for k, v in module.state_dict().items()}  # expect: TEN402


def capture_copy(module):
    return {k: v.detach().clone() for k, v in module.state_dict().items()}  # ok


def capture_bytes(module):
    buf = io.BytesIO()
    torch.save(module.state_dict(), buf)  # ok
    return buf.getvalue()


def load_bytes(module, blob):
    module.load_state_dict(torch.load(io.BytesIO(blob)))


def l2(a, b):
    return sum((a[k].double() - b[k].double()).pow(2).sum() for k in a).sqrt().item()
