"""Build ``table.py``, torch's API as data, from an installed torch.

Run ``python -m flake8_tensorcopy.semantic.torch_api.generate`` (writes ``table.py`` next to this file) or
``... --check`` (exit 1 if the committed table differs from what the installed torch gives).
This script imports torch; the linter only reads the generated table and never does.

Sources, in order of trust:
- the ``.pyi`` stubs shipped with torch (``torch/_C/_VariableFunctions.pyi`` for ``torch.*``,
  ``torch/nn/functional.pyi``, ``TensorBase`` in ``torch/_C/__init__.pyi``), read with ``ast``:
  every overload's parameters and return annotation;
- the Python source of torch (``torch/_tensor.py``, ``torch/functional.py``, ``torch/nn/init.py``,
  ``torch/nn/utils/rnn.py``): return annotations of ``def``s, read with ``ast``;
- the first docstring line (``linalg.norm(A, ...) -> Tensor``) for C functions without stubs
  (``torch.linalg``, ``torch.fft``, ``torch.special``);
- for ``nn`` layer classes: ``__init__`` source (``self.x = Parameter(...)``,
  ``register_buffer("x", ...)``) plus the parameters and buffers of a constructed instance;
- for optimizers: ``param_groups`` and the tensor-valued ``state`` entries after one step.

Return classes: ``T`` a tensor, ``L`` a sequence of tensors of any length, ``(T,T)`` a fixed tuple
(named tuples from ``torch.return_types`` too), ``C:<qualname>`` an instance of that class,
``O`` anything else (a number, a bool, a ``Size``, ``Tensor | None``...).
"""
from __future__ import annotations

import argparse
import ast
import inspect
import json
import os
import re
import sys
import warnings
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "table.py")

_TENSORISH = {"Tensor", "Self", "Parameter", "LongTensor", "FloatTensor", "BoolTensor", "_TensorOrTensors"}
_SEQ_HEADS = {"tuple", "Tuple", "list", "List", "Sequence", "typing.Sequence", "typing.List",
              "typing.Tuple"}


def _ann_text(node: Optional[ast.expr]) -> str:
    return ast.unparse(node) if node is not None else ""


def classify(text: str, return_types: Dict[str, int]) -> str:
    """The return class of an annotation's text."""
    text = text.strip().strip("'\"").replace("torch.", "").replace("typing.", "")
    while text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1].strip()
    if not text:
        return "?"
    if text in _TENSORISH or text == "_T":
        return "T"
    if text in ("Any", "object", "_R", "T_co", "T"):
        return "?"  # could be anything: unknown, not "not a tensor"
    if text.startswith("return_types."):
        n = return_types.get(text.split(".", 1)[1])
        return "(" + ",".join(["T"] * n) + ")" if n else "O"
    if text in ("PackedSequence", "nn.utils.rnn.PackedSequence"):
        return "C:torch.nn.utils.rnn.PackedSequence"
    m = re.fullmatch(r"(\w+)\[(.*)\]", text)
    if m and m.group(1) in {h.split(".")[-1] for h in _SEQ_HEADS}:
        inner = [p.strip() for p in _split_top(m.group(2))]
        if len(inner) == 2 and inner[1] == "...":
            return "L" if classify(inner[0], return_types) == "T" else "O"
        if m.group(1) in ("list", "List", "Sequence"):
            return "L" if len(inner) == 1 and classify(inner[0], return_types) == "T" else "O"
        kinds = [classify(p, return_types) for p in inner]
        return "(" + ",".join(kinds) + ")" if kinds and all(k == "T" for k in kinds) else "O"
    return "O"


