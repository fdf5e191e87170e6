"""Objects with a `.data` that are not tensors: datasets, argparse, records, properties."""
import argparse
from collections import namedtuple

import numpy as np
import torch
from torch.utils import data
from torch.utils.data import Dataset

Sample = namedtuple("Sample", ["data", "label"])


class ArrayDataset(Dataset):
    def __init__(self, n=10):
        self.data = np.random.randn(n, 3).astype(np.float32)  # ok
        self.targets = np.zeros(n, dtype=np.int64)

    def __len__(self):
        return len(self.data)  # ok

    def __getitem__(self, i):
        return torch.from_numpy(self.data[i]), self.targets[i]  # ok


class TensorBackedDataset(Dataset):
    """Like torchvision's MNIST: .data holds a tensor, but it is a dataset's field, not a Parameter."""

    def __init__(self):
        self.data = torch.randint(0, 255, (20, 8, 8), dtype=torch.uint8)  # ok
        self.targets = torch.zeros(20, dtype=torch.long)

    def __len__(self):
        return self.data.shape[0]  # ok

    def __getitem__(self, i):
        return self.data[i].float() / 255, self.targets[i]  # ok


class Record:
    def __init__(self, payload):
        self._payload = payload

    @property
    def data(self):
        return dict(self._payload)

    @data.setter
    def data(self, value):
        self._payload = value


def normalise(ds):
    mean = ds.data.mean(axis=0)  # ok
    ds.data -= mean  # ok
    ds.data[ds.data > 3] = 3  # ok
    return ds


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="./data")
    args = ap.parse_args([])
    if not args.data.endswith("/"):  # ok
        args.data = args.data + "/"  # ok
    return args


def use_records():
    r = Record({"a": 1})
    r.data = {"b": 2}  # ok
    r.data.update({"c": 3})  # ok
    s = Sample(data=[1, 2, 3], label=0)
    return len(s.data), r.data  # ok


def loaders(ds):
    return data.DataLoader(ds, batch_size=4)  # ok


def numpy_weights():
    weight = np.ones((3, 3), dtype=np.float32)
    view = weight.data  # ok
    bias = np.zeros(3)
    return view.nbytes + bias.data.nbytes  # ok


if __name__ == "__main__":
    ds = normalise(ArrayDataset())
    print(parse().data, use_records(), numpy_weights())
    t = TensorBackedDataset()
    print(len(t), next(iter(loaders(t)))[0].shape)
