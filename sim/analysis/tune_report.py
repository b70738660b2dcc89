"""The reports of ``sim tune`` (``tune.md``/``tune.html``) and ``sim discover``
(``discover.md``/``discover.html``), from the result dictionaries the runs return.

Charts: the figure against each parameter, one point per trial at its largest game budget, with
its 95% interval (matplotlib object API, no global state).
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

import polars as pl
from matplotlib.figure import Figure

from .document import STYLE, html_table, md_table
from .wording import pval

RELOAD = ("import optuna; from optuna.storages import JournalStorage; from optuna.storages.journal import "
          "JournalFileBackend; study = optuna.load_study(study_name='{name}', storage=JournalStorage("
          "JournalFileBackend('{path}')))")


def _num(v) -> str:
    if v is None or v != v:
        return "n/a"
    return f"{v + 0.0:.4g}" if isinstance(v, float) else str(v)  # + 0.0: a -0.0 loss prints as 0


RATES = ("first_player_advantage", "strategy_gap", "seat_spread")  # win-rate figures: shown in points


def shown(kind: str, v) -> str:
    """A tuned figure as every other command prints it: a win-rate figure (a fraction) in points
    with one decimal, signed when it is a difference; a metric with 4 significant digits."""
    if v is None or v != v:
        return "n/a"
    if kind not in RATES:
        return _num(v)
    return f"{v * 100 + 0.0:{'' if kind == 'seat_spread' else '+'}.1f}"


def _unit(kind: str) -> str:
    return " points" if kind in RATES else ""


def param_chart(trials: list[dict], key: str, ylabel: str, target: float | None) -> Figure:
    """The figure against parameter ``key``: one point per trial (its largest budget) with its 95%
    interval; a dashed line at ``target``. ``trials``: ``halving.Record.as_dict()`` rows."""
    fig = Figure(figsize=(6.4, 3.6))
    ax = fig.add_subplot()
    xs = [t["params"][key] for t in trials]
    numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs)
    cats = [] if numeric else sorted({str(x) for x in xs})
    for t in trials:
        x = t["params"][key] if numeric else cats.index(str(t["params"][key]))
        y, (lo, hi) = t["figure"], t["ci"]
        if y is None or y != y:
            continue
        err = [[y - lo], [hi - y]] if lo is not None and hi is not None and lo == lo else None
        ax.errorbar([x], [y], yerr=err, fmt="o", ms=4, capsize=3, alpha=0.35 + 0.65 * (t["games"] == trials[0]["games"]),
                    color="tab:blue")
    if target is not None:
        ax.axhline(target, ls="--", color="tab:red", lw=1, label="target")
        ax.legend(loc="best", fontsize=8)
    if cats:
        ax.set_xticks(range(len(cats)), cats)
    ax.set_xlabel(key)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{ylabel} against {key} (95% intervals; darker: largest budget)", fontsize=9)
    fig.tight_layout()
    return fig


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


def trials_table(trials: list[dict], value_name: str, scale: float = 1.0, kind: str = "") -> pl.DataFrame:
    """One row per trial: its number, parameter values, games, figure with interval, loss
    (``kind``: a tuning target's kind, whose figures are shown as ``shown`` prints them;
    ``win_rate``: ``sim discover``'s win rates, in percent with one decimal and no loss column,
    which is only the rate negated: fresh-user finding 13, session 10, saw "0 (0–9.181)")."""
    rows = []
    for t in trials:
        lo, hi = t["ci"]
        row = {"trial": t["number"] + 1}
        row.update({k.split(".")[-1]: _num(v) for k, v in t["params"].items()})
        f = ((lambda v: "n/a" if v is None or v != v else f"{v * 100 + 0.0:.1f}") if kind == "win_rate" else
             (lambda v: shown(kind, v)) if kind else (lambda v: _num(_s(v, scale))))
        sep = " to " if kind and kind != "win_rate" else "–"
        row.update({"games": t["games"], value_name: f"{f(t['figure'])} ({f(lo)}{sep}{f(hi)})"})
        if kind != "win_rate":
            row["loss"] = f(t["loss"]) if kind in RATES else _num(t["loss"])
        if "complete" in t:  # flagged: mostly incomplete; none complete: not eligible (breaker finding 4, session 10)
            row["complete games"] = (f"{t['complete']} of {t['played']}" + (
                "" if "why" not in t else " (none: not eligible as best)" if not t["complete"] else " (flagged: mostly"
                " incomplete)"))
        rows.append(row)
    return pl.DataFrame(rows)


def numbering(trials: list[dict]) -> str:
    """Why the trial numbers have gaps: they are Optuna's, and a sample that repeated a value
    already tried took a number but was not played (its result reused; ``halving.optimise``)."""
    numbers = sorted(t["number"] + 1 for t in trials)
    missing = sorted(set(range(1, numbers[-1] + 1)) - set(numbers)) if numbers else []
    if not missing:
        return ""
    return (f"The table lists the {len(numbers)} distinct values tried. Trial numbers are Optuna's: the sampler"
            f" proposed a value already tried {len(missing)} time(s) (trial {', '.join(map(str, missing))}), and"
            f" those samples were not played again: the first trial's result was reused (the progress lines say"
            f" which), so these numbers are missing from the table.")


def _s(v, scale):
    return None if v is None else v * scale


def write_document(out: Path, name: str, title: str, paragraphs: list[str], tables: list[tuple[str, pl.DataFrame]],
                   charts: list[tuple[str, Figure]]) -> tuple[Path, Path]:
    """``out/NAME.md`` and ``out/NAME.html`` (self-contained) plus ``out/figures/NAME_*.png``."""
    (out / "figures").mkdir(exist_ok=True)
    md = [f"# {title}", ""] + [p + "\n" for p in paragraphs]
    body = [f"<h1>{html.escape(title)}</h1>"] + [f"<p>{html.escape(p)}</p>" for p in paragraphs]
    for head, tab in tables:
        md += [f"## {head}", "", md_table(tab), ""]
        body += [f"<h2>{html.escape(head)}</h2>", html_table(tab)]
    for i, (head, fig) in enumerate(charts):
        png = _png(fig)
        (out / "figures" / f"{name}_{i}.png").write_bytes(png)
        md += [f"## {head}", "", f"![{head}](figures/{name}_{i}.png)", ""]
        body += [f"<h2>{html.escape(head)}</h2>",
                 f'<figure><img alt="{html.escape(head)}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'
                 "</figure>"]
    md_path, html_path = out / f"{name}.md", out / f"{name}.html"
    md_path.write_text("\n".join(md) + "\n")
    html_path.write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                         f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>\n")
    return md_path, html_path


def incomplete_note(result: dict) -> str:
    """Sentences on the trials whose games mostly did not complete (flagged: their figure describes
    games that failed, stalled or hit a cap), those with none (not eligible as best), and a best value
    or confirmation run whose games mostly did not complete (breaker finding 4, session 10)."""
    trials, confirm = result.get("trials") or [], result.get("confirm") or {}
    flagged = [t for t in trials if "why" in t]
    out = ""
    if flagged:
        none = [t for t in flagged if not t["complete"]]
        e = flagged[0]
        out = (f" {len(flagged)} of the {len(trials)} values tried had fewer than half of their games complete"
               f" (flagged in the Trials table; e.g. {', '.join(f'{k.split(chr(46))[-1]}={_num(v)}' for k, v in e['params'].items())}:"
               f" {e['why']})" + (f"; {len(none)} had no complete game and {'is' if len(none) == 1 else 'are'} not"
                                  " eligible as best." if none else "."))
        if trials[0] is e:
            out += (f" Beware: the best value's own trial had {e['complete']} of {e['played']} games complete, so its"
                    " figure mostly describes games stopped before their end.")
    if confirm.get("complete") is not None and confirm["complete"] < 0.5 * confirm.get("games", 0):
        out += f" Beware: {confirm['complete']} of the {confirm['games']} confirmation games completed."
    return out


def tune_summary(result: dict) -> str:
    """One paragraph: the best value and its confirmation figure with interval, against the target;
    then whether the trials' intervals overlap the best one's (``_separation``)."""
    t = result["target"]
    kind, unit = t["kind"], _unit(t["kind"])
    best = ", ".join(f"{k} = {_num(v)}" for k, v in result["best"].items())
    lo, hi = result["ci"]
    goal = t["value"] if kind != "seat_spread" else None
    inside = "" if goal is None or lo is None else (
        f" The target {_num(goal * 100) + unit if unit else _num(goal)} is {'inside' if lo <= goal <= hi else 'outside'} this interval.")
    edges = result.get("edges") or []
    if edges and goal is not None and lo is not None and not lo <= goal <= hi:
        inside += (f" The best value of {', '.join(edges)} is at the edge of its range: the target may lie beyond it;"
                   f" widen the range and tune again.")
    return (f"Best: {best}. On {result['confirm']['games']} fresh games (root seed {result['confirm']['seed']}) "
            f"the figure ({t['describe']}) is {shown(kind, result['objective'])}{unit} (95% CI {shown(kind, lo)} to"
            f" {shown(kind, hi)}).{inside}{_separation(result)}{incomplete_note(result)}")


def _separation(result: dict) -> str:
    """Whether the other values' 95% intervals (each trial at its largest budget, on the trials'
    seeds) overlap the best trial's, and where the config's own value stands: an overlap means
    these runs do not show the best value better (no test between trials is run)."""
    trials, kind = result.get("trials") or [], result["target"]["kind"]
    if len(trials) < 2 or trials[0]["ci"][0] is None:
        return ""
    b, unit = trials[0], _unit(kind)

    def fig(t):
        return (f"{shown(kind, t['figure'])}{unit} (95% CI {shown(kind, t['ci'][0])} to {shown(kind, t['ci'][1])})"
                f" on {t['games']} games")

    def overlaps(t):
        return t["ci"][0] is not None and t["ci"][0] <= b["ci"][1] and b["ci"][0] <= t["ci"][1]

    over = [t for t in trials[1:] if overlaps(t)]
    text = (f" In the trials the best value gave {fig(b)}; "
            + (f"{len(over)} of the {len(trials) - 1} other values tried {'has an interval' if len(over) == 1 else 'have intervals'}"
               " overlapping it, so these runs"
               " do not show the best value better than those: it is the closest figure, not a significantly better"
               " one." if over else f"the intervals of all {len(trials) - 1} other values tried lie apart from it."))
    own = result.get("config_values")
    if not own:
        return text
    values = ", ".join(f"{k} = {_num(v)}" for k, v in own.items())
    if own == b["params"]:
        return text + f" The best value is the config's own ({values})."
    mine = next((t for t in trials if t["params"] == own), None)
    if mine is None:
        return text + f" The config's own value ({values}) was not among the trials."
    return text + (f" The config's own value ({values}) gave {fig(mine)}: "
                   + ("not shown worse." if overlaps(mine) else "worse, its interval lies apart from the best one's."))


def same_games(result: dict) -> str:
    """What the trials shared: the config's root seed and game indices, and the same deals (common
    random numbers) unless ``seating: permute`` dealt some trials in other deal sizes (the parameters
    change which strategies are alike; then only trials of one deal size played the same games)."""
    deals = result.get("deals") or []
    if len(deals) <= 1:
        return "Every trial played the config's root seed, game indices and deals (common random numbers)."
    return (f"Every trial played the config's root seed and game indices, but under seating: permute the trials"
            f" dealt {', '.join(map(str, deals[:-1]))} or {deals[-1]} games per deal (the parameters change which"
            " strategies are alike), so trials of another deal size played other games: common random numbers"
            " hold only among trials of the same deal size, and the others differ by their luck as well.")


def write_tune_report(out: Path, result: dict, game: str) -> tuple[Path, Path]:
    """``tune.md`` / ``tune.html`` of a ``runs.tune.run_tune`` result written into ``out``."""
    t = result["target"]
    keys = list(result["best"])
    method = (f"Sampler: {result['sampler']} (Optuna). {same_games(result)} "
              f"Games per trial: {' -> '.join(map(str, result['rungs']))}; after each "
              f"budget the best third (1/eta) of the trials went on to the next (successive halving). The best "
              f"trial was then replayed on fresh seeds. Intervals are 95% percentile bootstraps over games.")
    study = ("The Optuna study is saved in study.log (a JournalStorage file); reload it with: "
             + RELOAD.format(name="tune", path=out / "study.log"))
    ylabel = t["column"] if t["kind"] == "metric" else t["kind"].replace("_", " ")
    goal = t["value"] if t["kind"] != "seat_spread" else 0.0
    charts = [(f"{ylabel} against {k}", param_chart(result["trials"], k, ylabel, goal)) for k in keys]
    return write_document(out, "tune", f"Tuning report: {game}, {', '.join(keys)} towards {t['describe']}",
                          [tune_summary(result), method, study, *filter(None, [numbering(result["trials"])])],
                          [("Trials", trials_table(result["trials"], ylabel + _unit(t["kind"]).replace(" points", " (points)"),
                                                   kind=t["kind"]))],
                          charts)


def discover_summary(result: dict) -> str:
    """Plain sentences: whether a dominant plan was found, by how much, and what drives it."""
    b, d = result["win_rate"]["best"], result["win_rate"]["default"]
    fair = result["fair_share"]
    params = ", ".join(f"{k} = {_num(v)}" for k, v in result["best_params"].items())
    imp = sorted(result["importances"].items(), key=lambda kv: -kv[1])
    drivers = ", ".join(f"{k} ({v:.0%})" for k, v in imp[:3]) or "not computable"
    verdict = ("A dominant plan was found" if result["dominant"] else "No dominant plan was found")
    return (f"{verdict}: {result['strategy']} with {params} wins {b['value']:.1%} (95% CI {b['ci'][0]:.1%}–"
            f"{b['ci'][1]:.1%}) of {b['games']} fresh games, against a fair share of {fair:.1%} (one-sided binomial "
            f"{pval(result['p_vs_fair'])} that it wins more; dominant means the whole interval above the fair share, at least "
            f"{result['margin']:.0%} above it, p < 0.05). With its default parameters it wins {d['value']:.1%} "
            f"({d['ci'][0]:.1%}–{d['ci'][1]:.1%}) of {_confirm_test(result)}. Parameters that drive the win rate (Optuna importances): {drivers}."
            + incomplete_note({"trials": result.get("trials") or []}))


def _confirm_test(result: dict) -> str:
    """The confirmation's test: paired (McNemar) on the same games, else Fisher's on other deals."""
    t = result["paired"]
    if t.get("test") == "fisher":
        return (f"games from the same seed but other deals (seating permute: the two parameter sets deal a"
                f" different number of games per deal), so unpaired: Fisher's exact test {pval(result['p'])}")
    return (f"the same games; exact paired McNemar test {pval(result['p'])} ({t['only_a']} games won only by the"
            f" best parameters, {t['only_b']} only by the defaults)")


def write_discover_report(out: Path, result: dict, game: str) -> tuple[Path, Path]:
    """``discover.md`` / ``discover.html`` of a ``runs.discover.run_discover`` result written into ``out``."""
    keys = list(result["trials"][0]["params"]) if result["trials"] else []
    method = (f"Sampler: {result['sampler']} (Optuna), maximising {result['strategy']}'s win rate against the "
              f"config's other seats. {same_games(result)} Games per trial {' -> '.join(map(str, result['rungs']))},"
              " the best third going on "
              f"(successive halving). Best and default parameters were then replayed on the same "
              f"{result['confirm']['games']} fresh games (root seed {result['confirm']['seed']}). Win rates over "
              "complete games with 95% Wilson intervals.")
    study = ("The Optuna study is saved in study.log; reload it with: "
             + RELOAD.format(name="discover", path=out / "study.log"))
    imp = pl.DataFrame({"parameter": list(result["importances"]),
                        "importance": [f"{v:.0%}" for v in result["importances"].values()]})
    charts = [(f"win rate against {k.split('.')[-1]}", param_chart(result["trials"], k, "win rate", result["fair_share"]))
              for k in keys]
    tables = [("Parameter importances", imp), ("Trials", trials_table(result["trials"], "win rate (%)", kind="win_rate"))]
    return write_document(out, "discover", f"Discovery report: {game}, {result['strategy']}",
                          [discover_summary(result), method, study, *filter(None, [numbering(result["trials"])])],
                          tables, charts)
