"""The ``sim`` command line: a thin Click layer over config, runs and analysis.

Exit status: 0 success, 1 a check failed (``sim check``; ``sim compare --fail-on-difference``: a
significant difference), a game failed under ``--fail-fast`` or no game of ``sim run`` completed,
2 bad input (config, data, paths): the message names the file, line and key, and no traceback is
printed. Commands live in ``commands_play`` (run, check),
``commands_sweep`` (sweep), ``commands_report`` (report), ``commands_tools`` (validate, list,
replay, bench, init), ``commands_design`` (tune, discover), ``commands_compare``
(compare) and ``commands_skill`` (skill); shared options and helpers in ``options``. A command's
module is imported only when that command runs (``group.COMMANDS``: start-up, issue 20 item 8).
"""

from __future__ import annotations

import os
import sys

# polars' allocator (jemalloc) keeps freed pages for seconds; returning them at once keeps the
# report's peak memory down (a 1,000,000-game report: docs/speed.md, round six). It
# reads this variable once, when polars is first imported: so here, before any command module.
os.environ.setdefault("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")

from .group import cli  # noqa: E402  (after the allocator setting; command modules are imported when used)


def main() -> None:
    """The ``sim`` command. Output piped into a reader that stops early (``sim replay RUN | head``)
    ends with status 0, as ``cat`` does (click ends it with 1, which here means a failed game or check)."""
    try:
        cli(prog_name="sim")
    except SystemExit as exc:
        from click.utils import PacifyFlushWrapper

        if exc.code == 1 and isinstance(sys.stdout, PacifyFlushWrapper):  # click's way of ending on EPIPE
            sys.exit(0)
        raise


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
