"""``sim discover`` searches a plugin's keyword parameters as it does a built-in's ``Params``
(session 10 fresh-user finding 4: a plugin taking ``min_goods: int = 3`` was refused)."""

from __future__ import annotations

from sim.config.plugin_params import params_model
from strategies.common import RandomStrategy


class Plain:
    def __init__(self, min_goods: int = 3, weight: float = 1.5, careful=False, name="x", rng=None, *, cap: int = 7):
        pass

    def choose(self, obs, legal, rng):
        return legal[0]


def test_a_plugins_keyword_defaults_become_the_fields_it_may_search():
    model = params_model(Plain)
    fields = {k: (f.annotation, f.default) for k, f in model.model_fields.items()}
    # rng has no plain-kind default (None): left out; the string annotation "int" is read as int
    assert fields == {"min_goods": (int, 3), "weight": (float, 1.5), "careful": (bool, False), "name": (str, "x"),
                      "cap": (int, 7)}


def test_a_documented_params_model_is_used_as_it_is_and_a_class_without_parameters_has_none():
    assert params_model(RandomStrategy) is RandomStrategy.Params
    assert params_model(type("Bare", (), {"choose": lambda self, obs, legal, rng: legal[0]})) is None


def test_sim_validate_accepts_discover_over_a_plugins_keyword_parameter(tmp_path):
    from click.testing import CliRunner

    from sim.cli import cli

    (tmp_path / "plug_s10_disc.py").write_text(
        "class Insurer:\n    def __init__(self, min_goods: int = 3):\n        self.min_goods = min_goods\n\n"
        "    def choose(self, obs, legal, rng):\n        return legal[0]\n")
    cfg = tmp_path / "d.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 40\nseed: 1\n"
                   "strategies: [{name: 'plug_s10_disc:Insurer'}, {name: osaka.trader}]\n"
                   "discover:\n  seat: 0\n  trials: 3\n  params: {min_goods: [1, 5]}\n")
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert res.exit_code == 0, res.output
    bad = cfg.read_text().replace("{min_goods: [1, 5]}", "{min_good: [1, 5]}")
    cfg.write_text(bad)
    res = CliRunner().invoke(cli, ["validate", str(cfg)])
    assert res.exit_code == 2 and "has no documented parameter 'min_good' (it takes: min_goods)" in res.output
