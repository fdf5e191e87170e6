"""The storage facts of the semantic core (``semantic/storage.py``) and their flow queries
(``semantic/storage_flow.py``), asked the way a rule asks them: at a binding, during the
engine's one walk, with the binding state of that point."""
import ast

from flake8_tensorcopy.engine import Walker
from flake8_tensorcopy.flow import note_shared_writes
from flake8_tensorcopy.rules.base import Rule
from flake8_tensorcopy.rules.context import Context
from flake8_tensorcopy.semantic import devices, storage
from flake8_tensorcopy.semantic.infer import Inference
from flake8_tensorcopy.semantic.storage_flow import binds_itself, first_write, sole_binding, \
    tensor_parameter
from flake8_tensorcopy.syntax import build, nodes
from flake8_tensorcopy.syntax.positions import Text
from flake8_tensorcopy.syntax.prefilter import has_candidates


class _Probe(Rule):
    """Records, at the first ``name = value`` of each name, the storage fact of ``value``, the
    first in-place write into ``name`` after it, and whether its rows are one row of memory."""

    code = "TEN999"
    hooks = (nodes.Assign,)

    def __init__(self):
        self.seen = {}

    def check(self, node, ctx):
        target = node.targets[0].target
        if type(target) is nodes.Name:
            scope = ctx.scope_node
            share = storage.share_of(node.value, ctx.inf,
                                     lambda name: sole_binding(scope, name, node))
            rows = storage.expanded_rows(node.value, ctx.inf,
                                         lambda name: sole_binding(scope, name, node))
            write = first_write(scope, node, frozenset({target.value}))
            self.seen.setdefault(target.value, (
                share, ctx.snippet(write) if write is not None else None, rows))
        return ()


def facts(src):
    tree = ast.parse(src)
    text = Text(src)
    module = build.build(tree, src, text, {})
    inf = Inference((), (), None)
    note_shared_writes(inf, tree, src)
    probe = _Probe()
    Walker(Context(module, inf, src, text), [probe]).walk(module)
    return probe.seen


def share(src, name):
    return facts("import numpy as np\nimport torch\n" + src)[name][0]


def test_conversion_of_unknown_placement_shares_under_a_condition():
    s = share("def f(w: torch.Tensor):\n    y = w.cpu()\n", "y")
    assert (s.how, s.base_name, s.conditions) == (storage.CONVERSION, "w", ("when it is already on the CPU",))
    s = share("def f(w: torch.Tensor):\n    y = w.float()\n", "y")
    assert s.conditions == ("when it is already float32",)
    s = share("def f(w: torch.Tensor, d):\n    y = w.detach().to(d)\n", "y")
    assert (s.base_name, s.steps, s.conditions) == ("w", ("detach()", "to(...)"), ("when it already matches `d`",))


def test_placement_the_code_shows_decides():
    # a CPU float32 factory outside a default-device context: nothing to convert, on every run
    s = share("w = torch.zeros(3)\ny = w.cpu()\nz = w.float()\n", "y")
    assert s.always
    assert share("w = torch.zeros(3)\nz = w.float()\n", "z").always
    # shown to convert: no sharing at all
    assert share("w = torch.zeros(3, dtype=torch.uint8)\nz = w.float()\n", "z") is None
    assert share("w = torch.zeros(3).cuda()\ny = w.cpu()\n", "y") is None
    assert share("w = torch.zeros(3)\ny = w.to('cpu', copy=True)\n", "y") is None
    assert share("w = torch.zeros(3)\ny = w.double()\n", "y") is None
    # a true division is floating: ``.long()`` of it copies, ``.float()`` may not
    assert share("def f(a: torch.Tensor, b):\n    w = a / b\n    y = w.long()\n", "y") is None
    assert share("def f(a: torch.Tensor, b):\n    w = a / b\n    y = w.float()\n", "y") is not None
    # a name bound twice: its placement is not shown
    s = share("w = torch.zeros(3)\nw = w.cuda()\ny = w.cpu()\n", "y")
    assert s is None or not s.always
    # a default dtype set somewhere in the file: float32 is not shown
    s = share("torch.set_default_dtype(torch.float64)\nw = torch.zeros(3)\nz = w.float()\n", "z")
    assert s is not None and not s.always


