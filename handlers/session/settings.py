"""A group's game settings: the variants, the time limits, and how many may play."""

from __future__ import annotations

from typing import Any

from engine.deal import MAX_HUMANS, MIN_HUMANS
from engine.state import SPEAK, SPY_PHASE, TURN, TURNCOAT
from engine.variants import VARIANT_NAMES, Variants

MIN_PLAYERS, MAX_PLAYERS = MIN_HUMANS, MAX_HUMANS  # the card's 4–12, as the engine deals them
MIN_BESIDE_BOTS = 2  # the people a group game with bot seats needs
PRACTICE_BOTS = 3  # a practice game's bot seats until its player picks others: 4 seats
PRACTICE_LEAST_BOTS = MIN_PLAYERS - 1  # beside its one person, a practice game's fewest

DEFAULT_SETTINGS: dict[str, Any] = {
    "virtual_players": 0,
    "bot_seats": 0,
    "bot_strong": False,
    "no_first_round_decapitation": False,
    "uncertain_sides": False,
    "turncoat": False,
    "bodyguards": False,
    "observer": False,
    "spy": False,
    "turn_seconds": 90,
    "speak_seconds": 60,
    "turncoat_seconds": 20,
    "spy_seconds": 15,
    "delete_chatter": True,
    "lobby_minutes": 5,
    "auto_start": True,
}
CHOICES: dict[str, tuple] = {
    "virtual_players": (0, 1, 2),
    "bot_seats": tuple(range(MAX_PLAYERS)),  # up to 12 seats: 10 beside two people, 11 in practice
    "turn_seconds": (30, 60, 90, 120, 180),
    "speak_seconds": (30, 45, 60, 90, 120),
    "turncoat_seconds": (10, 15, 20, 30),
    "spy_seconds": (10, 15, 20, 30),
    "lobby_minutes": (2, 5, 10, 15),
}
SETTING_KEYS = tuple(DEFAULT_SETTINGS)
# What a practice game has no use for: nobody else talks, and its lobby waits for Start.
GROUP_ONLY_SETTINGS = ("delete_chatter", "lobby_minutes", "auto_start")
# The time limit of each kind of wait, by the engine's phase.
WAIT_SETTING = {
    TURN: "turn_seconds",
    SPEAK: "speak_seconds",
    TURNCOAT: "turncoat_seconds",
    SPY_PHASE: "spy_seconds",
}


def clean_settings(saved: dict | None) -> dict:
    """Group defaults merged over the built-in ones, ignoring anything unknown or out of range."""
    settings = dict(DEFAULT_SETTINGS)
    for key, value in (saved or {}).items():
        if key not in DEFAULT_SETTINGS or type(value) is not type(DEFAULT_SETTINGS[key]):
            continue
        if key in CHOICES and value not in CHOICES[key]:
            continue
        settings[key] = value
    return settings


def toggle_setting(settings: dict, key: str) -> bool:
    """Turn a switch on or off; False when `key` is no switch."""
    if key in DEFAULT_SETTINGS and isinstance(DEFAULT_SETTINGS[key], bool):
        settings[key] = not settings[key]
        return True
    return False


def set_setting(settings: dict, key: str, value: Any) -> bool:
    """Set a setting that has choices to one of them; False (nothing set) when `key` has no
    choices or `value` is not one of its CHOICES."""
    options = CHOICES.get(key, ())
    if type(value) is not int or value not in options:
        return False
    settings[key] = value
    return True


def variants_of(settings: dict) -> Variants:
    """The variants the settings switch on."""
    return Variants(**{name: settings[name] for name in VARIANT_NAMES})


def seats_fit(people: int, settings: dict, least: int = MIN_BESIDE_BOTS) -> bool:
    """True when `people` and the settings' bot seats make a table the card deals (4–12 seats,
    the virtual ones apart), with at least `least` people beside bot seats."""
    bots = settings.get("bot_seats", 0)
    if not bots:
        return MIN_PLAYERS <= people <= MAX_PLAYERS
    return people >= least and MIN_PLAYERS <= people + bots <= MAX_PLAYERS


def bot_room(people: int, least: int = MIN_BESIDE_BOTS) -> int:
    """The most bot seats the table can take beside `people` (at least `least` counted)."""
    return max(0, MAX_PLAYERS - max(people, least))


def practice_settings(saved: dict | None) -> dict:
    """A practice game's settings: the player's last ones (`saved`), else the built-in ones
    with `PRACTICE_BOTS` bot seats; never fewer bot seats than make the card's 4 seats."""
    settings = clean_settings({"bot_seats": PRACTICE_BOTS, **(saved or {})})
    if settings["bot_seats"] < PRACTICE_LEAST_BOTS:
        settings["bot_seats"] = PRACTICE_BOTS
    return settings
