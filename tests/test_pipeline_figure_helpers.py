"""Figure helpers (``figure_helpers.start_helpers``, ``--jobs 2``; issue 20 item 1): the charts drawn
in forked helper processes give the same PNG bytes and error texts as the serial path, in the same
order; a chart that cannot be pickled, or whose helper died, is drawn in the calling process; the
helpers after the first are forked from it once it imported matplotlib; the pump thread hands a
queued chart to the first helper that frees, and never lives across a fork.

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
    from sim.analysis import charts, figure_helpers as fh, figure_policy as fp
    from sim.analysis.document import Report, render_figures

    WIN = pl.DataFrame({"seat": [0, 1, 2], "win_rate": [0.2, 0.5, 0.3], "ci_low": [0.1, 0.4, 0.2],
                        "ci_high": [0.3, 0.6, 0.4]})
    SCORES = pl.DataFrame({"strategy": ["a", "b"] * 50, "score": list(range(100))})

    def fails():
        raise ValueError("drawn in pid " + str(os.getpid()))

    def slow():  # defined before the helpers are forked, like every chart function sim pickles
        import time
        time.sleep(0.4)
        return charts.Figure()

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
        assert not fh.polars_pool_started()
        assert fh.start_helpers(2) == 2
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
        fh.start_helpers(2)
        fp.warm("always", 1)
        os.kill(fh._HELPERS[0].pid, signal.SIGKILL)  # the first: the other dies with it (or is never forked)
        rep = report()
        fp.draw(rep, "always", 1, "run")
        ser = report()
        render_figures(ser)
        assert rep.figures == ser.figures and rep.chart_errors == ser.chart_errors
        print(len(fh._HELPERS), rep.chart_errors["fails"] == f"ValueError: drawn in pid {os.getpid()}")
    """)
    assert out.split() == ["0", "True"]


def test_no_helpers_once_the_polars_pool_runs():
    out = _run("""
        before = fh.polars_pool_started()
        WIN.group_by("seat").agg(pl.col("win_rate").sum())  # starts polars' thread pool
        print(before, fh.polars_pool_started(), fh.start_helpers(2))
    """)
    assert out.split() == ["False", "True", "0"]


def test_eager_charts_go_to_the_helpers_as_they_are_added():
    out = _run("""
        fh.start_helpers(2)
        fp.warm("always", 1)
        fh._EAGER[0] = True  # as inside fh.eager(True): a report that draws its figures
        eager = fh.EagerCharts()
        for name, chart in charts_().items():
            eager[name] = chart
            if name == "win":  # sent before anything asks for the figures (by the pump thread)
                with fh._CV:
                    assert fh._CV.wait_for(lambda: len(fh._BUSY) + len(fh._DONE) == 1, timeout=30)
        eager.pop("hist")  # a chart the analysis drops: its answer is not used
        par = Report("t", [], [], {}, charts=eager)
        fp.draw(par, "always", 1, "run")
        ser = Report("t", [], [], {}, charts={k: v for k, v in eager.items()})
        render_figures(ser)
        assert list(par.figures) == list(ser.figures) == ["win", "local", "dist"]
        assert all(par.figures[k] == ser.figures[k] for k in ser.figures)
        assert not fh._DONE and not fh._BUSY and not fh._QUEUE
        print(par.chart_errors["fails"] != ser.chart_errors["fails"])
    """)
    assert out.split() == ["True"]  # the failing chart was drawn in a helper too


def test_eager_charts_without_helpers_are_a_plain_dict():
    out = _run("""
        eager = fh.EagerCharts()
        eager["win"] = charts_()["win"]
        rep = Report("t", [], [], {}, charts=eager)
        fp.draw(rep, "always", 1, "run")
        print(len(fh._DONE), len(fh._QUEUE), list(rep.figures))
    """)
    assert out.split() == ["0", "0", "['win']"]


