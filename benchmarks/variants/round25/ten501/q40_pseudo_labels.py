"""Self-training with a pseudo-label bank over an unlabeled pool."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def run():
    x_lab, y_lab = torch.randn(30, 6), torch.randint(0, 3, (30,))
    x_unl = torch.randn(60, 6)
    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 3))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    pseudo_bank = {}
    pseudo_bank_ok = {}
    confident_count = 0
    conf_hist = []
    for step in range(9):
        idx = torch.randint(0, 60, (10,))
        probs = model(x_unl[idx]).softmax(1)
        conf, hard = probs.max(1)
        mask = conf > 0.4
        sup = F.cross_entropy(model(x_lab), y_lab)
        unsup = (F.cross_entropy(model(x_unl[idx]), hard, reduction="none") * mask).mean()
        loss = sup + 0.5 * unsup
        opt.zero_grad()
        loss.backward()
        opt.step()
        for j, i in enumerate(idx.tolist()):
            pseudo_bank[i] = probs[j]  # expect: TEN501
            pseudo_bank_ok[i] = probs[j].detach()  # ok
        confident_count += (conf > 0.5).sum()  # ok
        conf_hist.append(conf.mean())  # expect: TEN501
    print("bank size", len(pseudo_bank), "confident", int(confident_count))
    print("mean bank entropy", round(float(-sum((p * p.log()).sum() for p in pseudo_bank_ok.values()) / len(pseudo_bank_ok)), 4))


run()
