"""The benchmark suite (``make bench``; not part of ``make test``): pytest-benchmark timings of every
engine with random players and of every shipped ``configs/<game>/baseline.yaml``.

Marker ``baseline``: the scripted-plan configs (slower); CI runs ``-m "not baseline"``.
No benchmark asserts a time: a regression shows as a ratio against the stored baseline
(``benchmarks/results/*/0001_baseline.json``, ``--benchmark-compare=0001``).
"""

from __future__ import annotations


def pytest_configure(config):
    config.addinivalue_line("markers", "baseline: a shipped baseline config with scripted plans (slower)")


def pytest_report_header(config):
    """Say whether the figures are of the compiled copies or of pure Python (they differ 1.3-1.7x)."""
    from sim import compiled

    return f"boardsim: {compiled.status()}"


def pytest_benchmark_update_machine_info(config, machine_info):
    """Store the same in each saved result, so a ratio against the baseline says what it compares."""
    from sim import compiled

    machine_info["boardsim_compiled"] = compiled.status()
