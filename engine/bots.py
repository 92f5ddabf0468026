"""Seats the bot plays itself, deciding only on what the seat knows.

Entry for a caller: `view = bot_view(state, seat)` (the seat's `seat_view` plus the decisions
the rules offer it now, which follow from what it knows), then `choose(view, level, rng)`, which
returns a `Choice`: the action (always a legal one, a claim it makes in its speaking moment
carried in it), the claim as text (`"5:R1"`, or None) and why it acted, as data, e.g.
`{"knew": {"5": "R1"}, "target": 3, "chance": 0.8}` for a strike.
`choose` never sees the state, so it cannot use a card the seat was not shown.
Levels: "learning" strikes early and often at random and claims at random; "strong" strikes only
when its belief (sampled deals weighed by the claims it trusts) makes the target the enemy
captain and itself (or the virtual seat it acts for) its own, and claims to its side's profit.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

from engine.actions import (
    DECAPITATE,
    END_TURN,
    KEEP,
    PREDICT,
    SCOUT,
    SPY_GUESS,
    SWAP,
    Action,
    claimed,
)
from engine.captains import captain
from engine.cards import BLUE, COLORS, RED, bodyguard_of, color, coloured_pool, number, other
from engine.deal import cards_per_colour, neutrals
from engine.events import SCOUTED, SEAT_REMOVED, SWAPPED, TURN_ENDED
from engine.resolution import neighbours
from engine.state import GameState
from engine.turns import legal_actions
from engine.variants import Variants
from engine.views import seat_view

LEVELS = ("learning", "strong")
SAMPLES = 200  # deals sampled per decision
# The least chance of a good strike each level needs, before and after much has been learned.
_STRIKE_AT = {"learning": (0.35, 0.2), "strong": (0.7, 0.35)}
_STRIKE_EASING = {"scout": 0.03, "claim": 0.03}  # how much each scout and claim eases the need
# The least chance the Observer needs that a colour wins before it predicts it.
_PREDICT_AT = {"learning": (0.5, 0.35), "strong": (0.75, 0.5)}
_LEARNING_WHIM = 0.1  # how often a learning bot scouts, strikes, claims or predicts on a whim
# A speaker's trust before any of its claims could be checked: as if 2 of 3 had been true.
_TRUST_PRIOR = (2, 3)
_LIE_CHOICES = 6  # a lying speaker is taken to choose among about this many cards


class Choice(NamedTuple):
    """A bot seat's decision, what it claims with it, and why it chose it."""

    action: Action
    claim: str | None
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
    if PREDICT in acts:
        prediction = _predict(table, legal, level, rng)
        if prediction is not None:
            return prediction
    if END_TURN in acts:
        return _speak(table, legal, level, rng)
    if DECAPITATE in acts:
        strike = _strike(table, legal, level, rng)
        if strike is not None:
            return strike
    return _scout(table, legal, level, rng)


class _Claim(NamedTuple):
    speaker: int
    seat: int
    card: str


class _Table:
    """The seat's knowledge, read from its view: who it can tell holds what, what the others
    claimed and how far it trusts each speaker, and the table."""

    def __init__(self, view: dict) -> None:
        public = view["public"]
        self.seat: int = view["seat"]
        self.known: dict[int, str] = {int(s): c for s, c in view["known"].items()}
        self.seats = len(public["seats"])
        history = public["history"]
        removed = {e["seat"] for e in history if e["type"] == SEAT_REMOVED}
        self.stand_ins = {s["seat"] for s in public["seats"] if s["virtual"]} | removed
        self.turn = public["turn"]
        names = set(public["variants"])
        virtual = sum(s["virtual"] for s in public["seats"])
        self.variants = Variants(
            virtual_players=virtual, **{n: True for n in names if n != "virtual_players"}
        )
        self.scouts = sum(e["type"] == SCOUTED for e in history)
        self.claims = sum(bool(e.get("claim")) for e in history if e["type"] == TURN_ENDED)
        scouted = [e["target"] for e in history if e["type"] == SCOUTED]
        self.scouted = scouted[-1] if scouted else None  # whom the seat speaks about now
        self.trust, self.evidence = _weigh_claims(history, self.seat, self.known)

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

    def belief(self, rng: random.Random) -> list[tuple[list[str], float]]:
        """Sampled deals, each weighed by how well it fits the claims still open to doubt."""
        deals = []
        for _ in range(SAMPLES):
            cards = self.sample(rng)
            weight = 1.0
            for claim in self.evidence:
                trust = self.trust[claim.speaker]
                right = cards[claim.seat - 1] == claim.card
                weight *= trust if right else (1 - trust) / _LIE_CHOICES
            deals.append((cards, weight))
        return deals

    def speaker_trust(self) -> dict[str, float]:
        """How far the seat trusts each speaker it heard, for `why`."""
        return {str(s): round(t, 2) for s, t in sorted(self.trust.items())}


