"""Keep the k best checkpoints in memory during training and average them at the end."""
import heapq
from typing import Dict, List

import torch


def average_state_dicts(states: List[Dict[str, torch.Tensor]]) -> Dict[str, torch.Tensor]:
    avg = {k: v.detach().clone().float() for k, v in states[0].items()}  # ok
    for sd in states[1:]:
        for k, v in sd.items():
            avg[k] += v.float()
    out = {}
    for k, v in avg.items():
        v /= len(states)
        out[k] = v.to(states[0][k].dtype)
    return out


class TopKKeeper:
    def __init__(self, k=5):
        self.k = k
        self.heap = []

    def maybe_add(self, score, step, model):
        if len(self.heap) >= self.k and score <= self.heap[0][0]:
            return False
        entry = (score, step, model.state_dict())  # expect: TEN402
        if len(self.heap) < self.k:
            heapq.heappush(self.heap, entry)
        else:
            heapq.heapreplace(self.heap, entry)
        return True

    def states(self):
        return [sd for _, _, sd in sorted(self.heap, reverse=True)]


def train(model, opt, train_iter, evaluate, total_steps, eval_every=1000, keep=5, save_dir=None):
    keeper = TopKKeeper(k=keep)
    model.train()
    for step in range(1, total_steps + 1):
        batch = next(train_iter)
        loss = model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)

        if step % eval_every == 0:
            score = evaluate(model)
            keeper.maybe_add(score, step, model)
            if save_dir is not None:
                torch.save(model.state_dict(), f"{save_dir}/step{step}.pt")  # ok
            model.train()

    model.load_state_dict(average_state_dicts(keeper.states()))
    return model
