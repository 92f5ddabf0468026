"""/forget racing Start, each in its own Lambda instance against one DynamoDB: whichever saves
first, nobody is told they were forgotten and then dealt in. /forget takes its player out of
the lobby in the table's own conditional write; finding the game dealt, it refuses as for any
game in play."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from handlers.entry import lambda_webhook as lambda_entry
from handlers.storage.keys import game_key, player_stats_key, user_key
from infra.dynamo_store import DynamoStore
from testing.instances import PoolBot, webhook_event
from testing.players import Player, Table


class Pause:
    """Holds one instance right after its first read of a key, until released."""

    def __init__(self, thread: str, key: str) -> None:
        self.thread, self.key = thread, key
        self.reached, self.go = threading.Event(), threading.Event()
        self.armed = True

    def after_reading(self, keys: list[str]) -> None:
        if self.armed and threading.current_thread().name == self.thread and self.key in keys:
            self.armed = False
            self.reached.set()
            assert self.go.wait(60), "never released"


@contextmanager
def paused_after_reading(thread: str, key: str) -> Iterator[Pause]:
    pause = Pause(thread, key)
    load, load_many = DynamoStore.load, DynamoStore.load_many

    def loading(self, wanted):
        item = load(self, wanted)
        pause.after_reading([wanted])
        return item

    def loading_many(self, wanted):
        items = load_many(self, wanted)
        pause.after_reading(list(wanted))
        return items

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DynamoStore, "load", loading)
        patch.setattr(DynamoStore, "load_many", loading_many)
        yield pause


def handled_by(bot: PoolBot, instance: int, update: dict):
    """`update` handed to one chosen instance; the future of its answer."""
    event = webhook_event(update)
    return bot.instances.instances[instance].submit(lambda: lambda_entry.webhook(event))


def lobby_with_zoe(bot: PoolBot) -> tuple[Table, Player, dict, dict]:
    """Five in a lobby, Zoe among them; her /forget and the host's Start, not yet handled."""
    table = Table.of(bot, 5)
    table.open()
    zoe = table.players[4]
    bot.seed = 51
    forget = bot.fake.send_text(zoe.user, zoe.user, "/forget")
    start = bot.fake.press(
        table.host.user, table.group, table.lobby_message().message_id, table.t("btn_start")
    )
    bot.fake.next_updates()
    return table, zoe, forget, start


def first_then(bot: PoolBot, first: tuple[int, dict], then: tuple[int, dict]) -> None:
    """`first` reads the table, `then` is handled whole, and `first` goes on."""
    with paused_after_reading(f"lambda-{first[0]}", game_key(bot.tables[-1].chat)) as pause:
        held = handled_by(bot, *first)
        assert pause.reached.wait(60), "the first update never read the table"
        assert handled_by(bot, *then).result(120)["statusCode"] == 200
        pause.go.set()
        assert held.result(120)["statusCode"] == 200


def test_start_saving_between_forgets_read_and_its_write_deals_her_and_forget_refuses(
    pool_bot: PoolBot,
) -> None:
    table, zoe, forget, start = lobby_with_zoe(pool_bot)
    first_then(pool_bot, (0, forget), (1, start))

    assert table.data()["status"] == "playing"
    assert zoe.id in table.data()["seats"]
    assert zoe.last_text() != table.t("forgotten")
    assert table.t("forget_playing") in zoe.texts()
    assert pool_bot.store.load(user_key(zoe.id)) is not None  # nothing erased: she plays


def test_forget_saving_between_starts_read_and_its_write_leaves_her_out_of_the_deal(
    pool_bot: PoolBot,
) -> None:
    table, zoe, forget, start = lobby_with_zoe(pool_bot)
    first_then(pool_bot, (1, start), (0, forget))

    assert table.data()["status"] == "playing"
    assert zoe.id not in table.data()["seats"] and len(table.data()["seats"]) == 4
    assert zoe.last_text() == table.t("forgotten")
    assert pool_bot.store.load(user_key(zoe.id)) is None
    assert pool_bot.store.load(player_stats_key(zoe.id)) is None
    welcome = table.t_for(zoe, "joined", group=f"\u2068{table.title}\u2069")
    assert zoe.texts() == [welcome, table.t("forgotten")]  # no card came
