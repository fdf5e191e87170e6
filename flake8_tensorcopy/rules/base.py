"""What a rule is: one class carrying its code, message, docs, examples, fix and claims."""
from __future__ import annotations

from importlib import import_module

from ..syntax.records import field, record
from typing import (Any, Callable, ClassVar, Dict, FrozenSet, Iterator, List, Optional, Sequence,
                    Tuple, Type)

from ..syntax import nodes

from ..diagnostics import SAFE, UNSAFE
from ..semantic.kinds import CLOSED, NOT, OPEN

__all__ = ["Example", "Rule", "Report", "FixPlan", "NodeEdit", "Src", "Claim", "FixCase", "SAFE",
           "UNSAFE", "applicability"]


def applicability(receivers: Sequence[str], *, same_evaluation: bool = True,
                  same_context: bool = True) -> Optional[str]:
    """The one decision of how far a fix may go, from how each rewritten receiver is known to be
    a tensor (``semantic.kinds.evidence``: CLOSED, PROOF, SIGNAL, SUBCLASS, OPEN, NOT; a rule
    whose flagged shape is itself a strong signal passes ``kinds.signalled(e)``).

    Safe means closed-world (issue 45): SAFE only when every receiver is a plain tensor made in
    the scope that uses it (CLOSED: a torch factory's result, or a torch operation's whose
    operands are all made there or constants, bound to a local that no closure, ``global``,
    loop exit or exception path rebinds; ``Context.evidence`` demotes one that flow doubts, or
    in a file using a functorch transform, to a signal), the rewrite evaluates the same
    expressions the same number of times in the same order, and the context it runs in cannot
    make the two differ (``same_context``: a default-device context, pinning). Everything the
    program can reach around (an attribute, a module global, a parameter, an annotation, an
    ``isinstance`` guard, a project-index summary: PROOF; a shape: SIGNAL; a subclass
    instance) makes it UNSAFE; an unknown receiver, or one known to be something else, gets
    no fix (None).
    """
    fix: Optional[str] = SAFE if same_evaluation and same_context else UNSAFE
    for e in receivers:
        if e == NOT or e == OPEN:
            return None
        if e != CLOSED:
            fix = UNSAFE
    return fix


#: what a fix's documentation names as closed-world evidence (issue 45), the only kind a SAFE fix
#: rests on
CLOSED_WORLD = (
    "a plain tensor made in the scope that uses it: a torch factory's result, or a torch "
    "operation's whose every operand is made there or a constant, bound to a local that no "
    "closure, `global`, loop exit or exception path rebinds, in a file without a functorch "
    "transform. What the program can reach around is open-world and makes the fix "
    "**unsafe**: an attribute (another method, a subclass, a caller or a `__setattr__` may "
    "rebind it), a module global, a parameter, an annotation, an `isinstance` guard, a "
    "layer's parameter (a lazy module's is uninitialized), a project-index fact, a torch op "
    "on any of those (a `Tensor` subclass comes back through `__torch_function__`)")

#: what an unsafe fix may change in a program's behaviour, the words the differential fix tester
#: (``benchmarks/fixproof.py``) classifies each change into; a rule lists in ``unsafe_changes``
#: those its documentation warns about, and FIXPROOF.md checks the list against what it measures
FIX_CHANGES = {
    "raises": "the program raises where it did not (the value was not a tensor, or not one the "
              "fix can rewrite)",
    "stops_raising": "the program no longer raises where it did",
    "type": "the result's type (a `Tensor` subclass kept or lost; a list or an array becomes a "
            "tensor, or the reverse)",
    "subclass_method": "a `Tensor` subclass's own `clone`/`detach` runs where torch's ran",
    "dtype": "the result's dtype",
    "device": "the result's device (a default-device context)",
    "shape": "the result's shape",
    "values": "the result's values",
    "requires_grad": "the result's `requires_grad`",
    "graph": "whether the result is attached to the autograd graph (`grad_fn`)",
    "output": "other output (an attribute read once instead of twice, a printed expression's text)",
    "status": "the exit status",
}


