"""Alpenzian (rulebook seeds/001, RULINGS §5). Public surface for strategies: ``actions`` and
``observation``; the engine is ``GAME``."""

from .engine import GAME, Alpenzian

__all__ = ["GAME", "Alpenzian"]
