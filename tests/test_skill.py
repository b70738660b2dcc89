"""``sim skill``: the round-robin figures (ranking, skill-depth index, upset rate) on hand-made
tables, Newcombe's interval against the paper's own examples, and the command through CliRunner."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sim.analysis.skill import newcombe_difference, ranking, skill_figures, upsets
from sim.analysis.stats import wilson
from sim.cli import cli
from sim.runs.skill import BASELINE, skill_pool, table_games


def rows(games: list[tuple[int, list[str], list[int]]]) -> pl.DataFrame:
    """``(table, strategies by seat, winning seats)`` per game -> players rows."""
    out = {"table": [], "game_index": [], "seat": [], "strategy": [], "score": [], "won": []}
    for gi, (table, names, winners) in enumerate(games):
        for seat, name in enumerate(names):
            for k, v in (("table", table), ("game_index", gi), ("seat", seat), ("strategy", name),
                         ("score", float(seat in winners)), ("won", seat in winners)):
                out[k].append(v)
    return pl.DataFrame(out)


# A beats B 3-1, A beats base 4-0, B beats base 3-1 (seats alternate): by hand, A wins 7 of 8,
# B 4 of 8, base 1 of 8; upsets: B's one win over A and base's one win over B, 2 of 12.
ROUND_ROBIN = rows(
    [(0, ["A", "B"], [0]), (0, ["B", "A"], [1]), (0, ["A", "B"], [0]), (0, ["B", "A"], [0])]
    + [(1, ["A", "base"], [0]), (1, ["base", "A"], [1])] * 2
    + [(2, ["B", "base"], [0]), (2, ["base", "B"], [1]), (2, ["B", "base"], [0]), (2, ["base", "B"], [0])]
)


def test_ranking_counts_wins_by_hand():
    rk = ranking(ROUND_ROBIN)
    assert rk["strategy"].to_list() == ["A", "B", "base"]
    assert rk["rank"].to_list() == [1, 2, 3]
    assert rk["wins"].to_list() == [7, 4, 1] and rk["games"].to_list() == [8, 8, 8]
    lo, hi = wilson(7, 8)
    assert rk["ci_low"][0] == pytest.approx(lo) and rk["ci_high"][0] == pytest.approx(hi)


def test_skill_depth_and_upset_rate_by_hand():
    f = skill_figures(ROUND_ROBIN, "base")
    assert f.best == "A"
    assert f.depth == pytest.approx(7 / 8 - 1 / 8)
    assert (f.upsets, f.pairs) == (2, 12)
    assert f.upset_rate == pytest.approx(2 / 12)
    assert (f.upset_low, f.upset_high) == pytest.approx(wilson(2, 12))
    assert f.games == 12


def test_equal_win_rates_share_a_rank_and_are_no_upset():
    df = rows([(0, ["A", "B"], [0]), (0, ["B", "A"], [0])])  # one win each
    assert ranking(df)["rank"].to_list() == [1, 1]
    assert upsets(df, {"A": 1, "B": 1}) == (0, 0)


def test_upsets_in_a_three_player_game_count_pairs_with_one_winner():
    # C (ranked 3) wins: pairs (A, C) and (B, C) are decisive upsets; (A, B) has no winner
    df = rows([(0, ["A", "B", "C"], [2])])
    assert upsets(df, {"A": 1, "B": 2, "C": 3}) == (2, 2)
    # shared win of A and B: (A, C) and (B, C) decisive, no upset; (A, B) both won: not decisive
    df = rows([(0, ["A", "B", "C"], [0, 1])])
    assert upsets(df, {"A": 1, "B": 2, "C": 3}) == (0, 2)


@pytest.mark.parametrize("counts, expected", [
    # Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10
    ((56, 70, 48, 80), (0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.1705, 0.8090)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)),
])
def test_newcombe_interval_matches_the_paper(counts, expected):
    d, lo, hi = newcombe_difference(*counts)
    assert d == pytest.approx(counts[0] / counts[1] - counts[2] / counts[3])
    assert (lo, hi) == pytest.approx(expected, abs=5e-4)
    assert math.isnan(newcombe_difference(1, 0, 1, 2)[0])


def test_head_to_head_margin_by_hand():
    """A met B 4 times (table 0): A alone won 3, B alone 1, so A's win rate there is 3/4, B's 1/4:
    margin +0.5. Interval: Wilson 95% of 3 of 4 decisive, by hand (z = 1.96): centre
    (3 + z²/2) / (4 + z²) = 0.62753, half-width z sqrt(4 * 0.75 * 0.25 + z²/4) / (4 + z²) = 0.32689,
    so 0.30064 to 0.95442, mapped by (2 share - 1) * 4/4: -0.3987 to +0.9088."""
    f = skill_figures(ROUND_ROBIN, "base")
    assert len(f.h2h) == 1  # the best (A) against every other strategy but the baseline: B
    h = f.h2h[0]
    assert (h["a"], h["b"], h["meetings"], h["a_only"], h["b_only"]) == ("A", "B", 4, 3, 1)
    assert h["margin"] == pytest.approx(0.5)
    assert (h["low"], h["high"]) == pytest.approx((-0.3987, 0.9088), abs=2e-4)
    from sim.analysis.skill import skill_text
    assert "A vs B: margin +50.0 points (95% interval -39.9 to +90.9; 4 games together, 3 won by A alone, 1 by B" \
           " alone)" in skill_text(f, 2)


def test_head_to_head_with_three_players_cancels_shared_wins_and_skips_other_winners():
    from sim.analysis.skill import head_to_head
    # game 0: A and B share the win (cancels); game 1: C wins (neither); game 2: A alone; game 3: B absent
    df = rows([(0, ["A", "B", "C"], [0, 1]), (0, ["C", "A", "B"], [0]), (0, ["B", "C", "A"], [2]),
               (1, ["A", "C", "D"], [0])])
    h = head_to_head(df, "A", "B")
    assert (h["meetings"], h["a_only"], h["b_only"]) == (3, 1, 0)
    assert h["margin"] == pytest.approx(1 / 3)  # A won 2 of 3 together, B 1 of 3


def test_missing_baseline_is_an_error():
    with pytest.raises(ValueError, match="baseline 'zzz'"):
        skill_figures(ROUND_ROBIN, "zzz")


def test_pool_and_table_sizes():
    pool = skill_pool("xanadu")  # every xanadu.* strategy (experts join when they land), baseline last
    assert pool[-1] == BASELINE and {"xanadu.builder", "xanadu.hoarder", "xanadu.saboteur"} <= set(pool)
    assert all(n.startswith("xanadu.") for n in pool[:-1])
    assert skill_pool("xanadu", ["first_legal", BASELINE, "first_legal"]) == ["first_legal", BASELINE]
    assert table_games(5, 2, "rotate") == 6 and table_games(6, 3, "rotate") == 6
    assert table_games(7, 3, "permute") == 12  # 3! seat orders


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.integration
def test_cli_figures_agree_with_the_tables(tmp_path):
    out = tmp_path / "sk"
    r = invoke("skill", "traders_of_osaka", "--games", 6, "--strategy", "first_legal", "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    table = pl.read_parquet(out / "table-000" / "players.parquet")
    games = pl.read_parquet(out / "table-000" / "games.parquet")
    assert games.height == 6 and not games["truncated"].any() and not games["failed"].any()
    wins = {s: int(table.filter(pl.col("strategy") == s)["won"].sum()) for s in ("first_legal", BASELINE)}
    doc = json.loads((out / "skill.json").read_text())
    assert doc["games_per_table"] == 6 and len(doc["tables"]) == 1
    assert doc["skill_depth"] == pytest.approx(wins["first_legal"] / 6 - wins[BASELINE] / 6)
    lower = min(wins, key=lambda s: (wins[s], s == "first_legal"))  # the lower-ranked (name order breaks ties)
    decisive = int((games["n_winners"] == 1).sum())
    if wins["first_legal"] != wins[BASELINE]:
        assert doc["upsets"] == wins[lower] and doc["decisive_pairs"] == decisive
    for s, w in wins.items():
        assert f"{s}" in r.output and f"{100 * w / 6:.1f}%" in r.output
    assert "skill-depth index (2 players)" in r.output and (out / "skill.md").is_file()
    # `sim report` on the skill folder: its figures and where the table reports are (fresh finding 9)
    rep = invoke("report", out)
    assert rep.exit_code == 0 and "skill-depth index (2 players)" in rep.output
    assert f"{out} is a skill folder (sim skill)" in rep.output and f"sim report {out / 'table-000'}" in rep.output


@pytest.mark.parametrize("args, message", [
    (["nogame"], "unknown game 'nogame'"),
    (["xanadu", "--players", "9"], "xanadu takes 2-6 players, not 9"),
    (["xanadu", "--strategy", "osaka.trader"], "plays traders_of_osaka, not 'xanadu'"),
    (["xanadu", "--strategy", "nosuch"], "unknown strategy 'nosuch'"),
    (["xanadu", "--games", "0"], "--games must be at least 1"),
    (["xanadu", "--players", "4", "--strategy", "first_legal"], "needs at least 4 strategies"),
    (["forwarder_of_xanadu", "--players", "2"], "set allow_two_players: true"),
    (["xanadu", "--option", "draw"], "expected KEY=VALUE"),
    (["xanadu", "--option", "draw=forced", "--option", "draw=optional"], "--option draw is given twice"),
    (["xanadu", "--option", "draw=sometimes"], "options.draw"),
])
def test_cli_bad_input_exits_2_without_traceback(tmp_path, args, message):
    r = invoke("skill", *args, "--out", tmp_path / "x", "--quiet")
    assert r.exit_code == 2
    assert message in r.output and "Traceback" not in r.output
    assert not (tmp_path / "x").exists()


def test_cli_refuses_a_folder_holding_other_files(tmp_path):
    (tmp_path / "mine.txt").write_text("keep")
    r = invoke("skill", "xanadu", "--strategy", "first_legal", "--out", tmp_path, "--force", "--quiet")
    assert r.exit_code == 2 and "mine.txt" in r.output
    assert (tmp_path / "mine.txt").read_text() == "keep"


def test_help_has_an_example():
    r = invoke("skill", "--help")
    assert r.exit_code == 0 and "sim skill xanadu --players 2" in r.output


def test_figures_are_rounded_only_in_text(tmp_path: Path):
    f = skill_figures(ROUND_ROBIN, "base")
    from sim.analysis.skill import skill_text

    text = "\n".join(skill_text(f, 2))
    assert "+75.0 points" in text and "16.7% (2 of 12" in text


def test_rule_options_reach_every_table():
    """``--option`` values are read as YAML and given to every table's config: a 2-player
    Forwarder of Xanadu round robin (published for 3-5, RULINGS §6) is possible with the flag."""
    from sim.cli.commands_skill import option_values
    from sim.runs.skill import plan

    opts = option_values(("allow_two_players=true", "max_decisions=900"))
    assert opts == {"allow_two_players": True, "max_decisions": 900}
    rcs = plan("forwarder_of_xanadu", 2, ["forwarder.economy", "forwarder.majority", BASELINE], 4, 0, options=opts)
    assert len(rcs) == 3 and all(rc.options["allow_two_players"] is True for rc in rcs)


def test_games_left_out_are_said():
    """A round robin whose tables had games without a result says how many were left out of the
    figures (e.g. 3 of 10 stalled: 30.0%), and says nothing when every game counted."""
    import dataclasses

    from sim.analysis.skill import SkillFigures, skill_text

    rk = pl.DataFrame({"rank": [1, 2], "strategy": ["a", BASELINE], "games": [7, 7], "wins": [7, 0],
                       "win_rate": [1.0, 0.0], "ci_low": [0.6, 0.0], "ci_high": [1.0, 0.4]})
    f = SkillFigures(rk, BASELINE, "a", 1.0, 0.5, 1.0, 0, 7, 0.0, 0.0, 0.4, 7, played=10)
    assert any(line.startswith("Beware: 3 of 10 games (30.0%) ended without a result") for line in skill_text(f, 2))
    assert not any("Beware" in line for line in skill_text(dataclasses.replace(f, played=7), 2))


def test_every_table_uses_duplicate_seating():
    """Issue 17 item 5: duplicate seating where available; every game offers ``permute``, so each
    deal is played in every seat order (2 players: both orders of each deal)."""
    from sim.runs.skill import table_config

    rc = table_config("traders_of_osaka", 2, ["osaka.trader", "random_by_kind"], 5, 0, 1)
    assert rc.seating == "permute" and rc.games == 6
