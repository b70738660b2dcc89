"""``sim.api.LazyObservation``: fields computed on first access, once; nothing hidden reachable
from the view; closed after its decision by the game loop (issue 20 item 3)."""

from __future__ import annotations

import gc
import pickle
import random
import types
from dataclasses import dataclass, field

import pytest

from sim.api import CHANCE, TERMINAL, LazyObservation, StaleObservationError, close_view, keep, lazy
from sim.play import play_game


@dataclass
class _Secret:
    """A marker type: no instance of it may be reachable from a view."""

    cards: list


@dataclass
class _State:
    hands: list = field(default_factory=lambda: [_Secret([5, 9]), _Secret([7, 1])])
    deck: _Secret = field(default_factory=lambda: _Secret([3, 8, 2]))
    scores: list = field(default_factory=lambda: [0, 0])
    turn: int = 0


CALLS: list[str] = []


class _View(LazyObservation):
    @lazy
    def hand(self, s: _State) -> tuple[int, ...]:
        CALLS.append("hand")
        return tuple(s.hands[self.seat].cards)

    @lazy
    def hand_sizes(self, s: _State) -> tuple[int, ...]:
        CALLS.append("hand_sizes")
        return tuple(len(h.cards) for h in s.hands)

    @lazy
    def deck_size(self, s: _State) -> int:
        return len(s.deck.cards)

    @lazy
    def best(self, s: _State) -> int:  # a field built on another field
        return max(self.hand)


def _reachable(root, depth: int = 6) -> list:
    """Every object reachable from ``root`` through instance data (slots, dicts, containers,
    closures), not through classes, modules or functions' globals (what any Python object
    reaches)."""
    seen, todo, out = {id(root)}, [(root, 0)], []
    skip = (type, types.ModuleType, types.BuiltinFunctionType, types.CodeType, lazy)
    while todo:
        obj, d = todo.pop()
        out.append(obj)
        if d >= depth:
            continue
        refs = ([c.cell_contents for c in obj.__closure__ or ()] if isinstance(obj, types.FunctionType)
                else gc.get_referents(obj))
        for ref in refs:
            if id(ref) not in seen and not isinstance(ref, skip):
                seen.add(id(ref))
                todo.append((ref, d + 1))
    return out


def test_fields_are_computed_on_first_access_and_once():
    CALLS.clear()
    v = _View(_State(), 1, prompt="play")
    assert CALLS == []  # building the view computes nothing
    assert v.prompt == "play" and v.seat == 1
    assert v.hand == (7, 1) and v.hand == (7, 1)
    assert CALLS == ["hand"]
    assert v.best == 7 and v.deck_size == 3
    assert "hand_sizes" not in CALLS  # never read, never computed


def test_the_reachability_walk_finds_a_state_hidden_in_a_closure():
    state = _State()
    assert any(o is state for o in _reachable({"f": lambda: state.hands}))


def test_no_attribute_path_from_a_view_reaches_the_state_or_hidden_cards():
    state = _State()
    v = _View(state, 0, prompt="play")
    v.materialize()
    found = _reachable(v)
    assert not any(o is state or isinstance(o, _Secret) for o in found)
    for name in dir(v):  # the public surface: no attribute hands out the state
        if not name.startswith("__"):
            value = getattr(v, name)
            assert value is not state and not isinstance(value, _Secret), name
    with pytest.raises(AttributeError):
        v.state  # noqa: B018
    with pytest.raises(AttributeError):
        v.hands = state.hands  # read-only


def test_a_field_first_read_after_the_decision_raises_and_read_fields_stay():
    state = _State()
    v = _View(state, 0)
    assert v.hand == (5, 9)
    close_view(v)
    state.hands[0].cards.append(4)  # the state moves on
    assert v.hand == (5, 9)  # what was read during the decision stays
    with pytest.raises(StaleObservationError, match="deck_size"):
        v.deck_size  # noqa: B018


def test_equality_repr_and_pickle_go_through_every_field():
    a, b = _View(_State(), 0, prompt="p"), _View(_State(), 0, prompt="p")
    assert a == b and hash(a) == hash(b)
    other = _State()
    other.deck.cards.append(6)  # differs in what seat 0 may know (deck size): views differ
    assert _View(other, 0, prompt="p") != a
    c = pickle.loads(pickle.dumps(a))
    assert c == a and c.hand == (5, 9) and "deck_size=3" in repr(c)


class _Toy:
    """Two seats take turns drawing from the deck until it is empty; the view shows own hand."""

    lazy_observations = True
    num_players = 2

    def new_initial_state(self):
        return _State()

    def current_player(self, s):
        return TERMINAL if not s.deck.cards else (CHANCE if s.turn < 0 else s.turn % 2)

    def legal_actions(self, s):
        return ("draw", "pass")

    def apply_action(self, s, a):
        if a == "draw":
            s.hands[s.turn % 2].cards.append(s.deck.cards.pop())
        elif a == "pass" and s.turn >= 3:
            s.deck.cards.clear()
        s.turn += 1

    def observe(self, s, seat):
        return _View(s, seat, prompt="draw?")


def test_the_game_loop_closes_each_view_after_its_decision():
    kept = []

    class Keeper:
        def choose(self, obs, legal, rng):
            kept.append(obs)
            return legal[0]

    r = play_game(_Toy(), [Keeper(), Keeper()], random.Random(0), [random.Random(1), random.Random(2)],
                  max_decisions=10)
    assert r.n_decisions == 3  # three draws empty the deck of three cards
    with pytest.raises(StaleObservationError):
        kept[0].hand  # noqa: B018  (never read during its decision: can no longer be)


def test_keep_gives_a_detached_copy_readable_after_the_decision():
    state = _State()
    v = _View(state, 1, prompt="p")
    k = keep(v)
    close_view(v)
    state.hands[1].cards.clear()  # later changes do not reach the copy
    assert type(k) is _View
    assert k.hand == (7, 1) and k.hand_sizes == (2, 2) and k.prompt == "p"
    assert keep(("a", "frozen", "tuple")) == ("a", "frozen", "tuple")


def test_a_view_built_from_a_dict_is_the_view_built_from_keywords():
    """``LazyObservation.of(source, seat, eager)`` (what an engine calls at every decision) gives the
    view ``cls(source, seat, **eager)`` gives: the same fields in the same order, computed on first
    access, and stale once closed."""
    s = _State()
    a, b = _View.of(s, 1, {"prompt": "play", "turn": 3}), _View(s, 1, prompt="play", turn=3)
    assert type(a) is _View and a.hand == (7, 1) and a.turn == 3
    assert list(a.materialize().items()) == list(b.materialize().items())
    handed = {"seat": -1, "prompt": "play", "turn": 3}  # ``seat`` first: the engine's dict is the view's own
    d = _View.of(s, 1, handed)
    assert d.__dict__ is handed and list(handed) == ["seat", "prompt", "turn"] and d.seat == 1 and d.hand == (7, 1)
    assert list(d.materialize().items()) == list(b.materialize().items())
    c = _View.of(s, 0, {"prompt": "play"})
    close_view(c)
    with pytest.raises(StaleObservationError):
        c.hand  # noqa: B018
