"""Lazy observations (issue 20 item 3; DESIGN "Lazy observations"): a view whose fields are computed
on first access, so a strategy that does not look pays nothing, and which can never show a later
state. Its own module so it can run compiled (``sim/compiled.py``; ``sim.api`` defines pydantic
models, which stay Python); ``sim.api`` re-exports every name.
"""

from __future__ import annotations

from typing import Any

_SOURCES: dict[int, tuple[Any, int]] = {}  # id(view) -> (source, seat) while the view is open; never an attribute


class StaleObservationError(RuntimeError):
    """A field of a ``LazyObservation`` was first read after its decision (the state has moved on)."""


class lazy:  # noqa: N801  (a decorator, lower case like ``property``)
    """A field of a ``LazyObservation`` computed on first access and cached on the view.

    ``fn(view, source)`` gets the view (for ``view.seat`` and other fields) and the source the
    engine opened the view over (the state, or a snapshot of it); it must return plain immutable
    values (ints, tuples, frozensets) that hold only what ``view.seat`` may know. Like
    ``functools.cached_property``, the value is stored in the view's ``__dict__``, so every later
    read is a plain attribute read.
    """

    __slots__ = ("fn", "name")

    def __init__(self, fn):
        self.fn, self.name = fn, fn.__name__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, view, owner):  # no default: a descriptor slot when compiled (lazy.pxd)
        if view is None:
            return self
        got = _SOURCES.get(id(view))
        if got is None:
            raise StaleObservationError(
                f"{type(view).__name__}.{self.name} was first read after its decision; read what you keep "
                "during choose() (or call materialize() then)")
        value = view.__dict__[self.name] = self.fn(view, got[0])
        return value


class LazyObservation:
    """An observation whose fields are computed on first access (DESIGN "Lazy observations").

    An engine subclasses it, declares eager fields as plain keyword arguments and derived fields
    with ``@lazy``, and returns ``View(state, seat, prompt=..., ...)`` from ``observe``. The view holds
    no reference to ``state``: the source sits in a private table of this module, keyed by the
    view's id, until the game loop closes the view after the decision (``close_view``; engines
    that hand out lazy views set ``lazy_observations = True`` so ``play_game`` does so) or the view
    is garbage-collected. A field first read after that raises ``StaleObservationError``, so a
    view kept across decisions can never show a later state. The view's ``__dict__`` holds only
    the fields computed so far (public values).

    ``materialize()`` computes every field (a dict); equality, ``hash``, ``repr`` and pickling go
    through it, so the no-leak tests that compare observations work unchanged.
    """

    def __init__(self, source: Any, seat: int, **eager: Any):
        d = self.__dict__
        d["seat"] = seat
        d.update(eager)
        _SOURCES[id(self)] = (source, seat)

    @classmethod
    def of(cls, source: Any, seat: int, eager: dict) -> LazyObservation:
        """``cls(source, seat, **eager)`` from a dict the engine built: the same view without parsing
        keyword arguments (issue 20: an engine building a view at every decision; for classes that
        keep ``__init__`` as is). A dict holding ``"seat"`` (set to ``seat``) becomes the view's fields
        without a copy: the engine hands over a new dict per view, ``seat`` first for the field order
        of ``cls(source, seat, **eager)``; a dict without it is copied after ``seat``."""
        view = object.__new__(cls)
        if "seat" in eager:
            eager["seat"] = seat
        else:
            eager = {"seat": seat, **eager}
        object.__setattr__(view, "__dict__", eager)  # ``__setattr__`` refuses; the dict is the view's own
        _SOURCES[id(view)] = (source, seat)
        return view

    def __del__(self) -> None:
        _SOURCES.pop(id(self), None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The ``@lazy`` fields of the class (in definition order, base classes first)."""
        names: dict[str, None] = {}
        for klass in reversed(cls.__mro__):
            names.update({k: None for k, v in vars(klass).items() if isinstance(v, lazy)})
        return tuple(names)

    def materialize(self) -> dict[str, Any]:
        """Every field (eager and lazy) as a dict; ``StaleObservationError`` if a lazy one can no longer be computed."""
        d = self.__dict__
        for name in self.field_names():
            if name not in d:
                getattr(self, name)
        return dict(d)

    def snapshot(self) -> LazyObservation:
        """A detached copy of the same class with every field computed: what a strategy or test
        keeps beyond the decision (``keep``)."""
        return _restore(type(self), self.materialize())

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.materialize() == other.materialize()

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.materialize().items(), key=lambda kv: kv[0])))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.materialize().items())})"

    def __reduce__(self):
        return (_restore, (type(self), self.materialize()))


def _restore(cls: type, fields: dict) -> LazyObservation:
    """Unpickle a view: every field is already computed; no source is attached."""
    view = object.__new__(cls)
    view.__dict__.update(fields)
    return view


def keep(obs: Any) -> Any:
    """An observation that stays readable after its decision: a ``LazyObservation``'s
    ``snapshot()``, any other observation itself (frozen already)."""
    return obs.snapshot() if isinstance(obs, LazyObservation) else obs


def close_view(obs: Any) -> None:
    """Detach a ``LazyObservation`` from its source (fields already read stay readable). Called by
    ``play_game`` after each decision of an engine with ``lazy_observations = True``."""
    _SOURCES.pop(id(obs), None)
