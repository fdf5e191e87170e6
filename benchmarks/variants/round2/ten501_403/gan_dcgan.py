"""DCGAN-tutorial-style loop, with the statistics kept as tensors."""
import torch
import torch.nn as nn

nz = 8


def make_models():
    netG = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 16), nn.Tanh())
    netD = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid())
    return netG, netD


def train(num_epochs=2, steps=4, bs=8):
    netG, netD = make_models()
    criterion = nn.BCELoss()
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
    fixed_noise = torch.randn(4, nz)
    G_losses, D_losses, D_x_hist = [], [], []
    img_list = []
    sum_errD = 0
    iters = 0
    for epoch in range(num_epochs):
        for i in range(steps):
            real = torch.randn(bs, 16)
            netD.zero_grad()
            label = torch.full((bs,), 1.0)
            output = netD(real).view(-1)
            errD_real = criterion(output, label)
            errD_real.backward()
            D_x = output.mean()

            noise = torch.randn(bs, nz)
            fake = netG(noise)
            label.fill_(0.0)
            output = netD(fake.detach()).view(-1)
            errD_fake = criterion(output, label)
            errD_fake.backward()
            errD = errD_real + errD_fake
            optD.step()

            netG.zero_grad()
            label.fill_(1.0)
            output = netD(fake).view(-1)
            errG = criterion(output, label)
            errG.backward()
            optG.step()

            G_losses.append(errG.cpu())  # expect: TEN501
            D_losses.append(errD.item())  # ok
            D_x_hist.append(D_x)  # expect: TEN501
            sum_errD = sum_errD + errD_real  # expect: TEN501
            if iters % 3 == 0:
                with torch.no_grad():
                    sample = netG(fixed_noise)
                img_list.append(sample)  # ok
            iters += 1
    return G_losses, D_x_hist, sum_errD, img_list


def wgan_gp_critic_stats(steps=4, bs=8):
    netG, netD = make_models()
    opt = torch.optim.Adam(netD.parameters(), lr=1e-4)
    wasserstein = []
    penalties = torch.zeros(0)
    for _ in range(steps):
        real, fake = torch.randn(bs, 16), netG(torch.randn(bs, nz)).detach()
        alpha = torch.rand(bs, 1)
        interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        grad = torch.autograd.grad(netD(interp).sum(), interp, create_graph=True)[0]
        gp = ((grad.norm(2, dim=1) - 1) ** 2).mean()
        w_dist = netD(real).mean() - netD(fake).mean()
        loss = -w_dist + 10 * gp
        opt.zero_grad()
        loss.backward()
        opt.step()
        wasserstein.append(w_dist.detach())  # ok
        penalties = torch.cat([penalties, gp.view(1)])  # expect: TEN501
    return wasserstein, penalties


if __name__ == "__main__":
    torch.manual_seed(0)
    g, dx, s, imgs = train()
    print("G_losses:", g[0].grad_fn, "D_x:", dx[0].grad_fn, "sum_errD:", s.grad_fn, "imgs:", imgs[0].grad_fn)
    w, p = wgan_gp_critic_stats()
    print("penalties grad_fn:", p.grad_fn)