def test_placement_through_another_shape():
    # ``view``/``reshape``/``flatten`` to sizes keep the device, dtype and layout the code shows
    assert share("w = torch.zeros(6).view(2, 3)\ny = w.float()\n", "y").always
    assert share("w = torch.zeros(6, dtype=torch.uint8).reshape(-1)\ny = w.float()\n", "y") is None
    assert share("w = torch.zeros(6).flatten()\ny = w.contiguous()\n", "y").always
    # a dtype handed to ``view`` (or a name that may be one) is not a shape
    assert share("w = torch.zeros(6).view(torch.uint8)\ny = w.float()\n", "y") is None or \
        not share("w = torch.zeros(6).view(torch.uint8)\ny = w.float()\n", "y").always
    s = share("def f(dt):\n    w = torch.zeros(6).view(dt)\n    y = w.float()\n", "y")
    assert s is None or not s.always


class _PresumedProbe(Rule):
    """Records ``storage.presumed_self`` of the conversion read by each ``x[...] = v.m()``."""

    code = "TEN998"
    hooks = (nodes.Assign,)

    def __init__(self):
        self.seen = []

    def check(self, node, ctx):
        call = node.value
        if type(node.targets[0].target) is nodes.Subscript and type(call) is nodes.Call:
            view = call.func.value
            scope = ctx.scope_node
            self.seen.append(storage.presumed_self(
                call, view.value, len(view.slice) == 1, ctx.inf,
                lambda n: sole_binding(scope, n, call, True)))
        return ()


def _presumed(body, params="x: torch.Tensor"):
    """``storage.presumed_self`` of the conversion read by the last line (``x[...] = v.m()``)."""
    src = f"import torch\ndef f({params}):\n" + "".join(f"    {line}\n" for line in body)
    tree = ast.parse(src)
    text = Text(src)
    module = build.build(tree, src, text, {})
    inf = Inference((), (), None)
    note_shared_writes(inf, tree, src)
    probe = _PresumedProbe()
    Walker(Context(module, inf, src, text), [probe]).walk(module)
    return probe.seen[-1]


def test_a_conversion_presumed_to_return_its_view():
    # torch's defaults: float32, contiguous (a slice of the first dimension of it is too)
    assert _presumed(["x[:, 1:] = x[:, :-1].float()"]) == "when it is already float32"
    assert _presumed(["x[1:] = x[:-1].contiguous()"]) == "when it is contiguous"
    assert _presumed(["x[:, 1:] = x[:, :-1].to(torch.float32)"]) == "when it is already float32"
    # shown by the code: on every run, or never
    assert _presumed(["x = torch.zeros(5, 3)", "x[1:] = x[:-1].contiguous()"], "") == ""
    assert _presumed(["x = torch.zeros(5, 3, dtype=torch.float64)",
                      "x[:, 1:] = x[:, :-1].double()"], "") == ""
    assert _presumed(["x = torch.arange(10)", "x[1:] = x[:-1].float()"], "") is None
    assert _presumed(["x = y.T", "x[1:] = x[:-1].contiguous()"], "y") is None  # layout not shown
    # not presumed: another dtype, another dimension's slice, a device, a default dtype set
    assert _presumed(["x[:, 1:] = x[:, :-1].double()"]) is None
    assert _presumed(["x[:, 1:] = x[:, :-1].half()"]) is None
    assert _presumed(["x[:, 1:] = x[:, :-1].contiguous()"]) is None
    assert _presumed(["x[:, 1:] = x[:, :-1].cpu()"]) is None
    assert _presumed(["torch.set_default_dtype(torch.float64)",
                      "x[:, 1:] = x[:, :-1].float()"]) is None


def test_sole_binding_of_a_name_written_into():
    src = "def f():\n    x = g()\n    x[1:] = 0\n    return x\n"
    fn = build.build(ast.parse(src), src, Text(src), {}).body[0]
    ret = fn.body.body[-1]
    assert sole_binding(fn, "x", ret) is None  # an item write counts as a binding by default
    assert type(sole_binding(fn, "x", ret, True)) is nodes.Call  # not when asked of what it keeps


def test_unknown_stays_unknown():
    assert share("def f(cfg):\n    y = cfg.to('cpu')\n", "y") is None  # not known to be a tensor
    assert share("def f(w: torch.Tensor):\n    y = w.clone().cpu()\n", "y") is None  # a copy first
    assert share("def f(w: torch.Tensor):\n    y = w.type()\n", "y") is None  # a string
    assert share("def f(w: torch.Tensor):\n    y = w.requires_grad_()\n", "y") is None


