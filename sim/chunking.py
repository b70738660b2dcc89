"""How a run's games are cut into chunks (issue 20 item 1): pure functions on ``[start, stop)``
ranges of game indices, used by ``sim.store`` and the run layer (``sim.runs``)."""

from __future__ import annotations


def chunk_ranges(start: int, stop: int, jobs: int, chunk_size: int | None) -> list[tuple[int, int]]:
    """Split ``range(start, stop)`` into contiguous ``(first, stop)`` chunks, in order: of ``chunk_size``
    when given; with one job about 8 (20-2500 games each: a chunk costs five Parquet files, hashes,
    fsyncs and a part of the merge); with more, guided: ``ceil(left / (2 x jobs))`` games capped at
    ``big``, a quarter of a job's share (20-2500), and once under ``small = max(20, big // 16)`` the
    rest in even chunks of ``small`` to ``2 x small`` (20,000 games on 2 jobs: 17 chunks, the last
    three of 187), so the workers end close together (issue 20 item 1)."""
    if chunk_size or jobs == 1:
        size = chunk_size or max(20, min(2500, -(-(stop - start) // 8)))
        return [(a, min(a + size, stop)) for a in range(start, stop, size)]
    big = max(20, min(2500, -(-(stop - start) // (4 * jobs))))
    small, out, a = max(20, big // 16), [], start
    while stop - a >= 2 * small and -(-(stop - a) // (2 * jobs)) >= small:
        out.append((a, a + min(big, -(-(stop - a) // (2 * jobs)))))
        a = out[-1][1]
    k = max(1, (stop - a) // small)  # the rest: k chunks, sizes differing by at most one game
    cuts = [a + (stop - a) * i // k for i in range(k + 1)]
    return out + [(x, y) for x, y in zip(cuts, cuts[1:], strict=False) if y > x]


def missing_ranges(games: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The gaps of ``range(games)`` not covered by ``done``."""
    gaps, at = [], 0
    for a, b in sorted(done):
        if a > at:
            gaps.append((at, a))
        at = max(at, b)
    if at < games:
        gaps.append((at, games))
    return gaps


def todo_ranges(games: int, done: list[tuple[int, int]], jobs: int, chunk_size: int | None) -> list[tuple[int, int]]:
    """Chunks ``[start, stop)`` still to play for the first ``games`` games, given the ``done`` ranges."""
    return [r for a, b in missing_ranges(games, done) for r in chunk_ranges(a, b, jobs, chunk_size)]
