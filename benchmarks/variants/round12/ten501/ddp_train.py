"""DistributedDataParallel training entry point (torchrun)."""
import os
from collections import defaultdict

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP


def reduce_mean(tensor, world_size):
    rt = tensor.clone()
    dist.all_reduce(rt, op=dist.ReduceOp.SUM)
    return rt / world_size


def reduce_dict(input_dict, average=True):
    world_size = dist.get_world_size()
    with torch.no_grad():
        names = sorted(input_dict.keys())
        values = torch.stack([input_dict[k] for k in names])
        dist.all_reduce(values)
        if average:
            values /= world_size
        return dict(zip(names, values))


def train(model, loader, optimizer, epochs, weight_decay=1e-4):
    rank = int(os.environ["LOCAL_RANK"])
    world_size = dist.get_world_size()
    torch.cuda.set_device(rank)
    model = DDP(model.to(rank), device_ids=[rank])
    loss_hist = []
    dict_hist = defaultdict(list)
    for epoch in range(epochs):
        loader.sampler.set_epoch(epoch)
        epoch_loss = 0.0
        prev_loss = None
        for x, y in loader:
            out = model(x.to(rank))
            loss_dict = {
                "ce": F.cross_entropy(out, y.to(rank)),
                "l2": weight_decay * sum(p.pow(2).sum() for p in model.parameters()),
            }
            loss = sum(loss_dict.values())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            epoch_loss += reduce_mean(loss, world_size)  # expect: TEN501
            reduced = reduce_dict(loss_dict)
            for k, v in reduced.items():
                dict_hist[k].append(v)  # ok
            loss_hist.append(reduce_mean(loss.detach(), world_size))  # ok
            dict_hist["lr"].append(optimizer.param_groups[0]["lr"])  # ok
            if prev_loss is not None:
                dict_hist["rel_change"].append(abs(loss.item() - prev_loss.item()) / (prev_loss.item() + 1e-8))  # ok
            prev_loss = loss  # either
        if rank == 0:
            print(f"epoch {epoch}: loss {float(epoch_loss) / len(loader):.4f}")
    return loss_hist, dict_hist


if __name__ == "__main__":
    dist.init_process_group("nccl")
    try:
        from my_project import build_everything

        train(*build_everything())
    finally:
        dist.destroy_process_group()
