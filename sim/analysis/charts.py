"""Charts: pure functions from Polars tables to matplotlib Figures (object API, Agg backend)."""

from __future__ import annotations

import sys

import numpy as np
import polars as pl


def Figure(*args, **kwargs):  # noqa: N802  (stands for matplotlib's class)
    """A ``matplotlib.figure.Figure`` (Agg backend), matplotlib imported on the first chart drawn:
    commands that draw nothing (``sim --help``, ``validate``, ``bench``) never load it (issue 20 item 8)."""
    if "matplotlib.figure" not in sys.modules:
        _import_matplotlib()
    from matplotlib.figure import Figure as _Figure

    if kwargs.get("layout") == "tight":
        from matplotlib.layout_engine import TightLayoutEngine

        kwargs["layout"] = TightLayoutEngine(rect=None)  # one pass (see ``LAYOUT``)
    return _Figure(*args, **kwargs)


def _import_matplotlib() -> None:
    """Import what the charts use (``matplotlib.figure``, the Agg canvas) without two things the
    import does for interactive users (0.1 of its 0.35 CPU-s: issue 20 item 1): the property
    tables written into the docstring of every artist class's ``set`` (``matplotlib.artist.kwdoc``,
    a regex over each setter's docstring; the docstrings are all it changes) and the 3-D toolkit
    the projections module registers (``mpl_toolkits.mplot3d``; no chart is 3-D). Both are put back
    after the import, so a later ``import mpl_toolkits.mplot3d`` or ``kwdoc`` works as usual. The
    PNG bytes are the same (tested against a plain import in another process)."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import artist

    kwdoc, blocked = artist.kwdoc, "mpl_toolkits.mplot3d" not in sys.modules
    artist.kwdoc = lambda _artist: ""
    if blocked:
        sys.modules["mpl_toolkits.mplot3d"] = None  # type: ignore[assignment]  # its import fails at once
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Unable to import Axes3D")
            import matplotlib.figure  # noqa: F401
            from matplotlib.backends import backend_agg  # noqa: F401
    finally:
        artist.kwdoc = kwdoc
        if blocked:
            del sys.modules["mpl_toolkits.mplot3d"]
    if blocked:
        _register_3d_on_demand()


def _register_3d_on_demand() -> None:
    """``projection="3d"`` still works in this process (a notebook drawing its own charts after a
    report): the 3-D toolkit is imported and registered the first time that projection is asked for."""
    from matplotlib.projections import projection_registry as registry

    lookup = registry.get_projection_class

    def get_projection_class(name, *args, **kwargs):
        if name == "3d" and "3d" not in registry.get_projection_names():
            from mpl_toolkits.mplot3d import Axes3D

            registry.register(Axes3D)
        return lookup(name, *args, **kwargs)

    registry.get_projection_class = get_projection_class


def png_bytes(fig, dpi: int = 110) -> bytes:
    """``fig`` as PNG bytes at ``dpi``: the bytes ``fig.savefig(buf, format="png", dpi=dpi,
    pil_kwargs=PNG_OPTIONS)`` writes
    (tested equal), without savefig's extra dry-run draw of a figure with a layout engine (the
    layout is computed once, then the figure drawn once: issue 20 item 8). ``fig`` is spent
    (its layout engine is switched off afterwards)."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig.set_dpi(dpi)
    canvas = FigureCanvasAgg(fig)
    engine = fig.get_layout_engine()
    if engine is not None:  # what savefig's dry-run draw does first; its artists are drawn once, below
        engine.execute(fig)
        fig.set_layout_engine("none")
    buf = io.BytesIO()
    canvas.print_png(buf, pil_kwargs=PNG_OPTIONS)
    return buf.getvalue()


# zlib level 1 instead of PIL's 6: a third less CPU in writing the PNGs (7 charts: 0.065 -> 0.043
# CPU-s) for files about 11% larger (the seven charts of a 20,000-game run: 185 -> 205 KB); the
# pixels are the same (issue 20 item 1)
PNG_OPTIONS = {"compress_level": 1}
# The charts' layout (issue 20 item 1): matplotlib's tight layout measures every label, title,
# legend and colorbar once and sets the margins so none is cut, where the constrained layout the
# charts had measured them twice (its two passes) and cost 0.1 CPU-s more over a report's seven
# charts. ``Figure`` gives it no ``rect``: with the default ``(0, 0, 1, 1)`` tight layout measures
# everything a second time to fit the same margins again (the same result for one axes).
LAYOUT = "tight"


