"""The 18 cards of Decapitation: 16 character cards in two colours and two neutrals."""

from __future__ import annotations

RED = "red"
BLUE = "blue"
COLORS = (RED, BLUE)

OBSERVER = "OBS"
SPY = "SPY"
NEUTRALS = (OBSERVER, SPY)

RANKS = ("1", "2", "3", "4", "5", "6", "7", "X")
SMALL_GAME = 6  # seats: at this size or fewer the deal leaves out SMALL_GAME_REMOVED
SMALL_GAME_REMOVED = ("2", "6", "X")

RED_CARDS = tuple(f"R{r}" for r in RANKS)
BLUE_CARDS = tuple(f"B{r}" for r in RANKS)
ALL_CARDS = (*RED_CARDS, *BLUE_CARDS, *NEUTRALS)

_COLOR_OF = {**dict.fromkeys(RED_CARDS, RED), **dict.fromkeys(BLUE_CARDS, BLUE)}


def color(card: str) -> str | None:
    """The card's colour, or None for a neutral."""
    return _COLOR_OF.get(card)


def number(card: str) -> int | None:
    """The card's number 1-7, or None for an X or a neutral."""
    rank = card[1:] if card in _COLOR_OF else ""
    return int(rank) if rank.isdigit() else None


def is_x(card: str) -> bool:
    """True for the Red X and the Blue X (the Turncoat cards)."""
    return card in ("RX", "BX")


def other(colour: str) -> str:
    """The opposing colour."""
    return BLUE if colour == RED else RED


def bodyguard_of(colour: str) -> str:
    """The 3 of a colour, its bodyguard under variant 5."""
    return "R3" if colour == RED else "B3"


def deals_x(seats: int) -> bool:
    """True when a game of `seats` seats may deal an X (the Turncoat's card)."""
    return seats > SMALL_GAME


def coloured_pool(colour: str, seats: int) -> tuple[str, ...]:
    """The character cards of one colour available for a game of `seats` seats."""
    cards = RED_CARDS if colour == RED else BLUE_CARDS
    if not deals_x(seats):
        return tuple(c for c in cards if c[1:] not in SMALL_GAME_REMOVED)
    return cards
