"""`sim compare` says what differs between the two runs (fresh-user finding 11, session 8: a data
variant's runs differed only by a data-file hash the output never showed)."""

from __future__ import annotations

from click.testing import CliRunner

from sim.analysis.compare import run_changes
from sim.cli import cli
from sim.registry import resolved_lineup

BASE = {"experiment": {"game": "xanadu", "players": 4, "games": 40, "seed": 1, "labels": ["a", "b"],
                       "options": {"advanced": False, "end_card_depth": 10}, "data": {}, "seating": "rotate"},
        "data_hashes": {"cards": "aaaa"}, "engine_version": "3"}


def _with(**changes):
    m = {"experiment": dict(BASE["experiment"]), "data_hashes": dict(BASE["data_hashes"]),
         "engine_version": BASE["engine_version"]}
    for key, value in changes.items():
        if key in m:
            m[key] = value
        else:
            m["experiment"][key] = value
    return m


def test_the_same_experiment_has_no_changes():
    assert run_changes(BASE, _with()) == []


def test_an_option_is_named_key_by_key_in_yaml_spelling():
    b = _with(options={"advanced": True, "end_card_depth": 10})
    assert run_changes(BASE, b) == ["options.advanced: false → true"]


def test_edited_data_contents_and_other_sizes_are_named():
    b = _with(data_hashes={"cards": "bbbb"}, games=80, labels=["x"])
    assert run_changes(BASE, b) == ["games: 40 → 80", "data file cards: other contents"]


def test_a_seat_s_strategy_is_named_by_seat():
    a = _with(strategies=[{"name": "osaka.trader", "params": {}, "label": None}, {"name": "random", "params": {}}])
    b = _with(strategies=[{"name": "osaka.trader", "params": {"min_goods": 3}, "label": None},
                          {"name": "random", "params": {}}])
    # one param differs: named param by param, the default (osaka.trader's min_goods=2) filled in (session 9)
    assert run_changes(a, b, resolved_lineup) == ["strategies.0.params.min_goods: 2 → 3"]
    c = _with(strategies=[{"name": "osaka.trader", "params": {}, "label": None}, {"name": "osaka.hoarder", "params": {}}])
    assert run_changes(a, c, resolved_lineup) == ['strategies.1: random → osaka.hoarder {"insure_at": 1, "min_cost": 12, "min_goods": 4,'
                                 ' "reserve": true}']


def test_another_data_file_is_named_once_by_its_path():
    a = _with(data={"cards": "a.yaml"})
    b = _with(data={"cards": "b.yaml"}, data_hashes={"cards": "bbbb"})
    assert run_changes(a, b) == ["data.cards: a.yaml → b.yaml"]


def test_the_cli_prints_what_differs(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: traders_of_osaka\nplayers: 2\ngames: 6\nseed: 3\nstrategies: [osaka.trader, random]\n")
    r = CliRunner()
    for out, extra in (("a", []), ("b", ["--option", "end_tokens=4"])):
        res = r.invoke(cli, ["run", str(cfg), "--out", str(tmp_path / out), "--quiet", "--figures", "never", *extra])
        assert res.exit_code == 0, res.output
    res = r.invoke(cli, ["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "cmp")])
    assert res.exit_code == 0, res.output
    assert "What differs between the runs: options.end_tokens:" in res.output
    res = r.invoke(cli, ["compare", str(tmp_path / "a"), str(tmp_path / "a"), "--out", str(tmp_path / "cmp2")])
    assert "The runs record the same experiment" in res.output
