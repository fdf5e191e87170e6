import torch


def tail(x, k):
    return x[..., k:]


def head(x, k):
    return x[..., :-k]


class ShiftRegister:
    """Tap-delay line: state[..., j] holds the input from j steps ago."""

    def __init__(self, batch, taps):
        self.state = torch.zeros(batch, taps)

    def push(self, x):
        self.state[..., 1:] = self.state[..., :-1]  # expect: TEN403
        self.state[..., 0] = x  # ok
        return self.state


class HelperShiftRegister(ShiftRegister):
    def push(self, x):
        tail(self.state, 1).copy_(head(self.state, 1))  # expect: TEN403
        self.state[..., 0] = x  # ok
        return self.state


class ClonedHelperShiftRegister(ShiftRegister):
    def push(self, x):
        tail(self.state, 1).copy_(head(self.state, 1).clone())  # ok
        self.state[..., 0] = x  # ok
        return self.state


class RollShiftRegister(ShiftRegister):
    def push(self, x):
        self.state = self.state.roll(1, -1)  # ok
        self.state[..., 0] = x  # ok
        return self.state
