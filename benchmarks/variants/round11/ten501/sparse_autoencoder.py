"""Sparse autoencoder on activations, with a tracked decoder-norm penalty."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseAE(nn.Module):
    def __init__(self, d_in=512, d_hidden=4096):
        super().__init__()
        self.enc = nn.Linear(d_in, d_hidden)
        self.dec = nn.Linear(d_hidden, d_in, bias=False)

    @property
    def decoder_norm_penalty(self):
        return (self.dec.weight.norm(dim=0) - 1.0).pow(2).mean()

    @property
    def n_params(self):
        return sum(p.numel() for p in self.parameters())

    def forward(self, x):
        z = F.relu(self.enc(x))
        return self.dec(z), z


def train(acts, steps=5000, l1=1e-3, batch=2048):
    sae = SparseAE(acts.size(1))
    opt = torch.optim.Adam(sae.parameters(), lr=1e-4)
    penalty_log = []
    l0_log = []
    dead = torch.zeros(sae.enc.out_features, dtype=torch.long)
    print("params", sae.n_params)
    for step in range(steps):
        x = acts[torch.randint(0, acts.size(0), (batch,))]
        recon, z = sae(x)
        mse = F.mse_loss(recon, x)
        sparsity = z.abs().sum(-1).mean()
        loss = mse + l1 * sparsity + sae.decoder_norm_penalty
        opt.zero_grad()
        loss.backward()
        opt.step()

        penalty_log.append(sae.decoder_norm_penalty)  # expect: TEN501
        l0_log.append((z > 0).float().sum(-1).mean().item())  # ok
        dead += (z.detach() == 0).all(0).long()  # ok
        if step % 500 == 0:
            print(step, mse.item(), l0_log[-1], int((dead > 400).sum()))
            dead.zero_()
    return sae, penalty_log
