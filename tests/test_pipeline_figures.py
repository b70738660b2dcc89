"""The report's figures are drawn without savefig's dry-run draw (issue 20 item 8): the PNG bytes
must be exactly what matplotlib's own ``savefig`` writes for the same figure (the reference)."""

from __future__ import annotations

import io

import numpy as np
import polars as pl
import pytest

from sim.analysis import charts


def _savefig(fig, dpi: int) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


WIN = pl.DataFrame({"seat": [0, 1, 2], "win_rate": [0.2, 0.5, 0.3], "ci_low": [0.1, 0.4, 0.2],
                    "ci_high": [0.3, 0.6, 0.4]})
H2H = pl.DataFrame({"strategy_a": ["a", "b"], "strategy_b": ["b", "a"], "rate": [0.7, 0.3],
                    "ci_low": [0.6, 0.2], "ci_high": [0.8, 0.4]})


@pytest.mark.parametrize("make", [
    lambda: charts.win_rate_chart(WIN, "seat", 1 / 3, "Win rate by seat"),  # constrained layout, legend outside
    lambda: charts.head_to_head_chart(H2H),  # constrained layout with a colorbar
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
