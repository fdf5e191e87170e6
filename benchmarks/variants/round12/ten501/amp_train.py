"""Mixed-precision training with GradScaler."""
import torch
import torch.nn.functional as F


def train_amp(model, loader, optimizer, epochs, device="cuda", clip=1.0):
    scaler = torch.amp.GradScaler("cuda")
    running = torch.zeros((), device=device)
    running_f = 0.0
    losses_fp32 = []
    losses_cpu = []
    scales = []
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                out = model(x)
                loss = F.cross_entropy(out, y)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            scaler.step(optimizer)
            scaler.update()

            running += loss.float()  # expect: TEN501
            running_f += float(loss)  # ok
            losses_fp32.append(loss.detach().float())  # ok
            losses_cpu.append(loss.to("cpu", non_blocking=True))  # expect: TEN501
            scales.append(scaler.get_scale())  # ok
        print(f"epoch {epoch}: mean loss {running_f / len(loader):.4f}")
        running_f = 0.0
    return running, losses_fp32, losses_cpu, scales


@torch.no_grad()
def evaluate_amp(model, loader, device="cuda"):
    model.eval()
    total = torch.zeros((), device=device)
    for x, y in loader:
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            out = model(x.to(device))
        total += F.cross_entropy(out.float(), y.to(device), reduction="sum")  # ok
    return total.item() / len(loader.dataset)
