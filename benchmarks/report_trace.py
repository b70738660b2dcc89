"""A timeline of the end of a ``sim`` command in its own process: the merge, each stage of the
report's analysis, each chart handed to a figure helper and each answer, the wait for the last
chart and the writing of report.md/html (seconds from this script's start, on stderr). The
arguments are ``sim``'s own. docs/speed.md, round fifteen.

    python benchmarks/report_trace.py run configs/traders_of_osaka/speed_random4.yaml --jobs 2 --out /tmp/t2 --force --quiet

Each line: seconds since this script started, then ``> name`` (a stage starts), ``< name`` (it
ends), "chart handed out: MAKER" (the first time the analysis hands a chart to the helpers; charts
are named by the function that draws them, so two charts of one kind share a name) or "helper
answered (B busy, Q queued)" (a chart came back; the counts are those left after it). Wraps module
functions before ``sim`` runs; the play workers and figure helpers are forks and are
not traced (their work shows as the answers). The wrappers cost microseconds a call.
"""

from __future__ import annotations

import functools
import sys
import time

T0 = time.perf_counter()


def log(msg: str) -> None:
    sys.stderr.write(f"{time.perf_counter() - T0:7.3f} {msg}\n")


def wrap(module, name: str, label: str | None = None) -> None:
    """Replace ``module.name`` by a function that logs its start and end."""
    f, label = getattr(module, name), label or name

    @functools.wraps(f)
    def traced(*a, **k):
        log(f"> {label}")
        try:
            return f(*a, **k)
        finally:
            log(f"< {label}")

    setattr(module, name, traced)


def main() -> None:
    if sys.argv[1:2] in (["-h"], ["--help"], []):
        print(__doc__)
        return
    import sim.cli as cli
    from sim import store
    from sim.analysis import figure_helpers, figure_policy, report, sections

    for name in ("stopping", "win_rates", "ludii", "head_to_head", "scores", "length", "components"):
        wrap(sections, name)
    for name in ("seating", "_findings", "load_tables", "write_report"):
        wrap(report, name)
    wrap(store, "merge_chunks", "merge")
    wrap(figure_policy, "draw", "figures (wait for the helpers, or draw here)")
    submit, receive, seen = figure_helpers._submit, figure_helpers._receive, set()

    def submitted(make):
        if id(make) not in seen:  # figures' own call hands out again what the analysis already did (a no-op)
            seen.add(id(make))
            log(f"chart handed out: {getattr(getattr(make, 'func', make), '__name__', type(make).__name__)}")
        return submit(make)

    def received(conn):
        drawn = len(figure_helpers._DONE)
        receive(conn)
        if len(figure_helpers._DONE) > drawn:  # not a helper's first message (its pid) or its end
            log(f"helper answered ({len(figure_helpers._BUSY)} busy, {len(figure_helpers._QUEUE)} queued)")

    figure_helpers._submit, figure_helpers._receive = submitted, received
    sys.argv = ["sim", *sys.argv[1:]]
    try:
        cli.main()
    finally:
        log("end")


if __name__ == "__main__":
    main()
