"""The torch API table: generated from the installed torch, read by the linter without torch."""
import importlib.util
import os
import subprocess
import sys

import pytest

from flake8_tensorcopy.semantic import torch_api
from flake8_tensorcopy.semantic.torch_api import generate

from .conftest import run

HAS_TORCH = importlib.util.find_spec("torch") is not None


def _installed_version():
    proc = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"],
                          capture_output=True, text=True, timeout=300)
    return proc.stdout.strip() if proc.returncode == 0 else None


@pytest.mark.skipif(not HAS_TORCH, reason="torch is not installed: the table cannot be regenerated")
def test_table_is_current_for_the_installed_torch(tmp_path):
    installed = _installed_version()
    if installed != torch_api.TORCH_VERSION:
        pytest.skip(f"installed torch {installed} differs from the table's stamp "
                    f"{torch_api.TORCH_VERSION}: regenerate with "
                    "`python -m flake8_tensorcopy.semantic.torch_api.generate`")
    proc = run([sys.executable, "-m", "flake8_tensorcopy.semantic.torch_api.generate", "--check"], timeout=600)
    assert proc.returncode == 0 and "current" in proc.stdout, (
        "the committed torch table is stale: run `python -m flake8_tensorcopy.semantic.torch_api.generate`"
        + proc.stdout + proc.stderr)


def test_table_answers_from_the_stubs():
    # overloads decide: torch.max(x) is a tensor, torch.max(x, dim) a (values, indices) pair
    assert torch_api.function_return("torch.max", 1) == "T"
    assert torch_api.function_return("torch.max", 2, ["keepdim"]) == "(T,T)"
    assert torch_api.function_return("torch.max", 2) == "T|(T)"
    assert torch_api.function_return("torch.where", 1) == "L"
    assert torch_api.function_return("torch.where", 3) == "T"
    assert torch_api.function_return("torch.nonzero", 1) == "T"
    assert torch_api.function_return("torch.nonzero", 1, ["as_tuple"]) is None
    assert torch_api.function_return("torch.nn.functional.relu", 1) == "T"
    assert torch_api.function_return("torch.nn.utils.rnn.pack_sequence", 1).endswith("PackedSequence")
    assert torch_api.function_return("torch.no_such_function", 1) is None
    assert torch_api.method_return("clone") == "T"
    assert torch_api.method_return("item") == "O"
    assert torch_api.method_return("split", 1) == "L"
    assert torch_api.property_kind("shape") == "O" and torch_api.property_kind("T") == "T"


def test_table_knows_layers_and_optimizers():
    assert torch_api.owns_tensor(["torch.nn.Linear"], "weight")
    assert torch_api.owns_tensor(["torch.nn.MultiheadAttention"], "in_proj_weight")
    assert torch_api.owns_tensor(["torch.nn.BatchNorm2d"], "running_var")
    assert torch_api.owns_tensor(["torch.nn.LSTM"], "weight_hh_l3")
    assert not torch_api.owns_tensor(["torch.nn.ReLU"], "weight")
    assert not torch_api.owns_tensor(["torch.nn.Linear", "torch.nn.LayerNorm"], "running_mean")
    assert torch_api.is_optimizer("torch.optim.Adam")
    assert "params" in torch_api.GROUP_TENSOR_LISTS
    assert "exp_avg" in torch_api.STATE_TENSORS
    assert torch_api.fields_of("torch.nn.utils.rnn.PackedSequence")[0] == "data"
    # arguments where torch takes any data are no evidence (SciPy's ``a.data``)
    assert 2 in torch_api.data_arg_positions("torch.sparse_csr_tensor")
    assert torch_api.data_arg_positions("torch.matmul") == ()


def test_table_module_is_plain_data():
    path = os.path.join(os.path.dirname(generate.__file__), "table.py")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    import ast

    body = ast.parse(text).body
    assert not [n for n in body if isinstance(n, (ast.Import, ast.ImportFrom))]  # never imports
    # each section is one string constant (JSON text), which costs nothing to import: the
    # queries decode a section when they first need it
    sections = {t.id: n.value for n in body if isinstance(n, ast.Assign) for t in n.targets}
    assert set(sections) == {"TORCH_VERSION"} | {k.upper() for k in generate.SECTIONS}
    for name, value in sections.items():
        assert isinstance(value, ast.Constant) and isinstance(value.value, str), name
    assert f"TORCH_VERSION = '{torch_api.TORCH_VERSION}'" in text


def test_torchvision_model_builders_build_modules():
    assert torch_api.is_model_builder("torchvision.models.resnet18")
    assert torch_api.is_model_builder("torchvision.models.detection.fasterrcnn_resnet50_fpn")
    assert torch_api.is_model_builder("torchvision.models.get_model")
    for helper in ("torchvision.models.get_weight", "torchvision.models.list_models",
                   "torchvision.models.ResNet18_Weights", "torchvision.transforms.resize",
                   "mylib.models.resnet18"):
        assert not torch_api.is_model_builder(helper), helper


def test_hugging_face_and_timm_model_builders_build_modules():
    for q in ("transformers.AutoModelForSequenceClassification.from_pretrained",
              "transformers.AutoModel.from_config", "transformers.GPT2LMHeadModel.from_pretrained",
              "transformers.BertForMaskedLM.from_pretrained", "timm.create_model"):
        assert torch_api.is_model_builder(q), q
    for q in ("transformers.AutoTokenizer.from_pretrained", "transformers.AutoConfig.from_pretrained",
              "transformers.AutoProcessor.from_pretrained", "transformers.TFAutoModel.from_pretrained",
              "transformers.FlaxBertModel.from_pretrained", "transformers.AutoModel",
              "transformers.AutoModelForCausalLM.save_pretrained", "mylib.BertModel.from_pretrained",
              "timm.list_models"):
        assert not torch_api.is_model_builder(q), q


def test_other_libraries_module_bases():
    for q in ("lightning.LightningModule", "lightning.pytorch.LightningModule",
              "pytorch_lightning.LightningModule", "transformers.PreTrainedModel"):
        assert torch_api.is_module_base(q), q
    for q in ("lightning.LightningDataModule", "pytorch_lightning.Trainer",
              "transformers.PretrainedConfig", "mylib.LightningModule"):
        assert not torch_api.is_module_base(q), q
