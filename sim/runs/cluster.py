"""Running chunks on a Dask cluster through joblib's Dask backend (``--backend dask``).

Workers must have this project installed (``pip install -e .`` on each machine) so they can
import ``sim`` and the strategies; only the resolved config crosses the network.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from joblib import Parallel, parallel_config

from ..api import SimError


def dask_results(calls: Iterable[Any], scheduler: str | None, local_workers: int = 2) -> Iterator[Any]:
    """Run joblib ``delayed`` calls on the Dask scheduler at ``scheduler`` (``tcp://host:8786``),
    or on a local cluster of ``local_workers`` processes when it is None; yield results as they finish.

    Raises ``SimError`` when Dask is not installed or the scheduler cannot be reached.
    """
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise SimError("--backend dask needs dask[distributed]: pip install 'dask[distributed]'") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="10s")
        else:
            cluster = LocalCluster(n_workers=local_workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
    except (OSError, ValueError, TimeoutError) as exc:
        raise SimError(f"cannot reach the Dask scheduler at {scheduler!r} (expected tcp://host:port): {exc}") from None
    try:
        with parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(calls)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
