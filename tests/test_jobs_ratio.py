"""``benchmarks/jobs_ratio.py``'s summary of ``--jobs 1``/``--jobs 2`` pairs (issue 20 item 1): the
median ratio, its distribution-free interval and the sign test, checked against the binomial by hand."""

from __future__ import annotations

import argparse
import importlib.util
import math
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location("jobs_ratio", Path(__file__).parents[1] / "benchmarks" / "jobs_ratio.py")
jobs_ratio = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(jobs_ratio)


def _binom_cdf(k: int, n: int) -> float:
    """P(Binomial(n, 1/2) <= k), by hand."""
    return sum(math.comb(n, i) for i in range(k + 1)) / 2**n


def test_interval_is_the_order_statistics_the_binomial_gives():
    ratios = [1.805 + 0.01 * i for i in range(20)]  # rank r (1-based) holds 1.795 + 0.01 r
    s = jobs_ratio.summarise(list(reversed(ratios)), 1.85)
    # n = 20: P(B <= 5) = 0.0207 <= 0.025 < P(B <= 6) = 0.0577, so the 95% interval runs from the 6th
    # to the 15th smallest (coverage 1 - 2 x 0.0207 = 95.9%)
    assert _binom_cdf(5, 20) <= 0.025 < _binom_cdf(6, 20)
    assert s["low"] == pytest.approx(ratios[5]) and s["high"] == pytest.approx(ratios[14])
    assert s["median"] == pytest.approx((ratios[9] + ratios[10]) / 2)
    # 1.805 .. 1.845 lie below 1.85: five pairs; "median above 1.85" has p = P(B <= 5) = 21,700 / 2^20
    assert s["below"] == 5
    assert s["p_above"] == pytest.approx(21_700 / 2**20) == pytest.approx(_binom_cdf(5, 20))


def test_too_few_pairs_leave_the_interval_open():
    # 5 pairs: even the extremes cover only 1 - 2 / 32 = 93.75% < 95%, so no interval
    s = jobs_ratio.summarise([1.9, 1.7, 2.0, 1.86, 1.95], 1.85)
    assert s["median"] == 1.9 and s["below"] == 1
    assert math.isnan(s["low"]) and math.isnan(s["high"])
    assert s["p_above"] == pytest.approx(_binom_cdf(1, 5))  # 6 / 32


def test_a_pair_is_steady_when_both_machine_samples_lie_near_the_fastest():
    # fastest sample 0.090 CPU-s; 10% allows up to 0.099: pair 2 has an after-sample of 0.120, pair 3 a before of 0.100
    spins = [(0.090, 0.095), (0.092, 0.120), (0.100, 0.091), (0.099, 0.099)]
    assert jobs_ratio.steady(spins, 0.10) == [True, False, False, True]
    assert jobs_ratio.steady(spins, 0.40) == [True, True, True, True]



def test_a_pair_is_clean_when_both_runs_used_near_the_lowest_cpu_of_their_job_count():
    # lowest: 12.8 CPU-s with one job, 12.3 with two; 10% allows 14.08 and 13.53
    cpus = [(12.8, 13.5), (14.1, 12.3), (13.0, 16.4), (14.0, 13.53)]
    assert jobs_ratio.clean(cpus, 0.10) == [True, False, False, True]
    assert jobs_ratio.clean(cpus, 0.0) == [False, False, False, False]
    assert jobs_ratio.clean([(12.8, 12.3)], 0.0) == [True]


def test_clean_pairs_can_be_judged_against_an_earlier_sets_lowest_cpu():
    # this set's lowest (13.0, 14.0) is itself slowed; against 12.3 and 12.2 (10%: 13.53, 13.42) no pair is clean
    cpus = [(13.0, 14.0), (13.5, 15.0)]
    assert jobs_ratio.clean(cpus, 0.10) == [True, True]
    assert jobs_ratio.clean(cpus, 0.10, (12.3, 12.2)) == [False, False]
    assert jobs_ratio._two_floats("12.3,12.2") == (12.3, 12.2)
    for bad in ("12.3", "a,b", "0,12", "1,2,3", "nan,12", "12,inf"):
        with pytest.raises(argparse.ArgumentTypeError):
            jobs_ratio._two_floats(bad)