def test_numpy_bridges():
    s = share("def f(a):\n    t = torch.from_numpy(a)\n", "t")
    assert (s.how, s.base_array, s.value_array) == (storage.BRIDGE, True, False)
    s = share("def f(t: torch.Tensor):\n    n = t.numpy()\n", "n")
    assert (s.how, s.value_array, s.base_name) == (storage.BRIDGE, True, "t")
    s = share("def f(t: torch.Tensor):\n    n = t.detach().cpu().numpy()\n", "n")
    assert (s.how, s.value_array, s.conditions) == (storage.BRIDGE, True,
                                                    ("when it is already on the CPU",))
    assert share("def f(t: torch.Tensor):\n    n = t.cuda().cpu().numpy()\n", "n") is None
    s = share("def f(t: torch.Tensor):\n    n = np.asarray(t)\n", "n")
    assert s.value_array
    s = share("a = np.ones(3, dtype=np.float32)\nx = torch.as_tensor(a)\n", "x")
    assert (s.how, s.base_array, s.always) == (storage.BRIDGE, True, True)
    # copies, and arrays no tensor touches
    assert share("def f(t: torch.Tensor):\n    n = np.array(t)\n", "n") is None
    assert share("def f(a):\n    t = torch.tensor(a)\n", "t") is None
    assert share("a = np.ones(3)\nb = np.asarray(a)\n", "b") is None
    assert share("def f(values):\n    x = torch.as_tensor(values)\n", "x") is None


def test_repeated_and_expanded():
    s = share("def f(x: torch.Tensor):\n    l = [torch.zeros_like(x)] * 4\n", "l")
    assert s.how == storage.REPEATED
    assert share("def f(x: torch.Tensor, n):\n    l = [x for _ in range(n)]\n", "l").how == \
        storage.REPEATED
    assert share("def f(xs):\n    l = [x for x in xs]\n", "l") is None
    assert share("l = [0] * 4\n", "l") is None
    assert share("def f(x: torch.Tensor):\n    l = [x] * 1\n", "l") is None
    rows = facts("import torch\nrow = torch.zeros(3)\ne = row.unsqueeze(0).expand(4, -1)\n"
                 "g = torch.zeros(1, 3).expand(4, 3)\n"
                 "def f(x: torch.Tensor, n):\n    h = x.expand(n, -1)\n"
                 "    k = torch.zeros(1, 1).expand(4, 3)\n    m = x[None].expand(1, -1)\n")
    assert rows["e"][2].how == storage.EXPANDED and rows["e"][2].base_name == "row"
    assert rows["g"][2].how == storage.EXPANDED
    # an expanded view all the same (a storage fact), but its rows are not shown to repeat one
    assert rows["h"][0].how == storage.EXPANDED and rows["h"][2] is None
    assert rows["k"][2] is None  # dimension 1 is expanded too: a row write raises
    assert rows["m"][2] is None  # one row: nothing repeats


def test_first_write_stops_at_a_new_binding():
    seen = facts("import torch\ndef f(w: torch.Tensor):\n    y = w.cpu()\n    y = y * 2\n"
                 "    y.add_(1)\n")
    assert seen["y"][1] is None  # the write is into the new value
    seen = facts("import torch\ndef f(w: torch.Tensor):\n    y = w.cpu()\n    print(y)\n"
                 "    y[0] = 1\n")
    assert seen["y"][1] == "y[0] = 1"
    seen = facts("import torch\ndef f(w: torch.Tensor):\n    y = w.cpu()\n    def g():\n"
                 "        y.add_(1)\n    y += 1\n")
    assert seen["y"][1] == "y += 1"  # a nested function is another scope


def test_sole_binding_refuses_what_is_bound_more_than_once():
    src = "def f(a, w):\n    x = 1\n    for x in a:\n        pass\n    y = w\n    return y\n"
    fn = build.build(ast.parse(src), src, Text(src), {}).body[0]
    ret = fn.body.body[-1]
    assert sole_binding(fn, "x", ret) is None
    assert sole_binding(fn, "a", ret) is None  # a parameter
    assert type(sole_binding(fn, "y", ret)) is nodes.Name


