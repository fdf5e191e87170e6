"""Linear-feedback shift registers (Fibonacci LFSR) in torch, used to generate PN sequences
for a spread-spectrum toy; plus a double buffer that swaps halves."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

TAPS = (0, 2)  # x^4 + x^3 + 1 style feedback on a 4-bit register


def lfsr_1d(seed_bits, n):
    reg = torch.tensor(seed_bits, dtype=torch.int64)
    out = []
    for _ in range(n):
        out.append(int(reg[-1]))
        fb = reg[TAPS[0]] ^ reg[TAPS[1]]
        try:
            reg[1:] = reg[:-1]  # expect: TEN403
        except RuntimeError as e:
            return "RuntimeError: " + str(e).split(".")[0]
        reg[0] = fb
    return out


def lfsr_batched(seeds, n, mode):
    regs = torch.tensor(seeds, dtype=torch.int64)  # (B, nbits)
    out = []
    for _ in range(n):
        out.append(regs[:, -1].clone())
        fb = regs[:, TAPS[0]] ^ regs[:, TAPS[1]]
        if mode == "slice":
            regs[:, 1:] = regs[:, :-1]  # expect: TEN403
        else:
            regs = torch.roll(regs, shifts=1, dims=1)  # ok
        regs[:, 0] = fb
    return torch.stack(out, 1)


def lfsr_reference(seed_bits, n):
    reg = list(seed_bits)
    out = []
    for _ in range(n):
        out.append(reg[-1])
        fb = reg[TAPS[0]] ^ reg[TAPS[1]]
        reg[1:] = reg[:-1]  # ok
        reg[0] = fb
    return out


class DoubleBuffer:
    """Two halves: [front | back]; after producing, the back half becomes the front half."""

    def __init__(self, half):
        self.half = half
        self.buf = torch.zeros(2 * half)

    def flip(self, new_back):
        self.buf[:self.half] = self.buf[self.half:]  # ok
        self.buf[self.half:] = new_back
        return self.buf.clone()


if __name__ == "__main__":
    seed = [1, 0, 0, 1]
    print("reference  :", lfsr_reference(seed, 12))
    print("lfsr_1d    :", lfsr_1d(seed, 12))
    seeds = [[1, 0, 0, 1], [0, 1, 1, 1]]
    print("batched roll :", lfsr_batched(seeds, 12, "roll")[0].tolist())
    print("batched slice:", lfsr_batched(seeds, 12, "slice")[0].tolist())
    db = DoubleBuffer(3)
    for k in range(3):
        last = db.flip(torch.full((3,), float(k + 1)))
    print("double buffer:", last.tolist())
