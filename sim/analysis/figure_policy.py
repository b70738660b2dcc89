"""When a report draws its figures (issue 20 item 8: a 10-game run in under 1 s).

Figures of a handful of games show no distribution, and drawing them (matplotlib imported, 7-10
charts) costs more than the rest of a small run. ``--figures`` on `sim run`, `sim check`,
`sim sweep` (its point reports) and `sim report` chooses:

- ``auto`` (the commands' default): drawn when the run has at least ``AUTO_MIN_GAMES`` complete
  games (neither failed nor truncated); below that the report says in one line why they are
  missing and how to draw them;
- ``always``: drawn whatever the size;
- ``never``: not drawn (the report says so and how to draw them).

matplotlib is imported only when a figure is drawn (``document.render_figures``).

Figure helpers (``--jobs 2`` and more, issue 20 item 1; ``figure_helpers``): ``warm`` has them
import matplotlib, as soon as the play frees a core (``warm_ahead``, when ``sim run``/``sim check``
said their ``--figures`` mode with ``expect``), else when the report starts, while ``sim``
analyses; ``draw`` then collects the charts they drew (``figure_helpers.drawn``).
"""

from __future__ import annotations

from pathlib import Path

from . import figure_helpers
from .document import Report, render_figures

MODES = ("auto", "always", "never")
AUTO_MIN_GAMES = 100  # complete games from which `auto` draws the figures


def wanted(mode: str, complete: int) -> bool:
    """Whether figures are drawn for a run with ``complete`` complete games under ``mode``
    (one of ``MODES``; ``ValueError`` otherwise)."""
    if mode not in MODES:
        raise ValueError(f"figures mode must be one of {', '.join(MODES)}, got {mode!r}")
    # no complete game: every chart would be empty axes (breaker finding 6, session 5)
    return complete > 0 and (mode == "always" or (mode == "auto" and complete >= AUTO_MIN_GAMES))


def note(mode: str, complete: int, run_dir: Path | str) -> str:
    """The one line a report without figures gives: why, and the commands that draw them."""
    if complete == 0 and mode != "never":
        return "not drawn: no game is complete (each failed, stalled or hit the decision cap), so there is nothing to draw"
    why = (f"not drawn: figures start at {AUTO_MIN_GAMES} complete games and this run has {complete}" if mode == "auto"
           else "not drawn (--figures never)")
    return (f"{why}; draw them now with `sim report {run_dir} --figures always`"
            f" (or run with `--figures always`)")


def draw(rep: Report, mode: str, complete: int, run_dir: Path | str) -> bool:
    """Draw ``rep``'s charts when ``mode`` wants them for ``complete`` complete games; otherwise add
    the note (a "figures" line of the Run facts and ``rep.figures_note``). Returns whether drawn."""
    if wanted(mode, complete):
        render_figures(rep, figure_helpers.drawn(rep.charts) if figure_helpers.warmed() else None)
        return True
    if rep.charts:
        rep.figures_note = note(mode, complete, run_dir)
        rep.facts.append(("figures", rep.figures_note))
    for name in rep.charts:  # an older report's charts: the folder holds no figure its report does not show
        (Path(run_dir) / "figures" / f"{name}.png").unlink(missing_ok=True)
    return False


_EXPECTED: list[str | None] = [None]  # the --figures mode of the coming run's report (``expect``)


def warm(mode: str, complete: int) -> None:
    """Have the helpers import matplotlib now (once), when ``mode`` will draw for ``complete`` games."""
    if wanted(mode, complete):
        figure_helpers.warm()


def eager(mode: str, complete: int):
    """The context in which an analysis hands its charts to the helpers as it adds them: when
    ``mode`` draws the figures of ``complete`` complete games (``figure_helpers.eager``)."""
    return figure_helpers.eager(wanted(mode, complete))


def expect(mode: str | None) -> None:
    """Say which ``--figures`` mode the report of the coming run will use (``sim run``, ``sim check``),
    so ``warm_ahead`` can warm the helpers before the play ends; ``None``: not known (no early warm)."""
    _EXPECTED[0] = mode


def warm_ahead(games: int) -> None:
    """``warm`` for a run of ``games`` games under the expected mode, at the play's tail, when a core
    is free (``runs.forked.pool_results``' ``drained``): matplotlib is imported on the freed core
    while the last chunks and the merge run, not during the analysis (issue 20 item 1). Nothing
    happens without an expected mode; a run that ends with fewer complete games costs the import only."""
    if _EXPECTED[0] is not None:
        warm(_EXPECTED[0], games)
