"""Strategy parameters a config cannot get wrong silently (breaker findings, session 4): NaN and
infinite weights, Forwarder preference orders naming unknown or repeated items, and numbers that
YAML 1.1 reads as text. Each is refused as a config error naming the key (exit 2 at the CLI)."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from sim.api import SimError
from sim.registry import make_strategy, resolve_strategy

FX = "forwarder_of_xanadu"


@pytest.mark.parametrize("params, key", [
    ({"companies": [9, 9, 9, 9, 9]}, "companies"),   # the rulebook has 5 companies: indices 0-4
    ({"companies": [1, 1]}, "companies"),            # a preference names each company once
    ({"companies": []}, "companies"),
    ({"growth": ["warehouse", "bogus"]}, "growth"),  # 'bogus' is no growth track
    ({"growth": []}, "growth"),
    ({"skills": ["daily_vp", "daily_vp"]}, "skills"),
    ({"skills": ["daily_vp", "bogus"]}, "skills"),
    ({"daily_weight": math.inf}, "daily_weight"),
    ({"upper_weight": math.nan}, "upper_weight"),
    ({"keep_proxies": 1_000_000}, "keep_proxies"),   # more than a company can ever hold (second breaker, 9)
    ({"keep_proxies": -1}, "keep_proxies"),
])
def test_forwarder_plans_refuse_nonsense_preferences_and_weights(params, key):
    for name in ("forwarder.economy", "forwarder.majority", "forwarder.quality", "forwarder.expert"):
        with pytest.raises(SimError, match=key):
            make_strategy(name, params, FX)


def test_forwarder_plans_accept_a_partial_order_of_known_items():
    make_strategy("forwarder.economy", {"companies": [4, 0], "growth": ["skill"], "skills": ["order_vp"]}, FX)


@pytest.mark.parametrize("name, game, key", [
    ("xanadu.expert", "xanadu", "end_margin"),
    ("osaka.expert", "traders_of_osaka", None),
    ("alpenzian.ranch", "alpenzian", None),
])
def test_nan_and_infinity_are_refused_for_every_float_parameter(name, game, key):
    fields = resolve_strategy(name, game=game).Params.model_fields
    floats = [k for k, f in fields.items() if f.annotation is float]
    assert floats, f"{name} has a float parameter"
    for k in ([key] if key else floats[:1]):
        for bad in (math.nan, math.inf):
            with pytest.raises(SimError, match=k):
                make_strategy(name, {k: bad}, game)


def test_a_number_yaml_reads_as_text_is_explained(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: forwarder_of_xanadu\nplayers: 3\ngames: 2\nseed: 1\nstrategies:\n"
                   "  - {name: forwarder.economy, params: {mark_weight: 1e12}}\n"
                   "  - {name: forwarder.majority}\n  - {name: forwarder.quality}\n")
    r = subprocess.run([sys.executable, "-m", "sim", "validate", str(cfg)], capture_output=True, text=True)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "mark_weight" in r.stderr and "YAML reads it as text" in r.stderr
    assert "Traceback" not in r.stderr


def test_every_silently_converted_parameter_is_reported_at_once():
    """Fresh-user finding 4 (session 4): only the first of two bad parameters was reported."""
    with pytest.raises(SimError) as err:
        make_strategy("xanadu.expert", {"end_draws": True, "keep_hand": "3"}, "xanadu")
    text = str(err.value)
    assert "'end_draws': must be a whole number, got true" in text and "'keep_hand': must be a whole number, got '3'" in text
