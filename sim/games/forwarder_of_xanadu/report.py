"""Win rate by company with Wilson intervals, from a run folder (Forwarder of Xanadu).

``python -m sim.games.forwarder_of_xanadu.report RUN_DIR`` prints the table (Markdown). The
shared report does not group by game-specific metrics yet; this fills the gap for the first
question a designer asks of this game: which company is too strong.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

from sim.analysis.stats import win_table

from .rules import load_data


def company_table(run_dir: str | Path) -> pl.DataFrame:
    """One row per company: games, wins, win_rate, ci_low, ci_high (95% Wilson), mean_score.

    Reads ``players.parquet`` (its ``company`` metric column). Company names come from the
    reference data (a run with a replaced companies file lists indices in that file's order).
    """
    players = pl.read_parquet(Path(run_dir) / "players.parquet")
    names = [c.name for c in load_data().companies.companies]
    players = players.with_columns(
        company=pl.col("company").cast(pl.Int64).map_elements(lambda i: f"{i} {names[i]}", return_dtype=pl.Utf8))
    return win_table(players, "company")


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit("usage: python -m sim.games.forwarder_of_xanadu.report RUN_DIR")
    t = company_table(args[0])
    print("| company | games | win rate (95% CI) | mean VP |")
    print("|---|---:|---|---:|")
    for r in t.iter_rows(named=True):
        print(f"| {r['company']} | {r['games']} | {r['win_rate']:.1%} ({r['ci_low']:.1%}-{r['ci_high']:.1%}) | {r['mean_score']:.1f} |")


if __name__ == "__main__":  # pragma: no cover
    main()
