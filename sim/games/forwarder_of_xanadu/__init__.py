"""Forwarder of Xanadu (rulebook seeds/000, RULINGS §6). Public surface for strategies:
``actions`` and ``observation``; the engine is ``GAME``."""

from .engine import GAME, ForwarderOfXanadu

__all__ = ["GAME", "ForwarderOfXanadu"]
