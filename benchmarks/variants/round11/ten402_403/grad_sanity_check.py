"""Unit-test style check that one optimizer step updates every trainable parameter."""
import torch
import torch.nn as nn


def build():
    return nn.Sequential(
        nn.Conv1d(4, 8, 5, padding=2, bias=False), nn.BatchNorm1d(8), nn.ReLU(),
        nn.Conv1d(8, 8, 5, padding=2), nn.ReLU(),
        nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(8, 3),
    )


def test_all_params_update():
    torch.manual_seed(1)
    net = build()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    params_before = [p.data for p in net.parameters()]  # expect: TEN402
    x = torch.randn(6, 4, 50)
    y = torch.randint(0, 3, (6,))
    nn.functional.cross_entropy(net(x), y).backward()
    opt.step()
    for before, after in zip(params_before, net.parameters()):
        assert not torch.equal(before, after.data), "parameter did not change"


def test_all_params_update_fixed():
    torch.manual_seed(1)
    net = build()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    params_before = [p.data.clone() for p in net.parameters()]  # ok
    buffers_before = {n: b.clone() for n, b in net.named_buffers()}  # ok
    x = torch.randn(6, 4, 50)
    y = torch.randint(0, 3, (6,))
    nn.functional.cross_entropy(net(x), y).backward()
    opt.step()
    for before, after in zip(params_before, net.parameters()):
        assert not torch.equal(before, after.data), "parameter did not change"
    assert not torch.equal(buffers_before["1.running_mean"], net[1].running_mean)


if __name__ == "__main__":
    test_all_params_update_fixed()
    try:
        test_all_params_update()
    except AssertionError as err:
        print("spurious failure:", err)
