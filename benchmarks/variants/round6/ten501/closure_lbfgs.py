"""Optimisers that need a closure: LBFGS curve fitting and a neural-style
transfer loop where the input image is the parameter being optimised."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gram_matrix(feat):
    b, c, h, w = feat.size()
    f = feat.view(b * c, h * w)
    return (f @ f.t()).div(b * c * h * w)


class ContentLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()
        self.loss = torch.tensor(0.0)

    def forward(self, x):
        self.loss = F.mse_loss(x, self.target)
        return x


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super().__init__()
        self.target = gram_matrix(target_feature).detach()
        self.loss = torch.tensor(0.0)

    def forward(self, x):
        self.loss = F.mse_loss(gram_matrix(x), self.target)
        return x


def build_style_model(cnn, style_img, content_img):
    model = nn.Sequential()
    content_losses, style_losses = [], []
    i = 0
    for layer in cnn.children():
        if isinstance(layer, nn.Conv2d):
            i += 1
            name = f"conv_{i}"
        elif isinstance(layer, nn.ReLU):
            name, layer = f"relu_{i}", nn.ReLU(inplace=False)
        else:
            name = f"layer_{i}"
        model.add_module(name, layer)
        if name == "conv_2":
            target = model(content_img).detach()
            cl = ContentLoss(target)
            model.add_module(f"content_loss_{i}", cl)
            content_losses.append(cl)
        if name in ("conv_1", "conv_2", "conv_3"):
            target_feature = model(style_img).detach()
            sl = StyleLoss(target_feature)
            model.add_module(f"style_loss_{i}", sl)
            style_losses.append(sl)
    return model, style_losses, content_losses


def run_style_transfer(cnn, content_img, style_img, input_img, num_steps=6, style_weight=1e5, content_weight=1):
    model, style_losses, content_losses = build_style_model(cnn, style_img, content_img)
    input_img.requires_grad_(True)
    model.eval()
    model.requires_grad_(False)
    optimizer = torch.optim.LBFGS([input_img], max_iter=4)
    run = [0]
    scores = []
    while run[0] <= num_steps:
        def closure():
            with torch.no_grad():
                input_img.clamp_(0, 1)
            optimizer.zero_grad()
            model(input_img)
            style_score = 0
            content_score = 0
            for sl in style_losses:
                style_score += sl.loss  # ok
            for cl in content_losses:
                content_score += cl.loss  # ok
            loss = style_score * style_weight + content_score * content_weight
            loss.backward()
            run[0] += 1
            scores.append((float(style_score), content_score.item()))
            return loss

        optimizer.step(closure)
    with torch.no_grad():
        input_img.clamp_(0, 1)
    return input_img, scores


def fit_curve(n_steps=8):
    torch.manual_seed(0)
    x = torch.linspace(-2, 2, 64).unsqueeze(1)
    y = torch.sin(2 * x) + 0.05 * torch.randn_like(x)
    model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5, history_size=10)
    evals = []

    def closure():
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        evals.append(loss.detach())  # ok
        return loss

    history = []
    for step in range(n_steps):
        loss = opt.step(closure)
        history.append(loss.item())
    return history, evals


def main():
    hist, evals = fit_curve()
    print(f"lbfgs: {hist[0]:.4f} -> {hist[-1]:.4f} over {len(evals)} closure evals")
    torch.manual_seed(0)
    cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                        nn.MaxPool2d(2), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
    content = torch.rand(1, 3, 16, 16)
    style = torch.rand(1, 3, 16, 16)
    out, scores = run_style_transfer(cnn, content, style, content.clone())
    print(f"style transfer: {len(scores)} evals, last style {scores[-1][0]:.6f} content {scores[-1][1]:.6f}")


if __name__ == "__main__":
    main()
