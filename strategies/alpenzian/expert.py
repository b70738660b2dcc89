"""``alpenzian.expert``: the shared evaluator with every mechanic weighed, plus die denial.

The evaluator (``planner.Planner``) already scores the real section 7 categories on the own
sheet after each candidate draw: the ranch bonus by maximum matching, express sets, the
Alpenzian bonus, and the colour and resident majorities estimated against the other sheets.
The expert weighs all of them and their potentials at once (open express track ends, spare
sheep for later houses, colour leads, squares by mountains kept for flowers) and adds **die
denial** (5.2-1, 5.2-2; tips 7-10): when it takes a die and fills a colour area, the next
player of the round can no longer use either; the expert adds ``denial`` times the value that
player loses (its best move before minus its best move after, as the default plan would value
its own sheet). It sees only its observation (Alpenzian has no hidden information).
"""

from __future__ import annotations

from pydantic import Field

from .planner import ExpressParams, Planner
from .prune import INF, MARGIN, NONE, scores
from .turn import plan_turn, replay


class ExpertParams(ExpressParams):
    """``ExpressParams`` with the expert's defaults, plus ``denial``."""

    unpaired_early: float = 0.5
    w_express: float = 1.2
    open_track: float = 1.5
    spare_sheep: float = 1.5
    colour_lead: float = 0.2
    mountain_reserve: float = 0.5
    denial: float = Field(2.0, ge=0, description="points per point of value the next player of the round loses "
                          "when this seat takes a die and fills a colour area (die denial)")


class ExpertStrategy(Planner):
    """Every mechanic at once (express, ranch matching, colour majorities, Alpenzian bonus) plus die
    denial. Params: ``ExpertParams`` (the ``ExpressParams`` weights and ``denial``)."""

    Params = ExpertParams

    def __init__(self, **params):
        super().__init__(**params)
        self._rival = Planner()  # how the next player values its moves (the default weights)

    def choose(self, obs, legal, rng):
        if self._plan is not None and obs.prompt == "area":  # planned at the die step (``turn.plan_turn``)
            got = replay(self, obs, legal)
            if got is not None:
                return got
        if self.p.denial and obs.prompt in ("die", "area") and obs.left[obs.seat]:
            rival = self._next_seat(obs)
            if rival >= 0:
                self._prepare(obs)
                loss = self._losses(obs, rival)
                d = self.p.denial
                bounds = self._pruner()
                if obs.prompt == "area":
                    if bounds:  # exact pruning of house and sheep draws (``prune``): the same choices
                        scored = scores(self._pt, bounds, [(a, obs.face, (a.colour,)) for a in legal],
                                        lambda f, c: d * loss(f, c))
                    else:
                        face = obs.face
                        scored = [(a, self.area_value(face, a.colour) + d * loss(face, a.colour)) for a in legal]
                    return self._best(scored, rng)
                areas = self._legal_areas()
                if bounds:
                    scored = scores(self._pt, bounds, [(a, a.face, areas) for a in legal], lambda f, c: d * loss(f, c))
                else:
                    scored = [(a, max(self.area_value(a.face, c) + d * loss(a.face, c) for c in areas))
                              for a in legal]
                return plan_turn(self, self._best(scored, rng), areas, bounds, rng, lambda f, c: d * loss(f, c))
        return super().choose(obs, legal, rng)

    @staticmethod
    def _next_seat(obs) -> int:
        """The seat playing the next turn of this round (-1 when this is the round's last turn,
        the next seat's sheet is full, or it is this seat)."""
        if obs.num_players == 1 or obs.turn >= 4:
            return -1
        nxt = (obs.start + obs.turn + 1) % obs.num_players
        return nxt if nxt != obs.seat and obs.left[nxt] else -1

    def _losses(self, obs, rival: int):
        """``loss(face, colour)``: what the rival loses if this seat takes ``face`` and fills ``colour``."""
        view = obs.as_seat(rival)
        r = self._rival
        r._prepare(view)
        empties = [c for c in range(5) if obs.areas[c] < 0]
        faces = sorted(set(obs.dice) | ({obs.face} if obs.prompt == "area" else set()))
        pool = list(obs.dice) + ([obs.face] if obs.prompt == "area" else [])
        squares = {c: view.squares(c) for c in empties}
        open_areas = [c for c in empties if squares[c]] or empties
        best = _Best(r, faces, open_areas, squares)
        before = best.top(lambda f, c: True)
        cache: dict = {}

        def loss(face: int, colour: int) -> float:
            got = cache.get((face, colour))
            if got is None:
                left = list(pool)
                left.remove(face)
                rest = best.top(lambda f, c: f in left and c != colour)
                got = cache[(face, colour)] = before - rest if rest > NONE else 0.0
            return got

        return loss


class _Best:
    """The rival's best ``area_value(face, colour)`` over the parts a predicate keeps, scoring as few
    parts as it can: the parts in order of an upper bound (``prune.Bounds.area``), each scored when
    its bound does not lie ``MARGIN`` below the best found, so the best is exact (the same value as
    scoring every part)."""

    def __init__(self, rival, faces, areas, squares):
        self.rival = rival
        bounds = rival._pruner()
        parts = []
        for f in faces:
            for c in areas:
                cells = squares[c]
                if cells:
                    rival._pt.squares[c] = cells
                parts.append([bounds.area(f, cells) if bounds and cells else INF, f, c, None])
        parts.sort(key=lambda p: -p[0])  # stable: faces, then areas, among equal bounds
        self.parts = parts

    def top(self, keep) -> float:
        """The best value of the parts ``(face, colour)`` that ``keep`` keeps (``-inf`` when none)."""
        best = NONE
        for part in self.parts:
            ub, f, c, v = part
            if ub < best - MARGIN:
                break
            if not keep(f, c):
                continue
            if v is None:
                v = part[3] = self.rival.area_value(f, c)
            if v > best:
                best = v
        return best
