"""Tables for the engine tests: deals written out by hand, and short names for decisions."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence

from engine import Action, GameState, Variants, apply
from engine.records import FORMAT, deal_from_record

SMALL_POOL = ("1", "3", "4", "5", "7")  # what each colour keeps when S <= 6
FULL_POOL = ("1", "2", "3", "4", "5", "6", "7", "X")
CARD_TOKENS = tuple([f"R{r}" for r in FULL_POOL] + [f"B{r}" for r in FULL_POOL] + ["OBS", "SPY"])


def scout(seat: int, target: int) -> Action:
    """Seat scouts target."""
    return Action("scout", seat, target=target)


def end(seat: int, say: str | None = None) -> Action:
    """The scout ends its speaking moment."""
    return Action("end_turn", seat, say=say)


def decap(
    seat: int, target: int, *, proxy: bool | None = None, bodyguard: bool | None = None
) -> Action:
    """Seat decapitates target, with the declarations its variants need."""
    return Action("decapitate", seat, target=target, proxy=proxy, bodyguard=bodyguard)


def swap(seat: int) -> Action:
    """The scouted X holder swaps."""
    return Action("swap", seat)


def keep(seat: int) -> Action:
    """The scouted X holder keeps its card."""
    return Action("keep", seat)


def predict(seat: int, colour: str) -> Action:
    """The Observer predicts a colour."""
    return Action("predict", seat, color=colour)


def guess(seat: int, red: int, blue: int) -> Action:
    """The Spy's sealed guess of both captains."""
    return Action("spy_guess", seat, red=red, blue=blue)


TIMEOUT = Action("timeout")


def _completion(cards: Sequence[str], variants: Variants) -> list[str]:
    """Set-aside cards making `cards` a legal deal: the lowest unused ranks, missing neutrals."""
    seats = len(cards)
    n = math.ceil(seats / 2) + (1 if variants.uncertain_sides and seats % 2 == 0 else 0)
    ranks = SMALL_POOL if seats <= 6 else FULL_POOL
    aside = []
    for letter in "RB":
        held = sum(1 for c in cards if c.startswith(letter) and c[1:] in FULL_POOL)
        spare = [f"{letter}{r}" for r in ranks if f"{letter}{r}" not in cards]
        aside += spare[: n - held]
    wanted = [c for c, on in (("OBS", variants.observer), ("SPY", variants.spy)) if on]
    aside += [c for c in wanted if c not in cards]
    return aside


def record(
    cards: Sequence[str],
    *,
    variants: Variants | None = None,
    virtual: Iterable[int] = (),
    first: int = 1,
    set_aside: Sequence[str] | None = None,
    actions: Sequence[Action] = (),
) -> dict:
    """A game record for seats holding `cards` (seat 1 first); set-aside cards fill the rest."""
    variants = variants or Variants()
    virtual = set(virtual)
    aside = _completion(cards, variants) if set_aside is None else list(set_aside)
    return {
        "format": FORMAT,
        "variants": variants.to_dict(),
        "seats": [
            {"name": f"V{s}" if s in virtual else f"P{s}", "card": c}
            | ({"virtual": True} if s in virtual else {})
            for s, c in enumerate(cards, 1)
        ],
        "set_aside": aside,
        "first": first,
        "actions": [a.to_dict() for a in actions],
    }


def table(cards: Sequence[str], **options) -> GameState:
    """The state right after dealing `cards` (checked like a record)."""
    return deal_from_record(record(cards, **options))


def play(state: GameState, *actions: Action) -> tuple[GameState, list[dict]]:
    """Apply decisions in order; the final state and every event they produced."""
    events: list[dict] = []
    for action in actions:
        state, new = apply(state, action)
        events += new
    return state, events


def public_events(events: Iterable[dict]) -> list[dict]:
    """The events everyone may see."""
    return [e for e in events if e["to"] == "all"]


def private_events(events: Iterable[dict], seat: int) -> list[dict]:
    """The events only `seat` may see."""
    return [e for e in events if e["to"] == seat]


def cards_in(value: object) -> set[str]:
    """Every card named anywhere inside a JSON-like value."""
    text = json.dumps(value, ensure_ascii=False)
    return {c for c in CARD_TOKENS if f'"{c}"' in text}


def show(state: GameState) -> str:
    """The state in one line, for assertion messages."""
    return (
        f"phase={state.phase} turn={state.turn} cards={list(state.cards)} "
        f"aside={list(state.set_aside)} log={[a.to_dict() for a in state.log]}"
    )
