"""Old-style training tricks written through .data."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def wgan_critic_step(critic, opt, real, fake, clip=0.01):
    opt.zero_grad()
    loss = critic(fake).mean() - critic(real).mean()
    loss.backward()
    opt.step()
    for p in critic.parameters():
        p.data.clamp_(-clip, clip)  # expect: TEN102
    return loss.item()


def clip_grads_by_value(model, limit=1.0):
    for p in model.parameters():
        if p.grad is not None:
            p.grad.data.clamp_(-limit, limit)  # expect: TEN102


def manual_sgd(model, lr):
    for name, param in model.named_parameters():
        if param.grad is None:
            continue
        param.data -= lr * param.grad  # expect: TEN102


def zero_biases(model):
    params = dict(model.named_parameters())
    for name in params:
        if name.endswith("bias"):
            params[name].data.zero_()  # expect: TEN102


def to_half(model):
    for p in model.parameters():
        p.data = p.data.half()  # expect: TEN103, TEN101


def grad_norms(model):
    return {n: p.grad.data.norm(2).item() for n, p in model.named_parameters() if p.grad is not None}  # expect: TEN101


def weight_stats(model):
    weights = [p for p in model.parameters() if p.dim() > 1]
    return [w.data.abs().mean().item() for w in weights]  # expect: TEN101


def max_norm_constraint(layer, max_norm=2.0):
    w = layer.weight
    norms = w.data.norm(2, dim=1, keepdim=True)  # expect: TEN101
    w.data.mul_(torch.clamp(norms, max=max_norm) / (norms + 1e-7))  # expect: TEN102


def first_group_first_param(opt):
    p0 = opt.param_groups[0]["params"][0]
    p0.data.add_(1e-3)  # expect: TEN102


def perturb_weights(model, eps):
    saved = []
    for p in model.parameters():
        e = eps * torch.randn_like(p)
        saved.append(e)
        p.data.add_(e)  # expect: TEN102
    return saved


def tracked_versions(model, lr):
    with torch.no_grad():
        for p in model.parameters():
            p.add_(p.grad, alpha=-lr)  # ok
            p.clamp_(-1, 1)  # ok


if __name__ == "__main__":
    torch.manual_seed(0)
    critic = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.RMSprop(critic.parameters(), lr=5e-5)
    wgan_critic_step(critic, opt, torch.randn(8, 4), torch.randn(8, 4))
    F.mse_loss(critic(torch.randn(8, 4)), torch.randn(8, 1)).backward()
    clip_grads_by_value(critic)
    print(grad_norms(critic))
    manual_sgd(critic, 0.1)
    zero_biases(critic)
    print(weight_stats(critic))
    max_norm_constraint(critic[0])
    first_group_first_param(opt)
    perturb_weights(critic, 0.01)
    tracked_versions(critic, 0.1)
    to_half(critic)
    print(next(critic.parameters()).dtype)
