"""A priority-ordered buffer: inserting at position 0 pushes existing items back."""
import torch

torch.manual_seed(0)


class FrontInsertBuffer:
    def __init__(self, capacity, dim, safe=False):
        self.data = torch.zeros(capacity, dim)
        self.size = 0
        self.safe = safe

    def insert_front(self, item):
        cap = self.data.shape[0]
        self.size = min(self.size + 1, cap)
        if self.safe:
            self.data[1:self.size] = self.data[0:self.size - 1].clone()  # ok
        else:
            self.data[1:self.size] = self.data[0:self.size - 1]  # expect: TEN403
        self.data[0] = item


for safe in (False, True):
    torch.manual_seed(0)
    buf = FrontInsertBuffer(4, 3, safe=safe)
    try:
        for i in range(5):
            buf.insert_front(torch.randn(3))
        print("safe=%s data:" % safe, [round(v, 4) for v in buf.data.flatten().tolist()])
    except RuntimeError as e:
        print("safe=%s RuntimeError: %s" % (safe, str(e).split(".")[0]))