def _weigh_claims(
    history: list[dict], seat: int, known: dict[int, str]
) -> tuple[dict[int, float], list[_Claim]]:
    """Each other speaker's trust (how often its claims the seat can check were true) and the
    claims the seat cannot check, which are evidence weighed by that trust."""
    claims: list[_Claim] = []
    for event in history:
        if event["type"] == TURN_ENDED and event.get("claim") and event["seat"] != seat:
            about, card = claimed(event["claim"]) or (0, "")
            claims.append(_Claim(event["seat"], about, card))
        elif event["type"] == SWAPPED:  # cards moved: what was said of those seats is stale
            moved = {event["seat"], event["scout"]}
            claims = [c for c in claims if c.seat not in moved]
    where = {card: s for s, card in known.items()}
    tally: dict[int, list[int]] = {}
    evidence = []
    for claim in claims:
        right, checked = tally.setdefault(claim.speaker, list(_TRUST_PRIOR))
        if claim.seat in known or claim.card in where:
            tally[claim.speaker] = [right + (known.get(claim.seat) == claim.card), checked + 1]
        else:
            evidence.append(claim)
    trust = {s: min(0.95, max(0.05, right / checked)) for s, (right, checked) in tally.items()}
    return trust, evidence


def _share(deals: list[tuple[list[str], float]], holds) -> float:
    """The weighed share of `deals` for which `holds(cards)` is true."""
    total = sum(w for _, w in deals)
    return sum(w for cards, w in deals if holds(cards)) / total if total else 0.0


def _knew(table: _Table) -> dict[str, str]:
    return {str(s): c for s, c in sorted(table.known.items())}


def _strike(table: _Table, legal: list[Action], level: str, rng: random.Random) -> Choice | None:
    side = color(table.known[table.seat])
    if side is None:
        return None
    deals = table.belief(rng)
    odds: Counter[int] = Counter()
    for cards, weight in deals:
        own, enemy = captain(cards, side), captain(cards, other(side))
        if enemy is not None and own is not None and _may_act_for(table, own):
            odds[enemy] += weight
    total = sum(w for _, w in deals)
    high, low = _STRIKE_AT[level]
    eased = _STRIKE_EASING["scout"] * table.scouts + _STRIKE_EASING["claim"] * table.claims
    need = max(low, high - eased)
    target, hits = odds.most_common(1)[0] if odds else (0, 0.0)
    chance = hits / total if total else 0.0
    whim = level == "learning" and rng.random() < _LEARNING_WHIM
    if whim:
        target = rng.choice([a.target for a in legal if a.act == DECAPITATE])
    elif chance < need:
        return None
    action = _strike_action(table, legal, deals, side, target)
    why = {"knew": _knew(table), "target": target, "chance": round(chance, 2), "whim": whim}
    if table.trust:
        why["trust"] = table.speaker_trust()
    return Choice(action, None, why)


def _may_act_for(table: _Table, own: int) -> bool:
    return own == table.seat or own in table.stand_ins


def _strike_action(
    table: _Table,
    legal: list[Action],
    deals: list[tuple[list[str], float]],
    side: str,
    target: int,
) -> Action:
    """The offered strike at `target`, its proxy and bodyguard calls taken from the belief."""
    proxy = _share(deals, lambda d: captain(d, side) != table.seat) > 0.5
    guard = bodyguard_of(other(side))
    beside = neighbours(target, table.seats)
    bodyguard = _share(deals, lambda d: guard in (d[n - 1] for n in beside)) > 0.5
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
        action = next(a for a in scouts if a.target == _worth_scouting(table, unknown))
    return Choice(action, None, {"target": action.target})


def _worth_scouting(table: _Table, unknown: list[int]) -> int:
    """The nearest seat, going round the circle, that no claim the seat trusts speaks for."""
    told = {c.seat for c in table.evidence if table.trust[c.speaker] >= 0.8}
    return next((s for s in unknown if s not in told), unknown[0])


