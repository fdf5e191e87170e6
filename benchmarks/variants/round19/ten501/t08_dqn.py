"""DQN with a replay buffer and a target network."""
import copy
import random
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReplayBuffer:
    def __init__(self, capacity=1000):
        self.capacity = capacity
        self.data = []

    def push(self, *transition):
        if len(self.data) >= self.capacity:
            self.data.pop(0)
        self.data.append(transition)

    def sample(self, k):
        return random.sample(self.data, k)


def main():
    random.seed(0)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    q = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
    tq = copy.deepcopy(q)
    opt = torch.optim.Adam(q.parameters(), lr=1e-3)
    buf, debug_buf = ReplayBuffer(), ReplayBuffer()
    q_log, td_errors, chosen = [], [], []
    s = torch.randn(4)
    for step in range(12):
        q_values = q(s)
        a = int(q_values.argmax())
        s2, r = torch.randn(4), float(a == step % 2)
        buf.push(s, a, r, s2)  # ok
        debug_buf.push(s, a, r, s2, q_values)  # expect: TEN501
        buf.push(s, a, r, s2, q_values.detach())  # ok
        chosen.append(q_values.argmax())  # ok
        s = s2
        if len(buf.data) >= 8:
            batch = [t for t in buf.sample(4)]
            S = torch.stack([t[0] for t in batch])
            A = torch.tensor([t[1] for t in batch])
            R = torch.tensor([t[2] for t in batch])
            S2 = torch.stack([t[3] for t in batch])
            with torch.no_grad():
                target = R + 0.99 * tq(S2).max(1).values
            pred = q(S).gather(1, A[:, None]).squeeze(1)
            loss = F.smooth_l1_loss(pred, target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            q_log.append(pred.mean())  # expect: TEN501
            td_errors.append((pred - target).abs().mean().item())  # ok
            if step % 4 == 0:
                tq.load_state_dict(q.state_dict())
    print(len(buf.data), len(debug_buf.data), float(sum(q_log)), sum(td_errors), int(sum(chosen)))


if __name__ == "__main__":
    main()
