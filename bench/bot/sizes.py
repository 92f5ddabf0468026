"""The saved game item's size over seeded 14-seat games, and what would shrink it."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

from bench.bot.meter import write_units
from bench.bot.world import START
from engine import apply, waiting_for
from engine.policies import InformedPolicy
from engine.state import SPEAK, TURN
from handlers.session.table import Table as GameTable
from handlers.storage.keeper import Keeper
from handlers.telegram.item import Read, save
from infra.store import Conflict, Item, decode_data, encode_data, pack_data, size_of


class MemoryStore:
    """A GameStore in memory that keeps JSON text, as the real stores do, and notes the size of
    every game item saved."""

    def __init__(self) -> None:
        self.items: dict[str, tuple[int, str, int | None]] = {}
        self.sizes: list[tuple[int, Item]] = []  # (size, item) of every game item saved
        self.reads = self.writes = 0

    def load(self, key: str) -> Item | None:
        self.reads += 1
        if key not in self.items:
            return None
        version, text, expires = self.items[key]
        return Item(key, version, decode_data(text), expires)

    def load_many(self, keys: list[str]) -> dict[str, Item | None]:
        return {key: self.load(key) for key in dict.fromkeys(keys)}

    def save(self, item: Item) -> Item:
        self.writes += 1
        current = self.items.get(item.key)
        if item.version != (current[0] if current else 0):
            raise Conflict(item.key, item.version)
        self.items[item.key] = (item.version + 1, encode_data(item.data), item.expires_at)
        if item.key.startswith("game#"):
            self.sizes.append(
                (
                    size_of(item),
                    Item(
                        item.key,
                        item.version,
                        decode_data(encode_data(item.data)),
                        item.expires_at,
                    ),
                )
            )
        return Item(item.key, item.version + 1, item.data, item.expires_at)

    def save_all(self, items: list[Item]) -> list[Item]:
        for item in items:  # a game's end and its statistics (this store never conflicts)
            current = self.items.get(item.key)
            if item.version != (current[0] if current else 0):
                raise Conflict(item.key, item.version)
        saved = [self.save(item) for item in items]
        self.writes -= len(items) - 1  # one call
        return saved

    def delete(self, key: str, version: int) -> None:
        self.writes += 1
        self.items.pop(key, None)


ALL_VARIANTS = {
    "virtual_players": 2,
    "no_first_round_decapitation": True,
    "uncertain_sides": True,
    "turncoat": True,
    "bodyguards": True,
    "observer": True,
    "spy": True,
}


def play_stored_game(seed: int, names: list[str], cap: int = 600) -> list[tuple[int, Item]]:
    """A seeded 14-seat game (12 humans + 2 virtual, all variants, informed play) through the
    host and table as the handlers drive them; returns every game item saved, with its size."""
    store = MemoryStore()
    now = [float(START)]
    keeper = Keeper(store, None, lambda: now[0])
    chat, users = -1_001_234_567_890, [700_000_000 + i for i in range(12)]
    update_ids = iter(range(812_345_678, 10**10))
    message_ids = iter(range(1_000_000, 10**9))

    def change(changer: Callable, update: bool = True) -> None:
        uid = next(update_ids) if update else None
        loaded = Read.of(keeper.load(chat))
        table, outs = changer(loaded.table)
        saved = save(keeper, loaded, table, None, outs, uid)
        if saved.game is None:
            return
        ids, tag = {}, None
        for out in saved.outs:
            if out.get("remember"):
                ids[out["remember"]] = next(message_ids)
                tag = out.get("tag", tag)
        keeper.acknowledge(chat, saved.game, saved.item, ids, tag, saved.keys)

    change(lambda _: GameTable.open_lobby(chat, 1, users[0], names[0], "en", {}, now[0], "Club"))
    for user, name in zip(users[1:], names[1:], strict=True):
        change(lambda t, u=user, n=name: (t, t.join(u, n)))
    for key, value in ALL_VARIANTS.items():
        if isinstance(value, bool):
            change(lambda t, k=key: (t, t.change_setting(k)))  # every switch starts off
        else:
            change(lambda t, k=key, v=value: (t, t.set_setting(k, v)))
    change(lambda t: (t, t.start(now[0], seed, True)))
    rng = random.Random(seed)
    policy = InformedPolicy(rng)
    table = Read.of(keeper.load(chat)).table
    seats = table.record.seats
    from engine.events import deal_events

    policy.observe(deal_events(table.state))
    for _ in range(cap):
        table = Read.of(keeper.load(chat)).table
        if table.status != "playing":
            break
        state = table.state
        seat = waiting_for(state)
        if seat is None or (table.hold is not None and state.phase in (SPEAK, TURN)):
            now[0] = max(now[0], table.deadline() or now[0])  # a timer: the hold is over
            change(lambda t: (t, t.catch_up(now[0])), update=False)
            continue
        action = policy.choose(state, seat)
        policy.observe(apply(state, action)[1])
        now[0] += 1
        change(lambda t, a=action, s=seat: (t, t.act(seats[s - 1], a, now[0])))
    return store.sizes


def item_sizes(games: int) -> None:
    """Print the saved game item's size over seeded 14-seat games, and what would shrink it."""
    print(
        f"\n   Saved game item (infra.store.size_of), {games} seeded 14-seat games: 12 humans + "
        "2 virtual, all variants, informed play; every save"
    )
    print(
        f"   {'names / stored as':40} {'saves':>6} {'largest':>8} {'p95':>6} {'median':>7} "
        f"{'> 3 KB':>7} {'WRU':>5}  target"
    )
    for label, names in (
        ("12-letter names", [f"Player {i:02d} Ab" for i in range(12)]),
        (
            "32-character names (the longest kept)",
            [f"{'Long name ' * 4}"[:30] + f"{i:02d}" for i in range(12)],
        ),
        ("32 CJK characters (3 bytes each)", ["斩首行动" * 7 + f"玩家{i:02d}" for i in range(12)]),
    ):
        saved: list[tuple[int, Item]] = []
        for seed in range(1, games + 1):
            saved += play_stored_game(seed, names)
        short = [(size, item) for size, item in saved if _decisions(item) <= SHORT_GAME]
        for how, shrink, saves in (
            ("", None, saved),
            (f"  saves within the first {SHORT_GAME} decisions", None, short),
            ("  the same saves as plain JSON text", _plain_size, saved),
        ):
            values = [size if shrink is None else shrink(item) for size, item in saves]
            units = sum(write_units(v) for v in values) / len(values)
            over = sum(1 for v in values if v > 3072) / len(values)
            print(
                f"   {how or label:40} {len(values):>6} {max(values):>8,} {_pct(values, 95):>6,} "
                f"{int(statistics.median(values)):>7,} {over:>7.1%} {units:>5.2f}  <= 3,072"
            )
        largest = max(saved, key=lambda pair: pair[0])[1].data
        session = largest.get("session") or {}
        fields = {**{k: v for k, v in largest.items() if k != "session"}, **session}
        parts = {k: len(encode_data({k: v}).encode()) for k, v in fields.items()}
        top = sorted(parts.items(), key=lambda kv: -kv[1])[:5]
        print("     largest item's parts (bytes): " + ", ".join(f"{k} {v:,}" for k, v in top))
    print("   WRU: mean write units a save of the item costs (1 per started KB)")


SHORT_GAME = 60  # decisions: a long game among people (informed play runs to about 300)


def _decisions(item: Item) -> int:
    return ((item.data.get("session") or {}).get("engine") or {}).get("version", 0)


def _plain_size(item: Item) -> int:
    """What the item would occupy with its data as uncompressed JSON text (a string attribute)."""
    return size_of(item) - len(pack_data(item.data)) + len(encode_data(item.data).encode())


def _pct(values: list[int], pct: int) -> int:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]