@record(frozen=True)
class Example:
    """An invalid snippet: the rule must flag it exactly once.

    ``after`` is the source the fixer must produce (``None``: the rule offers no fix here).
    ``unsafe`` says the fix is only applied with ``--unsafe-fixes``. ``run`` marks examples that the
    verifier may execute (they use only names it provides: ``torch``, ``nn``, ``t``, ``x``...).
    """

    before: str
    after: Optional[str] = None
    unsafe: bool = False
    run: bool = True


@record(frozen=True)
class FixCase:
    """Runnable proof of a fix: ``body`` is the body of ``def f(t: torch.Tensor, x: torch.Tensor)``.

    The harness fixes the whole function with the real fixer, then runs before and after on every
    tensor kind (``t``; ``x`` is a float64 receiver) and compares results, the input afterwards,
    gradients reaching the input and aliasing. ``differs`` names the properties the fix is
    documented to change (its unsafe part); everything else must be equal.
    """

    body: str
    differs: Tuple[str, ...] = ()
    kinds: Optional[Tuple[str, ...]] = None  # None: every kind
    #: False: the rule must offer no fix here (the case passes when the fixer leaves the body
    #: as it is); ``rejected`` is then the rewrite a careless fix would write, which the harness
    #: shows to behave differently on some kind (why no fix is offered)
    fixed: bool = True
    rejected: Optional[str] = None
    #: devices the case says something about (``t.numpy()`` raises on CUDA before and after)
    devices: Tuple[str, ...] = ("cpu", "cuda")


@record(frozen=True)
class Claim:
    """A statement about PyTorch that a rule relies on, checked by ``tensorcopy verify``.

    ``kind`` is ``semantics``, ``fix`` or ``speed``. ``check`` receives the verifier's helper
    object and returns ``(holds, measured)``. The function body uses torch only through the helper,
    so importing rules never imports torch.
    """

    id: str
    kind: str
    text: str
    check: Callable[[Any], Tuple[bool, dict]]
    #: devices the claim is about (default: every device verified)
    devices: Tuple[str, ...] = ("cpu", "cuda")


def check_in(module: str, name: str,
             one_thread: bool = False) -> Callable[[Any], Tuple[bool, dict]]:
    """A claim's ``check`` kept in ``rules/<module>.py`` as ``name``, imported when the verifier
    first runs it: a lint never does, so the rule's module imports none of it (an editor's run
    imports the engine on every save). ``one_thread``: run it with one CPU thread (a loaded
    machine makes more threads slow, not the result different), restoring the setting after."""
    def check(v):
        run = getattr(import_module(f"{__package__}.{module}"), name)
        if not one_thread:
            return run(v)
        threads = v.torch.get_num_threads()
        v.torch.set_num_threads(1)
        try:
            return run(v)
        finally:
            v.torch.set_num_threads(threads)
    check.__name__ = check.__qualname__ = name
    return check


