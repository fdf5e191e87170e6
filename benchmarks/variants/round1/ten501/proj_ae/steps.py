import torch.nn.functional as F


def train_step(model, batch, optimizer):
    optimizer.zero_grad()
    recon = model(batch)
    loss = F.mse_loss(recon, batch)
    loss.backward()
    optimizer.step()
    return loss, recon


def eval_batch(model, batch):
    recon = model(batch)
    return F.mse_loss(recon, batch)
