"""Xanadu (rulebook seeds/002, English rendering rules/xanadu-english.md, RULINGS §4). Public
surface for strategies: ``actions`` and ``observation``; the engine is ``GAME``."""

from .engine import GAME, Xanadu

__all__ = ["GAME", "Xanadu"]
