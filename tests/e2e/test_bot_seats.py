"""Games with seats the bot plays itself, through the local bot's callbacks with Telegram
answered in memory: from the lobby's Settings to the reveal."""

from __future__ import annotations

import pytest

from engine import waiting_for
from engine.state import SPEAK, TURN
from handlers.session.bot_seats import BOT_DELAY, bot_names
from handlers.session.table import Table as SessionTable
from testing.drivers import Bot
from testing.players import Table

PEOPLE, BOTS = 2, 3
SEED = 7


def with_bots(bot: Bot, lang: str = "en", bots: int = BOTS, **settings: object) -> Table:
    """Two people in a lobby that adds `bots` bot seats, dealt by `SEED`."""
    table = Table.of(bot, PEOPLE, lang=lang)
    table.open()
    table.configure(bot_seats=bots, **settings)
    table.start(seed=SEED)
    return table


def bot_seats(table: Table) -> list[int]:
    return list(table.data()["bots"])


def play_out(bot: Bot, table: Table, limit: int = 4000) -> list[float]:
    """The people scout the next seat and end their moment at once; the clock runs a second at
    a time for the bot seats (and any secret wait) until the game ends. Returns how long each
    bot seat's move took from the moment the game waited on it."""
    took: list[float] = []
    waited: tuple[int, int, float] | None = None  # (bot seat, engine version, since)
    for _ in range(limit):
        if table.data()["status"] != "playing":
            return took
        state = table.state
        seat = waiting_for(state)
        if waited is not None and (state.version, seat) != waited[:2][::-1]:
            took.append(bot.clock() - waited[2])
            waited = None
        if waited is None and seat in bot_seats(table):
            waited = (seat, state.version, bot.clock())
        held = table.data().get("hold") is not None
        person = seat is not None and seat not in bot_seats(table)
        person = person and bool(table.data()["seats"][seat - 1]) and not held
        if person and state.phase == TURN:
            table.scout(seat, seat % state.seats + 1)
        elif person and state.phase == SPEAK and _may_end(table, seat):
            table.done(seat)
        else:
            bot.advance(1)
    raise AssertionError("the game did not end")


def _may_end(table: Table, seat: int) -> bool:
    player = table.player_at(seat)
    return table.t_for(player, "btn_done") in player.labels()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_people_play_a_whole_game_with_three_bot_seats_from_lobby_to_reveal(
    memory_bot: Bot, lang: str
) -> None:
    table = with_bots(memory_bot, lang)
    state = table.state
    assert state.seats == PEOPLE + BOTS
    names = bot_names(lang, BOTS)
    assert sorted(state.names[s - 1] for s in bot_seats(table)) == sorted(names)
    seating = table.lobby_message().text
    assert all(name in seating for name in names), seating
    play_out(memory_bot, table)
    ending = table.ending()
    assert ending is not None, table.group_texts()[-3:]
    assert table.t("reveal_bots") in ending.text, ending.text
    for name in names:
        assert name in ending.text


def test_a_bot_seat_never_moves_sooner_than_the_least_delay_nor_after_the_most(
    memory_bot: Bot,
) -> None:
    table = with_bots(memory_bot, bots=8)
    took = play_out(memory_bot, table)
    assert took, "no bot seat moved"
    low, high = BOT_DELAY
    assert all(low <= t <= high + 1 for t in took), took  # a second's tick of the clock


def test_a_bot_seat_receives_no_private_message(memory_bot: Bot) -> None:
    table = with_bots(memory_bot, bots=6, turncoat=True, spy=True)
    play_out(memory_bot, table)
    people = {p.id for p in table.players}
    private = {
        c.params["chat_id"]
        for c in table.fake.calls
        if c.kind == "ok" and int(c.params.get("chat_id", table.chat)) > 0
    }
    assert private <= people, private - people


def test_a_redelivered_wake_plays_the_bots_move_once(memory_bot: Bot) -> None:
    table = with_bots(memory_bot)
    for _ in range(200):
        state = table.state
        seat = waiting_for(state)
        if seat in bot_seats(table):
            break
        table.scout(seat, seat % state.seats + 1)
        table.done(seat)
    else:
        raise AssertionError("no bot seat was waited on")
    version = table.state.version
    due = SessionTable.from_stored(table.data()).next_wake()
    memory_bot.advance(BOT_DELAY[1] + 1)
    moved = table.state.version
    assert moved > version
    said = table.group_texts()
    memory_bot.redeliver_wake(table.chat, due)  # the timer's message delivered again
    assert table.state.version == moved and table.group_texts() == said


VARIANTS = [
    {"virtual_players": 1},
    {"no_first_round_decapitation": True},
    {"uncertain_sides": True},
    {"turncoat": True},
    {"bodyguards": True},
    {"observer": True},
    {"spy": True},
    {"turncoat": True, "observer": True, "spy": True, "bodyguards": True},
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "+".join(v))
def test_every_variant_plays_to_its_end_with_bot_seats(memory_bot: Bot, variant: dict) -> None:
    table = with_bots(memory_bot, bots=7, bot_strong=True, **variant)
    play_out(memory_bot, table)
    assert table.data()["status"] == "over", table.group_texts()[-2:]
    assert table.ending() is not None


@pytest.mark.over_http
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_people_and_three_bot_seats_play_to_the_reveal_through_lambda_and_the_poller(
    bot: Bot, lang: str
) -> None:
    """The same game as above through the Lambda functions (the timer function plays the bot
    seats' moves from SQS) and through the local poller, in each language."""
    table = with_bots(bot, lang)
    play_out(bot, table)
    ending = table.ending()
    assert ending is not None, table.group_texts()[-3:]
    assert table.t("reveal_bots") in ending.text, ending.text
    opening = {"en": '⁩: "', "zh": "⁩：“"}[lang]  # after a bot seat's name, as it is shown
    claims = [text for text in table.group_texts() if opening in text]
    assert claims, "no bot seat's claim reached the group"
