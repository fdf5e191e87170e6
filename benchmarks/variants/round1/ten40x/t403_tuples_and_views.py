"""Paired buffers shifted together; views bound to names first."""
import torch


class PairedRing:
    def __init__(self, batch, length, dim):
        self.keys = torch.zeros(batch, length, dim)
        self.vals = torch.zeros(batch, length, dim)

    def append(self, k, v):
        self.keys[:, :-1], self.vals[:, :-1] = self.keys[:, 1:], self.vals[:, 1:]  # expect: TEN403, TEN403
        self.keys[:, -1], self.vals[:, -1] = k, v


def shift_obs_and_mask(obs: torch.Tensor, mask: torch.Tensor):
    obs[:, 1:], mask[:, 1:] = obs[:, :-1], mask[:, :-1]  # expect: TEN403, TEN403
    obs[:, 0], mask[:, 0] = 0, False
    return obs, mask


def swap_halves_bug(x: torch.Tensor):
    # not a shift: different tensors on the right
    y = torch.zeros_like(x)
    x[:, :-1], y[:, :-1] = y[:, 1:], x[:, 1:]  # ok: TEN403
    return x, y


def lag_features(series: torch.Tensor):
    prev = series[:, :-1]
    series[:, 1:] = prev  # expect: TEN403
    return series


def lag_into_dest_view(series: torch.Tensor):
    dest = series[:, 1:]
    dest.copy_(series[:, :-1])  # expect: TEN403
    return series


def lag_view_of_view(x: torch.Tensor):
    body = x[:, :-1]
    head = body[:, 1:]
    x[:, 2:] = head  # expect: TEN403
    return x


def lag_with_clone(series: torch.Tensor):
    prev = series[:, :-1].clone()
    series[:, 1:] = prev  # ok: TEN403
    return series


def lag_rebound(series: torch.Tensor):
    prev = series[:, :-1]
    prev = prev.contiguous().clone()
    series[:, 1:] = prev  # ok: TEN403
    return series


def lag_other_tensor(series: torch.Tensor, out: torch.Tensor):
    prev = series[:, :-1]
    out[:, 1:] = prev  # ok: TEN403
    return out


if __name__ == "__main__":
    r = PairedRing(2, 4, 3)
    r.append(torch.ones(2, 3), torch.ones(2, 3))
    x = torch.arange(15.0).reshape(3, 5)
    print(shift_obs_and_mask(x.clone(), torch.ones(3, 5, dtype=torch.bool))[0])
    print(lag_features(x.clone()))
    print(lag_into_dest_view(x.clone()))
    print(lag_view_of_view(x.clone()))
    print(lag_with_clone(x.clone()), lag_rebound(x.clone()), lag_other_tensor(x, torch.zeros(3, 5)))
    swap_halves_bug(x.clone())