def test_ctrl_c_while_helpers_are_reaped_at_exit_prints_nothing():
    """Breaker, session 12: a Ctrl-C landing while ``stop_helpers`` reaps the helpers at exit printed
    "Exception ignored in atexit callback ... KeyboardInterrupt" after a finished run. Here the
    SIGINT is sent from inside the first ``waitpid`` of that reaping: nothing is printed, the exit
    status is the script's (0), and no helper outlives it."""
    code = textwrap.dedent("""
        import os, signal
        from sim.analysis import figure_helpers as fh
        assert fh.start_helpers(2) == 2
        print(" ".join(str(h.pid) for h in fh._HELPERS if h.pid))
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


def test_the_other_helpers_are_forked_from_the_first_after_its_matplotlib_import():
    """One matplotlib import for every helper: the second helper's parent is the first, and it
    already holds matplotlib when it draws its first chart (it never imported it itself)."""
    out = _run("""
        assert fh.start_helpers(2) == 2
        assert fh._HELPERS[1].pid is None  # not forked before the warm
        fp.warm("always", 1)
        par = Report("t", [], [], {}, charts={"a": ("A", partial(slow)), "b": ("B", partial(slow))})
        fp.draw(par, "always", 1, "run")
        first, second = (h.pid for h in fh._HELPERS)
        def ppid(pid):
            with open(f"/proc/{pid}/stat") as fh_:
                return int(fh_.read().rsplit(")", 1)[1].split()[1])
        print(ppid(first) == os.getpid(), ppid(second) == first, sorted(par.figures))
    """)
    assert out.split() == ["True", "True", "['a',", "'b']"]


def test_the_pump_hands_a_queued_chart_to_the_helper_that_frees():
    """Three slow charts, two helpers: the third waits in the queue; the pump thread sends it when a
    helper answers, with no further call from the analysis (before session 13 it waited for the
    next chart added). All three are answered before ``draw`` is asked."""
    out = _run("""
        fh.start_helpers(2)
        fp.warm("always", 1)
        makers = [partial(slow) for _ in range(3)]
        fh._EAGER[0] = True  # as inside fh.eager(True)
        eager = fh.EagerCharts()
        for i, m in enumerate(makers):
            eager[str(i)] = (str(i), m)
        with fh._CV:
            done = fh._CV.wait_for(lambda: len(fh._DONE) == 3, timeout=30)
        print(done, fh._PUMP[0] is not None)
        par = Report("t", [], [], {}, charts=eager)
        fp.draw(par, "always", 1, "run")
        print(sorted(par.figures), fh._PUMP[0] is None)
    """)
    assert out.split() == ["True", "True", "['0',", "'1',", "'2']", "True"]


def test_no_pump_thread_lives_across_a_fork():
    """``fork_child`` (the play workers) ends the pump thread first: a fork copies only the forking
    thread, and a lock the pump held would stay held in the child."""
    out = _run("""
        import threading
        fh.start_helpers(2)
        fp.warm("always", 1)
        fh._EAGER[0] = True  # as inside fh.eager(True)
        eager = fh.EagerCharts()
        eager["slow"] = ("S", partial(slow))  # keeps a helper busy while the others queue
        eager["slow2"] = ("S", partial(slow))
        eager["fails"] = ("F", fails)
        alive = [t.name for t in threading.enumerate() if t is not threading.main_thread()]
        pid, conn = fh.fork_child(lambda c: c.send([t.name for t in threading.enumerate()]))
        print(alive, conn.recv(), [t.name for t in threading.enumerate() if t is not threading.main_thread()])
        os.waitpid(pid, 0)
        rep = Report("t", [], [], {}, charts=eager)  # the pump starts again: the queued chart goes to a helper
        fp.draw(rep, "always", 1, "run")
        print(sorted(rep.figures), rep.chart_errors["fails"] != f"ValueError: drawn in pid {os.getpid()}")
    """)
    assert out.split() == ["['figure-pump']", "['MainThread']", "[]", "['slow',", "'slow2']", "True"]


def test_charts_go_to_the_helpers_only_inside_eager():
    """Outside ``eager(True)`` (an analysis whose figures are not drawn: ``sim check
    --until-decided``'s batches) an ``EagerCharts`` only collects: nothing is queued or sent."""
    out = _run("""
        fh.start_helpers(2)
        fp.warm("always", 1)
        eager = fh.EagerCharts()
        eager["win"] = charts_()["win"]
        with fh.eager(False):
            eager["hist"] = charts_()["hist"]
        print(len(fh._QUEUE) + len(fh._BUSY) + len(fh._DONE), fh._PUMP[0] is None)
        with fh.eager(True):
            eager["dist"] = charts_()["dist"]
        with fh._CV:  # the pump moves it from the queue to a helper under this lock
            print(len(fh._QUEUE) + len(fh._BUSY) + len(fh._DONE))
    """)
    assert out.split() == ["0", "True", "1"]


def test_an_unpicklable_chart_does_not_hold_up_a_lone_helper():
    """Breaker, session 13: with one helper, a chart that cannot be pickled used up that helper's
    turn without making it busy, and the pump slept with a chart queued: ``draw`` waited for ever.
    Now the helper takes the next chart and the unpicklable one is drawn here."""
    out = _run("""
        fh.start_helpers(1)
        fp.warm("always", 1)
        made = {"p": ("P", partial(slow)), "u": ("U", lambda: charts.Figure()), "s": ("S", partial(slow))}
        rep = Report("t", [], [], {}, charts=made)
        fp.draw(rep, "always", 1, "run")
        print(sorted(rep.figures), rep.chart_errors)
    """)
    assert out.split() == ["['p',", "'s',", "'u']", "{}"]


def test_helpers_forked_by_the_first_are_signalled_through_a_pidfd_and_reaped():
    """Breaker, session 13: the other helpers are children of the first, so their pids are freed
    without ``sim`` knowing; ``sim`` signals them only through a pidfd opened when they say their
    pid (and only if the first helper is their parent then), and the first helper has the kernel
    reap them (no zombie)."""
    out = _run("""
        import time
        fh.start_helpers(2)
        fp.warm("always", 1)
        rep = Report("t", [], [], {}, charts={"a": ("A", partial(slow)), "b": ("B", partial(slow))})
        fp.draw(rep, "always", 1, "run")
        first, second = fh._HELPERS
        print(second.pidfd is not None, fh._pidfd(second.pid, first.pid + 100000) is None)
        pid = second.pid
        fh._drop(second)
        for _ in range(100):  # killed, then reaped by the kernel (SIGCHLD ignored in the first helper)
            if not os.path.exists(f"/proc/{pid}"):
                break
            time.sleep(0.05)
        print(os.path.exists(f"/proc/{pid}"), second.pidfd is None, [h.pid for h in fh._HELPERS] == [first.pid])
    """)
    assert out.split() == ["True", "True", "False", "True", "True"]
