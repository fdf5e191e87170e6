import torch.nn.functional as F


def d_hinge(real_logits, fake_logits):
    return F.relu(1 - real_logits).mean() + F.relu(1 + fake_logits).mean()


def g_hinge(fake_logits):
    return -fake_logits.mean()


def r1_penalty(d_out, real):
    import torch
    g, = torch.autograd.grad(d_out.sum(), real, create_graph=True)
    return g.pow(2).sum(1).mean()
