"""Seats the bot plays itself, deciding only on what the seat knows.

Entry for a caller: `view = bot_view(state, seat)` (the seat's `seat_view` plus the decisions
the rules offer it now, which follow from what it knows), then `choose(view, level, rng)`, which
returns a `Choice`: the action (always one of the offered ones), the claim it makes (None until
claims exist) and why it acted, as data, e.g. `{"chance": 0.8, "target": 3}` for a strike.
`choose` never sees the state, so it cannot use a card the seat was not shown.
Levels: "learning" strikes early and often at random; "strong" strikes only when its sampled
deals make the target the enemy captain, and itself (or the virtual seat it acts for) its own.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from engine.actions import DECAPITATE, END_TURN, KEEP, PREDICT, SCOUT, SPY_GUESS, SWAP, Action
from engine.captains import captain
from engine.cards import BLUE, RED, bodyguard_of, color, coloured_pool, number, other
from engine.deal import cards_per_colour, neutrals
from engine.events import SEAT_REMOVED
from engine.resolution import neighbours
from engine.state import GameState
from engine.turns import legal_actions
from engine.variants import Variants
from engine.views import seat_view

LEVELS = ("learning", "strong")
SAMPLES = 120  # deals sampled per decision
# The least chance of a good strike each level needs, before and after many scouts.
_STRIKE_AT = {"learning": (0.35, 0.2), "strong": (0.6, 0.35)}
_LEARNING_WHIM = 0.1  # how often a learning bot scouts or strikes on a whim


class Choice(NamedTuple):
    """A bot seat's decision, what it says with it, and why it chose it."""

    action: Action
    claim: None
    why: dict


def bot_view(state: GameState, seat: int) -> dict:
    """What `seat` knows (`seat_view`) and the decisions the rules offer it now."""
    view = seat_view(state, seat)
    view["legal"] = [a.to_dict() for a in legal_actions(state, seat)]
    return view


def choose(view: dict, level: str, rng: random.Random) -> Choice:
    """The bot's decision for the seat whose `view` this is, at `level`, drawing from `rng`."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} ({' or '.join(LEVELS)})")
    legal = [Action.from_dict(a) for a in view["legal"]]
    if not legal:
        raise ValueError(f"seat {view['seat']} has no decision to make now")
    acts = {a.act for a in legal}
    table = _Table(view)
    if SPY_GUESS in acts:
        return _spy_guess(table, legal, rng)
    if SWAP in acts:
        return _turncoat(table, legal, level, rng)
    if END_TURN in acts or PREDICT in acts:
        return Choice(next(a for a in legal if a.act == END_TURN), None, {})
    if DECAPITATE in acts:
        strike = _strike(table, legal, level, rng)
        if strike is not None:
            return strike
    return _scout(table, legal, level, rng)


class _Table:
    """The seat's knowledge, read from its view: who it can tell holds what, and the table."""

    def __init__(self, view: dict) -> None:
        public = view["public"]
        self.seat: int = view["seat"]
        self.known: dict[int, str] = {int(s): c for s, c in view["known"].items()}
        self.seats = len(public["seats"])
        removed = {e["seat"] for e in public["history"] if e["type"] == SEAT_REMOVED}
        self.stand_ins = {s["seat"] for s in public["seats"] if s["virtual"]} | removed
        self.turn = public["turn"]
        names = set(public["variants"])
        virtual = sum(s["virtual"] for s in public["seats"])
        self.variants = Variants(
            virtual_players=virtual, **{n: True for n in names if n != "virtual_players"}
        )
        self.scouts = sum(e["type"] == "scouted" for e in public["history"])

    def unknown(self) -> list[int]:
        """The other seats whose card the seat cannot tell, in turn order from it."""
        order = [(self.seat - 1 + k) % self.seats + 1 for k in range(1, self.seats)]
        return [s for s in order if s not in self.known]

    def sample(self, rng: random.Random) -> list[str]:
        """One deal consistent with what the seat can tell (its known cards stay put)."""
        per_colour = cards_per_colour(self.seats, self.variants)
        held = set(self.known.values())
        pool: list[str] = []
        for colour in (RED, BLUE):
            cards = coloured_pool(colour, self.seats)
            kept = [c for c in cards if c in held]
            rest = [c for c in cards if c not in held]
            pool += rng.sample(rest, max(0, min(len(rest), per_colour - len(kept))))
        pool += [c for c in neutrals(self.variants) if c not in held]
        rng.shuffle(pool)
        deal = [self.known.get(s, "") for s in range(1, self.seats + 1)]
        for s in range(1, self.seats + 1):
            if not deal[s - 1] and pool:
                deal[s - 1] = pool.pop()
        return deal


