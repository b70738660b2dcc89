"""The parameters ``sim discover`` may search for a strategy (fresh-user finding 4, session 10).

A built-in strategy documents them in a pydantic ``Params`` model; a plugin class may instead take
them as keyword arguments with defaults (``def __init__(self, min_goods: int = 3)``), as the README's
``Greedy`` and ``examples/osaka_plugin`` do. Both serve: the latter is read as the model it implies.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, create_model

from ..registry import strategy_params

_KINDS = (bool, int, float, str)  # the kinds discover can search


def params_model(factory: Any) -> type[BaseModel] | None:
    """``factory.Params`` when it has one, else a pydantic model with one field per keyword parameter
    with a default of a plain kind (``bool``, ``int``, ``float``, ``str``: the default's own type),
    read by ``registry.strategy_params``; ``None`` when there is none."""
    model = getattr(factory, "Params", None)
    if model is not None:
        return model
    fields = {k: (type(v), v) for k, v in strategy_params(factory).items() if type(v) in _KINDS}
    return create_model(f"{getattr(factory, '__name__', 'Strategy')}Params", **fields) if fields else None
