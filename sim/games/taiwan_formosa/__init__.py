"""Taiwan Formosa (rulebook seeds/004, RULINGS §3). Public surface for strategies:
``actions`` and ``observation``; the engine is ``GAME``."""

from .engine import GAME, TaiwanFormosa

__all__ = ["GAME", "TaiwanFormosa"]
