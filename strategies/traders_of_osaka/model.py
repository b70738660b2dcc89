"""A small what-if model of Traders of Osaka built from one seat's observation (for ``osaka.expert``).

It knows the printed rules (rulebook 'Advancing Ships', 'Payment' steps 1-4, 'The End of the
Game', RULINGS §2) and nothing hidden: others' hands are only sizes, others' VP are estimated
from the cards that must be in VP piles (every card not seen elsewhere; exact in 2-player games
barring VP scored without cards) shared in proportion to payments scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from sim.games.traders_of_osaka.observation import Observation

MEAN_CARD = (11 * 2 + 9 * 3 + 7 * 5) / 27  # coins per card of the rulebook deck
ICONS_PER_CARD = (11 * 2 + 9 * 1) / 27 / 4  # insurance icons of one given colour per card in a hand


@dataclass
class Pos:
    """A hypothetical position: merchandise, insured goods, tokens, ships, VP (estimates), hands."""

    goods: list[list[int]]
    insured: set[int]
    tokens: list[list[int]]
    ships: list[int]
    vp: list[float]
    coins: list[float]  # own hand value exactly, others estimated from hand sizes
    ended: bool = False
    worths: list[float] | None = None  # cache of Model.worth per seat (set once valued; never mutate after)

    def copy(self) -> Pos:
        return Pos([g[:] for g in self.goods], set(self.insured), [t[:] for t in self.tokens], self.ships[:],
                   self.vp[:], self.coins[:], self.ended)


class Model:
    """Rules and valuation for one observation. ``w`` holds the expert's weights (its Params)."""

    def __init__(self, obs: Observation, w) -> None:
        self.obs, self.w = obs, w
        self.n, self.me = obs.num_players, obs.seat
        self.value = [c.value for c in obs.cards]
        self.colour = [c.colour for c in obs.cards]
        self.icons = [c.insurance for c in obs.cards]
        self.edo = len(obs.track) - 1
        self.anchor = obs.track.index("anchor")
        self.waves = frozenset(i for i, k in enumerate(obs.track) if k == "waves")
        self.nc = len(obs.colours)

    # ------------------------------------------------------------------ the position seen
    def estimate_vp(self) -> list[float]:
        """Own VP exactly; others' VP from the cards no zone shows, shared by payments scored."""
        o = self.obs
        shown = (o.draw_pile_size + len(o.discard) + len(o.market) + len(o.farm) + sum(o.hand_sizes)
                 + sum(len(g) for g in o.merchandise))
        others_total = max(0, len(o.cards) - shown - o.vp)
        others = [i for i in range(self.n) if i != self.me]
        pays = {i: max(0, sum(o.tokens[i]) - 1) for i in others}
        total = sum(pays.values())
        vp = [0.0] * self.n
        vp[self.me] = float(o.vp)
        for i in others:
            vp[i] = others_total * (pays[i] / total if total else 1 / len(others))
        return vp

    def position(self) -> Pos:
        o = self.obs
        coins = [h * MEAN_CARD for h in o.hand_sizes]
        coins[self.me] = float(sum(self.value[c] for c in o.hand))
        return Pos([list(g) for g in o.merchandise], set(o.insured), [list(t) for t in o.tokens], list(o.ships),
                   self.estimate_vp(), coins)

    # ------------------------------------------------------------------ rules
    def buy(self, pos: Pos, seat: int, goods: list[int], cost: float, hand_icons: list[int] | None) -> Pos:
        """``seat`` buys ``goods`` for ``cost`` coins: ships advance, payments run (in the order
        best for ``seat``), ships on the waves sink. ``hand_icons`` (per colour) are the buyer's
        insurance icons after paying, when known."""
        p = pos.copy()
        p.goods[seat] += goods
        p.coins[seat] = max(0.0, p.coins[seat] - cost)
        counts = [0] * self.nc
        for g in goods:
            counts[self.colour[g]] += 1
        arrived = []
        for c, k in enumerate(counts):
            if k:
                p.ships[c] = min(p.ships[c] + (1 if k == 1 else 2), self.edo)
                if p.ships[c] == self.edo:
                    arrived.append(c)
        return self.pay_all(p, seat, arrived, hand_icons)

    def pay_all(self, pos: Pos, seat: int, arrived: list[int], hand_icons: list[int] | None) -> Pos:
        """Payments for ``arrived`` in the order ``seat`` (the active player) values most."""
        if not arrived:
            return pos
        best, best_v = pos, None
        for order in permutations(arrived) if len(arrived) > 1 else [tuple(arrived)]:
            p = pos.copy()
            icons = list(hand_icons) if hand_icons is not None else None
            for c in order:
                self.payment(p, c, seat, icons)
                if p.ended:
                    break
            v = self.value_of(p, seat)
            if best_v is None or v > best_v:
                best, best_v = p, v
        return best

    def payment(self, p: Pos, colour: int, active: int, icons: list[int] | None) -> None:
        """'Payment' steps 1-4 for ``colour`` on ``p`` (in place)."""
        val, col, per = self.value, self.colour, 5
        scored = []
        for seat in range(self.n):
            sold = [g for g in p.goods[seat] if col[g] == colour]
            if not sold:
                continue
            p.goods[seat] = [g for g in p.goods[seat] if col[g] != colour]
            price = max(val[g] for g in sold) + p.tokens[seat][colour]
            p.vp[seat] += -(-price * len(sold) // per)
            scored.append(seat)
        for seat in scored:
            p.tokens[seat][colour] += 1
        if any(sum(t) >= self.obs.end_tokens for t in p.tokens):
            p.ended = True
            return
        sinking = [c for c, pos in enumerate(p.ships) if pos in self.waves]
        for c in sinking:
            for seat in range(self.n):
                exposed = sorted((g for g in p.goods[seat] if col[g] == c and g not in p.insured),
                                 key=val.__getitem__, reverse=True)
                if not exposed:
                    continue
                if seat == active and icons is not None:
                    saved = min(len(exposed), icons[c])
                    icons[c] -= saved
                    p.coins[seat] -= saved * 1.5  # a 2-coin card saves 2 goods, a 3-coin card 1
                else:  # a rival's hand holds about ICONS_PER_CARD icons of the colour per card
                    saved = min(len(exposed), int(self.obs.hand_sizes[seat] * ICONS_PER_CARD + 0.5))
                p.insured.update(exposed[:saved])
                lost = set(exposed[saved:])
                p.goods[seat] = [g for g in p.goods[seat] if g not in lost]
            p.ships[c] = self.anchor
        p.ships[colour] = 0

    # ------------------------------------------------------------------ valuation
    def set_vp(self, seat: int, goods: list[int], tokens: list[int], colour: int) -> int:
        sold = [g for g in goods if self.colour[g] == colour]
        if not sold:
            return 0
        price = max(self.value[g] for g in sold) + tokens[colour]
        return -(-price * len(sold) // 5)

    def survival(self, pos: int) -> float:
        """Chance that goods on a ship at track index ``pos`` reach Edo unsunk (a weight)."""
        if pos in self.waves:
            return self.w.wave_survival
        return self.w.route_survival

    def worth(self, p: Pos, seat: int) -> float:
        """VP plus the expected payments of the merchandise held (token bonus included) and coins
        (in VP); computed for every seat at once and cached on ``p``."""
        if p.worths is None:
            w, col, val = self.w, self.colour, self.value
            left = max(1, self.obs.end_tokens - max(sum(t) for t in p.tokens))
            horizon = min(1.0, left / w.horizon_tokens)
            out = []
            for s in range(self.n):
                total = p.vp[s] + w.coin_value * p.coins[s]
                groups: dict[int, list[int]] = {}
                for g in p.goods[s]:
                    groups.setdefault(col[g], []).append(g)
                for c in range(self.nc):
                    sold = groups.get(c)
                    if not sold:
                        continue
                    vp = -(-(max(val[g] for g in sold) + p.tokens[s][c]) * len(sold) // 5)
                    safe = sum(g in p.insured for g in sold) / len(sold)
                    total += w.hold_weight * horizon * vp * (safe + (1 - safe) * self.survival(p.ships[c]))
                out.append(total)
            p.worths = out
        return p.worths[seat]

    def value_of(self, p: Pos, seat: int) -> float:
        """``seat``'s standing: a decided game is worth +-100 plus the VP margin; otherwise worth
        minus the best rival's worth."""
        if p.ended:
            key = [(p.vp[i], sum(p.tokens[i])) for i in range(self.n)]
            rival = max(key[i] for i in range(self.n) if i != seat)
            margin = p.vp[seat] - rival[0]
            return (100.0 if key[seat] >= rival else -100.0) + margin
        mine = self.worth(p, seat)
        return mine - max(self.worth(p, i) for i in range(self.n) if i != seat)
