"""Strategies that misbehave on purpose, used by the robustness tests through import strings
(``bad_strategies:Raiser``); they play Traders of Osaka."""

from __future__ import annotations

from strategies.common import RandomStrategy, ScriptedStrategy


class Raiser(ScriptedStrategy):
    """Plays randomly, but raises on its ``fail_at``-th decision in games whose seed stream says so."""

    class Params(ScriptedStrategy.Params):
        fail_at: int = 30
        every: int = 3  # fail in roughly one game of ``every`` (decided by the seat's rng)

    def __init__(self, **params):
        super().__init__(**params)
        self.count = 0
        self.doomed = False
        self.inner = RandomStrategy()

    def choose(self, obs, legal, rng):
        if obs.prompt == "token":  # first decision of a game: decide whether this game fails
            self.count = 0
            self.doomed = rng.randrange(self.p.every) == 0
        self.count += 1
        if self.doomed and self.count == self.p.fail_at:
            raise RuntimeError("strategy bug on purpose")
        return self.inner.choose(obs, legal, rng)


class Cheater(ScriptedStrategy):
    """Returns an action that is never legal."""

    def choose(self, obs, legal, rng):
        return "take everything"


class Quitter(ScriptedStrategy):
    """Calls ``sys.exit(3)`` on its first decision of every game."""

    def choose(self, obs, legal, rng):
        import sys

        sys.exit(3)


class Looper(ScriptedStrategy):
    """Never returns: an infinite loop on its first decision (``game_timeout_s`` must stop it)."""

    def choose(self, obs, legal, rng):
        while True:
            pass


class Exiter(ScriptedStrategy):
    """Kills its whole process with ``os._exit(7)`` on its first decision (a crashing worker)."""

    def choose(self, obs, legal, rng):
        import os

        os._exit(7)


class Interrupter(ScriptedStrategy):
    """Raises ``KeyboardInterrupt`` itself (no signal) on its first decision: it must fail its game,
    not stop the run as a real Ctrl-C does."""

    def choose(self, obs, legal, rng):
        raise KeyboardInterrupt("raised by the strategy, not by a signal")


class CustomBase(BaseException):
    """Not an Exception: a strategy may still raise it."""


class BaseRaiser(ScriptedStrategy):
    """Raises a custom ``BaseException`` on its first decision: it must fail its game only."""

    def choose(self, obs, legal, rng):
        raise CustomBase("not an Exception")


class InterruptedBuild(ScriptedStrategy):
    """Raises ``KeyboardInterrupt`` while being built for a game (no signal; the first build, when
    the config is checked, passes): it must fail its game only."""

    built = 0

    def __init__(self, **params):
        super().__init__(**params)
        type(self).built += 1
        if type(self).built > 1:
            raise KeyboardInterrupt("raised while building, not by a signal")


class _ReadsObs:
    def choose(self, obs, legal, rng):
        assert obs is not None and obs.prompt, "a mixin's choose reads its observation"
        return legal[0]


class MixinOverRandom(_ReadsObs, RandomStrategy):
    """``choose`` from a mixin, ``reads_observation = False`` inherited from ``random``: it must
    still be handed its observation."""


class InterruptedCheck(ScriptedStrategy):
    """Raises ``KeyboardInterrupt`` on its first build, while the config is checked (as a Ctrl-C
    during a slow plugin import would): no run folder exists yet."""

    def __init__(self, **params):
        raise KeyboardInterrupt("while the config is checked")


class Printer(RandomStrategy):
    """Plays randomly and prints every decision (a designer's debugging ``print``)."""

    reads_observation = False

    def choose(self, obs, legal, rng):
        print("choosing among", len(legal))
        return super().choose(obs, legal, rng)


class Unprintable(Exception):
    """An exception whose message cannot be printed: its ``__str__`` raises."""

    def __str__(self):
        raise TypeError("str fails")


class Mute(ScriptedStrategy):
    """Raises ``Unprintable`` on its first decision of every game."""

    def choose(self, obs, legal, rng):
        raise Unprintable("secret")