def _speak(table: _Table, legal: list[Action], level: str, rng: random.Random) -> Choice:
    """End the turn with a claim: about the card just scouted, or about the seat itself."""
    about, card, truth = _what_to_claim(table, level, rng)
    end = next(a for a in legal if a.act == END_TURN)
    if about is None:
        return Choice(end, None, {"knew": _knew(table)})
    claim = f"{about}:{card}"
    why = {"knew": _knew(table), "claimed": claim, "true": truth}
    return Choice(end._replace(claim=claim), claim, why)


def _what_to_claim(table: _Table, level: str, rng: random.Random) -> tuple[int | None, str, bool]:
    """(seat, card, true?): strong tells the truth about the other colour's cards, which helps
    its captain find the target, and bluffs about its own colour's, hiding its captain; the
    neutrals (who win by guessing right) tell the truth; learning claims at random."""
    mine = table.known[table.seat]
    about = table.scouted if table.scouted in table.known else table.seat
    seen = table.known[about]
    if level == "learning":
        roll = rng.random()
        if roll < _LEARNING_WHIM:
            return None, "", False
        if roll < 0.3:
            return table.seat, mine, True
        if roll < 0.7:
            return about, seen, True
        return about, _bluff(table, seen, rng), False
    side = color(mine)
    if side is None or color(seen) != side or about == table.seat:
        return about, seen, True
    return about, _bluff(table, seen, rng), False


def _bluff(table: _Table, truth: str, rng: random.Random) -> str:
    """A card of the other colour than `truth`'s that the seat cannot place elsewhere."""
    side = other(color(truth) or RED)
    placed = set(table.known.values())
    cards = [c for c in coloured_pool(side, table.seats) if c not in placed and c != truth]
    return rng.choice(cards) if cards else truth


def _predict(table: _Table, legal: list[Action], level: str, rng: random.Random) -> Choice | None:
    """As the Observer, predict the colour that most likely strikes first and rightly, once
    the belief is sure enough; None to let the moment pass."""
    deals = table.belief(rng)
    odds = {c: _share(deals, lambda d, c=c: _strikes_first(table, d) == c) for c in COLORS}
    colour = max(COLORS, key=lambda c: odds[c])
    high, low = _PREDICT_AT[level]
    need = max(low, high - _STRIKE_EASING["scout"] * table.scouts)
    whim = level == "learning" and rng.random() < _LEARNING_WHIM
    if not whim and odds[colour] < need:
        return None
    action = next(a for a in legal if a.act == PREDICT and a.color == colour)
    why = {"knew": _knew(table), "color": colour, "chance": round(odds[colour], 2), "whim": whim}
    return Choice(action, None, why)


def _strikes_first(table: _Table, cards: list[str]) -> str | None:
    """In `cards`, the colour of the first seat after this one able to strike rightly: its
    colour's captain, or a seat of that colour acting for a virtual captain."""
    order = [(table.seat - 1 + k) % table.seats + 1 for k in range(1, table.seats)]
    for seat in order:
        side = color(cards[seat - 1])
        if side is None or seat in table.stand_ins:
            continue
        own = captain(cards, side)
        if own == seat or (own is not None and own in table.stand_ins):
            return side
    return None


def _turncoat(table: _Table, legal: list[Action], level: str, rng: random.Random) -> Choice:
    scout_card = table.known.get(table.turn)
    useful = scout_card is not None and number(scout_card) is not None
    swap = rng.random() < 0.5 if level == "learning" else useful
    act = SWAP if swap else KEEP
    return Choice(next(a for a in legal if a.act == act), None, {"scout": scout_card})


def _spy_guess(table: _Table, legal: list[Action], rng: random.Random) -> Choice:
    votes: dict[str, Counter[int]] = {RED: Counter(), BLUE: Counter()}
    for cards, weight in table.belief(rng):
        for colour, tally in votes.items():
            cap = captain(cards, colour)
            if cap is not None:
                tally[cap] += weight
    guess = {c: (t.most_common(1)[0][0] if t else table.seat) for c, t in votes.items()}
    action = next(a for a in legal if a.red == guess[RED] and a.blue == guess[BLUE])
    why = {"knew": _knew(table), "red": guess[RED], "blue": guess[BLUE]}
    return Choice(action, None, why)
