"""Torch's API as data: queries over the generated ``table.py`` (never imports torch).

``generate.py`` builds the table from an installed torch; ``tests/test_torch_api.py`` checks that
the committed table is what the installed torch gives.
"""
from __future__ import annotations

import json
from typing import Dict, FrozenSet, Iterable, Optional, Sequence

from . import table as _t
from ...syntax.source import LazyPattern

TORCH_VERSION: str = _t.TORCH_VERSION

_LAYER_NUM = LazyPattern(r"_l\d+")
_DECODED: Dict[str, object] = {}


def _section(name: str):
    """A section of the table (``FUNCTIONS``...), decoded from its JSON text on first use: an
    editor's one-file run pays only for the sections its file's candidates ask about."""
    got = _DECODED.get(name)
    if got is None:
        got = _DECODED[name] = json.loads(getattr(_t, name))
    return got


def _derived(name: str, make):
    got = _DECODED.get(name)
    if got is None:
        got = _DECODED[name] = make()
    return got


def _choose(entry, npos: int, keywords: Iterable[str], star: bool) -> Optional[str]:
    """The return class of a call with ``npos`` positional arguments and ``keywords``: the one
    class every overload that accepts those arguments agrees on, else None."""
    if entry is None:
        return None
    if isinstance(entry, str):
        return None if entry == "?" else entry
    if star:
        rets = {o[-1] for o in entry}
        return rets.pop() if len(rets) == 1 and "?" not in rets else None
    kws = set(keywords)
    found = set()
    for pos, required, varargs, kwonly, req_kw, varkw, ret in entry:
        if npos > len(pos) and not varargs:
            continue
        named = set(pos[npos:])
        if any(k not in named and k not in kwonly and not varkw for k in kws):
            continue
        if npos < required and not all(p in kws for p in pos[npos:required]):
            continue
        if any(k not in kws for k in req_kw):
            continue
        found.add(ret)
    if len(found) > 1 and all(r == "T" or (r.startswith("(") and "?" not in r) for r in found):
        return "T|(T)"  # a tensor or a tuple of tensors (``torch.max(x, 1)``): indexing gives one
    ret = found.pop() if len(found) == 1 else None
    return None if ret == "?" else ret


def function_return(qual: str, npos: int = 0, keywords: Iterable[str] = (),
                    star: bool = False) -> Optional[str]:
    """Return class (``T``, ``L``, ``(T,T)``, ``C:...``, ``O``) of calling torch function
    ``qual`` (``torch.nn.functional.relu``), or None when unknown or overload-dependent."""
    ns, _, name = qual.rpartition(".")
    funcs = _section("FUNCTIONS").get(ns)
    if funcs is None:
        return None
    return _choose(funcs.get(name), npos, keywords, star)


def method_return(name: str, npos: int = 0, keywords: Iterable[str] = (),
                  star: bool = False) -> Optional[str]:
    """Return class of the Tensor method ``name`` called with these arguments."""
    return _choose(_section("TENSOR_METHODS").get(name), npos, keywords, star)


def is_tensor_method(name: str) -> bool:
    return name in _section("TENSOR_METHODS")


def property_kind(name: str) -> Optional[str]:
    """``T`` for tensor-valued Tensor attributes (``data``, ``T``, ``real``), ``O`` for others
    (``shape``, ``dtype``, ``grad_fn``...); ``grad`` is ``O`` in the stub (it may be None)."""
    return _section("TENSOR_PROPERTIES").get(name)


def layer(qual: str) -> Optional[dict]:
    """The table entry of an ``nn`` layer class by qualified name (``torch.nn.Linear``)."""
    modules = _section("MODULES")
    entry = modules.get(qual)
    if entry is None and qual.startswith("torch.nn.modules."):
        entry = modules.get("torch.nn." + qual.rsplit(".", 1)[1])
    return entry


def is_layer(qual: str) -> bool:
    return layer(qual) is not None


#: the subpackages of ``torchvision.models`` whose lowercase functions build models
_MODEL_PACKAGES = frozenset({"torchvision.models", "torchvision.models.detection",
                             "torchvision.models.segmentation", "torchvision.models.video",
                             "torchvision.models.quantization",
                             "torchvision.models.optical_flow"})


#: a Hugging Face ``transformers`` class that is a PyTorch model (``AutoModelForCausalLM``,
#: ``BertModel``, ``GPT2LMHeadModel``, ``T5ForConditionalGeneration``); not a tokenizer, a
#: config or a processor, nor a TensorFlow (``TF``) or Flax class
_HF_MODEL_CLASS = LazyPattern(r"(?!TF[A-Z]|Flax)[A-Z]\w*(?:Model|For[A-Z]\w*)")


#: classes of other libraries that derive from ``torch.nn.Module``: a subclass is a module
_MODULE_BASES = frozenset({
    "lightning.LightningModule", "lightning.pytorch.LightningModule",
    "lightning.pytorch.core.LightningModule", "lightning.pytorch.core.module.LightningModule",
    "pytorch_lightning.LightningModule", "pytorch_lightning.core.LightningModule",
    "pytorch_lightning.core.module.LightningModule",
    "pytorch_lightning.core.lightning.LightningModule",
    "transformers.PreTrainedModel", "transformers.modeling_utils.PreTrainedModel"})


