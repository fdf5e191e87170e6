"""Second-order MAML on 5-way 1-shot Omniglot using torch.func.functional_call."""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

from fewshot.data import OmniglotNShot


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout, track_running_stats=False),
                         nn.ReLU(), nn.MaxPool2d(2))


class ConvNet(nn.Module):
    def __init__(self, n_way, hidden=64):
        super().__init__()
        self.features = nn.Sequential(conv_block(1, hidden), conv_block(hidden, hidden),
                                      conv_block(hidden, hidden), conv_block(hidden, hidden))
        self.head = nn.Linear(hidden, n_way)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n_way", type=int, default=5)
    p.add_argument("--k_spt", type=int, default=1)
    p.add_argument("--k_qry", type=int, default=15)
    p.add_argument("--task_num", type=int, default=32)
    p.add_argument("--inner_steps", type=int, default=5)
    p.add_argument("--inner_lr", type=float, default=0.4)
    p.add_argument("--meta_lr", type=float, default=1e-3)
    p.add_argument("--iterations", type=int, default=40000)
    p.add_argument("--first_order", action="store_true")
    args = p.parse_args()

    device = torch.device("cuda")
    db = OmniglotNShot("omniglot", batchsz=args.task_num, n_way=args.n_way, k_shot=args.k_spt,
                       k_query=args.k_qry, imgsz=28, device=device)
    model = ConvNet(args.n_way).to(device)
    meta_opt = torch.optim.Adam(model.parameters(), lr=args.meta_lr)

    adapt_curve = [0.0] * args.inner_steps
    qry_correct, qry_seen = 0, 0
    t0 = time.time()
    for step in range(args.iterations):
        x_spt, y_spt, x_qry, y_qry = db.next()
        meta_opt.zero_grad()
        meta_loss = 0.0
        for i in range(args.task_num):
            fast_weights = dict(model.named_parameters())
            for k in range(args.inner_steps):
                logits = functional_call(model, fast_weights, (x_spt[i],))
                inner_loss = F.cross_entropy(logits, y_spt[i])
                grads = torch.autograd.grad(inner_loss, list(fast_weights.values()),
                                            create_graph=not args.first_order)
                fast_weights = {n: w - args.inner_lr * g for (n, w), g in zip(fast_weights.items(), grads)}
                adapt_curve[k] += inner_loss  # expect: TEN501

            qry_logits = functional_call(model, fast_weights, (x_qry[i],))
            qry_loss = F.cross_entropy(qry_logits, y_qry[i])
            meta_loss = meta_loss + qry_loss  # ok
            qry_correct += (qry_logits.argmax(dim=1) == y_qry[i]).sum()  # ok
            qry_seen += y_qry[i].numel()

        meta_loss = meta_loss / args.task_num
        meta_loss.backward()
        meta_opt.step()

        if step % 100 == 0:
            denom = (step + 1) * args.task_num
            curve = " ".join(f"{float(v) / denom:.3f}" for v in adapt_curve)
            print(f"step {step:6d}  meta-loss {meta_loss.item():.4f}  "
                  f"query acc {float(qry_correct) / qry_seen:.4f}  inner curve [{curve}]  "
                  f"{time.time() - t0:.0f}s")
            qry_correct, qry_seen = 0, 0


if __name__ == "__main__":
    main()
