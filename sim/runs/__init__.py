"""The ways to run: a fixed number of games (``fixed``, the base the others compose), until a
precision is reached (``until_ci``), a sweep (``sweep``), a nightly check (``check``), on a Dask
cluster (``cluster``, a backend of ``fixed``). Each composes config + play + store; only
``fixed`` is imported by the others."""