def test_saved_outputs_are_read_back_pair_by_pair(tmp_path):
    new = tmp_path / "new.txt"
    new.write_text("load 0.44, 15:34:29, x.yaml, run folders /tmp/a1 and /tmp/a2\n"
                   "15:34:52 pair  1: --jobs 1  17.18 s (17.17 CPU-s)  --jobs 2   8.57 s (15.79 CPU-s)  ratio 2.004"
                   "  machine 0.173/0.205 CPU-s\n"
                   "every pair: median ratio 2.004x over 1\n")
    old = tmp_path / "old.txt"  # session 13's lines: no time, no machine samples
    old.write_text("pair 12: --jobs 1  13.78 s (13.80 CPU-s)  --jobs 2   7.27 s (13.60 CPU-s)\r\n")
    pairs, spins, cpus = jobs_ratio.read_pairs([str(new), str(old)])
    # the printed ratio (from unrounded walls: 17.18 / 8.57 would be 2.0047) where there is one, else wall / wall
    assert pairs == [(17.18, 8.57, 2.004), (13.78, 7.27, 13.78 / 7.27)]
    assert cpus == [(17.17, 15.79), (13.80, 13.60)]
    assert spins[0] == (0.173, 0.205) and all(math.isnan(x) for x in spins[1])
    summary_only = tmp_path / "summary.txt"
    summary_only.write_text("load 0.10, 15:00:00\nevery pair: median ratio 1.864x over 20\n")
    with pytest.raises(ValueError, match="no pair line"):
        jobs_ratio.read_pairs([str(summary_only)])


@pytest.mark.parametrize("line", [
    "pair  1: --jobs 1  17.18 s (17.17 CPU-s)  --jobs 2   0.00 s (15.79 CPU-s)  ratio inf",
    "pair  1: --jobs 1  1.2.3 s (17.17 CPU-s)  --jobs 2   8.57 s (15.79 CPU-s)  ratio 2.004",
    "pair  1: --jobs 1  -15.17 s (17.17 CPU-s)  --jobs 2   8.57 s (15.79 CPU-s)",
    "pair  1: --jobs 1  nan s (17.17 CPU-s)  --jobs 2   8.57 s (15.79 CPU-s)",
    "pair  1: --jobs 1  17.18 s (17.17 CPU-s)  --jobs 2   8.57 s (15.79 CPU-s)  ratio 2.004  machine 0.000/0.1 CPU-s",
    "pair  1: --jobs 1  17.18 s (17.17 CPU-s)  --jobs 2   8.57 s (15.79 CPU-s)  ratio 2.004  machine 0.1/ CPU-s",
])
def test_a_bad_pair_line_is_named_by_file_and_line(tmp_path, line):
    f = tmp_path / "bad.txt"
    f.write_text("load 0.44\n" + line + "\n")
    with pytest.raises(ValueError, match=r"bad.txt, line 2: not a pair line of this script with figures above 0"):
        jobs_ratio.read_pairs([str(f)])


def test_a_binary_file_is_refused_by_name(tmp_path):
    f = tmp_path / "x.bin"
    f.write_bytes(b"\xff\xfe\x00pair")
    with pytest.raises(ValueError, match="x.bin: not a text file"):
        jobs_ratio.read_pairs([str(f)])


@pytest.mark.parametrize(("args", "said"), [
    (["/no/such/config.yaml", "--pairs", "1"], "config /no/such/config.yaml: no such file"),
    (["--summarise", "{set}", "{set}"], "a file is named twice"),
    (["--summarise", "{set}", "--pairs", "3"], "--summarise plays nothing"),
    (["--summarise", "{set}", "--steady", "2"], "--steady must be a tolerance from 0 to 1"),
    (["--summarise", "{set}", "--lowest", "inf,1"], "above 0 and finite"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, args, said):
    import subprocess
    import sys

    one = tmp_path / "set.txt"
    one.write_text("pair  1: --jobs 1  17.18 s (17.17 CPU-s)  --jobs 2   8.57 s (15.79 CPU-s)  ratio 2.004\n")
    script = Path(__file__).parents[1] / "benchmarks" / "jobs_ratio.py"
    res = subprocess.run([sys.executable, str(script), *(a.format(set=one) for a in args)],
                         capture_output=True, text=True)
    assert res.returncode == 2 and said in res.stderr and "Traceback" not in res.stderr, res.stderr
