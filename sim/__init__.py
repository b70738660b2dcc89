"""Balance simulator for tabletop games."""

from sim import compiled

__version__ = "0.1.0"
compiled.install()  # the hot modules' compiled copies, where built and current (sim/compiled.py)
