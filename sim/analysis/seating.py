"""What the seating of a run can and cannot separate, and "who sits before you": win rate by the
strategy on one's right (the seat that acts just before, turn order wrapping round)."""

from __future__ import annotations

from functools import partial

import polars as pl

from . import charts, streamed
from .document import Section, ci, p_text, rows
from .neighbour import neighbour_tests, neighbour_text, tests_table
from .sections import Draft
from .stats import with_wilson
from .streamed import gather, whole_game_parts


def deal_facts(games: pl.DataFrame, k: int | None = None) -> tuple[int, int, int]:
    """``(games per deal, whole deals, games of a partial last deal)`` from ``deal_index``
    (``(1, games, 0)`` when absent: each game its own deal). ``k``: the deal size the run was
    made with (its manifest's ``deal_size``); without it the largest deal played is taken."""
    if "deal_index" not in games.columns or not games.height:
        return 1, games.height, 0
    sizes = games.group_by("deal_index").len()
    k = k or int(sizes["len"].max())
    whole = int((sizes["len"] == k).sum())
    return k, whole, games.height - whole * k


def seating_text(seating: str, players: int, distinct: int, games: pl.DataFrame, k: int | None = None) -> str:
    """One paragraph: which seating was used and what it can and cannot separate."""
    if players == 1:
        return "One seat: there is no seating to speak of."
    if seating == "fixed":
        return ("Seating: fixed (seat i always plays strategy i). Seat and strategy effects cannot be told apart: a "
                "strong seat and a strong strategy in it look the same. Use seating: permute to separate them.")
    if seating == "rotate":
        return ("Seating: rotate (seat i plays strategy (i + game) mod players). Each strategy holds each seat equally "
                "often, so seat and strategy effects separate, but every strategy always has the same neighbours: "
                "a neighbour effect (who plays just before you) is mixed into the strategy figures, and every game "
                "has its own shuffle, so luck does not cancel between games. Use seating: permute for duplicate deals.")
    k, whole, partial_ = deal_facts(games, k)
    tail = f" The last deal is partial ({partial_} of {k} games), so its balance is incomplete." if partial_ else ""
    how = "every distinct assignment of the strategies to the seats" if players <= 4 else (
        "a balanced set of assignments (each strategy meets each seat and each left neighbour equally often)")
    if k <= 1:  # one distinct assignment (every seat the same strategy): each game is its own deal
        return ("Seating: permute, with every seat playing the same strategy: each game is its own deal (one "
                "assignment), as under rotate; only seat effects are measured.")
    return (f"Seating: permute (duplicate deals). The games come in deals of {k} games ({whole} whole deal(s)): one shuffle (the "
            f"same chance stream) played with {how}. Seat, strategy and neighbour effects separate, and the luck of "
            "the deal is shared by every assignment of it (as in duplicate bridge). It cannot separate effects that "
            f"only show in interaction with a particular deal.{tail}"
            + ("" if distinct > 1 else " Every seat plays the same strategy, so only seat effects are measured."))


def predecessor_table(players: pl.DataFrame, n_seats: int, confidence: float = 0.95) -> pl.DataFrame:
    """Win rate of each strategy by the strategy in the seat just before it (seat − 1, seat 0's is
    seat n − 1). In: player rows of complete games (a frame, or a scan read part by part of whole
    games). Out: ``strategy, before, games, wins, win_rate, ci_low, ci_high`` (Wilson), sorted."""
    return table_of(predecessor_cells(players, n_seats), confidence)


