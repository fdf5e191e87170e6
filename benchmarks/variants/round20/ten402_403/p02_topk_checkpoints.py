"""Keep the k best checkpoints in a heap and average them at the end."""
import heapq

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class TopKKeeper:
    def __init__(self, k=3, clone=False):
        self.k = k
        self.clone = clone
        self.heap = []  # (-loss, step, state)

    def offer(self, loss, step, model):
        sd = model.state_dict()  # ok
        if self.clone:
            entry = (-loss, step, {k: v.detach().clone() for k, v in sd.items()})  # ok
        else:
            entry = (-loss, step, {k: v for k, v in sd.items()})  # expect: TEN402
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, entry)
        elif entry[0] > self.heap[0][0]:
            heapq.heapreplace(self.heap, entry)

    def averaged(self):
        states = [s for _, _, s in self.heap]
        return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


def train(clone):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    x = torch.randn(128, 6)
    y = torch.sin(x[:, :1] * 3)
    keeper = TopKKeeper(clone=clone)
    for step in range(30):
        idx = torch.randint(0, 128, (8,))
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
        keeper.offer(loss.item(), step, model)
    final = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    avg = keeper.averaged()
    same = all(torch.allclose(avg[k], final[k]) for k in final)
    steps = sorted(s for _, s, _ in keeper.heap)
    print(f"clone={clone} kept_steps={steps} average_equals_final={same}")


train(clone=False)
train(clone=True)
