"""Strategies are compared by resolved params (defaults filled in): spelling out a default param
is the same experiment for `sim check CONFIG --run DIR` and `sim compare`, and a real difference
is named in full, param by param (breaker trial 2 leftover 2, session 9)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sim.cli import cli

HEAD = """\
game: traders_of_osaka
players: 3
games: 6
seed: 3
jobs: 1
checks:
  max_failed_games: 0
strategies:
"""
AS_WRITTEN = HEAD + "  - {name: osaka.shipper, params: {min_set: 3}}\n  - {name: osaka.trader}\n  - {name: random}\n"
# osaka.shipper's documented defaults: min_goods=3, avoid_waves=true, insure_at=1; osaka.trader's: min_goods=2
SPELT_OUT = HEAD + ("  - {name: osaka.shipper, params: {min_set: 3, min_goods: 3, avoid_waves: true, insure_at: 1}}\n"
                    "  - {name: osaka.trader, params: {min_goods: 2}}\n  - {name: random}\n")
PORTFOLIO = "[osaka.trader, osaka.hoarder, osaka.shipper, random, random_by_kind, first_legal]"
OTHER = HEAD + ("  - {name: osaka.shipper, params: {min_set: 2}}\n  - {name: osaka.trader}\n"
                f"  - {{name: search, params: {{iterations: 3, portfolio: {PORTFOLIO}}}}}\n")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("params")
    for name, text in (("a", AS_WRITTEN), ("b", SPELT_OUT)):
        (tmp / f"{name}.yaml").write_text(text)
        res = invoke("run", tmp / f"{name}.yaml", "--out", tmp / name, "--quiet", "--figures", "never")
        assert res.exit_code == 0, res.output
    (tmp / "other.yaml").write_text(OTHER)
    return tmp


@pytest.mark.integration
def test_a_default_spelt_out_is_the_same_experiment_for_check(runs):
    res = invoke("check", runs / "b.yaml", "--run", runs / "a", "--quiet", "--figures", "never")
    assert res.exit_code == 0, res.output
    assert "1 of 1 checks passed" in res.output


@pytest.mark.integration
def test_a_default_spelt_out_is_no_difference_for_compare(runs):
    res = invoke("compare", runs / "a", runs / "b")
    assert res.exit_code == 0, res.output
    assert "strategies differ" not in res.output and "What differs" not in res.output


@pytest.mark.integration
def test_check_names_every_difference_in_full(runs):
    res = invoke("check", runs / "other.yaml", "--run", runs / "a", "--quiet")
    assert res.exit_code == 2
    assert "strategies.0.params.min_set = 3" in res.output and "strategies.0.params.min_set = 2" in res.output
    assert "..." not in res.output and "more characters" not in res.output
    # seat 2 is another strategy: the whole entry, its portfolio to the last name
    assert "'random_by_kind', 'first_legal']" in res.output
