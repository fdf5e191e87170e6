import torch
import torch.nn.functional as F

from fedavg.weights import get_weights, set_weights


def local_update(model, loader, epochs, lr, device, mu=0.0, global_weights=None):
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.0)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            if mu > 0 and global_weights is not None:
                prox = sum(((p - global_weights[n]) ** 2).sum() for n, p in model.named_parameters())
                loss = loss + 0.5 * mu * prox
            loss.backward()
            optimizer.step()
    return len(loader.dataset)


def run_round(model, global_weights, client_loaders, selected, local_epochs, lr, device, mu=0.0):
    updates, sizes = [], []
    for cid in selected:
        set_weights(model, global_weights)
        n = local_update(model, client_loaders[cid], local_epochs, lr, device, mu, global_weights)
        updates.append(get_weights(model))  # expect: TEN402
        sizes.append(n)
    return updates, sizes
