"""Replaying one game of a run from its seed as a readable log: a header per round and turn,
repeated identical lines collapsed (``sim replay``)."""

from __future__ import annotations

import copy
import os
import traceback
from multiprocessing.connection import Pipe
from typing import Any

from .api import CHANCE
from .limits import GameTimeout, TimeLimit
from .play import GameResult, play_game
from .registry import add_module_folder, make_strategy
from .setup import Setup, seat_labels, streams


class _Headers:
    """Header lines of a replay: ``=== round N ===`` and ``--- turn N: seat k (label) ---`` when the
    game's ``progress(state)`` (or else ``summary(state)``) counts rounds/turns (numbered from 1),
    else a header whenever
    another seat starts deciding; none when the game's ``narrate`` writes its own."""

    def __init__(self, game: Any, labels: list[str]):
        # progress(state) -> (round, turn) where the game has it, else its whole-game summary
        self.progress = getattr(game, "progress", None)
        self.summary, self.labels = getattr(game, "summary", None), labels
        self.last: tuple | None = None
        self.offset: tuple | None = None
        self.seat = -1
        self.off = False  # the game narrates its own headers

    def counts(self, state: Any) -> tuple | None:
        if self.progress is not None:
            return self.progress(state)
        if self.summary is None:
            return None
        try:
            d = self.summary(state)
        except Exception:  # a summary meant for finished games: fall back to seat changes
            self.summary = None
            return None
        if "rounds" not in d and "turns" not in d:
            self.summary = None
            return None
        return (d.get("rounds"), d.get("turns"))

    def __call__(self, state: Any, seat: int) -> list[str]:
        now, out = self.counts(state), []
        who = f"seat {seat} ({self.labels[seat]})"
        if now is None:
            if seat != self.seat:
                out.append(f"--- {who} ---")
        elif now != self.last:
            if self.offset is None:  # counters that start at 0 are shown from 1
                self.offset = tuple(1 if v == 0 else 0 for v in now)
            (r, t), (dr, dt) = now, self.offset
            if r is not None and (self.last is None or r != self.last[0]):
                out.append(f"=== round {int(r) + dr} ===")
            if t is not None and (self.last is None or t != self.last[1]):
                out.append(f"--- turn {int(t) + dt}: {who} ---")
            elif t is None and seat != self.seat:
                out.append(f"--- {who} ---")
            self.last = now
        elif seat != self.seat and now[1] is None:
            out.append(f"--- {who} ---")
        self.seat = seat
        return out


def collapse(lines: list[str]) -> list[str]:
    """Runs of identical consecutive lines as one line ending ``(x N)``."""
    out: list[str] = []
    count = 0
    for i, line in enumerate(lines):
        count += 1
        if i + 1 < len(lines) and lines[i + 1] == line:
            continue
        out.append(line if count == 1 else f"{line}  (x{count})")
        count = 0
    return out


def replay(setup: Setup, game: Any, game_index: int, sink: list | None = None) -> tuple[list[str], GameResult | None]:
    """Replay one game of a run from its seed: ``(log lines, result)``; ``result`` is None when
    the game failed (the error and traceback end the log). Lines include a header per round/turn
    (``_Headers``); ``collapse`` shortens repeated lines for printing."""
    add_module_folder(setup.module_folder)
    describe = getattr(game, "describe", None)
    chance, seat_rngs = streams(setup, game_index)
    order = seat_labels(setup, game_index)
    seated = [make_strategy(*setup.strategies[k], setup.game, game=game, plugins=setup.plugins) for k in order]
    lines = sink if sink is not None else []  # ``sink``: a list that also sends each line on (``replay_forked``)
    lines.extend(f"seat {seat}: {setup.labels[k]}" for seat, k in enumerate(order))
    narrate = getattr(game, "narrate", None)  # optional: what an action set off (payments, ...)
    state = game.new_initial_state()
    before = [copy.deepcopy(state)]

    heading = _Headers(game, [setup.labels[k] for k in order])

    def log(player: int, action: Any) -> None:
        if narrate is not None:
            told = narrate(before[0], state)
            heading.off = heading.off or any(t.startswith(("--- turn", "=== round")) for t in told)  # its own headers
            lines.extend(told)
            before[0] = copy.deepcopy(state)
        if player != CHANCE and not heading.off:
            lines.extend(heading(state, player))
        who = "chance" if player == CHANCE else f"seat {player}"
        lines.append(describe(state, action) if describe else f"{who}: {action!r}")

    result = None
    try:
        with TimeLimit(setup.game_timeout_s) as limit:  # as in the run: a game recorded as timed out stops again
            limit.arm()
            result = play_game(game, seated, chance, seat_rngs, max_decisions=setup.max_decisions,
                               on_decision=log, state=state, guard=True)
        if narrate is not None:
            lines.extend(narrate(before[0], state))
    except (Exception, SystemExit, GameTimeout) as exc:
        lines.append(f"ERROR: {type(exc).__name__}: {exc}")
        lines.append(traceback.format_exc())
    return lines, result


def ending(game: Any, result: GameResult) -> str:
    """The last line of a replay: scores, winners (none for a game cut short, as in the tables),
    decisions and how the game ended."""
    s = result.state
    scores = [int(x) if float(x).is_integer() else x for x in game.scores(s)]
    winners = sorted(game.winners(s)) if not result.truncated else []
    return f"scores: {scores}; winners: {winners}; decisions: {result.n_decisions}; ended: {result.end_reason}"


class _Sent(list):
    """A list of lines that also sends each one through ``conn`` as it is added."""

    def __init__(self, conn: Any):
        super().__init__()
        self.conn = conn

    def append(self, line: str) -> None:
        super().append(line)
        self.conn.send(line)

    def extend(self, lines: Any) -> None:
        for line in lines:
            self.append(line)


def replay_forked(setup: Setup, game: Any, game_index: int) -> tuple[list[str], str | None, str | None]:
    """``replay`` in a forked child, for a game whose strategy ended its worker process in the run
    (``WorkerDied``): the same ``os._exit`` then ends only the child, not ``sim replay`` (breaker
    finding 4, session 4). Returns ``(lines so far, ending line or None, how the child died or None)``."""
    parent, child = Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller
        status = 1
        try:
            parent.close()
            _, result = replay(setup, game, game_index, sink=_Sent(child))
            child.send(("end", ending(game, result) if result is not None else None))
            status = 0
        finally:
            os._exit(status)
    child.close()
    lines: list[str] = []
    end: str | None = None
    finished = False
    try:
        while True:
            msg = parent.recv()
            if isinstance(msg, tuple):
                end, finished = msg[1], True
            else:
                lines.append(msg)
    except EOFError:
        pass
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    died = None if finished else (f"signal {-code}" if code < 0 else f"exit code {code}")
    return lines, end, died