def _err(value, low, high) -> list:
    """Error-bar lengths ``[below, above]`` for matplotlib, never negative (an interval that does
    not hold its estimate is drawn up to the estimate instead of failing the chart)."""
    value, low, high = (np.asarray(a, float) for a in (value, low, high))
    return [np.clip(value - low, 0, None), np.clip(high - value, 0, None)]


def win_rate_chart(table: pl.DataFrame, by: str, expected: float | None, title: str, level: str = "95%") -> Figure:
    """Bar chart of ``win_rate`` per ``by`` with Wilson intervals at ``level`` (from ``win_table``), in %.

    ``expected`` (a proportion) is drawn as a dashed line, e.g. 1/players for seats.
    """
    fig = Figure(figsize=(7, 4), layout=LAYOUT)
    ax = fig.add_subplot()
    labels = [str(v) for v in table[by].to_list()]
    rate = table["win_rate"].to_numpy() * 100
    low = table["ci_low"].to_numpy() * 100
    high = table["ci_high"].to_numpy() * 100
    x = range(len(labels))
    ax.bar(x, rate, color="#4C72B0", alpha=0.85, label="win rate")
    ax.errorbar(x, rate, yerr=_err(rate, low, high), fmt="none", ecolor="black", capsize=6, label=f"{level} Wilson interval")
    for xi, r, h in zip(x, rate, high, strict=True):  # above the interval: clear of bars and lines
        ax.annotate(f"{r:.1f}%", (xi, h), textcoords="offset points", xytext=(0, 4), ha="center", fontsize=8,
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})
    if expected is not None:
        ax.axhline(expected * 100, color="#C44E52", linestyle="--", label=f"expected {expected * 100:.1f}%")
    ax.set_xticks(list(x), labels, rotation=20 if by == "strategy" else 0)
    ax.set_xlabel("seat (0 = start player)" if by == "seat" else by)
    ax.set_ylabel("win rate (%)")
    top = float(np.nanmax(high)) if len(high) and not np.isnan(high).all() else 80.0
    ax.set_ylim(0, min(100.0, top * 1.2 + 5))
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)  # outside the axes: never over the bars
    return fig


def score_distribution_chart(players: pl.DataFrame, by: str = "strategy", unit: str = "points") -> Figure:
    """Box plot of final scores per ``by`` value (mean marked), ``unit`` on the axis label."""
    fig = Figure(figsize=(7, 4), layout=LAYOUT)
    ax = fig.add_subplot()
    groups = players.group_by(by).agg(pl.col("score")).sort(by)
    labels = [str(v) for v in groups[by].to_list()]
    data = [list(v) for v in groups["score"].to_list()]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20 if by == "strategy" else 0)
    ax.set_xlabel(by)
    ax.set_ylabel(f"final score ({unit})")
    ax.set_title(f"Score distribution by {by} (box: quartiles, triangle: mean)")
    return fig


def game_length_chart(games: pl.DataFrame, column: str = "n_decisions", unit: str = "decisions") -> Figure:
    """Histogram of game length (``column`` of the games table) over completed games."""
    fig = Figure(figsize=(7, 4), layout=LAYOUT)
    ax = fig.add_subplot()
    values = games.filter(~pl.col("failed"))[column].drop_nulls().to_numpy()
    ax.hist(values, bins=histogram_bins(values), color="#55A868", edgecolor="white")
    if len(values):
        ax.axvline(values.mean(), color="black", linestyle="--", label=f"mean {values.mean():.1f}")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games")
    ax.set_title(f"Game length in {unit}")
    return fig