def _strike(table: _Table, legal: list[Action], level: str, rng: random.Random) -> Choice | None:
    side = color(table.known[table.seat])
    if side is None:
        return None
    deals = [table.sample(rng) for _ in range(SAMPLES)]
    odds: Counter[int] = Counter()
    for cards in deals:
        own, enemy = captain(cards, side), captain(cards, other(side))
        if enemy is not None and own is not None and _may_act_for(table, own):
            odds[enemy] += 1
    high, low = _STRIKE_AT[level]
    need = max(low, high - 0.03 * table.scouts)
    target, hits = odds.most_common(1)[0] if odds else (0, 0)
    chance = hits / SAMPLES
    whim = level == "learning" and rng.random() < _LEARNING_WHIM
    if whim:
        target = rng.choice([a.target for a in legal if a.act == DECAPITATE])
    elif chance < need:
        return None
    action = _strike_action(table, legal, deals, side, target)
    return Choice(action, None, {"target": target, "chance": round(chance, 2), "whim": whim})


def _may_act_for(table: _Table, own: int) -> bool:
    return own == table.seat or own in table.stand_ins


def _strike_action(
    table: _Table, legal: list[Action], deals: list[list[str]], side: str, target: int
) -> Action:
    """The offered strike at `target`, its proxy and bodyguard calls taken from the samples."""
    proxy = sum(captain(d, side) != table.seat for d in deals) * 2 > len(deals)
    guard = bodyguard_of(other(side))
    guarded = sum(guard in (d[n - 1] for n in neighbours(target, table.seats)) for d in deals)
    bodyguard = guarded * 2 > len(deals)
    strikes = [a for a in legal if a.act == DECAPITATE and a.target == target]
    for a in strikes:
        if a.proxy in (None, proxy) and a.bodyguard in (None, bodyguard):
            return a
    return strikes[0]


def _scout(table: _Table, legal: list[Action], level: str, rng: random.Random) -> Choice:
    scouts = [a for a in legal if a.act == SCOUT]
    unknown = table.unknown()
    if not unknown or (level == "learning" and rng.random() < _LEARNING_WHIM):
        action = rng.choice(scouts)
    elif level == "learning":
        target = rng.choice(unknown)
        action = next(a for a in scouts if a.target == target)
    else:
        action = next(a for a in scouts if a.target == unknown[0])
    return Choice(action, None, {"target": action.target})


def _turncoat(table: _Table, legal: list[Action], level: str, rng: random.Random) -> Choice:
    scout_card = table.known.get(table.turn)
    useful = scout_card is not None and number(scout_card) is not None
    swap = rng.random() < 0.5 if level == "learning" else useful
    act = SWAP if swap else KEEP
    return Choice(next(a for a in legal if a.act == act), None, {"scout": scout_card})


def _spy_guess(table: _Table, legal: list[Action], rng: random.Random) -> Choice:
    votes: dict[str, Counter[int]] = {RED: Counter(), BLUE: Counter()}
    for _ in range(SAMPLES):
        cards = table.sample(rng)
        for colour, tally in votes.items():
            cap = captain(cards, colour)
            if cap is not None:
                tally[cap] += 1
    guess = {c: (t.most_common(1)[0][0] if t else table.seat) for c, t in votes.items()}
    action = next(a for a in legal if a.red == guess[RED] and a.blue == guess[BLUE])
    return Choice(action, None, {"red": guess[RED], "blue": guess[BLUE]})
