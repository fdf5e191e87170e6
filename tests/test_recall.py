"""Misses that matter (issue 21 item 4), through the real front ends: each test failed on the
main branch the work started from."""
import re
import sys
import textwrap

from .conftest import flake8, tensorcopy

LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<code>TEN\d{3})", re.M)


def check(tmp_path, files, *args):
    """Write ``files`` (name -> text) under ``tmp_path`` and run ``tensorcopy check`` there:
    the set of (file, line, code) reported."""
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    proc = tensorcopy("check", "--no-cache", *args, ".", cwd=str(tmp_path))
    assert proc.returncode in (0, 1), proc.stderr
    return {(m["path"].replace("\\", "/").lstrip("./"), int(m["line"]), m["code"])
            for m in LINE.finditer(proc.stdout)}


# ---- DataLoader batches ------------------------------------------------------------------

TUTORIAL = """\
import torch
from torch.utils.data import DataLoader


def train_model(model, image_datasets, criterion):
    dataloaders = {x: torch.utils.data.DataLoader(image_datasets[x], batch_size=4, shuffle=True)
                   for x in ["train", "val"]}
    for phase in ["train", "val"]:
        running_corrects = 0
        for inputs, labels in dataloaders[phase]:
            outputs = model(inputs)
            _, preds = torch.max(outputs, 1)
            running_corrects += torch.sum(preds == labels.data)


def evaluate(model, loader: DataLoader):
    for i, data in enumerate(loader):
        inputs, labels = data
        print(labels.data)


def custom(ds, collate):
    for x, y in DataLoader(ds, batch_size=2, collate_fn=collate):
        print(y.data)
    for x, y in DataLoader(ds, batch_size=None):
        print(y.data)
"""


def test_dataloader_batch_fields_are_tensors_flake8(tmp_path):
    (tmp_path / "tutorial.py").write_text(TUTORIAL)
    proc = flake8("--select", "TEN", "tutorial.py", cwd=str(tmp_path))
    got = {(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)}
    # the tutorial's `preds == labels.data` and an annotated loader's field; a loader with its
    # own collate_fn, or with batch_size=None, says nothing of what a batch holds
    assert got == {(13, "TEN101"), (19, "TEN101")}, proc.stdout + proc.stderr


