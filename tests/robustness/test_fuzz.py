"""Generated updates, valid-looking and broken, through the webhook entry against moto: after
each, the entry answered (never raised, no handler failed) and the stored game still holds the
engine's invariants."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from engine.codec import state_from_dict, state_to_dict
from handlers.entry import lambda_webhook as lambda_entry
from testing.drivers import LambdaBot
from testing.fake_telegram.world import Call
from testing.instances import webhook_event
from testing.players import Table


def raw_data(where: str, chat: int, game: int, version: int, arg: str) -> str:
    """Callback data as any client may send it, whatever the bot's buttons say."""
    return f"{where}|{chat}|{game}|{version}|{arg}"


COMMANDS = [
    "/newgame",
    "/cancel",
    "/status",
    "/mycard",
    "/rules",
    "/help",
    "/language",
    "/start",
    "/start hi",
    "/nonsense",
    "/newgame@someone_else_bot",
]
ARGS = [
    "S",
    "D",
    "B",
    "e",
    "w",
    "k",
    "pr",
    "pb",
    "s1",
    "s2",
    "s3",
    "s4",
    "s9",
    "d2",
    "d3p1",
    "d2b0",
    "x2",
    "x3p0b1",
    "x1",
    "r1",
    "y1.2",
    "y9.9",
    "me",
    "start",
    "leave",
    "set",
    "back",
    "again",
    "t:spy",
    "t:turncoat",
    "t:virtual_players",
    "t:lang",
    "t:bogus",
    "v:virtual_players:2",
    "v:turn_seconds:30",
    "v:turn_seconds:31",
    "v:spy_seconds",
    "v:spy",
    "v:bogus:1",
]
MUTATIONS = ["none", "none", "none", "drop", "retype", "swap_user", "bot_sender", "old_id"]
JUNK = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def invariants(data: dict) -> None:
    """What a stored table must satisfy, whatever reached the bot."""
    assert data["status"] in ("lobby", "playing", "over", "cancelled")
    ids = [uid for uid, _ in data["players"]]
    assert 1 <= len(ids) <= 12 and len(set(ids)) == len(ids)
    assert len(set(data.get("applied", []))) == len(data.get("applied", []))
    for batch in data.get("owed", []):
        assert batch["outs"] and {"key", "at", "outs"} <= set(batch)
    if data["status"] in ("over", "cancelled"):
        assert data["deadline"] is None and not data.get("hold")
    else:
        assert data["deadline"] is not None
    if data.get("engine") is None:
        assert data["status"] in ("lobby", "cancelled")
        return
    state = state_from_dict(data["engine"])
    assert state_to_dict(state) == data["engine"]  # round-trips
    assert Counter(state.cards) == Counter(state.deal)  # cards conserved
    assert len(data["seats"]) == state.seats
    if data["status"] == "playing":
        assert not state.over or (data.get("hold") and state.variants.spy)
    if data["status"] == "over":
        assert state.over and state.outcome is not None
    if data.get("hold"):
        assert data["status"] == "playing"


class World:
    """The group under fire and what a fuzzer knows of it."""

    def __init__(self, bot: LambdaBot) -> None:
        self.bot = bot
        self.table = Table.of(bot, 6)
        self.table.open(self.table.players[1:5])
        self.table.configure(turncoat=True, spy=True, bodyguards=True, virtual_players=1)
        self.table.start(seed=91)
        self.outsider = self.table.players[5]
        self.channel = bot.fake.add_channel("Noise")

    def users(self) -> list:
        return [p.user for p in self.table.players]

    def game_data(self, kind: str, arg: str, version_shift: int) -> str:
        data = self.table.data()
        version = state_from_dict(data["engine"]).version if "engine" in data else 0
        return raw_data(kind, self.table.chat, data["game"], max(0, version + version_shift), arg)


PLANS = st.fixed_dictionaries(
    {
        "user": st.integers(0, 99),
        "kind": st.sampled_from(["group", "private", "press", "press", "edit", "channel"]),
        "text": st.one_of(st.sampled_from(COMMANDS), st.text(max_size=30)),
        "private_text": st.integers(0, len(COMMANDS)),
        "message": st.integers(0, 999),
        "in_private": st.booleans(),
        "forged": st.sampled_from(["real", "real", "game", "lobby", "board", "bytes"]),
        "button": st.integers(0, 99),
        "arg": st.sampled_from(ARGS),
        "shift": st.integers(-2, 1),
        "bytes": st.text(max_size=64).filter(lambda t: len(t.encode()) <= 64),
        "mutation": st.sampled_from(MUTATIONS),
        "field": st.integers(0, 99),
        "junk": JUNK,
        "old": st.integers(0, 999),
        "mangle": st.integers(0, 9),
        "cut": st.integers(0, 10_000),
        "insert": st.text(max_size=4),
    }
)


