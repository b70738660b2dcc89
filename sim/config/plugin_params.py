"""The parameters ``sim discover`` may search for a strategy (fresh-user finding 4, session 10).

A built-in strategy documents them in a pydantic ``Params`` model; a plugin class may instead take
them as keyword arguments with defaults (``def __init__(self, min_goods: int = 3)``), as the README's
``Greedy`` and ``examples/osaka_plugin`` do. Both serve: the latter is read as the model it implies.
"""

from __future__ import annotations

import inspect
from typing import Any

from pydantic import BaseModel, create_model

_KINDS = (bool, int, float, str)  # bool first: a bool is an int too
_BY_NAME = {k.__name__: k for k in _KINDS}  # annotations left as strings (``from __future__ import annotations``)


def params_model(factory: Any) -> type[BaseModel] | None:
    """``factory.Params`` when it has one, else a pydantic model with one field per keyword parameter
    of ``factory``'s signature that has a default of a plain kind (``bool``, ``int``, ``float``,
    ``str``; the annotation when it names one of them, else the default's own type), with that
    default; ``None`` when neither gives a field. Never raises for an odd signature (``None``)."""
    model = getattr(factory, "Params", None)
    if model is not None:
        return model
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):
        return None
    fields: dict[str, Any] = {}
    for name, p in sig.parameters.items():
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) or p.default is p.empty:
            continue
        ann = _BY_NAME.get(p.annotation, p.annotation) if isinstance(p.annotation, str) else p.annotation
        kind = ann if ann in _KINDS else next((k for k in _KINDS if type(p.default) is k), None)
        if kind is not None and isinstance(p.default, kind):
            fields[name] = (kind, p.default)
    return create_model(f"{getattr(factory, '__name__', 'Strategy')}Params", **fields) if fields else None
