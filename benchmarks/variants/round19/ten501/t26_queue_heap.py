"""Top-k hard-example mining with heapq, a queue.Queue hand-off and bounded deques."""
import collections
import heapq
import itertools
import queue
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(4, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    hard_examples, hard_ok = [], []
    q = queue.Queue()
    q_ok = queue.Queue()
    recent = collections.deque(maxlen=3)
    recent_f = collections.deque(maxlen=3)
    counter = itertools.count()
    for step in range(6):
        x, y = torch.randn(10, 4), torch.randint(0, 3, (10,))
        per_sample = F.cross_entropy(model(x), y, reduction="none")
        loss = per_sample.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        worst = per_sample.max()
        heapq.heappush(hard_examples, (worst.item(), next(counter), worst))  # expect: TEN501
        heapq.heappush(hard_ok, (worst.item(), next(counter), x[per_sample.argmax()]))  # ok
        if len(hard_ok) > 4:
            heapq.heappop(hard_ok)
        q.put(loss)  # expect: TEN501
        q_ok.put({"step": step, "loss": loss.item()})  # ok
        recent.append(loss)  # either
        recent_f.append(loss.item())  # ok
    drained = []
    while not q.empty():
        drained.append(float(q.get()))
    print(len(hard_examples), hard_ok[0][0], sum(drained), q_ok.qsize(), float(sum(recent)) / len(recent), sum(recent_f))


if __name__ == "__main__":
    main()