def test_a_parameter_used_as_a_tensor():
    def used(body, name="x", params="x, k"):
        src = f"def f({params}):\n" + "".join(f"    {line}\n" for line in body)
        return tensor_parameter(build.build(ast.parse(src), src, Text(src), {}).body[0], name)

    assert used(["n = x.size(-1)", "x[1:] = x[:-1]"])  # a write into it binds nothing
    assert used(["return x.unsqueeze(0)"])
    assert used(["x.masked_fill_(x < 0, 0)"])
    assert not used(["n = x.size", "return x.shape"])  # what an array has too
    assert not used(["n = x.size()"])  # a size of any container class: no dimension asked
    assert not used(["y = x.unsqueeze(0)", "x = y.numpy()"])  # bound again
    assert not used(["for x in k:", "    x.unsqueeze(0)"])
    assert not used(["y = k.unsqueeze(0)"])  # another name's use
    assert not used(["return x.unsqueeze(0)"], params="*x")
    assert not used(["def g(x):", "    return x.unsqueeze(0)", "return g"])  # another scope's x
    # ``.float()`` of an item by a tuple index: no array, list or module container has one
    assert used(["x[:, 1:] = x[:, :-1].float()"])
    assert not used(["y = x[1:].float()"])  # ``nn.Sequential(...)[1:].float()``: a module


def test_a_function_binding_a_name_itself():
    def binds(body, name="d", params="m"):
        src = f"def f({params}):\n" + "".join(f"    {line}\n" for line in body)
        return binds_itself(build.build(ast.parse(src), src, Text(src), {}).body[0], name)

    assert not binds(["d['k'] = m.state_dict()"])  # a write into what the name holds
    assert not binds(["d.best = m.state_dict()", "return d"])
    assert not binds(["def g():", "    d = 1"])  # another scope's
    assert binds(["d = {}", "d['k'] = m.state_dict()"])
    assert binds(["for d in m:", "    pass"])
    assert binds(["global d", "d['k'] = 1"])
    assert binds(["pass"], params="d")
    assert binds(["pass"], params="*d")


def test_prefilter_keeps_storage_bindings_with_a_write_and_skips_look_alikes():
    # a binding and an in-place write into either side (the rules report nothing without one)
    assert has_candidates(ast.parse("prev = w.cpu()\nw.add_(1)\n"))
    assert has_candidates(ast.parse("prev = self.w.cpu()\nself.w += 1\n"))
    assert has_candidates(ast.parse("t = torch.from_numpy(a)\nt.clamp_(0, 1)\n"))
    assert has_candidates(ast.parse("t = torch.from_numpy(a)\nnp.copyto(a, b)\n"))
    assert has_candidates(ast.parse("n = t.numpy()\nn.fill(0)\n"))
    assert has_candidates(ast.parse("g = [torch.zeros_like(x)] * n\ndist.all_gather(g, x)\n"))
    assert has_candidates(ast.parse("g = [x for _ in range(n)]\ng[0].mul_(2)\n"))
    assert has_candidates(ast.parse("e = x.unsqueeze(0).expand(n, -1)\ne[0] = r\n"))
    assert has_candidates(ast.parse("y = w.float()\ntorch.add(y, 1, out=y)\n"))
    assert has_candidates(ast.parse("def f(w):\n    y = w.to(d)\n    nn.init.zeros_(y)\n"))
    assert has_candidates(ast.parse(
        "if ok:\n    y = w.float()\nfor i in r:\n    y[i] = 0\n"))
    # nothing these rules read: the file stays free
    for src in ("x = x.float()\nx.add_(1)\n", "l = [0] * n\nl[0] = 1\n",
                "l = [x for x in xs]\nl[0].add_(1)\n", "y = w.requires_grad_()\ny.add_(1)\n",
                "y = w.cuda()\ny.add_(1)\n", "y = f(w)\nz = y + 1\n",
                # a binding no write follows
                "prev = w.cpu()\n", "t = torch.from_numpy(a)\nprint(a, t)\n",
                "g = [torch.zeros_like(x)] * n\n", "e = x.expand(n, -1)\nprint(e[0])\n",
                "def f(w):\n    y = w.float()\n    z = y * 2\n    other.add_(z)\n"):
        assert not has_candidates(ast.parse(src)), src


class _Placed(Rule):
    """Records, at each ``snap = ...`` binding, whether ``model`` is on a GPU there."""

    code = "TEN998"
    hooks = (nodes.Assign,)

    def __init__(self):
        self.seen = []

    def check(self, node, ctx):
        if dotted_name_of(node.targets[0].target) == "snap":
            scope = ctx.scope_node
            self.seen.append(devices.on_accelerator(
                scope, "model", node, ctx.inf, lambda name: sole_binding(scope, name, node)))
        return ()


def dotted_name_of(n):
    return n.value if type(n) is nodes.Name else None


