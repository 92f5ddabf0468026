"""/stats: a group's finished games and leaderboard, or a player's own figures across groups."""

from __future__ import annotations

from typing import Any

from handlers.display.render.common import shown_name
from handlers.display.texts import duration, t
from handlers.session.stats import ROLES, leaders

SHOWN_LEADERS = 20  # leaderboard lines in the message (the item keeps more: it stays short)


def _rate(won: int, played: int) -> int:
    """A win rate in whole percent."""
    return round(100 * won / played) if played else 0


def _turns(total: int, games: int) -> str:
    """Average turns a game, one decimal at most."""
    return f"{total / games:.1f}".rstrip("0").rstrip(".")


def _average(lang: str, data: dict[str, Any]) -> str:
    """The average game's length and turns."""
    games = data["games"]
    length = duration(lang, round(data.get("seconds", 0) / games))
    return t(lang, "stats_average", length=length, turns=_turns(data.get("turns", 0), games))


def _roles(lang: str, roles: dict[str, list[int]]) -> list[str]:
    """The roles played, each with how often it won ("captain 2/4"), as one line (or none)."""
    parts = [
        t(lang, "stats_role", role=t(lang, f"role_{role}"), won=roles[role][1], played=played)
        for role in ROLES
        if (played := roles.get(role, [0, 0])[0])
    ]
    return [t(lang, "stats_roles", roles=t(lang, "sep_list").join(parts))] if parts else []


def group_stats(lang: str, title: str, data: dict[str, Any] | None) -> str:
    """A group's statistics in `lang`: its games, wins, decapitations and leaderboard."""
    if not data or not data.get("games"):
        return t(lang, "stats_none")
    wins = data.get("wins") or {}
    lines = [
        t(lang, "stats_title", group=shown_name(title)),
        t(lang, "stats_games", n=data["games"]),
        t(lang, "stats_wins", red=wins.get("red", 0), blue=wins.get("blue", 0)),
        t(lang, "stats_decapitations", tried=data.get("tried", 0), worked=data.get("worked", 0)),
        _average(lang, data),
        *_roles(lang, data.get("roles") or {}),
        "",
        t(lang, "stats_leaders"),
    ]
    board = leaders(data.get("players") or {})
    for rank, (_, (name, games, won, worked, *_)) in enumerate(board[:SHOWN_LEADERS], 1):
        lines.append(
            t(
                lang,
                "stats_leader",
                rank=rank,
                name=shown_name(name),
                games=games,
                wins=won,
                rate=_rate(won, games),
                worked=worked,
            )
        )
    if len(board) > SHOWN_LEADERS:
        lines.append(t(lang, "stats_more", n=len(board) - SHOWN_LEADERS))
    return "\n".join(lines)


def own_stats(lang: str, data: dict[str, Any] | None) -> str:
    """A player's own statistics in `lang`, across the groups they played in."""
    if not data or not data.get("games"):
        return t(lang, "stats_own_none")
    games, wins = data["games"], data.get("wins", 0)
    colours = data.get("colours") or {}
    red, blue = colours.get("red", [0, 0]), colours.get("blue", [0, 0])
    return "\n".join(
        [
            t(lang, "stats_own_title"),
            t(lang, "stats_own_games", n=games, groups=len(data.get("groups", []))),
            t(lang, "stats_own_wins", wins=wins, rate=_rate(wins, games)),
            t(lang, "stats_own_colours", rp=red[0], rw=red[1], bp=blue[0], bw=blue[1]),
            *_roles(lang, data.get("roles") or {}),
            t(
                lang,
                "stats_own_decapitations",
                tried=data.get("tried", 0),
                worked=data.get("worked", 0),
            ),
            _average(lang, data),
        ]
    )
