import torch


class SAM(torch.optim.Optimizer):
    """Sharpness-aware minimisation (Foret et al., 2021).

    first_step climbs to w + e(w); second_step puts w back and applies the
    base optimiser using the gradient computed at the perturbed point.
    """

    def __init__(self, params, base_optimizer_cls, rho=0.05, adaptive=False, **kwargs):
        defaults = dict(rho=rho, adaptive=adaptive, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer_cls(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    def _grad_norm(self):
        norms = []
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                scale = p.abs() if group["adaptive"] else 1.0
                norms.append((scale * p.grad).norm(p=2))
        return torch.norm(torch.stack(norms), p=2)

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data  # expect: TEN402
                e_w = (torch.pow(p, 2) if group["adaptive"] else 1.0) * p.grad * scale
                p.add_(e_w)
        if zero_grad:
            self.zero_grad()

    @torch.no_grad()
    def second_step(self, zero_grad=False):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.data = self.state[p]["old_p"]
        self.base_optimizer.step()
        if zero_grad:
            self.zero_grad()


class ASAM(SAM):
    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                self.state[p]["old_p"] = p.data.clone()  # ok
                p.add_(torch.pow(p, 2) * p.grad * scale)
        if zero_grad:
            self.zero_grad()


def train_step(model, batch, opt: SAM, loss_fn):
    x, y = batch
    loss_fn(model(x), y).backward()
    opt.first_step(zero_grad=True)
    loss_fn(model(x), y).backward()
    opt.second_step(zero_grad=True)


def snapshot_for_logging(model):
    return [p.detach().clone() for p in model.parameters()]  # ok
