"""7. Statistics: what the end of a game costs DynamoDB (the table and the statistics items in one
transaction), and how large the statistics items grow."""

from __future__ import annotations

import random

from bench.bot.meter import Meter, Sample, write_units
from bench.bot.world import World, new_bot
from handlers.session.stats import ROLES, add_to_group, add_to_player
from handlers.storage.keys import group_stats_key, player_stats_key
from handlers.storage.stats import held_in
from infra.store import Item, size_of
from testing.drivers import START, LambdaBot
from testing.players import Table

LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ "


def _random_name(alphabet: str, length: int):
    """Distinct random names of `length` characters, one per player number (they compress as
    little as real names do)."""

    def name(i: int) -> str:
        rng = random.Random(i)
        return "".join(rng.choice(alphabet) for _ in range(length))

    return name


CJK = "".join(chr(c) for c in range(0x4E00, 0x4E00 + 2000))
NAMES = {
    "12 letters": _random_name(LATIN, 12),
    "32 letters (the longest kept)": _random_name(LATIN, 32),
    "32 CJK characters": _random_name(CJK, 32),
}


def end_of_game(bot: LambdaBot, meter: Meter, table: Table, seed: int, label: str) -> Sample:
    """A 12-player game (no variant) that ends at once; the end's update is sampled."""
    table.open()
    seat = table.start(seed=seed).first
    player = table.player_at(seat)
    player.press(table.t("btn_decapitate"))
    player.press(table.seat_label(seat % 12 + 1))
    with meter.sample(label) as sample:
        player.press(table.t("btn_confirm"))
    assert table.ending() is not None, "the game did not end"
    return sample


def stored_sizes(bot: LambdaBot, table: Table) -> tuple[int, int]:
    """The stored size of the group's statistics item and the largest player's item."""
    group = bot.store.load(group_stats_key(table.chat))
    players = [bot.store.load(player_stats_key(p.id)) for p in table.players]
    return size_of(group), max(size_of(item) for item in players)


def figures(rng: random.Random, chat: int, users: list[int], name, at: int = 0) -> dict:
    """A finished game's figures with random colours, roles and outcome, ended at `at`."""
    winner = rng.choice(("red", "blue"))
    attacker = rng.choice(users)
    players = {}
    for user in users:
        colour = rng.choice(("red", "blue", None))
        roles = [role for role in ROLES if rng.random() < 0.2]
        players[str(user)] = {
            "name": name(user % 1000),
            "colour": colour,
            "roles": roles,
            "won": colour == winner,
            "tried": user == attacker,
            "worked": user == attacker and rng.random() < 0.3,
        }
    worked = rng.random() < 0.3
    seconds, turns = rng.randint(30, 900), rng.randint(1, 30)
    return {
        "chat": chat,
        "at": at,
        "winner": winner,
        "worked": worked,
        "seconds": seconds,
        "turns": turns,
        "players": players,
    }


def group_item(games: int, pool: int, name, seats: int = 12) -> Item:
    """A group's statistics item after `games` games of `seats` drawn from `pool` players."""
    rng = random.Random(games * 1000 + pool)
    chat = -1_001_234_567_890
    users = [700_000_000 + i for i in range(pool)]
    data: dict = {}
    for n in range(games):  # a game an hour
        at = START + 3600 * n
        data = add_to_group(data, figures(rng, chat, rng.sample(users, seats), name, at))
    return Item(group_stats_key(chat), games, data, None)


def player_item(games: int, groups: int, name) -> Item:
    """A player's own item after `games` games spread over `groups` groups."""
    rng = random.Random(games + groups)
    data: dict = {}
    user = 700_000_000
    chats = [-1_001_000_000_000 - rng.randrange(10**9) for _ in range(groups)]
    for n in range(games):  # a game an hour
        chat, at = chats[n % groups], START + 3600 * n
        others = [user + i for i in range(1, 12)]
        data = add_to_player(data, figures(rng, chat, [user, *others], name, at), str(user))
        data = held_in(data, [chat], at)  # the groups that hold them
    return Item(player_stats_key(user), games, data, None)


def print_sizes() -> None:
    print(f"   {'statistics item, names of':76} {'bytes':>6} {'WRU':>4}  (x2 in a transaction)")
    for label, name in NAMES.items():
        rows = [
            (f"group of 12 players after {n} games ({label})", group_item(n, 12, name))
            for n in (1, 10, 100, 1000)
        ]
        rows.append(
            (
                f"group of 60 players, leaderboard at its cap of 50 ({label})",
                group_item(1000, 60, name),
            )
        )
        rows.append(
            (f"a player after 1000 games in 80 groups ({label})", player_item(1000, 80, name))
        )
        for what, item in rows:
            size = size_of(item)
            print(f"   {what:76} {size:>6} {write_units(size):>4.0f}")


def stats_figures(world: World) -> list[Sample]:
    """Print what the end of a game costs and how large the statistics items grow."""
    bot, _ = new_bot(world, "stats")
    meter = Meter(bot, 0.0)
    samples = []
    try:
        table = Table.of(bot, 12)
        samples.append(end_of_game(bot, meter, table, 51, "the end, first game (items new)"))
        first = stored_sizes(bot, table)
        samples.append(end_of_game(bot, meter, table, 52, "the end, second game (items stored)"))
        second = stored_sizes(bot, table)
    finally:
        meter.close()
        bot.close()
    print("\n7. Statistics: the end of a 12-player game (the table + 13 statistics items)")
    print(f"   {'update':38} {'DDB r/w':>7} {'RRU/WRU':>8}")
    for s in samples:
        print(f"   {s.label:38} {s.reads:>3}/{s.writes:<3} {s.rru:>3.0f}/{s.wru:<4.0f}")
    print(
        "   writes: one TransactWriteItems (the table and the statistics) and the delivery mark;"
        " no other update writes statistics"
    )
    print(
        f"   stored after one game: group {first[0]} B, largest player {first[1]} B; "
        f"after two: group {second[0]} B, largest player {second[1]} B"
    )
    print_sizes()
    return samples
