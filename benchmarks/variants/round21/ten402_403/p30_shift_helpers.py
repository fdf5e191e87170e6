"""Small shift helpers used by a streaming feature pipeline (delta features, context stacking)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def push(buf, x, n):
    """Make room for n new samples at the front of a 1-D buffer, newest first."""
    buf[n:] = buf[:-n]  # expect: TEN403
    buf[:n] = x
    return buf


def push_safe(buf, x, n):
    buf[n:] = buf[:-n].clone()  # ok
    buf[:n] = x
    return buf


def shift_right(t, k):
    """Delay every row of a (rows, time) feature map by k frames, zero-fill."""
    t[..., k:] = t[..., :-k]  # expect: TEN403
    t[..., :k] = 0
    return t


def shift_right_safe(t, k):
    return torch.nn.functional.pad(t[..., :-k], (k, 0))  # ok


def stack_context(feats, left):
    """(T, F) -> (T, (left + 1) * F): concatenate each frame with its `left` predecessors."""
    ctx = [feats]
    for j in range(1, left + 1):
        ctx.append(shift_right_safe(feats.T, j).T)
    return torch.cat(ctx, 1)


if __name__ == "__main__":
    try:
        print("push     :", push(torch.arange(6.0), torch.tensor([-1.0, -2.0]), 2).tolist())
    except RuntimeError as e:
        print("push     : RuntimeError:", str(e).split(".")[0])
    print("push_safe:", push_safe(torch.arange(6.0), torch.tensor([-1.0, -2.0]), 2).tolist())
    feats = torch.arange(12.0).view(2, 6)
    print("shift_right     :", shift_right(feats.clone(), 2).tolist())
    print("shift_right_safe:", shift_right_safe(feats.clone(), 2).tolist())
    print("context rows    :", stack_context(torch.arange(8.0).view(4, 2), 2)[3].tolist())
