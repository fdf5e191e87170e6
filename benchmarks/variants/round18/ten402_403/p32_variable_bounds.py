"""Buffer compaction and scrolling with bounds computed at run time."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def scroll(buf, s):
    """Scroll every row left by s positions (s may be 0)."""
    length = buf.shape[1]
    lo, hi = 0, length - s
    if s > 0:
        buf[:, lo:hi] = buf[:, lo + s:hi + s]  # expect: TEN403
    buf[:, hi:] = 0.0
    return buf


def delay(buf, start):
    stop = buf.shape[1] - start
    buf[:, start:] = buf[:, :stop]  # expect: TEN403
    buf[:, :start] = 0.0
    return buf


def fold_halves(buf):
    half = buf.shape[1] // 2
    buf[:, :half] += buf[:, half:]  # ok
    return buf[:, :half]


def move_block(buf, src, dst, n):
    if abs(src - dst) >= n:
        buf[:, dst:dst + n] = buf[:, src:src + n]  # ok
    else:
        buf[:, dst:dst + n] = buf[:, src:src + n].clone()  # ok
    return buf


def compact(seq, keep_from):
    """Drop the first keep_from columns by building a new tensor."""
    out = seq.new_zeros(seq.shape)
    n = seq.shape[1] - keep_from
    out[:, :n] = seq[:, keep_from:]  # ok
    return out


if __name__ == "__main__":
    base = torch.arange(40.).reshape(2, 20)
    print("scroll 3 ", scroll(base.clone(), 3)[0].tolist())
    print("compact 3", compact(base, 3)[0].tolist())
    print("delay 2  ", delay(base.clone(), 2)[0].tolist())
    print("fold     ", fold_halves(base.clone())[0].tolist())
    print("move far ", move_block(base.clone(), 0, 10, 5)[0].tolist())
    print("move near", move_block(base.clone(), 0, 2, 5)[0].tolist())
