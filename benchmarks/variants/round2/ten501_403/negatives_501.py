"""Correct training code that looks like the bug but is not."""
import copy
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def train_clean(steps=6):
    model = nn.Linear(5, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ema_model = copy.deepcopy(model)
    loss_np = []
    smoothed = 0.0
    sum_sq = torch.zeros(())
    perplexities = []
    last_loss = None
    for step in range(steps):
        x, y = torch.randn(8, 5), torch.randn(8, 1)
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for pe, p in zip(ema_model.parameters(), model.parameters()):
                pe.mul_(0.9).add_(p, alpha=0.1)  # ok
        loss_np.append(loss.detach().numpy())  # ok
        smoothed = 0.9 * smoothed + 0.1 * loss.item()  # ok
        sum_sq += loss.detach() ** 2  # ok
        perplexities.append(math.exp(loss.item()))  # ok
        last_loss = loss  # ok
    return np.mean(loss_np), smoothed, sum_sq, last_loss


def unrolled_rnn_loss(steps=5):
    """Truncated BPTT: the accumulated loss is differentiated and reset."""
    rnn = nn.GRUCell(4, 8)
    head = nn.Linear(8, 1)
    opt = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=1e-3)
    h = torch.zeros(2, 8)
    seq_loss = 0
    for t in range(steps * 3):
        h = rnn(torch.randn(2, 4), h)
        seq_loss = seq_loss + head(h).pow(2).mean()  # ok
        if (t + 1) % 3 == 0:
            opt.zero_grad()
            seq_loss.backward()
            opt.step()
            h = h.detach()
            seq_loss = 0
    return h


def episodic_loss_list(episodes=3):
    """Per-episode list reset inside the loop and consumed by backward."""
    model = nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters())
    for ep in range(episodes):
        step_losses = []
        for t in range(4):
            step_losses.append(model(torch.randn(1, 4)).logsumexp(-1).mean())  # ok
        opt.zero_grad()
        torch.stack(step_losses).sum().backward()
        opt.step()


def meta_inner_loop(inner_steps=3):
    """MAML-style: the summed inner losses are differentiated."""
    w = torch.randn(5, 1, requires_grad=True)
    meta_opt = torch.optim.SGD([w], lr=0.01)
    meta_loss = 0.0
    for task in range(4):
        fast = w
        for _ in range(inner_steps):
            g, = torch.autograd.grad(F.mse_loss(torch.randn(8, 5) @ fast, torch.randn(8, 1)), fast, create_graph=True)
            fast = fast - 0.1 * g
        meta_loss = meta_loss + F.mse_loss(torch.randn(8, 5) @ fast, torch.randn(8, 1))  # ok
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    print(train_clean()[2].grad_fn)
    unrolled_rnn_loss()
    episodic_loss_list()
    meta_inner_loop()
