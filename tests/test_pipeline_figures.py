"""The report's figures are drawn without savefig's dry-run draw (issue 20 item 8): the PNG bytes
must be exactly what matplotlib's own ``savefig`` writes for the same figure (the reference)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.analysis import charts


def _savefig(fig, dpi: int) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, pil_kwargs=charts.PNG_OPTIONS)
    return buf.getvalue()


WIN = pl.DataFrame({"seat": [0, 1, 2], "win_rate": [0.2, 0.5, 0.3], "ci_low": [0.1, 0.4, 0.2],
                    "ci_high": [0.3, 0.6, 0.4]})
H2H = pl.DataFrame({"strategy_a": ["a", "b"], "strategy_b": ["b", "a"], "rate": [0.7, 0.3],
                    "ci_low": [0.6, 0.2], "ci_high": [0.8, 0.4]})


@pytest.mark.parametrize("make", [
    lambda: charts.win_rate_chart(WIN, "seat", 1 / 3, "Win rate by seat"),  # tight layout, legend outside
    lambda: charts.head_to_head_chart(H2H),  # tight layout with a colorbar
    lambda: charts.histogram_chart(np.array([1, 2, 2, 3, 5]), "margin", "Winning margin", (1.5, 3.0)),
])
@pytest.mark.parametrize("dpi", [110, 72])
def test_png_bytes_equal_savefig(make, dpi):
    assert charts.png_bytes(make(), dpi) == _savefig(make(), dpi)


def test_png_bytes_of_a_figure_without_layout_engine():
    fig = charts.Figure(figsize=(2, 1))
    fig.add_subplot().plot([0, 1], [1, 0])
    same = charts.Figure(figsize=(2, 1))
    same.add_subplot().plot([0, 1], [1, 0])
    png = charts.png_bytes(fig, 50)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png == _savefig(same, 50)


def test_png_pixels_do_not_depend_on_the_compression():
    from PIL import Image

    fig = charts.win_rate_chart(WIN, "seat", 1 / 3, "Win rate by seat")
    default = io.BytesIO()
    fig.savefig(default, format="png", dpi=72)  # PIL's default zlib level
    a = np.asarray(Image.open(io.BytesIO(charts.png_bytes(charts.win_rate_chart(WIN, "seat", 1 / 3, "Win rate by seat"), 72))))
    b = np.asarray(Image.open(default))
    assert a.shape == b.shape and np.array_equal(a, b)


def _pngs_in_a_new_process(plain: bool) -> list[str]:
    """sha256 of three charts drawn in a fresh interpreter, matplotlib imported by ``charts``
    (trimmed) or by a plain ``import matplotlib.figure`` first."""
    import subprocess
    import sys

    code = (
        "import hashlib, sys\n"
        + ("import matplotlib; matplotlib.use('Agg'); import matplotlib.figure\n" if plain else "")
        + f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "import test_pipeline_figures as t\n"
        "from sim.analysis import charts\n"
        "makes = [lambda: charts.win_rate_chart(t.WIN, 'seat', 1 / 3, 'Win rate by seat'),\n"
        "         lambda: charts.head_to_head_chart(t.H2H),\n"
        "         lambda: charts.histogram_chart(t.np.array([1, 2, 2, 3, 5]), 'margin', 'Winning margin', (1.5, 3.0))]\n"
        "print(' '.join(hashlib.sha256(charts.png_bytes(m(), 110)).hexdigest() for m in makes))\n"
        "print('mpl_toolkits.mplot3d' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_trimmed_matplotlib_import_draws_the_same_bytes():
    # charts._import_matplotlib leaves out the docstring tables and the 3-D toolkit: same PNGs
    *trimmed, toolkit = _pngs_in_a_new_process(plain=False)
    *plain, _ = _pngs_in_a_new_process(plain=True)
    assert trimmed == plain and len(plain) == 3
    assert toolkit == "False"


def test_trimmed_import_puts_back_what_it_changed():
    import sys

    from matplotlib import artist

    charts.Figure()
    assert "mpl_toolkits.mplot3d" not in sys.modules or sys.modules["mpl_toolkits.mplot3d"] is not None
    assert "Properties" in artist.kwdoc(artist.Artist)
    ax = charts.Figure().add_subplot(projection="3d")  # the 3-D toolkit, on demand
    assert ax.name == "3d"


H2H3 = pl.DataFrame({"strategy_a": ["a", "b", "a", "c", "b", "c"], "strategy_b": ["b", "a", "c", "a", "c", "b"],
                     "rate": [0.7, 0.3, 0.6, 0.4, 0.5, 0.5], "ci_low": [0.6, 0.2, 0.5, 0.3, 0.4, 0.4],
                     "ci_high": [0.8, 0.4, 0.7, 0.5, 0.6, 0.6]})
LONG = pl.DataFrame({"name": ["a component with a rather long name", "short"], "rate": [0.25, 0.5],
                     "ci_low": [0.2, 0.4], "ci_high": [0.3, 0.6]})


@pytest.mark.parametrize("make", [
    lambda: charts.win_rate_chart(WIN, "seat", 1 / 3, "Win rate by seat"),
    lambda: charts.head_to_head_chart(H2H3),
    lambda: charts.head_to_head_chart(H2H),  # two strategies: its title was cut off until session 10
    lambda: charts.head_to_head_chart(H2H.with_columns(pl.col("strategy_a", "strategy_b").str.replace(r"^", "alpenzian.express_"))),
    lambda: charts.interval_chart(LONG, "name", "rate", "Win rate by component", "win rate", expected=0.3),
])
def test_tight_layout_keeps_every_label_and_legend_inside_the_figure(make):
    fig = make()
    charts.png_bytes(fig, 110)  # lays the figure out, as in a report
    renderer = fig.canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    boxes = [t.get_window_extent(renderer) for t in fig.findobj(lambda a: hasattr(a, "get_text"))
             if t.get_visible() and t.get_text()]
    boxes += [ax.get_legend().get_window_extent(renderer) for ax in fig.axes if ax.get_legend()]
    assert boxes
    for b in boxes:
        assert b.x0 >= 0 and b.y0 >= 0 and b.x1 <= width and b.y1 <= height, b
