"""Figure helpers (``figure_policy.start_helpers``, ``--jobs 2``; issue 20 item 1): the charts drawn
in forked helper processes give the same PNG bytes and error texts as the serial path, in the same
order; a chart that cannot be pickled, or whose helper died, is drawn in the calling process.

Helpers must be forked before polars' thread pool starts, which the test process cannot promise,
so each check runs in a fresh interpreter (``python -c``)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.integration

PRELUDE = textwrap.dedent("""
    import os, pickle, signal
    from functools import partial
    import numpy as np
    import polars as pl
    from sim.analysis import charts, figure_policy as fp
    from sim.analysis.document import Report, render_figures

    WIN = pl.DataFrame({"seat": [0, 1, 2], "win_rate": [0.2, 0.5, 0.3], "ci_low": [0.1, 0.4, 0.2],
                        "ci_high": [0.3, 0.6, 0.4]})
    SCORES = pl.DataFrame({"strategy": ["a", "b"] * 50, "score": list(range(100))})

    def fails():
        raise ValueError("drawn in pid " + str(os.getpid()))

    def charts_():
        return {"win": ("Win rate", partial(charts.win_rate_chart, WIN, "seat", 1 / 3, "Win rate by seat")),
                "fails": ("Fails", fails),
                "hist": ("Histogram", partial(charts.histogram_chart, np.array([1, 2, 2, 3, 5]), "margin", "M")),
                "local": ("Unpicklable", lambda: charts.score_distribution_chart(SCORES)),
                "dist": ("Scores", partial(charts.score_distribution_chart, SCORES))}

    def report():
        return Report("t", [], [], {}, charts=charts_())
""")


def _run(body: str) -> str:
    code = PRELUDE + textwrap.dedent(body)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_helpers_draw_the_same_bytes_and_errors_in_the_same_order():
    out = _run("""
        assert not fp.polars_pool_started()
        assert fp.start_helpers(2) == 2
        fp.warm("always", 1)
        par = report()
        assert fp.draw(par, "always", 1, "run")
        ser = report()
        render_figures(ser)
        assert list(par.figures) == list(ser.figures) == ["win", "hist", "local", "dist"]
        for name in ser.figures:
            assert par.figures[name] == ser.figures[name], name
        assert list(par.chart_errors) == ["fails"]
        print(par.chart_errors["fails"], "|", ser.chart_errors["fails"], "|", os.getpid())
    """)
    helper_msg, serial_msg, pid = (s.strip() for s in out.strip().split("|"))
    # the same text, from another process: the error was raised in a helper
    assert helper_msg.startswith("ValueError: drawn in pid ") and serial_msg == f"ValueError: drawn in pid {pid}"
    assert helper_msg != serial_msg


def test_a_dead_helper_leaves_its_charts_to_the_caller():
    out = _run("""
        fp.start_helpers(2)
        for pid, _ in list(fp._HELPERS):
            os.kill(pid, signal.SIGKILL)
        rep = report()
        fp.draw(rep, "always", 1, "run")
        ser = report()
        render_figures(ser)
        assert rep.figures == ser.figures and rep.chart_errors == ser.chart_errors
        print(len(fp._HELPERS), rep.chart_errors["fails"] == f"ValueError: drawn in pid {os.getpid()}")
    """)
    assert out.split() == ["0", "True"]


def test_no_helpers_once_the_polars_pool_runs():
    out = _run("""
        before = fp.polars_pool_started()
        WIN.group_by("seat").agg(pl.col("win_rate").sum())  # starts polars' thread pool
        print(before, fp.polars_pool_started(), fp.start_helpers(2))
    """)
    assert out.split() == ["False", "True", "0"]


def test_eager_charts_go_to_the_helpers_as_they_are_added():
    out = _run("""
        fp.start_helpers(2)
        fp.warm("always", 1)
        eager = fp.EagerCharts()
        for name, chart in charts_().items():
            eager[name] = chart
            if name == "win":  # sent before anything asks for the figures
                assert len(fp._BUSY) + len(fp._DONE) == 1
        eager.pop("hist")  # a chart the analysis drops: its answer is not used
        par = Report("t", [], [], {}, charts=eager)
        fp.draw(par, "always", 1, "run")
        ser = Report("t", [], [], {}, charts={k: v for k, v in eager.items()})
        render_figures(ser)
        assert list(par.figures) == list(ser.figures) == ["win", "local", "dist"]
        assert all(par.figures[k] == ser.figures[k] for k in ser.figures)
        assert not fp._DONE and not fp._BUSY and not fp._QUEUE
        print(par.chart_errors["fails"] != ser.chart_errors["fails"])
    """)
    assert out.split() == ["True"]  # the failing chart was drawn in a helper too


def test_eager_charts_without_helpers_are_a_plain_dict():
    out = _run("""
        eager = fp.EagerCharts()
        eager["win"] = charts_()["win"]
        rep = Report("t", [], [], {}, charts=eager)
        fp.draw(rep, "always", 1, "run")
        print(len(fp._DONE), len(fp._QUEUE), list(rep.figures))
    """)
    assert out.split() == ["0", "0", "['win']"]


def test_ctrl_c_while_helpers_are_reaped_at_exit_prints_nothing():
    """Breaker, session 12: a Ctrl-C landing while ``stop_helpers`` reaps the helpers at exit printed
    "Exception ignored in atexit callback ... KeyboardInterrupt" after a finished run. Here the
    SIGINT is sent from inside the first ``waitpid`` of that reaping: nothing is printed, the exit
    status is the script's (0), and no helper outlives it."""
    code = textwrap.dedent("""
        import os, signal
        from sim.analysis import figure_policy as fp
        assert fp.start_helpers(2) == 2
        print(" ".join(str(pid) for pid, _ in fp._HELPERS))
        wait = os.waitpid
        def waitpid(pid, flags):
            os.kill(os.getpid(), signal.SIGINT)
            return wait(pid, flags)
        os.waitpid = waitpid
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "KeyboardInterrupt" not in out.stderr and "Exception ignored" not in out.stderr, out.stderr
    for pid in map(int, out.stdout.split()):
        try:
            os.kill(pid, 0)
            alive = True
        except ProcessLookupError:
            alive = False
        assert not alive, f"helper {pid} outlived sim"
