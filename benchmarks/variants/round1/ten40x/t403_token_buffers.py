"""Rolling token/feature windows for autoregressive inference."""
import torch


def roll_context_left(context: torch.Tensor, new_token: torch.Tensor) -> torch.Tensor:
    """Drop the oldest token, append the new one (batch, seq)."""
    context[:, :-1] = context[:, 1:]  # expect: TEN403
    context[:, -1] = new_token
    return context


def push_right(history, value, k=1):
    history = torch.as_tensor(history)
    history[:, k:] = history[:, :-k]  # expect: TEN403
    history[:, :k] = value
    return history


def shift_window(buf: torch.Tensor, n: int, step: int):
    buf[:, 1:n] = buf[:, 0:n - 1]  # expect: TEN403
    buf[:, 0] = step
    return buf


def stream_generate(model_fn, prompt_len=8, steps=4, batch=2):
    window = torch.zeros(batch, prompt_len, dtype=torch.long)
    for t in range(steps):
        logits = model_fn(window)
        nxt = logits[:, -1].argmax(-1)
        window[:, :-1] = window[:, 1:]  # expect: TEN403
        window[:, -1] = nxt
    return window


def delay_line(signal: torch.Tensor, delay: int):
    out = signal.clone()
    out[..., delay:] = out[..., :-delay]  # expect: TEN403
    out[..., :delay] = 0
    return out


def shift_by_shape(x: torch.Tensor):
    T = x.shape[1]
    x[:, 1:T] = x[:, 0:T - 1]  # expect: TEN403
    return x


def shift_by_len(x: torch.Tensor, prefix):
    p = len(prefix)
    x[:, p:] = x[:, :-p]  # expect: TEN403
    x[:, :p] = torch.as_tensor(prefix)
    return x


def shift_correct(context: torch.Tensor, new_token):
    context[:, :-1] = context[:, 1:].clone()  # ok: TEN403
    context[:, -1] = new_token
    return context


def shift_roll(context: torch.Tensor, new_token):
    context = torch.roll(context, shifts=-1, dims=1)  # ok: TEN403
    context[:, -1] = new_token
    return context


def shift_cat(context: torch.Tensor, new_token: torch.Tensor):
    return torch.cat([context[:, 1:], new_token[:, None]], dim=1)  # ok: TEN403


if __name__ == "__main__":
    x = torch.arange(15).reshape(3, 5)
    print(roll_context_left(x.clone(), torch.tensor([9, 9, 9])))
    print(push_right(x.clone(), 0))
    print(shift_window(x.clone(), 5, 7))
    print(stream_generate(lambda w: torch.randn(w.shape[0], w.shape[1], 10)))
    print(delay_line(torch.arange(10.0).reshape(2, 5), 2))
    print(shift_by_shape(x.clone()), shift_by_len(x.clone(), [1, 2]))
    print(shift_correct(x.clone(), 0), shift_roll(x.clone(), 0), shift_cat(x, torch.zeros(3, dtype=torch.long)))
