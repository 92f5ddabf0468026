"""The statistics items beside the tables: added to by the write that ends a game, never by
another change, and by both of two groups whose games end at once."""

from __future__ import annotations

from engine import Action
from engine.actions import DECAPITATE
from handlers.session.table import Table
from handlers.storage.keeper import Keeper, Saved
from handlers.storage.keys import game_key, group_stats_key, player_stats_key
from handlers.storage.retry import retry_on_conflict
from handlers.storage.stats import PLAYER_TTL, STATS_TTL
from handlers.telegram.item import Read, answer_again, save
from infra.store import GameStore, Item
from tests.support.tables import NOW

OTHER_CHAT = -4_100_000_002


def playing(chat: int, users: list[int], seed: int = 1) -> Table:
    table, _ = Table.open_lobby(chat, 1, users[0], f"P{users[0]}", "en", {}, NOW, "Club")
    for user in users[1:]:
        table.join(user, f"P{user}")
    table.start(NOW, seed)
    return table


def decapitating(now: float):
    """The change in which the first player decapitates the next seat: the game ends."""

    def change(table: Table | None):
        seat = table.state.turn
        action = Action(DECAPITATE, seat=seat, target=seat % len(table.state.cards) + 1)
        table.act(table.user_at(seat), action, now)
        return table, []

    return change


def change(host: Keeper, chat: int, update_id: int, changer) -> Saved:
    """One change as the bot makes it: read, decide, save; all again after a lost race."""

    def attempt(_: int) -> Saved:
        loaded = Read.of(host.load(chat))
        if loaded.applied(update_id):
            return answer_again(host, loaded, update_id)
        table, outs = changer(loaded.table)
        return save(host, loaded, table, None, outs, update_id)

    return retry_on_conflict(attempt)


def starting(table: Table):
    return lambda current: (table, [])


def games(store: GameStore, key: str) -> int:
    item = store.load(key)
    return item.data["games"] if item else 0


class Racing:
    """A store on which, just before a given write of the game's end, another write lands."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.before_end: list = []

    def __getattr__(self, name: str):
        return getattr(self.store, name)

    def save_all(self, items: list[Item]) -> list[Item]:
        while self.before_end:
            self.before_end.pop(0)()
        return self.store.save_all(items)


def test_two_groups_ending_at_once_both_count_in_their_shared_players_figures(
    store: GameStore, clock
) -> None:
    racing = Racing(store)
    host, other = Keeper(racing, clock=clock), Keeper(store, clock=clock)
    change(host, -4_100_000_001, 1, starting(playing(-4_100_000_001, [1, 2, 3, 42])))
    change(other, OTHER_CHAT, 1, starting(playing(OTHER_CHAT, [42, 5, 6, 7])))
    # The first group's end has read the figures when the second group's end saves its own.
    racing.before_end.append(lambda: change(other, OTHER_CHAT, 2, decapitating(NOW + 5)))

    change(host, -4_100_000_001, 2, decapitating(NOW + 9))

    assert games(store, player_stats_key(42)) == 2  # the lost race was run again
    assert games(store, group_stats_key(-4_100_000_001)) == 1
    assert games(store, group_stats_key(OTHER_CHAT)) == 1
    assert {games(store, player_stats_key(u)) for u in (1, 2, 3, 5, 6, 7)} == {1}
    assert store.load(player_stats_key(42)).data["groups"] == [-4_100_000_001, OTHER_CHAT]


def test_a_redelivered_end_and_any_later_change_count_nothing(store: GameStore, clock) -> None:
    host = Keeper(store, clock=clock)
    chat = -4_100_000_001
    change(host, chat, 1, starting(playing(chat, [1, 2, 3, 4])))
    change(host, chat, 2, decapitating(NOW + 9))
    counted = {key: store.load(key) for key in (group_stats_key(chat), player_stats_key(1))}

    assert change(host, chat, 2, decapitating(NOW + 9)).repeated
    change(host, chat, 3, lambda table: (table, []))  # a change to the finished game

    assert {key: store.load(key) for key in counted} == counted
    assert store.load(game_key(chat)).data["session"]["status"] == "over"


def test_the_statistics_items_expire_after_the_last_game(store: GameStore, clock) -> None:
    host = Keeper(store, clock=clock)
    chat = -4_100_000_001
    change(host, chat, 1, starting(playing(chat, [1, 2, 3, 4])))
    change(host, chat, 2, decapitating(NOW + 9))
    assert store.load(group_stats_key(chat)).expires_at == int(clock()) + STATS_TTL
    assert store.load(player_stats_key(1)).expires_at == int(clock()) + PLAYER_TTL
