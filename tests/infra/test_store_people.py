"""What the store keeps about a person, on every backend: every group whose history or
statistics hold a player is named by the player's own item, written with the game's end, so
that /forget erases them everywhere, long after their pointer expired; and no statistics item
is kept forever (each game refreshes their expiry)."""

from __future__ import annotations

from engine import Action
from engine.actions import DECAPITATE
from handlers.session.table import Table
from handlers.storage import history
from handlers.storage.history import FORGOTTEN, GAMES_KEPT, HISTORY_TTL
from handlers.storage.keeper import Keeper
from handlers.storage.keys import group_stats_key, history_key, player_stats_key, user_key
from handlers.storage.stats import PLAYER_TTL, STATS_TTL
from handlers.telegram.item import Read, save
from infra.store import GameStore
from testing.drivers import FakeClock

DAY = 24 * 3600
ZOE = 77  # the player who asks to be forgotten
GROUPS = [-4_200_000_001 - n for n in range(5)]


def opened(chat: int, users: list[int], now: float, game: int) -> Table:
    table, _ = Table.open_lobby(chat, game, users[0], f"P{users[0]}", "en", {}, now, "Club")
    for user in users[1:]:
        table.join(user, f"P{user}")
    table.start(now, seed=game)
    return table


def play(host: Keeper, chat: int, users: list[int], game: int, *, cancel: bool = False) -> None:
    """A game in the group with `users`, dealt and ended (or cancelled) now, as the bot's
    changes make it: the end hands the game to storage with the change."""
    dealt = opened(chat, users, host.clock(), game)
    save(host, Read.of(host.load(chat)), dealt, None, [], game * 10)
    loaded = Read.of(host.load(chat))
    table = loaded.table
    if cancel:
        table.cancel("P1")
    else:
        seat = table.state.turn
        action = Action(DECAPITATE, seat=seat, target=seat % len(table.state.cards) + 1)
        table.act(table.user_at(seat), action, host.clock())
    save(host, loaded, table, None, [], game * 10 + 1)


def holds(store: GameStore, chat: int, user: int, name: str) -> bool:
    """Whether the group's kept games or its leaderboard still name or point at `user`."""
    games = history.games(store, chat)
    in_history = any(
        user in (g.get("users") or []) or name in [s["name"] for s in g["record"]["seats"]]
        for g in games
    )
    board = store.load(group_stats_key(chat))
    on_board = board is not None and str(user) in (board.data.get("players") or {})
    return in_history or on_board


def test_forget_reaches_every_group_that_holds_a_player_after_their_pointer_expired(
    store: GameStore, clock: FakeClock
) -> None:
    host = Keeper(store, clock=clock)
    others = [[100 + 10 * n + k for k in range(3)] for n in range(len(GROUPS))]
    for n, chat in enumerate(GROUPS):  # Zoe plays in five groups; the last game is cancelled
        host.point_user(ZOE, chat)
        play(host, chat, [others[n][0], ZOE, *others[n][1:]], 1, cancel=n == 4)
        clock.advance(60)
    assert store.load(user_key(ZOE)) is not None
    for later in (2, 3):  # the groups play on without her; her pointer expires
        clock.advance(25 * DAY)
        for n, chat in enumerate(GROUPS):
            play(host, chat, [*others[n], 900 + n], later)
    clock.advance(11 * DAY)
    assert store.load(user_key(ZOE)) is None
    assert all(holds(store, chat, ZOE, f"P{ZOE}") for chat in GROUPS)

    host.forget_user(ZOE)

    for chat in GROUPS:
        assert not holds(store, chat, ZOE, f"P{ZOE}"), chat
        names = [s["name"] for g in history.games(store, chat) for s in g["record"]["seats"]]
        assert FORGOTTEN in names and f"P{others[GROUPS.index(chat)][0]}" in names
    assert store.load(player_stats_key(ZOE)) is None


def test_a_statistics_item_carries_an_expiry_each_game_refreshes(
    store: GameStore, clock: FakeClock
) -> None:
    host, chat, users = Keeper(store, clock=clock), GROUPS[0], [1, 2, 3, ZOE]
    play(host, chat, users, 1)
    first = int(clock())
    assert store.load(group_stats_key(chat)).expires_at == first + STATS_TTL
    assert store.load(player_stats_key(ZOE)).expires_at == first + PLAYER_TTL
    clock.advance(100 * DAY)
    play(host, chat, users, 2)
    again = int(clock())
    assert store.load(group_stats_key(chat)).expires_at == again + STATS_TTL
    assert store.load(player_stats_key(ZOE)).expires_at == again + PLAYER_TTL
    clock.advance(STATS_TTL)  # a year without a game: the group's figures are gone
    assert store.load(group_stats_key(chat)) is None
    assert store.load(player_stats_key(ZOE)) is not None
    clock.advance(PLAYER_TTL - STATS_TTL)
    assert store.load(player_stats_key(ZOE)) is None


def test_a_game_that_ends_refreshes_no_other_players_item(
    store: GameStore, clock: FakeClock
) -> None:
    host, chat = Keeper(store, clock=clock), GROUPS[0]
    play(host, chat, [1, 2, 3, ZOE], 1)
    kept = store.load(player_stats_key(ZOE))
    clock.advance(DAY)
    play(host, chat, [1, 2, 3, 4], 2)
    assert store.load(player_stats_key(ZOE)) == kept


def test_the_players_item_outlives_every_group_item_that_holds_them() -> None:
    # A group's statistics item written just before a line would go keeps it one more
    # STATS_TTL; a game stays among a group's last ten at most ten history lifetimes.
    assert PLAYER_TTL >= 2 * STATS_TTL
    assert PLAYER_TTL >= GAMES_KEPT * HISTORY_TTL


def test_a_players_item_names_the_groups_of_their_cancelled_games_too(
    store: GameStore, clock: FakeClock
) -> None:
    host, chat = Keeper(store, clock=clock), GROUPS[0]
    play(host, chat, [1, 2, 3, ZOE], 1, cancel=True)
    assert store.load(group_stats_key(chat)) is None  # a cancelled game counts nowhere
    item = store.load(player_stats_key(ZOE))
    assert item is not None and not item.data.get("games")
    assert [int(c) for c in item.data["held"]] == [chat]
    assert ZOE in history.games(store, chat)[0]["users"]
    host.forget_user(ZOE)
    assert ZOE not in history.games(store, chat)[0]["users"]
    assert store.load(history_key(chat)) is not None


def test_forget_drops_the_id_of_a_kept_game_too_big_to_keep_its_record(
    store: GameStore, clock: FakeClock
) -> None:
    entry = {"game": 1, "at": 0, "winner": "red", "record": None, "users": [1, ZOE, 3, 4]}
    store.save(history.with_game(None, GROUPS[0], entry, clock))
    history.forget_player(store, GROUPS[0], ZOE)
    assert history.games(store, GROUPS[0])[0]["users"] == [1, 0, 3, 4]
