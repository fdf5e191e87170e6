"""Plain record classes (fields, ``__init__``, ``==``, ``hash``, ordering, ``repr``) without
``dataclasses``.

The lint path's records (``Diagnostic``, ``Fix``, ``Edit``, a rule's ``Example``...) are made on
every import of the engine, and an editor starts a new flake8 process per save: ``dataclasses``
is imported for them alone (flake8 does not), and it builds each class from many small generated
functions compiled one by one, about 0.6 ms a class, 13 classes on the lint path (issue 23 item 6).
``record`` gives the same behaviour for what this package uses (fields in annotation order,
defaults, ``field(default_factory=...)``, ``frozen``, ``order``) with one compiled ``__init__`` a
class; ``replaced`` stands for ``dataclasses.replace``.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, Dict, Tuple

_MISSING = object()


class FrozenRecordError(AttributeError):
    """An attempt to set or delete a field of a frozen record."""


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], Any]) -> Any:
    """A field whose default is made anew for each record (``dataclasses.field``'s form)."""
    return _Factory(default_factory)


def fields(cls: type) -> Tuple[str, ...]:
    """The field names of a record class, in order."""
    return cls._record_fields


def replaced(obj: Any, **changes: Any) -> Any:
    """A copy of the record ``obj`` with ``changes`` (``dataclasses.replace``)."""
    values = {name: getattr(obj, name) for name in type(obj)._record_fields}
    values.update(changes)
    return type(obj)(**values)


def record(cls: type = None, *, frozen: bool = False, order: bool = False):
    """Class decorator: ``cls``'s annotated attributes become its fields."""
    if cls is None:
        return lambda c: _make(c, frozen, order)
    return _make(cls, frozen, order)


def _make(cls: type, frozen: bool, order: bool) -> type:
    # a record's subclass adds its fields after its base's, as a dataclass's does
    defaults: Dict[str, Any] = dict(getattr(cls, "_record_defaults", {}))
    names = tuple(getattr(cls, "_record_fields", ()))
    for name in cls.__dict__.get("__annotations__", {}):
        if name not in defaults:
            names += (name,)
        defaults[name] = cls.__dict__.get(name, defaults.get(name, _MISSING))
        if isinstance(cls.__dict__.get(name), _Factory):
            delattr(cls, name)
    env: Dict[str, Any] = {"_MISSING": _MISSING}
    params, body = [], []
    for name in names:
        default = defaults[name]
        if isinstance(default, _Factory):
            env[f"_f_{name}"] = default.make
            params.append(f"{name}=_MISSING")
            body.append(f"    d[{name!r}] = _f_{name}() if {name} is _MISSING else {name}")
            continue
        if default is _MISSING:
            params.append(name)
        else:
            env[f"_d_{name}"] = default
            params.append(f"{name}=_d_{name}")
        body.append(f"    d[{name!r}] = {name}")
    code = f"def __init__(self, {', '.join(params)}):\n    d = self.__dict__\n" + "\n".join(body) + "\n"
    exec(code, env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    cls._record_fields = names
    cls._record_defaults = defaults
    key = attrgetter(*names) if len(names) > 1 else (lambda self: (getattr(self, names[0]),))
    _methods(cls, key, names, frozen, order)
    return cls


def _methods(cls: type, key, names: Tuple[str, ...], frozen: bool, order: bool) -> None:
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __repr__(self):
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{type(self).__qualname__}({inner})"

    cls.__eq__ = __eq__
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = __repr__
    if frozen:
        def __hash__(self):
            return hash(key(self))

        def __setattr__(self, name, value):
            raise FrozenRecordError(f"cannot assign to field {name!r}")

        def __delattr__(self, name):
            raise FrozenRecordError(f"cannot delete field {name!r}")

        cls.__hash__ = __hash__
        cls.__setattr__ = __setattr__
        cls.__delattr__ = __delattr__
    else:
        cls.__hash__ = None  # mutable and compared by value: unhashable, as a dataclass
    if order:
        def __lt__(self, other):
            if other.__class__ is self.__class__:
                return key(self) < key(other)
            return NotImplemented

        def __le__(self, other):
            if other.__class__ is self.__class__:
                return key(self) <= key(other)
            return NotImplemented

        def __gt__(self, other):
            if other.__class__ is self.__class__:
                return key(self) > key(other)
            return NotImplemented

        def __ge__(self, other):
            if other.__class__ is self.__class__:
                return key(self) >= key(other)
            return NotImplemented

        cls.__lt__, cls.__le__, cls.__gt__, cls.__ge__ = __lt__, __le__, __gt__, __ge__
