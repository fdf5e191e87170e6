"""A small Lookahead wrapper: fast weights explore, slow weights interpolate."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Lookahead:
    def __init__(self, base, k=5, alpha=0.5, buggy=True):
        self.base, self.k, self.alpha = base, k, alpha
        self.counter = 0
        self.params = [p for g in base.param_groups for p in g["params"]]  # ok
        if buggy:
            self.slow = [p.data for p in self.params]  # expect: TEN402
        else:
            self.slow = [p.data.clone() for p in self.params]  # ok

    def zero_grad(self):
        self.base.zero_grad()

    @torch.no_grad()
    def step(self):
        self.base.step()
        self.counter += 1
        if self.counter % self.k == 0:
            moved = []
            for slow, fast in zip(self.slow, self.params):
                before = slow.clone()  # ok
                slow.add_(fast - slow, alpha=self.alpha)
                fast.copy_(slow)
                moved.append((slow - before).norm().item())
            return sum(moved)
        return None


for buggy in (True, False):
    torch.manual_seed(0)
    model = nn.Linear(10, 1)
    opt = Lookahead(torch.optim.SGD(model.parameters(), lr=0.1), buggy=buggy)
    x = torch.randn(50, 10)
    y = x @ torch.randn(10, 1)
    moves = []
    for _ in range(20):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        m = opt.step()
        if m is not None:
            moves.append(round(m, 4))
    print(f"buggy={buggy} slow-weight moves per sync: {moves}")