def interval_chart(table: pl.DataFrame, label: str, value: str, title: str, xlabel: str, unit: str = "%",
                   expected: float | None = None, scale: float = 100.0, muted: list[bool] | None = None,
                   marks: list[float] | None = None, marks_label: str = "expected", expected_label: str = "expected",
                   level: str = "95%") -> Figure:
    """Horizontal dot-and-whisker chart: ``value`` per ``label`` row with ``ci_low``/``ci_high``.

    Proportions are drawn in % (``scale`` 100); ``expected`` as a dashed line; rows flagged in
    ``muted`` (e.g. below the minimum sample) in grey.
    """
    rows = table.height
    fig = Figure(figsize=(7.5, max(2.2, 0.32 * rows + 1.4)), layout=LAYOUT)
    ax = fig.add_subplot()
    names = [str(v) for v in table[label].to_list()][::-1]
    v = table[value].cast(pl.Float64).to_numpy()[::-1] * scale
    lo = table["ci_low"].cast(pl.Float64).fill_null(float("nan")).to_numpy()[::-1] * scale
    hi = table["ci_high"].cast(pl.Float64).fill_null(float("nan")).to_numpy()[::-1] * scale
    grey = (muted or [False] * rows)[::-1]
    y = np.arange(rows)
    for yi, vi, low, h, g in zip(y, v, lo, hi, grey, strict=True):
        colour = "#999999" if g else "#4C72B0"
        if not (np.isnan(low) or np.isnan(h)):
            ax.errorbar([vi], [yi], xerr=_err([vi], [low], [h]), fmt="o", color=colour, ecolor=colour, capsize=4)
        else:
            ax.plot([vi], [yi], "o", color=colour)
        ax.annotate(f"{vi:.1f}{unit if unit == '%' else ''}", (vi, yi), textcoords="offset points", xytext=(0, 6),
                    fontsize=7, ha="center")
    if marks is not None:
        ax.plot(np.asarray(marks[::-1], float) * scale, y, "|", color="#C44E52", markersize=11, markeredgewidth=2,
                label=marks_label)
    if expected is not None:
        ax.axvline(expected * scale, color="#C44E52", linestyle="--", label=f"{expected_label} {expected * scale:.1f}{unit}")
    if expected is not None or marks is not None:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)
    ax.set_yticks(y, names, fontsize=8 if rows > 12 else 9)
    ax.set_xlabel(f"{xlabel} ({unit}); whiskers: {level} interval")
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig


def head_to_head_chart(h2h: pl.DataFrame, level: str = "95%") -> Figure:
    """Heat map: cell (row A, column B) = % of meetings where A finishes above B, with its interval."""
    names = sorted(set(h2h["strategy_a"].to_list()) | set(h2h["strategy_b"].to_list()))
    k = len(names)
    grid = np.full((k, k), np.nan)
    text = [["" for _ in range(k)] for _ in range(k)]
    for r in h2h.iter_rows(named=True):
        i, j = names.index(r["strategy_a"]), names.index(r["strategy_b"])
        grid[i, j] = r["rate"] * 100
        text[i][j] = f"{r['rate'] * 100:.1f}%\n({r['ci_low'] * 100:.1f}–{r['ci_high'] * 100:.1f})"
    fig = Figure(figsize=(1.6 * k + 3, 1.2 * k + 1.8), layout=LAYOUT)
    ax = fig.add_subplot()
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            dark = not np.isnan(grid[i, j]) and abs(grid[i, j] - 50) > 30
            ax.text(j, i, text[i][j] or "–", ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(k), names, rotation=20, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_xlabel("opponent B")
    ax.set_ylabel("strategy A")
    # two lines over the whole figure: on one line over the axes it was cut off with two strategies (session 10)
    fig.suptitle(f"Head to head: % of meetings where A finishes above B\n({level} Wilson interval)")
    fig.colorbar(im, ax=ax, label="A above B (%)")
    return fig


def ratings_chart(ratings: pl.DataFrame) -> Figure:
    """openskill mu per strategy with whiskers of ±2 sigma, and the ordinal (mu - 3 sigma) marked."""
    t = ratings.sort("mu")
    fig = Figure(figsize=(7, max(2.2, 0.45 * t.height + 1.4)), layout=LAYOUT)
    ax = fig.add_subplot()
    y = np.arange(t.height)
    mu, sd = t["mu"].to_numpy(), t["sigma"].to_numpy()
    ax.errorbar(mu, y, xerr=2 * sd, fmt="o", capsize=4, color="#4C72B0", label="mu ± 2 sigma")
    ax.plot(t["ordinal"].to_numpy(), y, "|", markersize=14, color="#C44E52", label="ordinal (mu − 3 sigma)")
    ax.set_yticks(y, t["strategy"].to_list())
    ax.set_xlabel("openskill rating (Plackett-Luce; start 25 ± 8.33)")
    ax.set_title("Strategy ratings, games in game-index order")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    return fig


def score_chart(boxes: pl.DataFrame, by: str, means: pl.DataFrame, unit: str = "points", level: str = "95%",
                interval: str = "bootstrap") -> Figure:
    """Box plot of final scores per ``by`` (``boxes``: ``boxes.box_stats(players, by)``, one row per
    group; the figure ``Axes.boxplot(scores, showfliers=False)`` draws, from those numbers alone:
    issue 20 item 5) with the mean and its ``interval`` (``bootstrap`` or ``normal``: from ``score_table``)."""
    from .boxes import bxp_stats

    fig = Figure(figsize=(7, 4), layout=LAYOUT)
    ax = fig.add_subplot()
    labels = [str(v) for v in boxes[by].to_list()]
    ax.bxp(bxp_stats(boxes), showfliers=False)
    m = means.sort(by)
    x = np.arange(1, m.height + 1)
    mean = m["mean"].to_numpy()
    ax.errorbar(x, mean, yerr=_err(mean, m["ci_low"].fill_null(float("nan")).to_numpy(),
                                m["ci_high"].fill_null(float("nan")).to_numpy()),
                fmt="D", color="#C44E52", capsize=5, label=f"mean, {level} {interval} interval")
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=20 if by == "strategy" else 0)
    ax.set_xlabel("seat (0 = start player)" if by == "seat" else by)
    ax.set_ylabel(f"final score ({unit})")
    ax.set_title(f"Final score by {by} (box: quartiles, whiskers 1.5 IQR)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)
    return fig


def histogram_bins(values: np.ndarray) -> np.ndarray | int:
    """Bin edges: for whole numbers (scores, margins, rounds) edges at k − 0.5, so every bar is
    centred on whole values (width 1, or a whole step keeping at most 40 bars); else up to 40 bins."""
    values = np.asarray(values, float)
    if len(values) and np.all(values == np.round(values)):
        lo, hi = float(values.min()), float(values.max())
        step = max(1, int(np.ceil((hi - lo + 1) / 40)))
        return np.arange(lo - 0.5, hi + step + 0.5, step)
    return min(40, max(5, len(np.unique(values))))


def histogram_chart(values: np.ndarray, xlabel: str, title: str, mean_ci: tuple[float, float] | None = None,
                    colour: str = "#55A868", level: str = "95%", counts: np.ndarray | None = None) -> Figure:
    """Histogram of per-game values (integer-aligned bins for whole numbers) with the mean and its
    interval at ``level`` shaded. ``counts``: ``values`` are distinct values and each stands for
    that many games (the bars' weights: the same histogram as the games' values, never held)."""
    fig = Figure(figsize=(7, 3.6), layout=LAYOUT)
    ax = fig.add_subplot()
    values = np.asarray(values, float)
    if len(values):
        weights = None if counts is None else np.asarray(counts, float)
        mean = values.mean() if weights is None else float((values * weights).sum() / weights.sum())
        ax.hist(values, bins=histogram_bins(values), weights=weights, color=colour, edgecolor="white")
        ax.axvline(mean, color="black", linestyle="--", label=f"mean {mean:.2f}")
        if mean_ci and not any(np.isnan(mean_ci)):
            ax.axvspan(mean_ci[0], mean_ci[1], color="black", alpha=0.15,
                       label=f"{level} interval {mean_ci[0]:.2f}–{mean_ci[1]:.2f}")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    return fig


def sweep_chart(table: pl.DataFrame, x: str, title: str, ylabel: str, scale: float = 100.0,
                reference: float | None = None) -> Figure:
    """Figure against a swept parameter: one line per ``series`` with ``value`` and ``ci_low``/``ci_high``.

    ``x`` is the point label column (the parameter's value, or a combination of several).
    """
    fig = Figure(figsize=(7.5, 4), layout=LAYOUT)
    ax = fig.add_subplot()
    points = list(dict.fromkeys(table[x].to_list()))
    pos = {p: i for i, p in enumerate(points)}
    series = list(dict.fromkeys(table["series"].to_list()))
    width = 0.5 / max(1, len(series))
    for k, s in enumerate(series):
        t = table.filter(pl.col("series") == s)
        xs = np.array([pos[p] for p in t[x].to_list()]) + (k - (len(series) - 1) / 2) * width
        v = t["value"].to_numpy() * scale
        lo = t["ci_low"].fill_null(float("nan")).to_numpy() * scale
        hi = t["ci_high"].fill_null(float("nan")).to_numpy() * scale
        ax.errorbar(xs, v, yerr=_err(v, lo, hi), fmt="o-", capsize=4, label=str(s))
    if reference is not None:
        ax.axhline(reference * scale, color="#C44E52", linestyle="--", linewidth=1, label="no advantage")
    ax.set_xticks(range(len(points)), [str(p) for p in points], rotation=15 if len(points) > 6 else 0)
    ax.set_xlabel(x)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize=8)
    return fig
