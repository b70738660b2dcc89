"""Hints added to a config's validation errors: the closest known key for a misspelt one, the
closest choice for a misspelt value (``seating: rotaet``), how to write a share (``confidence: 95``)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from .models import Checks, Config, StrategySpec, did_you_mean


def suggest(exc: ValidationError, text: str, fields_at) -> list[str]:
    """``format_validation`` lines, each unknown key followed by the closest known one:
    ``fields_at(loc)`` gives the known keys of the mapping holding an error's key."""
    lines = text.split("\n")
    for i, err in enumerate(exc.errors()):
        if i >= len(lines):
            break
        if err["type"] == "extra_forbidden" and "did you mean" not in lines[i]:
            lines[i] += did_you_mean(err["loc"][-1], fields_at(err["loc"][:-1]))
        elif err["type"] == "literal_error":  # 'rotaet' among 'rotate', 'fixed' or 'permute'
            lines[i] += did_you_mean(err["input"], re.findall(r"'([^']*)'", str(err.get("ctx", {}).get("expected", ""))))
        elif err["loc"] == ("confidence",) and isinstance(err["input"], (int, float)) and 1 < err["input"] <= 100:
            lines[i] += f" (a share: {err['input']}% is written {err['input'] / 100:g})"
    return lines


def top_fields(loc: tuple) -> Any:
    if not loc:
        return Config.model_fields
    if loc[0] == "strategies":
        return StrategySpec.model_fields
    if loc[0] == "checks":
        return Checks.model_fields
    return ()