def is_module_base(qual: str) -> bool:
    """Is ``qual`` a class of another library that derives from ``nn.Module`` (Lightning's
    ``LightningModule``, ``transformers.PreTrainedModel``)?"""
    return qual in _MODULE_BASES


def is_model_builder(qual: str) -> bool:
    """Does calling ``qual`` build an ``nn.Module``? torchvision's model builders
    (``torchvision.models.resnet18``, ``torchvision.models.detection.fasterrcnn_resnet50_fpn``,
    ``get_model``), not its helpers (``get_weight``, ``list_models``) nor its classes;
    ``timm.create_model``; a ``transformers`` model class's ``from_pretrained`` or
    ``from_config`` (``AutoModelForSequenceClassification.from_pretrained``)."""
    ns, _, last = qual.rpartition(".")
    if ns in _MODEL_PACKAGES:
        return last[:1].islower() and last != "list_models" and \
            (not last.startswith("get_") or last == "get_model")
    if last in ("from_pretrained", "from_config"):
        package, _, cls = ns.rpartition(".")
        return package == "transformers" and _HF_MODEL_CLASS.fullmatch(cls) is not None
    return qual == "timm.create_model"


def _normal(attr: str) -> str:
    return _LAYER_NUM.sub("_l{n}", attr)


def owns_tensor(quals: Sequence[str], attr: str) -> bool:
    """Does every layer class in ``quals`` own a parameter or buffer called ``attr``?"""
    if not quals:
        return False
    name = _normal(attr)
    for q in quals:
        entry = layer(q)
        if entry is None or (name not in entry["params"] and name not in entry["buffers"]):
            return False
    return True


def _all_members() -> FrozenSet[str]:
    out = set()
    for entry in _section("MODULES").values():
        out.update(entry["params"])
        out.update(entry["buffers"])
    return frozenset(out)


def is_layer_tensor_name(attr: str) -> bool:
    """Is ``attr`` a parameter or buffer name some torch layer owns (``weight``,
    ``running_mean``...; the set is ``LAYER_TENSORS``)?"""
    return _normal(attr) in _derived("LAYER_TENSORS", _all_members)


#: layers whose ``forward`` the table cannot classify (overloads: a tensor or a PackedSequence
#: in, the same out) but whose hidden state is a tensor either way: ``out, h_n = gru(x, h)``
_RECURRENT_FORWARD = {"torch.nn.RNN": "(?,T)", "torch.nn.GRU": "(?,T)",
                      "torch.nn.modules.rnn.RNN": "(?,T)", "torch.nn.modules.rnn.GRU": "(?,T)"}


def forward_return(quals: Sequence[str]) -> Optional[str]:
    rets = {_RECURRENT_FORWARD.get(q) or (layer(q) or {}).get("forward") for q in quals}
    return rets.pop() if len(rets) == 1 else None


def is_optimizer(qual: str) -> bool:
    return qual == "torch.optim.Optimizer" or qual in _section("OPTIMIZERS")["classes"]


#: what the module's constants are made of, on first use (``torch_api.STATE_TENSORS``...):
#: ``GROUP_TENSOR_LISTS``, the keys of an optimizer's param group that hold lists of tensors
#: (``params``); ``STATE_TENSORS``, keys of ``optimizer.state[p]`` that hold tensors shaped like
#: ``p`` (``exp_avg``...); ``LAYER_TENSORS``, every parameter and buffer name any torch layer
#: owns; ``TENSOR_ONLY_METHODS``, see ``is_tensor_only_method``
_CONSTANTS = {
    "GROUP_TENSOR_LISTS": lambda: tuple(
        _section("OPTIMIZERS")["param_groups"].get("tensor_lists", ("params",))),
    "STATE_TENSORS": lambda: frozenset(
        k for entry in _section("OPTIMIZERS")["classes"].values() for k in entry["state_tensors"]),
    "LAYER_TENSORS": _all_members,
    "TENSOR_ONLY_METHODS": lambda: frozenset(_section("TENSOR_ONLY_METHODS")),
}


def __getattr__(name: str):
    make = _CONSTANTS.get(name)
    if make is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _derived(name, make)


def fields_of(qual: str) -> Optional[Sequence[str]]:
    """Fields of a torch named tuple whose ``data`` is not ``Tensor.data`` (PackedSequence)."""
    return _section("CLASSES_WITH_FIELDS").get(qual)


def data_arg_positions(qual: str) -> Optional[Sequence[int]]:
    """Positions where torch function ``qual`` takes any data (lists, arrays, objects): an
    argument there is no evidence of a tensor. None when the table does not know ``qual``."""
    ns, _, name = qual.rpartition(".")
    funcs = _section("FUNCTIONS").get(ns)
    if funcs is None or name not in funcs:
        return None
    return _section("DATA_ARGS").get(qual, ())


def is_tensor_only_method(name: str) -> bool:
    """A tensor method no NumPy array, builtin, string or ``nn.Module`` has (``unsqueeze``,
    ``masked_fill``, ``gather``...): the receiver of one is a tensor and so is the result."""
    return name in _derived("TENSOR_ONLY_METHODS", _CONSTANTS["TENSOR_ONLY_METHODS"])
