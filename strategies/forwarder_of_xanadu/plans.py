"""The three scripted Forwarder of Xanadu plans: ``Planner`` with other default parameters.

The plans differ only in data: each has one table of defaults (``MAJORITY``, ``QUALITY``,
``ECONOMY``) over ``Planner.Params``; every other parameter keeps the planner's default.
"""

from __future__ import annotations

from pydantic import create_model
from pydantic.fields import FieldInfo

from .planner import Planner


def params_with(base, name: str, doc: str, module: str, **defaults):
    """A subclass of the pydantic model ``base`` with other defaults (descriptions and bounds kept)."""
    fields = {k: (base.model_fields[k].annotation, FieldInfo.merge_field_infos(base.model_fields[k], default=v))
              for k, v in defaults.items()}
    return create_model(name, __base__=base, __doc__=doc, __module__=module, **fields)


def _plan_params(name: str, leaning: str, defaults: dict):
    return params_with(Planner.Params, name, f"Planner parameters (see ``Planner.Params``); defaults {leaning}.",
                       __name__, **defaults)


# ---------------------------------------------------------------- the plans' defaults (data)
MAJORITY = dict(
    companies=(3, 1, 4, 0, 2),
    growth=("transport", "warehouse", "skill", "workers", "quality"),
    mark_weight=8.0,
    distance_cost=0.25,
    skills=("transport_capacity", "transport_actions", "order_vp", "fulfil_actions", "place_resources",
            "extra_fulfil", "extra_transport", "warehouse_capacity", "improve_actions", "daily_vp", "replenish",
            "extra_improve"),
)
QUALITY = dict(
    companies=(0, 4, 1, 3, 2),
    growth=("quality", "transport", "skill", "workers", "warehouse"),
    mark_weight=3.0,
    distance_cost=0.5,
    upper_weight=3.0,
    upgrade_cost=0.4,
    refill_upper=True,
    stock_superior=2,
    skills=("improve_actions", "transport_capacity", "order_vp", "extra_improve", "fulfil_actions",
            "transport_actions", "extra_fulfil", "warehouse_capacity", "place_resources", "daily_vp", "replenish",
            "extra_transport"),
)
ECONOMY = dict(
    companies=(2, 4, 0, 1, 3),
    growth=("warehouse", "skill", "workers", "transport", "quality"),
    mark_weight=6.0,
    distance_cost=0.25,
    daily_weight=2.0,
    keep_proxies=0,
    resurvey=True,
    skills=("daily_vp", "replenish", "place_resources", "fulfil_actions", "order_vp", "extra_fulfil",
            "transport_capacity", "improve_actions", "transport_actions", "warehouse_capacity", "extra_transport",
            "extra_improve"),
)


class Majority(Planner):
    """Share-majority rush: orders in areas marked 2-3, transport growth first, office early."""

    Params = _plan_params("MajorityParams", "weigh area marks heavily", MAJORITY)


class Quality(Planner):
    """Superior/special goods for upper orders: Quality Improvement first, upper exclusives."""

    Params = _plan_params("QualityParams", "value upper orders and keep upgraded goods", QUALITY)


class Economy(Planner):
    """Daily cards every round, proxy workers for long actions and re-surveys, replenishment."""

    Params = _plan_params("EconomyParams", "favour daily cards and proxy efficiency", ECONOMY)


MajorityParams, QualityParams, EconomyParams = Majority.Params, Quality.Params, Economy.Params  # picklable by name
