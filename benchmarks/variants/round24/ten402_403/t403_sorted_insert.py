"""Top-k score buffer kept sorted by inserting into a fixed-size tensor."""
import torch

torch.manual_seed(0)


class SortedTopK:
    def __init__(self, k, safe):
        self.vals = torch.full((k,), float("-inf"))
        self.safe = safe

    def insert(self, v):
        i = int((self.vals > v).sum())
        if i >= len(self.vals):
            return
        if self.safe:
            self.vals[i + 1:] = self.vals[i:-1].clone()  # ok
        else:
            self.vals[i + 1:] = self.vals[i:-1]  # expect: TEN403
        self.vals[i] = v


class MatrixTopK:
    """Same, but rows of a (k, d) matrix carry payloads."""

    def __init__(self, k, d):
        self.rows = torch.zeros(k, d)
        self.keys = torch.full((k,), float("-inf"))

    def insert(self, key, payload):
        i = int((self.keys > key).sum())
        if i >= len(self.keys):
            return
        self.keys[i + 1:] = self.keys[i:-1].clone()  # ok
        self.rows[i + 1:] = self.rows[i:-1]  # expect: TEN403
        self.rows[i], self.keys[i] = payload, key


if __name__ == "__main__":
    scores = torch.randn(15)
    for safe in (True, False):
        tk = SortedTopK(5, safe)
        try:
            for s in scores:
                tk.insert(float(s))
            print(f"safe={safe}", [round(v, 5) for v in tk.vals.tolist()])
        except RuntimeError as e:
            print(f"safe={safe}", "RuntimeError:", str(e)[:60])
    mk = MatrixTopK(4, 2)
    try:
        for s in scores:
            mk.insert(float(s), torch.tensor([float(s), 2 * float(s)]))
        print("matrix", [round(v, 5) for v in mk.rows[:, 0].tolist()])
    except RuntimeError as e:
        print("matrix", "RuntimeError:", str(e)[:60])
