"""Setting up a game: seats, the coloured cards for the seat count, neutrals, the deal."""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Sequence

from engine.cards import BLUE, OBSERVER, RED, SPY, coloured_pool
from engine.events import Event, deal_events
from engine.state import GameState, start_state
from engine.variants import Variants

MIN_HUMANS = 4
MAX_HUMANS = 12
MAX_VIRTUAL = 2


def cards_per_colour(seats: int, variants: Variants) -> int:
    """Cards of each colour in the deal: n = ceil(S/2), one more with uncertain sides."""
    n = math.ceil(seats / 2)
    if variants.uncertain_sides and seats % 2 == 0:
        n += 1
    return n


def neutrals(variants: Variants) -> tuple[str, ...]:
    """The neutral cards whose variants are on."""
    return tuple(c for c, on in ((OBSERVER, variants.observer), (SPY, variants.spy)) if on)


def check_players(humans: int, variants: Variants) -> None:
    """Refuse player counts outside the rules (4-12 humans, 0-2 virtual seats)."""
    if not MIN_HUMANS <= humans <= MAX_HUMANS:
        raise ValueError(f"Decapitation needs {MIN_HUMANS} to {MAX_HUMANS} players, not {humans}")
    if not 0 <= variants.virtual_players <= MAX_VIRTUAL:
        raise ValueError("virtual players must be 0, 1 or 2")


def new_game(
    names: Sequence[str],
    variants: Variants | None = None,
    seed: int | None = None,
    virtual_names: Sequence[str] = ("V1", "V2"),
    rng: random.Random | None = None,
) -> tuple[GameState, list[Event]]:
    """Seat the players in a random circle, deal, pick a human to start; with the deal's events.

    The same names, variants and seed always give the same game. `rng`, if given, must be
    `random.Random(seed)`; passing it lets a caller keep drawing from the same stream.
    """
    state = deal(names, variants, seed, virtual_names, rng)
    return state, deal_events(state)


def deal(
    names: Sequence[str],
    variants: Variants | None = None,
    seed: int | None = None,
    virtual_names: Sequence[str] = ("V1", "V2"),
    rng: random.Random | None = None,
) -> GameState:
    """The state right after the deal (see `new_game`), without its events."""
    variants = variants or Variants()
    check_players(len(names), variants)
    if seed is None:
        seed = secrets.randbits(63)
    rng = rng or random.Random(seed)
    seating = [(name, False) for name in names]
    seating += [(virtual_names[i], True) for i in range(variants.virtual_players)]
    rng.shuffle(seating)
    seats = len(seating)
    per_colour = cards_per_colour(seats, variants)
    pool = rng.sample(coloured_pool(RED, seats), per_colour)
    pool += rng.sample(coloured_pool(BLUE, seats), per_colour)
    pool += neutrals(variants)
    rng.shuffle(pool)
    virtual = tuple(v for _, v in seating)
    first = rng.choice([s for s, v in enumerate(virtual, 1) if not v])
    return start_state(
        variants=variants,
        names=tuple(n for n, _ in seating),
        virtual=virtual,
        deal=tuple(pool[:seats]),
        set_aside=tuple(sorted(pool[seats:])),
        first=first,
        seed=seed,
    )
