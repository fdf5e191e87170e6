"""WGAN with gradient penalty."""
import torch


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1, 1, 1, device=real.device)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    grads = torch.autograd.grad(outputs=scores, inputs=interp, grad_outputs=torch.ones_like(scores),
                                create_graph=True, retain_graph=True)[0]
    return ((grads.view(grads.size(0), -1).norm(2, dim=1) - 1) ** 2).mean()


class WGANGPTrainer:
    def __init__(self, G, D, z_dim=128, n_critic=5, lambda_gp=10.0, lr=1e-4):
        self.G, self.D = G, D
        self.z_dim, self.n_critic, self.lambda_gp = z_dim, n_critic, lambda_gp
        self.opt_g = torch.optim.Adam(G.parameters(), lr=lr, betas=(0.0, 0.9))
        self.opt_d = torch.optim.Adam(D.parameters(), lr=lr, betas=(0.0, 0.9))
        self.gp_history = []
        self.w_dist = []
        self.g_history = []

    def train_step(self, real):
        for _ in range(self.n_critic):
            z = torch.randn(real.size(0), self.z_dim, device=real.device)
            fake = self.G(z).detach()
            d_real = self.D(real).mean()
            d_fake = self.D(fake).mean()
            gp = gradient_penalty(self.D, real, fake)
            d_loss = d_fake - d_real + self.lambda_gp * gp
            self.opt_d.zero_grad()
            d_loss.backward()
            self.opt_d.step()
        self.gp_history.append(gp)  # expect: TEN501
        self.w_dist.append((d_real - d_fake).item())  # ok

        z = torch.randn(real.size(0), self.z_dim, device=real.device)
        g_loss = -self.D(self.G(z)).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        self.g_history.append(g_loss.detach().cpu())  # ok
        return {"d_loss": d_loss.item(), "g_loss": g_loss.item(), "gp": gp.item()}

    def train(self, loader, epochs):
        logs = []
        for epoch in range(epochs):
            for real, _ in loader:
                logs.append(self.train_step(real))  # ok
            print(f"epoch {epoch}: W-dist {sum(self.w_dist[-len(loader):]) / len(loader):.3f}")
        return logs

    @torch.no_grad()
    def sample_grid(self, n=64):
        samples = []
        for _ in range(4):
            samples.append(self.G(torch.randn(n // 4, self.z_dim)))  # ok
        return torch.cat(samples)
