"""A plan's whole turn chosen at its die step (issue 20 item 2, round seven).

A turn is three decisions (die, colour area, square and icon). ``planner.Planner`` scores the same
complete moves at each of them, so the die step already holds every value the area and square
steps need. ``plan_turn`` takes those two choices there, exactly as the later steps would take them:
the same values (kept at the decision point), the same tie sets (values within 1e-9 of the best,
in the fixed order of ``planner.canonical``) and the seat's ``rng`` drawn for them in the same order
(nothing else draws from it between a seat's die and square steps), so the games are those of
choosing step by step (``benchmarks/alpenzian_logs.py --check``). ``replay`` gives the planned
action at the later steps without analysing their observations. Under the exceptional rule 5.4
(no square in the area) the square is left to its step.
"""

from __future__ import annotations

from sim.games.alpenzian.actions import FACE_ICONS, Draw, TakeDie

from .prune import known

_DRAWS: dict[int, Draw] = {}  # cell << 5 | icon -> Draw: the plans' copies of square-step actions (immutable)


def _draw(cell: int, icon: int) -> Draw:
    """``Draw(cell, icon)``, built once per process (a frozen dataclass costs about 1 us to build)."""
    key = cell << 5 | icon
    got = _DRAWS.get(key)
    if got is None:
        got = _DRAWS[key] = Draw(cell, icon)
    return got


def plan_turn(plan, die: TakeDie, areas: list[int], bounds, rng, extra=None) -> TakeDie:
    """Return ``die`` (the die step's choice) after keeping, in ``plan._plan``, the area and square the
    later steps would choose. ``areas``: the legal colour areas; ``bounds``: the decision point's
    ``prune.Bounds`` or False; ``extra(face, colour)``: the expert's denial term of the area step."""
    face, pt = die.face, plan._pt
    if extra is None:
        scored = [(c, known(pt, face, c)) for c in areas]
    else:
        scored = [(c, known(pt, face, c) + extra(face, c)) for c in areas]
    top = max(v for _c, v in scored)
    tie = sorted(c for c, v in scored if v >= top - 1e-9)  # ``Planner._best`` on ``ChooseArea``: by colour
    colour = tie[0] if len(tie) == 1 else tie[int(rng.random() * len(tie))]
    draw = None
    squares = pt.squares.get(colour)  # listed by ``Planner._legal_areas``
    if squares:
        icons = FACE_ICONS[face]
        draw = plan._best(plan._draw_scores(bounds, [_draw(c, i) for c in squares for i in icons]), rng)
    obs = plan.obs
    plan._plan = (obs.seat, obs.round, obs.turn, face, colour, draw)
    return die


def replay(plan, obs, legal):
    """The area or square action (one of ``legal``) that ``plan_turn`` chose for this turn; None when
    ``obs`` is not that turn's or the square was left to its step."""
    seat, rnd, turn, face, colour, draw = plan._plan
    if obs.seat != seat or obs.face != face or obs.turn != turn or obs.round != rnd:
        return None
    if obs.prompt == "area":
        for a in legal:
            if a.colour == colour:
                return a
        return None
    plan._plan = None
    if draw is not None:
        cell, icon = draw.cell, draw.icon
        for a in legal:
            if a.cell == cell and a.icon == icon:
                return a
    return None
