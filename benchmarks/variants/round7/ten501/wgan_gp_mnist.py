import os
from collections import defaultdict

import torch
import torch.autograd as autograd
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from torchvision.utils import save_image

img_shape = (1, 28, 28)
latent_dim = 100
n_critic = 5
lambda_gp = 10
n_epochs = 200
sample_interval = 400
cuda = torch.cuda.is_available()
device = torch.device("cuda" if cuda else "cpu")


class Generator(nn.Module):
    def __init__(self):
        super().__init__()

        def block(in_feat, out_feat, normalize=True):
            layers = [nn.Linear(in_feat, out_feat)]
            if normalize:
                layers.append(nn.BatchNorm1d(out_feat, 0.8))
            layers.append(nn.LeakyReLU(0.2, inplace=True))
            return layers

        self.model = nn.Sequential(
            *block(latent_dim, 128, normalize=False),
            *block(128, 256),
            *block(256, 512),
            *block(512, 1024),
            nn.Linear(1024, int(torch.tensor(img_shape).prod())),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.model(z).view(z.size(0), *img_shape)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(
            nn.Linear(int(torch.tensor(img_shape).prod()), 512),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(512, 256),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Linear(256, 1),
        )

    def forward(self, img):
        return self.model(img.view(img.shape[0], -1))


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, 1, 1, device=real.device)
    interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_interpolates = critic(interpolates)
    gradients = autograd.grad(
        outputs=d_interpolates,
        inputs=interpolates,
        grad_outputs=torch.ones_like(d_interpolates),
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    gradients = gradients.view(gradients.size(0), -1)
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


os.makedirs("images", exist_ok=True)
dataloader = DataLoader(
    datasets.MNIST("data/mnist", train=True, download=True,
                   transform=transforms.Compose([transforms.ToTensor(), transforms.Normalize([0.5], [0.5])])),
    batch_size=64, shuffle=True, drop_last=True,
)
generator = Generator().to(device)
critic = Critic().to(device)
optimizer_G = torch.optim.Adam(generator.parameters(), lr=1e-4, betas=(0.0, 0.9))
optimizer_C = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))

stats = defaultdict(list)
batches_done = 0
for epoch in range(n_epochs):
    for i, (imgs, _) in enumerate(dataloader):
        real_imgs = imgs.to(device)

        optimizer_C.zero_grad()
        z = torch.randn(imgs.shape[0], latent_dim, device=device)
        fake_imgs = generator(z)
        d_real = critic(real_imgs).mean()
        d_fake = critic(fake_imgs.detach()).mean()
        gp = gradient_penalty(critic, real_imgs, fake_imgs.detach())
        d_loss = d_fake - d_real + lambda_gp * gp
        d_loss.backward()
        optimizer_C.step()

        w_dist = d_real - d_fake
        stats["w_dist"].append(w_dist)  # expect: TEN501
        stats["gp"].append(gp.item())  # ok

        if i % n_critic == 0:
            optimizer_G.zero_grad()
            fake_imgs = generator(z)
            g_loss = -critic(fake_imgs).mean()
            g_loss.backward()
            optimizer_G.step()
            stats["g_loss"].append(g_loss.detach().cpu())  # ok

            if batches_done % sample_interval == 0:
                print(f"[Epoch {epoch}/{n_epochs}] [Batch {i}/{len(dataloader)}] "
                      f"[D loss: {d_loss.item():.4f}] [G loss: {g_loss.item():.4f}] [W: {w_dist.item():.4f}]")
                save_image(fake_imgs.data[:25], f"images/{batches_done}.png", nrow=5, normalize=True)
            batches_done += n_critic

torch.save({k: torch.stack([torch.as_tensor(v) for v in vs]) for k, vs in stats.items()}, "wgan_gp_stats.pt")
