"""What a finished game adds to the statistics of its group and of each of its players, from the
engine's final state and the table's data (storage folds them in with the game's end)."""

from __future__ import annotations

from typing import Any

from engine.actions import SWAP
from engine.cards import COLORS, OBSERVER, SPY, color
from engine.events import TURN_BEGINS
from engine.resolution import observer_result, spy_result
from engine.views import events_for
from handlers.session.base import Seats

LEADERBOARD = 50  # players a group's item keeps, those with the most games
GROUPS_KEPT = 50  # groups a player's item names, the latest first
LINE_KEPT = 365 * 24 * 3600  # a line on a group's board goes a year after its player's last game
ROLES = ("captain", "observer", "spy", "turncoat")

Figures = dict[str, Any]


def finished_game(table: Seats, now: float) -> Figures:
    """A finished game's figures: the winner, its length, its decapitation, and for each human
    player still in it (by user id) their name, colour, roles, whether they won, tried or
    worked."""
    state = table.state
    outcome = state.outcome
    winner, caps = outcome.winner, outcome.captains
    attacker = state.decapitation.seat
    worked = not outcome.reasons
    turncoats = {action.seat for action in state.log if action.act == SWAP}
    won_alone = {
        result["seat"]
        for result in (
            observer_result(state, winner),
            spy_result(state, state.spy_guess, caps),
        )
        if result and result["won"]
    }
    players: dict[str, Figures] = {}
    removed = set(table.absences.removed)  # they did not finish it: not theirs
    colours = [color(card) for card in state.cards]  # each seat's, read once
    people = (seat for seat in state.humans() if table.user_at(seat))  # no bot seat
    for seat in (seat for seat in people if seat not in removed):
        card = state.cards[seat - 1]
        roles = [
            role
            for role, holds in (
                ("captain", seat in caps.values()),
                ("observer", card == OBSERVER),
                ("spy", card == SPY),
                ("turncoat", seat in turncoats),
            )
            if holds
        ]
        players[str(table.user_at(seat))] = {
            "name": table.name_of(seat),
            "colour": colours[seat - 1],
            "roles": roles,
            "won": colours[seat - 1] == winner or seat in won_alone,
            "tried": seat == attacker,
            "worked": seat == attacker and worked,
        }
    turns = sum(1 for event in events_for(state, None) if event["type"] == TURN_BEGINS)
    return {
        "chat": table.chat,
        "at": int(now),
        "winner": winner,
        "worked": worked,
        "seconds": max(0, round(now - (table.record.start or now))),
        "turns": turns,
        "players": players,
    }


def _count(tally: dict[str, list[int]], key: str, won: bool) -> None:
    """One more [played, won] for `key`."""
    played, wins = tally.get(key, [0, 0])
    tally[key] = [played + 1, wins + int(won)]


def _common(data: dict[str, Any], figures: Figures) -> dict[str, Any]:
    """The figures a group and a player both keep, one game more."""
    data = dict(data)
    data["games"] = data.get("games", 0) + 1
    data["seconds"] = data.get("seconds", 0) + figures["seconds"]
    data["turns"] = data.get("turns", 0) + figures["turns"]
    return data


def dated_board(board: dict[str, list], now: int) -> dict[str, list]:
    """A leaderboard without the lines of players who have not played for `LINE_KEPT`, each
    line ending with when its player last played (a line from before lines were dated: now)."""
    dated = {user: [*line[:5], line[5] if len(line) > 5 else now] for user, line in board.items()}
    return {user: line for user, line in dated.items() if line[5] > now - LINE_KEPT}


def add_to_group(data: dict[str, Any], figures: Figures) -> dict[str, Any]:
    """A group's figures with one finished game more; the leaderboard keeps its top players
    among those who played in the last `LINE_KEPT`."""
    data = _common(data, figures)
    now = figures["at"]
    wins = dict(data.get("wins") or dict.fromkeys(COLORS, 0))
    wins[figures["winner"]] = wins.get(figures["winner"], 0) + 1
    data["wins"] = wins
    data["tried"] = data.get("tried", 0) + 1
    data["worked"] = data.get("worked", 0) + int(figures["worked"])
    roles = dict(data.get("roles") or {})
    board = dated_board(data.get("players") or {}, now)
    for user, player in figures["players"].items():
        for role in player["roles"]:
            _count(roles, role, player["won"])
        _, games, wins_, worked = board.get(user, ["", 0, 0, 0])[:4]
        board[user] = [
            player["name"],
            games + 1,
            wins_ + int(player["won"]),
            worked + int(player["worked"]),
            data["games"],  # when they last played: the group's game count then
            now,  # and the time
        ]
    data["roles"] = roles
    kept = sorted(board.items(), key=lambda entry: (-entry[1][1], -entry[1][4]))[:LEADERBOARD]
    data["players"] = dict(kept)  # on a tie in games, who played last stays
    return data


def leaders(board: dict[str, list]) -> list[tuple[str, list]]:
    """A group's players as the leaderboard ranks them: the most wins first, then the most
    decapitations that worked, then the fewest games (the better rate), then by name."""
    return sorted(board.items(), key=_rank)


def _rank(entry: tuple[str, list]) -> tuple[int, int, int, str, str]:
    """A leaderboard line's place: wins, decapitations, games, then name and user for a tie."""
    user, (name, games, wins, worked, *_) = entry
    return (-wins, -worked, games, name.casefold(), user)


def add_to_players(players: dict[str, dict[str, Any]], figures: Figures) -> dict[str, Any]:
    """Each player's own figures (by user id) with one finished game more, for those it
    counted for (the others' are as they were)."""
    return {
        user: add_to_player(data, figures, user) if user in figures["players"] else data
        for user, data in players.items()
    }


def add_to_player(data: dict[str, Any], figures: Figures, user: str) -> dict[str, Any]:
    """A player's own figures with one finished game more (in the group of `figures`)."""
    player = figures["players"][user]
    data = _common(data, figures)
    data["wins"] = data.get("wins", 0) + int(player["won"])
    colours = dict(data.get("colours") or {})
    if player["colour"] is not None:
        _count(colours, player["colour"], player["won"])
    data["colours"] = colours
    roles = dict(data.get("roles") or {})
    for role in player["roles"]:
        _count(roles, role, player["won"])
    data["roles"] = roles
    data["tried"] = data.get("tried", 0) + int(player["tried"])
    data["worked"] = data.get("worked", 0) + int(player["worked"])
    chat = figures["chat"]
    data["groups"] = [chat, *(c for c in data.get("groups", []) if c != chat)][:GROUPS_KEPT]
    return data