def pick(items: list, index: int) -> Any:
    return items[index % len(items)]


def real_update(world: World, plan: dict) -> dict | None:
    """An update the fake makes for a random act of a random member."""
    fake, table = world.bot.fake, world.table
    user = pick(world.users(), plan["user"])
    kind = plan["kind"]
    if kind == "group":
        return fake.send_text(user, table.group, plan["text"])
    if kind == "private":
        join = f"/start j{table.chat}_{table.data()['game']}".replace("-", "m")
        return fake.send_text(user, user, pick([*COMMANDS, join], plan["private_text"]))
    if kind == "channel":
        return fake.channel_post(world.channel, plan["text"] or "/newgame")
    if kind == "edit":
        sent = fake.send_text(user, table.group, "/status")
        if sent is None:
            return None
        fake.next_updates()
        return fake.edited_text(user, table.group, sent["message"]["message_id"], "/cancel")
    where = user if plan["in_private"] else table.group
    shown = [m for m in fake.chat(where) if m.from_bot and not m.deleted]
    if not shown:
        return None
    message = pick(shown, plan["message"])
    forged = plan["forged"]
    if forged == "real":
        data = [b.callback_data for row in message.buttons for b in row if b.callback_data]
        if not data:
            return None
        data = pick(data, plan["button"])
    elif forged == "bytes":
        data = plan["bytes"]
    else:
        kinds = {"game": "g", "lobby": "l", "board": "c"}
        data = world.game_data(kinds[forged], plan["arg"], plan["shift"])
    return fake.press(user, where, message.message_id, callback_data=data)


def mutate(update: dict, plan: dict, world: World) -> dict:
    """Break an update the way a forger, or a mangled body, might."""
    update = copy.deepcopy(update)
    how = plan["mutation"]
    body = next(v for k, v in update.items() if k != "update_id")
    if how == "drop" and isinstance(body, dict) and body:
        body.pop(pick(sorted(body), plan["field"]))
    elif how == "retype" and isinstance(body, dict) and body:
        body[pick(sorted(body), plan["field"])] = plan["junk"]
    elif how == "swap_user" and isinstance(body, dict) and "from" in body:
        body["from"] = world.outsider.user.to_api()
    elif how == "bot_sender" and isinstance(body, dict) and "from" in body:
        body["from"] = {"id": 777000002, "is_bot": True, "first_name": "Bot"}
    elif how == "old_id":
        update["update_id"] = pick(world.table.envelope().get("applied") or [1], plan["old"])
    return update


def forgive_the_forged(calls: list[Call]) -> None:
    """Telegram refuses what follows from an update it would never send (a reply to a message
    or chat that does not exist): the world's doing here, not a mistake of the bot."""
    for call in calls:
        if call.kind == "refused":
            call.kind = "error"


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
    database=None,
    phases=[Phase.generate],  # the game lives on between examples: nothing replays or shrinks
)
@given(plan=PLANS)
def test_generated_updates_never_crash_the_entry_nor_break_the_game(
    lambda_bot: LambdaBot, plan: dict
) -> None:
    world = getattr(lambda_bot, "world", None) or World(lambda_bot)
    lambda_bot.world = world
    mark = len(lambda_bot.fake.calls)
    update = real_update(world, plan)
    lambda_bot.fake.next_updates()
    if update is None:
        return
    body = json.dumps(mutate(update, plan, world))
    if plan["mangle"] == 0:  # now and then, the body itself is mangled
        cut = plan["cut"] % (len(body) + 1)
        body = body[:cut] + plan["insert"] + body[cut + 4 :]
    event = webhook_event({})
    event["body"] = body
    answer = lambda_entry.webhook(event)
    assert answer["statusCode"] == 200, answer
    assert not lambda_bot.errors, lambda_bot.errors
    invariants(world.table.data())
    forgive_the_forged(lambda_bot.fake.calls[mark:])
