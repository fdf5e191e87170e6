import torch


def training_step(model, batch, optimizer, max_grad_norm=1.0):
    model.train()
    out = model(**batch)
    out["loss"].backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    optimizer.step()
    optimizer.zero_grad()
    return out