def test_dataloader_returned_by_a_project_function(tmp_path):
    got = check(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/data.py": """\
            import torch


            def get_loader(ds, bs=8):
                loader = torch.utils.data.DataLoader(ds, batch_size=bs, shuffle=True)
                return loader
            """,
        "train.py": """\
            import torch
            from pkg.data import get_loader


            def run(model, ds):
                for x, y in get_loader(ds):
                    acc = (model(x).argmax(1) == y.data).float().mean()
            """,
    })
    assert got == {("train.py", 7, "TEN101")}


# ---- TEN401: the original used after a write through its detach() alias -------------------

ALIAS = """\
import torch


def seed(a):
    out = a.sigmoid()
    c = out.detach()
    c.zero_()
    out.sum().backward()


def averaging(swa, model, n):
    for p_swa, p_model in zip(swa.parameters(), model.parameters()):
        p_swa_ = p_swa.detach()
        p_swa_.copy_(p_swa_ + (p_model.detach() - p_swa_) / (n + 1))


def restore(opt):
    for p in opt.param_groups[0]["params"]:
        bak = p.data
        p.data = p.data.float()
        bak.copy_(p.data)
"""


def test_alias_write_flagged_when_the_original_is_used_afterwards(tmp_path):
    got = {(line, code) for _, line, code in check(tmp_path, {"alias.py": ALIAS})
           if code == "TEN401"}
    # the seed's RuntimeError at backward is flagged; the deliberate averaging write and the
    # backup restored after `p.data` got other storage are not
    assert got == {(7, "TEN401")}


def test_alias_write_seed_raises_at_backward_as_the_message_says():
    """The flagged program really fails at backward on the installed torch."""
    from .conftest import run
    prog = ALIAS + "\nseed(torch.randn(3, requires_grad=True))\n"
    proc = run([sys.executable, "-c", prog])
    assert proc.returncode != 0 and "modified by an inplace operation" in proc.stderr


# ---- TEN302 in two statements ------------------------------------------------------------

def test_like_then_copy_in_two_statements(tmp_path):
    (tmp_path / "two.py").write_text(textwrap.dedent("""\
        import torch


        def f(v, w):
            out = torch.empty_like(v)
            out.copy_(v)
            a = torch.zeros_like(v)
            a.copy_(w)
            return out, a
        """))
    proc = flake8("--select", "TEN", "two.py", cwd=str(tmp_path))
    got = [(int(m["line"]), m["code"]) for m in LINE.finditer(proc.stdout)]
    assert got == [(6, "TEN302")], proc.stdout + proc.stderr


# ---- a project's own tests import the project's package ------------------------------------

def test_tests_resolve_the_projects_own_package_without_a_marker(tmp_path):
    """No pyproject/setup/.git: ``tests/`` linted on its own (or from another directory) still
    finds ``kornia`` next to it, so a class with a tensor-valued ``data`` property is no tensor."""
    for name, text in {
        "kornia/__init__.py": "",
        "kornia/geometry/__init__.py": "",
        "kornia/geometry/boxes.py": """\
            import torch


            class Boxes3D:
                def __init__(self, boxes: torch.Tensor) -> None:
                    self._data = boxes

                @property
                def data(self) -> torch.Tensor:
                    return self._data
            """,
        "tests/geometry/test_boxes.py": """\
            import torch
            from kornia.geometry.boxes import Boxes3D


            def test_boxes():
                boxes = Boxes3D(torch.zeros(1, 8, 3))
                expected = boxes.data.clone()
                t = torch.zeros(3, requires_grad=True)
                print(t.data.clone())
            """,
    }.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    tests = tmp_path / "tests"
    proc = flake8("--select", "TEN", ".", cwd=str(tests))
    got = {(m["path"].replace("\\", "/"), int(m["line"])) for m in LINE.finditer(proc.stdout)}
    assert got == {("./geometry/test_boxes.py", 9)}, proc.stdout + proc.stderr
    proc = tensorcopy("check", "--no-cache", str(tests / "geometry" / "test_boxes.py"),
                      cwd=str(tmp_path.parent))
    assert [int(m["line"]) for m in LINE.finditer(proc.stdout)] == [9], proc.stdout


# ---- .data on LLM training code ----------------------------------------------------------

def test_parameter_and_module_dicts_collectives_and_copy_arguments(tmp_path):
    got = check(tmp_path, {
        "tuner/__init__.py": "",
        "tuner/layer.py": """\
            import torch.nn as nn


            class RoadLayer(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.road_theta = nn.ParameterDict({})
                    self.lora_A = nn.ModuleDict({})
            """,
        "tuner/bnb.py": """\
            import torch
            import torch.distributed as dist
            from .layer import RoadLayer


            class Linear8bit(RoadLayer):
                def init(self, name):
                    nn_init = torch.nn.init
                    nn_init.normal_(self.road_theta[name].data, mean=0.0, std=0.5)
                    dist.broadcast(self.lora_A[name].weight.data, src=0)

                def restore(self, current, saved):
                    current.data.copy_(saved.data)
            """,
    })
    assert got == {("tuner/bnb.py", 9, "TEN102"), ("tuner/bnb.py", 10, "TEN102"),
                   ("tuner/bnb.py", 13, "TEN102"), ("tuner/bnb.py", 13, "TEN101")}


def test_a_method_annotated_nn_module_gives_a_module(tmp_path):
    """``def get_base_layer(self) -> nn.Module`` in another module: its ``.weight`` and
    ``.bias`` are parameters (PEFT's tuner layers)."""
    got = check(tmp_path, {
        "src/peft/__init__.py": "",
        "src/peft/tuners_utils.py": """\
            import torch.nn as nn


            class BaseTunerLayer:
                def get_base_layer(self) -> nn.Module:
                    base_layer = self
                    while hasattr(base_layer, "base_layer"):
                        base_layer = base_layer.base_layer
                    return base_layer
            """,
        "src/peft/lora.py": """\
            import torch
            from peft.tuners_utils import BaseTunerLayer


            class Linear(torch.nn.Module, BaseTunerLayer):
                def unmerge(self, delta):
                    weight = self.get_base_layer().weight
                    weight.data -= delta
                    bias = self.get_base_layer().bias
                    bias_data = bias.data
                    return bias_data
            """,
    })
    assert got == {("src/peft/lora.py", 8, "TEN102"), ("src/peft/lora.py", 10, "TEN101")}


def test_fp16_groups_swapped_onto_unflattened_views(tmp_path):
    """DeepSpeed's and apex's ``p.data = q.data`` over torch's ``_unflatten_dense_tensors``."""
    got = check(tmp_path, {"fused_optimizer.py": """\
        from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


        class FP16Optimizer:
            def __init__(self, groups):
                self.fp16_groups = groups
                self.unflatten = _unflatten_dense_tensors

            def update(self, i, flat):
                for p, q in zip(self.fp16_groups[i], self.unflatten(flat, self.fp16_groups[i])):
                    p.data = q.data
        """})
    assert got == {("fused_optimizer.py", 11, "TEN103"), ("fused_optimizer.py", 11, "TEN101")}


def test_parameter_subclasses_of_fsdp_and_bitsandbytes(tmp_path):
    got = check(tmp_path, {"fsdp_utils.py": """\
        import torch
        import bitsandbytes as bnb
        from torch.distributed.fsdp._flat_param import FlatParameter


        def upcast(handle, w):
            fp = handle.flat_param
            if isinstance(fp, FlatParameter):
                fp.data = fp.data.float()
            q = bnb.nn.Params4bit(w, requires_grad=False)
            return q.data
        """})
    assert got == {("fsdp_utils.py", 9, "TEN103"), ("fsdp_utils.py", 9, "TEN101"),
                   ("fsdp_utils.py", 11, "TEN101")}
