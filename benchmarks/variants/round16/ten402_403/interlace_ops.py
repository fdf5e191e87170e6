"""Field operations on interlaced grayscale video frames (batch, rows, cols)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def frames(batch=2, rows=6, cols=7):
    return torch.arange(batch * rows * cols, dtype=torch.float32).reshape(batch, rows, cols)


def shift_even_field(f, px=1):
    out = f.clone()
    out[:, ::2, px:] = out[:, ::2, :-px]  # expect: TEN403
    return out


def shift_even_field_safe(f, px=1):
    out = f.clone()
    out[:, ::2, px:] = f[:, ::2, :-px]  # ok
    return out


def line_double(f):
    out = f.clone()
    out[:, 1::2] = out[:, ::2]  # ok
    return out


def odd_from_previous_even(f):
    out = f.clone()
    out[:, 1::2, 1:] = out[:, ::2, :-1]  # ok
    return out


def shift_down(f):
    out = f.clone()
    by_col = out.transpose(1, 2)
    by_col[..., 1:] = by_col[..., :-1]  # expect: TEN403
    return out


def shift_down_roll(f):
    out = torch.roll(f, shifts=1, dims=1)  # ok
    out[:, 0] = f[:, 0]  # ok
    return out


def main():
    f = frames()
    print("even-field shift differs from safe version:", not torch.equal(shift_even_field(f), shift_even_field_safe(f)))
    print("line doubling keeps even rows:", torch.equal(line_double(f)[:, ::2], f[:, ::2]))
    print("diagonal field copy, corner value:", odd_from_previous_even(f)[0, 1, 1].item())
    print("shift down (transposed view) vs roll:", torch.equal(shift_down(f), shift_down_roll(f)))
    print(shift_down(f)[0, :, :3])


if __name__ == "__main__":
    main()