class claims_in:
    """A rule's ``claims`` kept in ``rules/<module>.py`` as ``name`` (a tuple of ``Claim``), read
    when first asked for (the verifier, the docs): a lint never asks."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __get__(self, obj: Any, owner: Any = None) -> Tuple[Claim, ...]:
        return getattr(import_module(f"{__package__}.{self.module}"), self.name)


@record(frozen=True)
class Src:
    """A piece of an edit's text that is the source's own text over a span (same span rules as
    ``NodeEdit``): moved text keeps its comments, line breaks and indentation byte for byte."""

    node: nodes.CSTNode
    end: Optional[nodes.CSTNode] = None
    from_end: bool = False
    to_start: bool = False


@record
class NodeEdit:
    """An edit described by nodes; the engine turns it into text offsets.

    kind: ``replace`` (node's span -> text), ``insert`` (text before node), ``no_grad`` (wrap the
    statement ``node`` in a ``with <torch>.no_grad():`` block), ``import_torch`` (add ``import torch``),
    ``import`` (add ``import <text>``).

    A ``replace`` may span more than one node: from the start of ``node`` (its end with
    ``from_end``) to the end of ``end`` (its start with ``to_start``). ``eat_line`` also removes
    the line the span sits on when nothing else is on it. The engine refuses a fix whose replaced
    spans hold a comment that none of its texts keeps.
    """

    kind: str
    node: Optional[nodes.CSTNode]
    #: a string, or a tuple of strings and ``Src`` pieces
    text: Any = ""
    end: Optional[nodes.CSTNode] = None
    from_end: bool = False
    to_start: bool = False
    eat_line: bool = False


@record
class FixPlan:
    description: str
    safety: str
    edits: List[NodeEdit] = field(default_factory=list)


@record
class Report:
    code: str
    node: nodes.CSTNode
    message: str
    fix: Optional[FixPlan] = None


class Rule:
    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    #: one-line message template; ``str.format`` fields are filled by the rule
    message: ClassVar[str] = ""
    #: node types this rule wants to see (the engine dispatches on exact type)
    hooks: ClassVar[Tuple[Type[nodes.CSTNode], ...]] = ()
    #: for a hooked ``Attribute`` or ``Call``, the only names the rule wants: the attribute's
    #: name (``x.data``), or the called method's (``x.detach()``; a call of anything but an
    #: attribute is not wanted). The engine then calls ``check`` only for those (a rule whose
    #: ``check`` returns at once on any other name says so here; most nodes are other names)
    hook_names: ClassVar[Dict[Type[nodes.CSTNode], FrozenSet[str]]] = {}
    #: for a hooked ``Call``, the only qualified names of the callee the rule wants
    #: (``torch.tensor``): the engine, which asks the callee's qualified name once per call,
    #: calls ``check`` only for those (a rule whose ``check`` returns at once on any other says
    #: so here)
    hook_quals: ClassVar[Dict[Type[nodes.CSTNode], FrozenSet[str]]] = {}
    #: ``safe``, ``unsafe``, ``sometimes`` or ``None`` (no fix)
    fix_safety: ClassVar[Optional[str]] = None

    what: ClassVar[str] = ""
    why: ClassVar[str] = ""
    use_instead: ClassVar[str] = ""
    fix_doc: ClassVar[str] = ""
    #: False: ``tensorcopy trace`` has no twin of this rule (its docs say why)
    runtime_twin: ClassVar[bool] = True
    #: keys of FIX_CHANGES: what the unsafe fix may change (rendered under "Fix safety")
    unsafe_changes: ClassVar[Sequence[str]] = ()
    references: ClassVar[Sequence[str]] = ()

    invalid: ClassVar[Sequence[Example]] = ()
    valid: ClassVar[Sequence[str]] = ()
    claims: ClassVar[Sequence[Claim]] = ()
    fix_cases: ClassVar[Sequence[FixCase]] = ()

    def check(self, node: nodes.CSTNode, ctx: Any) -> Iterator[Report]:  # pragma: no cover
        raise NotImplementedError

    def report(self, node: nodes.CSTNode, plan: Optional[FixPlan] = None, **fields: str) -> Report:
        return Report(self.code, node, self.message.format(**fields), plan)


def hook_tables(rules: Sequence[Rule]) -> Tuple[Dict[type, List[Rule]],
                                                Dict[type, Dict[str, List[Rule]]],
                                                Dict[str, List[Rule]]]:
    """How the engine's walk picks the rules to call for a node, each list in the rules' order:
    per node type, the rules that want every node of it (``hooks``); per node type where a rule
    wants some names only (``hook_names``), per such name, the rules that want it (any other
    name: the first table); per qualified name of a callee, the rules that want calls of it
    only (``hook_quals``: never picked by a node's type or name)."""
    every: Dict[type, List[Rule]] = {}
    named: Dict[type, Dict[str, List[Rule]]] = {}
    by_qual: Dict[str, List[Rule]] = {}
    wanted: Dict[type, List[Tuple[Rule, Optional[FrozenSet[str]]]]] = {}
    for rule in rules:
        for t in rule.hooks:
            quals = rule.hook_quals.get(t)
            if quals is not None:
                for q in sorted(quals):
                    by_qual.setdefault(q, []).append(rule)
                wanted.setdefault(t, []).append((rule, frozenset()))
            else:
                wanted.setdefault(t, []).append((rule, rule.hook_names.get(t)))
    for t, pairs in wanted.items():
        every[t] = [rule for rule, only in pairs if only is None]
        names = {name for _, only in pairs if only is not None for name in only}
        if names:
            named[t] = {name: [rule for rule, only in pairs if only is None or name in only]
                        for name in names}
    return every, named, by_qual