def _split_top(text: str) -> List[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def _spec(args: ast.arguments, drop_self: bool) -> Tuple[list, int, bool, list, list, bool]:
    """(positional names, required positional count, *args?, kw-only names, required kw-only,
    **kwargs?)"""
    pos = [a.arg for a in args.posonlyargs + args.args]
    ndefaults = len(args.defaults)
    required = len(pos) - ndefaults
    if drop_self and pos and pos[0] in ("self", "cls"):
        pos = pos[1:]
        required -= 1
    kw = [a.arg for a in args.kwonlyargs]
    req_kw = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
    return pos, max(required, 0), args.vararg is not None, kw, req_kw, args.kwarg is not None


#: per function name, per overload: which positional parameters accept only tensor-like values
_TYPED: Dict[str, list] = {}
#: annotations that take arbitrary data (lists, arrays, any object): an argument there proves nothing
_ACCEPTS_DATA = re.compile(r"\b(list|List|Sequence|Iterable|ndarray|object|Any|ArrayLike|_ArrayLike|"
                           r"tuple|Tuple|_size|Size|str|bytes)\b")


def _tensor_args(names, prefix: str) -> Dict[str, list]:
    """Positions whose parameter takes data of any kind (a list, an array, any object) in some
    overload: an argument passed there is no evidence that it is a tensor."""
    out = {}
    for name in names:
        overloads = _TYPED.get(name)
        if not overloads:
            continue
        width = max(len(o) for o in overloads)
        idx = [i for i in range(width) if any(i < len(o) and not o[i] for o in overloads)]
        if idx:
            out[prefix + name] = idx
    return out


def _flat(body) -> list:
    """Statements of ``body`` with ``if TYPE_CHECKING:`` blocks (where typed overloads live)
    taken in place of their ``else`` branches."""
    out = []
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.extend(_flat(node.body))
            out.extend(_flat(node.orelse))
        else:
            out.append(node)
    return out


def _defs(body, drop_self: bool, return_types) -> Dict[str, list]:
    out: Dict[str, list] = {}
    body = _flat(body)
    overloaded = {n.name for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and any(ast.unparse(d).endswith("overload") for d in n.decorator_list)}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("_") and not node.name.startswith("__"):
                continue
            if node.name in overloaded and not any(
                    ast.unparse(d).endswith("overload") for d in node.decorator_list):
                continue  # the implementation behind typed overloads
            returns = _ann_text(node.returns)
            if not returns and node.type_comment and "->" in node.type_comment:
                returns = node.type_comment.rsplit("->", 1)[1]
            elif not returns:
                returns = _body_type_comment(node) or _docstring_return(node)
            ret = classify(returns, return_types)
            spec = list(_spec(node.args, drop_self))
            pos_args = (node.args.posonlyargs + node.args.args)[len(node.args.posonlyargs + node.args.args) - len(spec[0]):]
            typed = [not _ACCEPTS_DATA.search(_ann_text(a.annotation) or "Any") for a in pos_args]
            _TYPED.setdefault(node.name, []).append(typed)
            out.setdefault(node.name, []).append(spec + [ret])
    return out


def _body_type_comment(node) -> str:
    """``# type: (Tensor, int) -> Tensor`` written as the first line of a body (TorchScript style)."""
    src = getattr(node, "_source", None)
    return src or ""


def _docstring_return(node) -> str:
    """``name(args) -> Tensor`` on the first line of an unannotated function's docstring."""
    doc = ast.get_docstring(node) or ""
    first = doc.strip().splitlines()[0] if doc.strip() else ""
    m = re.search(r"\)\s*->\s*(.+?)\s*$", first)
    if not m:
        return ""
    ret = m.group(1).rstrip(".")
    if re.fullmatch(r"(?i)(list|tuple|sequence) of tensors", ret):
        return "list[Tensor]"
    return ret if " or " not in ret else ""


def _compact(overloads: Dict[str, list]) -> Dict[str, object]:
    """One return class when every overload agrees, else the overloads themselves."""
    out: Dict[str, object] = {}
    for name, ovs in sorted(overloads.items()):
        rets = {o[-1] for o in ovs}
        if rets == {"?"}:
            continue  # no annotation anywhere: unknown
        if len(rets) == 1:
            out[name] = ovs[0][-1]
        else:
            out[name] = [[o[0], o[1], o[2], o[3], o[4], o[5], o[6]] for o in ovs]
    return out


def _parse(path: str) -> ast.Module:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    tree = ast.parse(text, type_comments=True)
    lines = text.splitlines()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            # a TorchScript ``# type: (...) -> T`` comment on the line after the signature
            first = node.body[0].lineno - 1
            for line in lines[node.lineno - 1:first]:
                m = re.search(r"#\s*type:\s*\(.*\)\s*->\s*(.+)$", line)
                if m:
                    node._source = m.group(1)  # type: ignore[attr-defined]
    return tree


def _doc_return(obj, return_types) -> Optional[str]:
    doc = getattr(obj, "__doc__", None) or ""
    for line in doc.strip().splitlines()[:3]:
        m = re.search(r"\)\s*->\s*(.+?)\s*$", line)
        if m:
            ret = m.group(1).rstrip(".")
            if re.fullmatch(r"\(?Tensor, Tensor\)?", ret):
                return "(T,T)"
            return classify(ret.split(" or ")[0] if " or " not in ret else "O", return_types)
    return None


def build() -> dict:
    import torch
    import torch.nn as nn

    root = os.path.dirname(torch.__file__)
    rt_tree = _parse(os.path.join(root, "return_types.pyi"))
    return_types: Dict[str, int] = {}
    for node in rt_tree.body:
        if isinstance(node, ast.ClassDef) and node.bases:
            # ``class max(tuple[Tensor, Tensor])``: a named tuple of that many tensors
            base = classify(ast.unparse(node.bases[0]), {})
            if base.startswith("("):
                return_types[node.name] = base.count("T")

    functions: Dict[str, Dict[str, object]] = {}

    # torch.*: the stub of the C functions, then Python functions of torch/functional.py
    vf = _defs(_parse(os.path.join(root, "_C", "_VariableFunctions.pyi")).body, False, return_types)
    py = _defs(_parse(os.path.join(root, "functional.py")).body, False, return_types)
    torch_funcs = {}
    for name in dir(torch):
        if name.startswith("_"):
            continue
        obj = getattr(torch, name, None)
        if inspect.isclass(obj) or inspect.ismodule(obj) or not callable(obj):
            continue
        if name in vf:
            torch_funcs[name] = vf[name]
        elif name in py:
            torch_funcs[name] = py[name]
        else:
            ret = _doc_return(obj, return_types)
            if ret is not None:
                torch_funcs[name] = [[[], 0, True, [], [], True, ret]]
    functions["torch"] = _compact(torch_funcs)
    tensor_args = _tensor_args(sorted(torch_funcs), "torch.")
    _TYPED.clear()

    f_tree = _parse(os.path.join(root, "nn", "functional.pyi"))
    fn_stub = _defs(f_tree.body, False, return_types)
    c_nn = _defs(_parse(os.path.join(root, "_C", "_nn.pyi")).body, False, return_types)
    for node in f_tree.body:  # ``from torch import conv2d as conv2d`` re-exports in the stub
        if isinstance(node, ast.ImportFrom) and node.module in ("torch", "torch._C._nn"):
            source = torch_funcs if node.module == "torch" else c_nn
            for a in node.names:
                if a.name in source and (a.asname or a.name) not in fn_stub:
                    fn_stub[a.asname or a.name] = source[a.name]
    functions["torch.nn.functional"] = _compact(
        {k: v for k, v in fn_stub.items() if not k.startswith("_")})
    tensor_args.update(_tensor_args(sorted(functions["torch.nn.functional"]), "torch.nn.functional."))
    _TYPED.clear()

    for ns, path in (("torch.nn.init", ("nn", "init.py")),
                     ("torch.nn.utils.rnn", ("nn", "utils", "rnn.py"))):
        defs = _defs(_parse(os.path.join(root, *path)).body, False, return_types)
        functions[ns] = _compact(defs)

    for ns in ("linalg", "fft", "special"):
        mod = getattr(torch, ns)
        found = {}
        for name in dir(mod):
            if name.startswith("_"):
                continue
            obj = getattr(mod, name)
            if inspect.ismodule(obj) or inspect.isclass(obj) or not callable(obj):
                continue
            ret = _doc_return(obj, return_types)
            if ret is not None:
                found[name] = [[[], 0, True, [], [], True, ret]]
        functions["torch." + ns] = _compact(found)

    # Tensor methods: TensorBase in the C stub, then torch/_tensor.py's class Tensor
    c_tree = _parse(os.path.join(root, "_C", "__init__.pyi"))
    methods: Dict[str, list] = {}
    for node in c_tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "TensorBase":
            methods.update(_defs(node.body, True, return_types))
    t_tree = _parse(os.path.join(root, "_tensor.py"))
    for node in t_tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Tensor":
            for name, ovs in _defs(node.body, True, return_types).items():
                if all(o[-1] != "O" for o in ovs) or name not in methods:
                    methods[name] = ovs
    properties = {}
    for node in c_tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "TensorBase":
            for s in node.body:
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
                    properties[s.target.id] = classify(_ann_text(s.annotation), return_types)
                elif isinstance(s, ast.FunctionDef) and any(
                        ast.unparse(d) == "property" for d in s.decorator_list):
                    properties[s.name] = classify(_ann_text(s.returns), return_types)
    for name in list(methods):
        if name in properties:
            del methods[name]
        elif all(o[-1] == "?" for o in methods[name]) and name in torch_funcs:
            # an unannotated Python method that wraps the torch function of the same name
            methods[name] = [o[:-1] + [o[-1]] for o in torch_funcs[name]]
            methods[name] = [[o[0][1:], max(o[1] - 1, 0)] + o[2:] for o in methods[name]]

    tensor_only = _tensor_only_methods(torch, nn, methods)
    modules = _modules(torch, nn, return_types)
    optimizers = _optimizers(torch)

    data_classes = {}
    for qual, cls in (("torch.nn.utils.rnn.PackedSequence", torch.nn.utils.rnn.PackedSequence),):
        data_classes[qual] = list(getattr(cls, "_fields", ()))

    return {
        "torch_version": torch.__version__,
        "functions": functions,
        "tensor_methods": _compact(methods),
        "tensor_properties": dict(sorted(properties.items())),
        "modules": modules,
        "optimizers": optimizers,
        "classes_with_fields": data_classes,
        "data_args": tensor_args,
        "tensor_only_methods": tensor_only,
    }


#: names too ordinary to prove anything (``logger.log``, ``query.where``, ``cfg.clone``)
_GENERIC_WORDS = frozenset(
    """select where clone indices positive negative greater less multiply divide subtract
    short inner outer cross scatter inverse logit narrow square remainder dequantize minimum
    maximum relu sigmoid softmax tanh""".split())


def _tensor_only_methods(torch, nn, methods) -> List[str]:
    """Tensor methods that return a tensor and that no NumPy array, builtin container, string or
    ``nn.Module`` has: a value these are called on is a tensor (duck typing that holds)."""
    import numpy

    others = set(dir(numpy.ndarray)) | set(dir(list)) | set(dir(dict)) | set(dir(str)) | \
        set(dir(set)) | set(dir(bytes)) | set(dir(tuple)) | set(dir(nn.Module)) | \
        set(dir(numpy.generic))
    out = []
    for name, ovs in methods.items():
        if name.startswith("_") or name in others or not hasattr(torch.Tensor, name):
            continue
        if len(name) <= 4 or name in _GENERIC_WORDS:
            continue  # short or plain-English names are methods of many other classes
        if all(o[-1] == "T" for o in ovs):
            out.append(name)
    return sorted(out)


_NUM = re.compile(r"_l\d+")


def _static_members(cls) -> Tuple[set, set]:
    """Names bound as parameters/buffers in the ``__init__`` source of ``cls`` and its bases."""
    params, buffers = set(), set()
    import torch.nn as nn

    for klass in cls.__mro__:
        if klass is nn.Module or not issubclass(klass, nn.Module):
            continue
        try:
            tree = ast.parse(inspect.getsource(klass).lstrip() if False else _dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                fn = ast.unparse(node.value.func)
                if fn.split(".")[-1] in ("Parameter", "UninitializedParameter"):
                    for t in node.targets:
                        if isinstance(t, ast.Attribute) and ast.unparse(t.value) == "self":
                            params.add(t.attr)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("register_buffer", "register_parameter") \
                    and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                (buffers if node.func.attr == "register_buffer" else params).add(node.args[0].value)
    return params, buffers


def _dedent(src: str) -> str:
    import textwrap
    return textwrap.dedent(src)


def _instances(cls):
    """Instances of ``cls`` built from small integer arguments (for layers with dynamic names)."""
    tries = [(), (2,), (2, 2), (2, 2, 2), (2, 2, 2, 2)]
    out = []
    for args in tries:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out.append(cls(*args))
            break
        except Exception:
            continue
    try:
        sig = inspect.signature(cls.__init__)
        if "num_layers" in sig.parameters and "bidirectional" in sig.parameters:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out.append(cls(2, 2, num_layers=2, bidirectional=True, proj_size=1)
                           if "proj_size" in inspect.signature(cls.__init__).parameters
                           or cls.__name__ == "LSTM" else cls(2, 2, num_layers=2, bidirectional=True))
    except Exception:
        pass
    return out


def _modules(torch, nn, return_types) -> Dict[str, dict]:
    out = {}
    for name in sorted(dir(nn)):
        cls = getattr(nn, name)
        if not (inspect.isclass(cls) and issubclass(cls, nn.Module)):
            continue
        params, buffers = _static_members(cls)
        for inst in _instances(cls):
            params |= {n for n, _ in inst.named_parameters(recurse=False)}
            buffers |= {n for n, _ in inst.named_buffers(recurse=False)}
        params = {_NUM.sub("_l{n}", p) for p in params}
        buffers = {_NUM.sub("_l{n}", b) for b in buffers}
        fwd = getattr(cls, "forward", None)
        ret = "O"
        if fwd is not None and fwd is not nn.Module.forward:
            try:
                src = _dedent(inspect.getsource(fwd))
                node = ast.parse(src).body[0]
                ret = classify(_ann_text(node.returns), return_types)  # type: ignore[attr-defined]
            except (OSError, TypeError, SyntaxError, IndexError):
                ret = "O"
        out["torch.nn." + name] = {
            "params": sorted(params), "buffers": sorted(buffers), "forward": ret,
            "defined_in": cls.__module__ + "." + cls.__qualname__,
        }
    return out


def _optimizers(torch) -> dict:
    out = {}
    base = torch.optim.Optimizer
    holds = None
    for name in sorted(dir(torch.optim)):
        cls = getattr(torch.optim, name)
        if not (inspect.isclass(cls) and issubclass(cls, base)) or cls is base:
            continue
        p = torch.nn.Parameter(torch.ones(2))
        state_keys: List[str] = []
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                opt = cls([p], lr=0.1) if "lr" in inspect.signature(cls.__init__).parameters else cls([p])
                p.grad = torch.ones(2)
                if name == "LBFGS":
                    opt.step(lambda: (p * p).sum())
                else:
                    opt.step()
            state_keys = sorted(k for k, v in opt.state[p].items() if isinstance(v, torch.Tensor)
                                and v.shape == p.shape)
            if holds is None:
                group = opt.param_groups[0]
                holds = {
                    "container": type(opt.param_groups).__name__,
                    "group": type(group).__name__,
                    "tensor_lists": sorted(k for k, v in group.items() if isinstance(v, list)
                                           and v and all(isinstance(x, torch.Tensor) for x in v)),
                }
        except Exception:
            pass
        out["torch.optim." + name] = {"state_tensors": state_keys}
    return {"classes": out, "param_groups": holds or {}}


#: the table's sections, in the order written
SECTIONS = ("functions", "tensor_methods", "tensor_properties", "modules", "optimizers",
            "classes_with_fields", "data_args", "tensor_only_methods")


def _json_lines(value) -> List[str]:
    """``value`` as JSON text, keys sorted: a dict one key per line (nested dicts likewise), a
    long list of names one name per line, anything else on its key's line."""
    if isinstance(value, list) and len(value) > 8 and all(isinstance(v, str) for v in value):
        return ["["] + [json.dumps(v) + ("," if i < len(value) - 1 else "")
                        for i, v in enumerate(value)] + ["]"]
    if not isinstance(value, dict) or not value:
        return [json.dumps(value, sort_keys=True, separators=(",", ":"))]
    lines = ["{"]
    keys = sorted(value)
    for i, key in enumerate(keys):
        sub = _json_lines(value[key])
        sub[0] = json.dumps(key) + ":" + sub[0]
        if i < len(keys) - 1:
            sub[-1] += ","
        lines.extend(sub)
    lines.append("}")
    return lines


def render(table: dict) -> str:
    """The text of ``table.py``: ``TORCH_VERSION``, then each section as JSON text in a string
    constant, one entry a line (Python joins adjacent string literals when it compiles the
    module). A string constant costs next to nothing to import (the compiled module holds it
    as it is); ``torch_api`` decodes a section the first time a query needs it, which the C JSON
    decoder does about 40 times faster than running the code that builds the same dicts."""
    head = (
        '"""Torch\'s API as data. GENERATED by ``python -m flake8_tensorcopy.semantic.torch_api.generate``\n'
        f'from torch {table["torch_version"]}; do not edit by hand (see generate.py for the format).\n\n'
        'Each section is JSON text (one entry a line), decoded when first needed by ``torch_api``."""\n'
    )
    body = [f"TORCH_VERSION = {table['torch_version']!r}\n"]
    for key in SECTIONS:
        lines = "".join(f"    {line!r}\n" for line in _json_lines(table[key]))
        body.append(f"{key.upper()} = (\n{lines})\n")
    return head + "\n".join(body)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed table")
    ap.add_argument("--output", default=TABLE)
    args = ap.parse_args(argv)
    text = render(build())
    if args.check:
        with open(args.output, encoding="utf-8") as fh:
            same = fh.read() == text
        print("table is current" if same else "table differs from the installed torch")
        return 0 if same else 1
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {args.output} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
