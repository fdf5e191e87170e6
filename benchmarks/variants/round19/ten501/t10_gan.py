"""DCGAN-tutorial style GAN on 2-D toy data."""
import torch
import torch.nn as nn

nz = 4


def make_models():
    G = nn.Sequential(nn.Linear(nz, 16), nn.ReLU(), nn.Linear(16, 2))
    D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid())
    return G, D


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    G, D = make_models()
    criterion = nn.BCELoss()
    optD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    fixed_noise = torch.randn(8, nz)
    G_losses, D_losses = [], []
    G_loss_tensors, D_x_hist = [], []
    img_list, preview_bad, preview_ng = [], [], []
    real_label, fake_label = 1.0, 0.0
    iters = 0
    for epoch in range(2):
        for i in range(3):
            real = torch.randn(16, 2) * 0.5 + 1.0
            D.zero_grad()
            label = torch.full((16,), real_label)
            output = D(real).view(-1)
            errD_real = criterion(output, label)
            errD_real.backward()
            D_x = output.mean()
            noise = torch.randn(16, nz)
            fake = G(noise)
            label.fill_(fake_label)
            output = D(fake.detach()).view(-1)
            errD_fake = criterion(output, label)
            errD_fake.backward()
            errD = errD_real + errD_fake
            optD.step()
            G.zero_grad()
            label.fill_(real_label)
            output = D(fake).view(-1)
            errG = criterion(output, label)
            errG.backward()
            optG.step()
            G_losses.append(errG.item())  # ok
            D_losses.append(errD.item())  # ok
            G_loss_tensors.append(errG)  # expect: TEN501
            D_x_hist.append(D_x)  # expect: TEN501
            if iters % 2 == 0:
                with torch.no_grad():
                    sample = G(fixed_noise)
                img_list.append(sample)  # ok
                img_list.append(fake.detach().cpu())  # ok
                preview_bad.append(G(fixed_noise))  # expect: TEN501
                with torch.no_grad():
                    preview_ng.append(G(fixed_noise))  # ok
            iters += 1
    print(len(G_losses), sum(D_losses), float(sum(G_loss_tensors)), float(sum(D_x_hist)), len(img_list),
          float(preview_bad[-1].sum()), float(preview_ng[-1].sum()))


if __name__ == "__main__":
    main()
