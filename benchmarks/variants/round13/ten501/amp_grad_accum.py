"""Mixed precision (bf16 autocast on CPU) with gradient accumulation and a GradScaler."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build(d=16, n_cls=4):
    return nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.LayerNorm(32), nn.Linear(32, n_cls))


def train(steps=8, accum=2, bs=4, d=16):
    torch.manual_seed(0)
    model = build(d)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    scaler = torch.amp.GradScaler("cpu", enabled=True)
    window_loss = 0.0
    logged, micro_losses, scale_hist, opt_steps = [], [], [], []
    for i in range(steps):
        x, y = torch.randn(bs, d), torch.randint(0, 4, (bs,))
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(x)
            loss = F.cross_entropy(logits.float(), y) / accum
        scaler.scale(loss).backward()
        window_loss += loss  # either
        micro_losses.append(loss.detach().float())  # ok
        if (i + 1) % accum == 0:
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(opt)
            scaler.update()
            opt.zero_grad(set_to_none=True)
            logged.append(window_loss.item())  # ok
            opt_steps.append(i)  # ok
            window_loss = 0.0
        scale_hist.append(scaler.get_scale())  # ok
    return logged, micro_losses, scale_hist


@torch.inference_mode()
def evaluate(model, batches):
    outs = []
    for x in batches:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            outs.append(model(x).float())  # ok
    return torch.cat(outs)


if __name__ == "__main__":
    logged, micro, scales = train()
    print(logged, len(micro), scales[-1])
    print(evaluate(build(), [torch.randn(3, 16)]).shape)