def table_of(cells: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """The "who sits before you" table from ``predecessor_cells`` (summed over the seats)."""
    t = cells.group_by("strategy", "before").agg(games=pl.col("games").sum(), wins=pl.col("wins").sum()) \
        .sort("strategy", "before")
    return with_wilson(t, confidence=confidence).select("strategy", "before", "games", "wins", "win_rate", "ci_low",
                                                        "ci_high")


def predecessor_cells(players: pl.DataFrame, n_seats: int) -> pl.DataFrame:
    """``seat, strategy, before, games, wins``: the player rows (a frame, or a scan read part by part
    of whole games) counted by seat, strategy and the strategy in the seat before, sorted."""
    p = players.select("game_index", "seat", "strategy", "won")  # a scan: part by part of whole games (memory)
    parts = [_predecessor_counts(part, n_seats) for part in whole_game_parts(p, streamed.JOIN_PART_GAMES)]
    parts = parts or [_predecessor_counts(p.lazy().head(0).collect(), n_seats)]  # no rows: the empty table
    return (pl.concat(parts).group_by("seat", "strategy", "before").agg(games=pl.col("games").sum(),
                                                                        wins=pl.col("wins").sum())
            .sort("seat", "strategy", "before")) if len(parts) > 1 else parts[0]


def _predecessor_counts(p: pl.DataFrame, n_seats: int) -> pl.DataFrame:
    """``seat, strategy, before, games, wins`` of the player rows ``p`` (whole games), sorted."""
    prev = p.select("game_index", seat=(pl.col("seat") + 1) % n_seats, before=pl.col("strategy"))
    return (p.join(prev, on=["game_index", "seat"], how="inner").group_by("seat", "strategy", "before")
            .agg(games=pl.len(), wins=pl.col("won").sum()).sort("seat", "strategy", "before"))


def seating(d: Draft) -> None:
    """The seating paragraph and, with different strategies, the "who sits before you" table."""
    cfg, complete = d.t.config, d.complete
    distinct = (0 if not d.complete_rows else d.tables["strategy"].height if "strategy" in d.tables  # one row a strategy
                else gather(complete, lambda f: f.select(pl.col("strategy").n_unique())).item())
    text = seating_text(cfg.get("seating", "rotate"), d.players, distinct, d.t.games, d.t.manifest.get("deal_size"))
    d.sections.append(Section("seating", "Seating", text))
    if d.players < 3 or distinct < 2 or not d.complete_rows:
        return  # with two seats the one before you is your only opponent: the head-to-head table says it
    cells = predecessor_cells(complete, d.players)
    t = table_of(cells, d.confidence)
    d.tables["before_you"] = t
    permuted = cfg.get("seating", "rotate") == "permute"  # else the player before is tied to the seat
    labels = list(cfg.get("labels") or [])  # a label listed twice holds two seats in every game
    several = sorted({x for x in labels if labels.count(x) > 1})
    tests = d.results["neighbour"] = neighbour_tests(cells, several, d.players, d.confidence) if permuted else None
    d.sections.append(Section(
        "before_you", "Who sits before you",
        f"Win rate of each strategy by the strategy on its right, the seat acting just before it (turn order "
        f"wraps round), over complete games, {d.lev} Wilson intervals. Under seating: rotate every strategy always "
        "has the same neighbour, so this table then shows one row per strategy and cannot separate the neighbour "
        "from the strategy.",
        rows(t, lambda r: {"strategy": r["strategy"], "player before": r["before"], "games": r["games"],
                           f"win rate ({d.lev} CI)": ci(r["win_rate"], r["ci_low"], r["ci_high"], percent=True)}),
        ["before_you"]))
    if tests is not None:
        d.tables["before_you_tests"] = tests_table(tests)
        d.sections.append(Section("before_you_tests", "Seat or neighbour?", neighbour_text(tests), rows(
            d.tables["before_you_tests"], lambda r: {"question": r["question"], "test": r["test"],
                                                     "statistic": f"{r['statistic']:.1f}", "df": r["df"],
                                                     "p": p_text(r["p"]), "p (Holm)": p_text(r["p_holm"])})))
    plot = t.with_columns(row=pl.concat_str([pl.col("strategy"), pl.lit(" after "), pl.col("before")]))
    d.charts["before_you"] = (f"Win rate by the strategy just before, {d.lev} Wilson intervals", partial(
        charts.interval_chart, plot, "row", "win_rate", "Who sits before you", "win rate", level=d.lev))
