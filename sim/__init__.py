"""Balance simulator for tabletop games."""

import os

# numpy's OpenBLAS starts a thread per core that spins at start-up (about 0.05 CPU-s a process,
# 4% of a short `sim bench`); nothing here multiplies large matrices. A value you set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from sim import compiled  # noqa: E402

__version__ = "0.1.0"
compiled.install()  # the hot modules' compiled copies, where built and current (sim/compiled.py)
