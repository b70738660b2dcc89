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
"""

from __future__ import annotations

from pathlib import Path

from .document import Report, render_figures

MODES = ("auto", "always", "never")
AUTO_MIN_GAMES = 100  # complete games from which `auto` draws the figures


def wanted(mode: str, complete: int) -> bool:
    """Whether figures are drawn for a run with ``complete`` complete games under ``mode``
    (one of ``MODES``; ``ValueError`` otherwise)."""
    if mode not in MODES:
        raise ValueError(f"figures mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode == "always" or (mode == "auto" and complete >= AUTO_MIN_GAMES)


def note(mode: str, complete: int, run_dir: Path | str) -> str:
    """The one line a report without figures gives: why, and the commands that draw them."""
    why = (f"not drawn: figures start at {AUTO_MIN_GAMES} complete games and this run has {complete}" if mode == "auto"
           else "not drawn (--figures never)")
    return (f"{why}; draw them now with `sim report {run_dir} --figures always`"
            f" (or run with `--figures always`)")


def draw(rep: Report, mode: str, complete: int, run_dir: Path | str) -> bool:
    """Draw ``rep``'s charts when ``mode`` wants them for ``complete`` complete games; otherwise add
    the note (a "figures" line of the Run facts and ``rep.figures_note``). Returns whether drawn."""
    if wanted(mode, complete):
        render_figures(rep)
        return True
    if rep.charts:
        rep.figures_note = note(mode, complete, run_dir)
        rep.facts.append(("figures", rep.figures_note))
    return False