def on_gpu(body):
    src = "import torch\n\n\ndef f(model, device, flag):\n" + "".join(
        "    " + line + "\n" for line in body.splitlines())
    tree = ast.parse(src)
    text = Text(src)
    module = build.build(tree, src, text, {})
    inf = Inference((), (), None)
    probe = _Placed()
    Walker(Context(module, inf, src, text), [probe]).walk(module)
    return probe.seen


def test_a_module_the_code_puts_on_a_gpu_before_the_statement():
    assert on_gpu("model = torch.nn.Linear(3, 1).cuda()\nsnap = 1") == [True]
    assert on_gpu("model = torch.nn.Linear(3, 1, device='cuda:0')\nsnap = 1") == [True]
    assert on_gpu("model = model.to(torch.device('cuda'))\nsnap = 1") == [True]
    assert on_gpu("model.cuda()\nfor x in flag:\n    snap = 1") == [True]
    # not shown: a device held by a name, a move under a condition, a move back, after it, none
    assert on_gpu("model = model.to(device)\nsnap = 1") == [False]
    assert on_gpu("if flag:\n    model.cuda()\nsnap = 1") == [False]
    assert on_gpu("model.cuda()\nif flag:\n    model = model.cpu()\nsnap = 1") == [False]
    assert on_gpu("model.cuda()\nmodel.to('cpu')\nsnap = 1") == [False]
    assert on_gpu("snap = 1\nmodel.cuda()") == [False]
    assert on_gpu("snap = 1") == [False]


def test_an_attribute_or_keyword_named_like_a_name_is_no_read_of_it():
    """``t.data`` reads ``t``, not a name ``data``; ``f(data=x)`` reads ``x`` (hypothesis found a
    fix that was not idempotent: TEN401 took ``t.data.add_(1)`` for a read of ``data``)."""
    from flake8_tensorcopy.fixes import fix_source
    from flake8_tensorcopy.semantic.storage_flow import read_after

    src = ("import torch\nt = data.detach()\nt.data.add_(1)\nt.data = torch.randn(3)\n"
           "t.data.add_(1)\nt = torch.randn(3)\nt.data.add_(1)\n")
    result = fix_source(src, unsafe=True)
    assert fix_source(result.source, unsafe=True).source == result.source

    tree = ast.parse("import torch\ny = x.detach()\ny.add_(1)\nz.data.add_(1)\nf(x=2)\n")
    text = Text(ast.unparse(tree) + "\n")
    module = build.build(tree, text.source, text, {})
    write = module.body[2]
    assert not read_after(module, write, "x") and not read_after(module, write, "data")
    assert read_after(module, write, "z")


def test_first_writes_set_look_up_agrees_with_the_walk():
    """``first_write`` answers "none" from the names the scope writes through (read once per
    scope) before walking it: on every fixture of the storage rules, at every binding of a
    name, with each of its options, the answer is the walk's own."""
    import glob
    import os

    from flake8_tensorcopy.semantic import storage_flow

    def walked(scope, start, writers, stop=frozenset(), items=False, array=False,
               gathers=False, views=False):
        walk = storage_flow._FirstWrite(start, writers, writers | stop, items, array)
        walk.gathers, walk.views = gathers, views
        walk.visit(scope)
        return walk.found

    class _Both(Rule):
        code = "TEN998"
        hooks = (nodes.Assign,)
        asked = found = 0

        def check(self, node, ctx):
            names = [n.value for n in (node.targets[0].target, getattr(node.value, "func", None),
                                       node.value) if type(n) is nodes.Name]
            scope = ctx.scope_node
            for name in names:
                for options in ({}, {"items": True, "gathers": True}, {"array": True},
                                {"views": True}, {"stop": frozenset({"x"})}):
                    got = first_write(scope, node, frozenset({name}), **options)
                    assert got is walked(scope, node, frozenset({name}), **options), name
                    type(self).asked += 1
                    type(self).found += got is not None
            return ()

    here = os.path.join(os.path.dirname(__file__), "fixtures")
    for path in sorted(glob.glob(os.path.join(here, "*.py"))):
        with open(path, encoding="utf-8") as fh:
            src = fh.read()
        tree = ast.parse(src)
        text = Text(src)
        module = build.build(tree, src, text, {})
        inf = Inference((), (), None)
        note_shared_writes(inf, tree, src)
        Walker(Context(module, inf, src, text), [_Both()]).walk(module)
    assert _Both.asked > 1000 and _Both.found > 50, (_Both.asked, _Both.found)
