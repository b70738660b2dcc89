"""``sim compare RUN_A RUN_B``: did a change help? Paired tests when both runs played the same games."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import click

from ..analysis import compare_report
from ..analysis.compare import compare_runs
from ..analysis.tables import load_tables
from ..api import SimError
from ..data import write_file_atomic
from ..registry import resolved_lineup
from .group import cli
from .options import check_writable, confidence_option


@cli.command()
@click.argument("run_a", type=click.Path(file_okay=False))
@click.argument("run_b", type=click.Path(file_okay=False))
@click.option("--json", "json_file", type=click.Path(dir_okay=False),
              help='Also write the rows as JSON: {"paired": bool, "rows": [{"group", "label", "a", "b", "diff", ...}]}.')
@click.option("--out", type=click.Path(file_okay=False),
              help="Folder for compare.md / compare.html (default: reports/compare/<A>-vs-<B>).")
@click.option("--fail-on-difference", is_flag=True,
              help="Exit 1 when any row differs significantly with Holm over all rows together (one decision, so "
                   "false alarms stay below 1 − confidence), else 0: "
                   "nightly CI against a reference run folder fails when balance drifts.")
@confidence_option
def compare(run_a, run_b, json_file, out, confidence, fail_on_difference) -> None:
    """Compare run folder RUN_B with RUN_A (same game and player count): win rate and mean score
    per seat and per strategy, B − A with an interval, p-values Holm-adjusted within each metric (the
    win-rate rows one family, the mean-score rows another).

    Paired (exact McNemar, paired bootstrap) when both runs played the same games: same root seed,
    seating, game indices and deals, e.g. one config with an option changed. Otherwise unpaired (Newcombe
    interval, Fisher exact test). Exit status 0; with --fail-on-difference 1 when any row is significant
    after Holm over all rows together (one yes/no; the report adjusts each metric on its own), 0 when
    none is; 2 for runs of different games or player counts.

    \b
    Example:
      sim run configs/traders_of_osaka/baseline.yaml --games 480 --out runs/before
      sim run my_change.yaml --games 480 --out runs/after      # same seed
      sim compare runs/before runs/after --json diff.json
      sim compare reference/nightly reports/nightly --fail-on-difference   # nightly CI: fail on drift
    """
    if json_file:
        check_writable(Path(json_file), "--json")
    a, b = load_tables(Path(run_a)), load_tables(Path(run_b))
    level = confidence if confidence is not None else float(a.config.get("confidence", 0.95))
    result = compare_runs(a, b, level, resolved_lineup)  # defaults filled in (session 9)
    name_a, name_b = Path(run_a).name or str(run_a), Path(run_b).name or str(run_b)
    out_dir = Path(out) if out else Path("reports") / "compare" / f"{name_a}-vs-{name_b}"
    try:
        _, html_path = compare_report.write(out_dir, result, str(run_a), str(run_b))
    except OSError as exc:
        raise SimError(f"--out {out_dir}: cannot write the comparison ({exc.strerror or exc})") from None
    for line in compare_report.headline(result, str(run_a), str(run_b)):
        click.echo(line)
    tab = compare_report.table(result)
    if tab.height:
        click.echo("")
        keys = ["group", "label", "figure", "A", "B", tab.columns[5], "p", "p (Holm)", "significant"]
        widths = [max(len(k), *(len(str(v)) for v in tab[k])) for k in keys]
        click.echo("  ".join(k.ljust(w) for k, w in zip(keys, widths, strict=True)))
        for row in tab.select(keys).iter_rows():
            click.echo("  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)))
    if json_file:
        write_file_atomic(json_file, json.dumps(result.to_json(), indent=2, default=str) + "\n")  # breaker finding 8
        click.echo(f"json: {json_file}")
    click.echo(f"report: {html_path} (and compare.md)")
    if fail_on_difference:  # one yes/no over every row: Holm over all of them keeps false alarms below 1 − confidence
        alpha, n = 1 - level, len(result.rows)
        sig = [r for r in result.rows if not math.isnan(r["p_all_rows"]) and r["p_all_rows"] < alpha]
        more = sum(r["significant"] for r in result.rows) - len(sig)
        aside = (f"; {more} more significant within its metric, as the report says, but not over all rows"
                 if more > 0 else "")
        if sig:
            names = ", ".join(f"{r['group']} {r['label']} {r['metric']}" for r in sig)
            click.echo(f"--fail-on-difference: {len(sig)} of {n} rows differ significantly with Holm over all {n} rows "
                       f"({names}){aside}; exit status 1")
            sys.exit(1)
        click.echo(f"--fail-on-difference: none of {n} rows differs significantly with Holm over all {n} rows{aside};"
                   " exit status 0")
