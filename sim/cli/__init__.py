"""The ``sim`` command line: a thin Click layer over config, runs and analysis.

Exit status: 0 success, 1 a check failed (``sim check``; ``sim compare --fail-on-difference``: a
significant difference), a game failed under ``--fail-fast`` or no game of ``sim run`` / ``sim check``
completed (of a sweep point; of any trial of ``sim tune`` / ``sim discover``),
2 bad input (config, data, paths): the message names the file, line and key, and no traceback is
printed. Commands live in ``commands_play`` (run, check),
``commands_sweep`` (sweep), ``commands_report`` (report), ``commands_tools`` (validate, list,
replay, bench, init), ``commands_design`` (tune, discover), ``commands_compare``
(compare) and ``commands_skill`` (skill); shared options and helpers in ``options``. A command's
module is imported only when that command runs (``group.COMMANDS``: start-up, issue 20 item 8).
"""

from __future__ import annotations

import gc
import os
import sys

# polars' allocator (jemalloc) keeps freed pages for seconds; returning them at once keeps the
# report's peak memory down (a 1,000,000-game report: docs/speed.md, round six). It
# reads this variable once, when polars is first imported: so here, before any command module.
os.environ.setdefault("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")

from .group import cli  # noqa: E402  (after the allocator setting; command modules are imported when used)


def main() -> None:
    """The ``sim`` command. Output piped into a reader that stops early (``sim check CONFIG | head``,
    ``sim replay RUN | head``) is dropped from then on and the command goes on: it writes its files
    (JUnit, report, tables) and ends with its own exit status (1 for a failed check stays 1, seen
    with ``set -o pipefail``), not click's 1 for a closed pipe (session 10 fresh-user finding 1)."""
    from ..limits import Unbroken

    sys.stdout, sys.stderr = Unbroken(sys.stdout), Unbroken(sys.stderr)
    try:
        cli(prog_name="sim")
    finally:
        # Everything alive now dies with the process: frozen, it is left out of the interpreter's
        # garbage collections at exit, which took 0.1-0.3 s of every command (a 10-game run
        # 0.67-1.00 -> 0.51-0.73 s; docs/speed.md, round fourteen). Files are closed where written.
        gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
