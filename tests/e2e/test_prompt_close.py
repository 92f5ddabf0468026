"""Every private prompt is closed when its wait ends, however it ends: its buttons go, and its
text says what happened, in the player's own language."""

from __future__ import annotations

import random

import pytest

from engine import Variants, captains
from engine.cards import OBSERVER, SPY, color
from engine.state import SPEAK, SPY_PHASE, TURN, TURNCOAT
from engine.turns import may_decapitate, waiting_for
from handlers.display.texts import card_name, colour_name
from testing.deals import find_seed, lone_x, observer_opens, spy_waits, x_apart
from testing.drivers import Bot, LambdaBot
from testing.fake_telegram import FakeMessage
from testing.players import Player, Table

LANGS = pytest.mark.parametrize("lang", ["en", "zh"])


def now(player: Player, message: FakeMessage) -> FakeMessage:
    """A private message as it reads now."""
    return player.fake.message(player.user, message.message_id)


def live(player: Player) -> list[FakeMessage]:
    """The player's private messages that still have a button to press."""
    return [m for m in player.messages() if any(b.callback_data for row in m.buttons for b in row)]


def assert_closed(
    table: Table, player: Player, message: FakeMessage, key: str, above: str = "", **kw
) -> None:
    """The prompt has no buttons left and says, in the player's language, what happened
    (below what it told `above` its question: the first turn's, the player's card)."""
    shown = now(player, message)
    assert shown.buttons == []
    said = table.t_for(player, key, **kw)
    assert shown.text == (f"{above}\n{said}" if above else said)


def assert_saw(
    table: Table, player: Player, message: FakeMessage, target: int, code: str, above: str = ""
) -> None:
    """The prompt scouted from has no buttons left and says, in the scout's language, what the
    scout saw (the result shown where they chose; below the card, on the first turn's)."""
    shown = now(player, message)
    lang = player.lang or table.lang
    card = card_name(lang, code)
    seen = table.t_for(player, "scout_result", target=table.seat_label(target, lang), card=card)
    seen = seen.replace("<b>", "").replace("</b>", "")
    assert shown.buttons == []
    assert shown.text.startswith(f"{above}\n{seen}" if above else seen), shown.text


def late_press(table: Table, player: Player, message: FakeMessage) -> str | None:
    """A press of the prompt's first button, from a client that never saw it closed."""
    return player.press_data(message.buttons[0][0].callback_data, now(player, message))


@LANGS
def test_a_turn_prompt_is_closed_with_time_ran_out_when_the_turn_times_out(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(seed=11)
    late = table.player_at(state.first)
    prompt = late.prompt()
    memory_bot.advance(90)
    assert_closed(table, late, prompt, "closed_timeout_turn", table.dealt(late, state))
    after = [m.text for m in late.messages() if m.message_id > prompt.message_id]
    assert all(text.startswith("⏳") for text in after)  # at most a nudge: the prompt says it
    assert late_press(table, late, prompt) == table.t_for(late, "too_late")
    assert table.state.turn == state.first % 4 + 1


@LANGS
def test_a_decided_prompt_says_what_was_decided(memory_bot: Bot, lang: str) -> None:
    variants = Variants(virtual_players=1, bodyguards=True)

    def two_coloured_humans(state):
        after = [(state.first + i - 1) % 5 + 1 for i in range(1, 5)]
        second = next(s for s in after if not state.virtual[s - 1])
        return all(color(state.cards[s - 1]) for s in (state.first, second))

    seed, _ = find_seed(4, variants, two_coloured_humans)
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.configure(virtual_players=1, bodyguards=True)
    state = table.start(seed)
    first = table.player_at(state.first)
    turn = first.prompt()
    target = next(s for s in range(1, 6) if s != state.first)
    table.scout(state.first, target)
    assert_saw(table, first, turn, target, state.cards[target - 1], table.dealt(first, state))
    speak = first.prompt()
    table.done(state.first)
    assert_closed(table, first, speak, "closed_end_turn")

    attacker = table.state.turn
    player = table.player_at(attacker)
    menu = player.prompt()
    victim = next(s for s in range(1, 6) if s != attacker)
    table.decapitate(attacker, victim, proxy=False, bodyguard=True)
    decl = table.t_in(lang, "decl_proxy", v=table.t_in(lang, "btn_no"))
    decl += table.t_in(lang, "decl_bodyguard", v=table.t_in(lang, "btn_yes"))
    name = table.seat_label(victim, lang)
    assert_closed(table, player, menu, "closed_decapitate", target=name, decl=decl)
    assert table.ending() is not None


def test_a_prediction_closes_the_observers_speaking_prompt(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 5)
    state = observer_opens(table)
    table.scout(state.first, state.first % 5 + 1)
    observer = table.player_at(state.first)
    speak = observer.prompt()
    table.predict(state.first, "red")
    assert_closed(table, observer, speak, "closed_predict", colour=colour_name("en", "red"))


@LANGS
def test_a_turncoat_offer_is_closed_when_its_window_ends(memory_bot: Bot, lang: str) -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = Table.of(memory_bot, 7, lang=lang)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    state = table.start(seed)
    holder = lone_x(state)
    table.scout(state.first, holder)
    turncoat = table.player_at(holder)
    offer = turncoat.prompt()
    told = len(turncoat.messages())
    memory_bot.advance(10)
    assert_closed(table, turncoat, offer, "closed_timeout_turncoat")
    assert len(turncoat.messages()) == told  # the offer says it: no message more
    assert late_press(table, turncoat, offer) == table.t_for(turncoat, "too_late")
    scout = table.player_at(state.first)
    assert scout.labels() == [table.t_for(scout, "btn_done")]


def test_a_turncoat_offer_says_what_was_chosen(memory_bot: Bot) -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = Table.of(memory_bot, 7)
    table.open()
    table.configure(turncoat=True)
    state = table.start(seed)
    holder = lone_x(state)
    scout = state.first
    table.scout(scout, holder)
    turncoat = table.player_at(holder)
    offer = turncoat.prompt()
    table.keep(holder)
    assert_closed(table, turncoat, offer, "closed_keep")
    memory_bot.advance(20)  # the window ends as it would have anyway
    table.done(scout)
    # Later someone else scouts the X again and the holder swaps this time.
    seat = table.state.turn
    while seat == holder:
        table.scout_and_done(seat, scout if scout != seat else seat % 7 + 1)
        seat = table.state.turn
    table.scout(seat, holder)
    offer = turncoat.prompt()
    table.swap(holder)
    assert_closed(table, turncoat, offer, "closed_swap", scout=table.seat_label(seat))


def test_a_spy_prompt_is_closed_when_the_spy_runs_out_of_time(memory_bot: Bot) -> None:
    seed, _ = find_seed(6, Variants(spy=True), spy_waits)
    table = Table.of(memory_bot, 6, lang="zh")
    table.open()
    table.configure(spy=True, spy_seconds=10)
    state = table.start(seed)
    spy = table.player_at(state.holder(SPY))
    target = next(s for s in range(1, 7) if s not in (state.first, state.holder(SPY)))
    table.decapitate(state.first, target)
    prompt = spy.prompt()
    memory_bot.advance(10)
    assert_closed(table, spy, prompt, "closed_timeout_spy")
    assert table.ending() is not None


@LANGS
def test_a_cancelled_game_closes_every_open_prompt(memory_bot: Bot, lang: str) -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = Table.of(memory_bot, 7, lang=lang)
    table.open()
    table.configure(turncoat=True)
    state = table.start(seed)
    holder = lone_x(state)
    first = table.player_at(state.first)
    turn = first.prompt()
    table.scout(state.first, holder)
    turncoat = table.player_at(holder)
    offer = turncoat.prompt()
    table.host.say("/cancel")
    assert table.data()["status"] == "cancelled"
    assert_closed(table, turncoat, offer, "closed_cancelled")
    assert_saw(table, first, turn, holder, state.cards[holder - 1], table.dealt(first, state))
    for player in table.players:
        assert live(player) == []


def test_a_cancel_closes_the_turn_prompt(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    table.open()
    state = table.start(seed=23)
    first = table.player_at(state.first)
    prompt = first.prompt()
    first.press(table.t_for(first, "btn_scout"))  # the seat list is open when the game ends
    table.host.say("/cancel")
    assert_closed(table, first, prompt, "closed_cancelled", table.dealt(first, state))
    assert late_press(table, first, prompt) == table.t_for(first, "too_late")


@LANGS
def test_the_end_closes_the_speaking_prompt(lambda_bot: LambdaBot, lang: str) -> None:
    table = Table.of(lambda_bot, 4, lang=lang)
    table.open()
    state = table.start(seed=12)
    table.scout(state.first, state.first % 4 + 1)
    scout = table.player_at(state.first)
    speak = scout.prompt()
    lambda_bot.fake.kick_bot(table.group, by=table.host.user)
    lambda_bot.settle()
    assert table.data()["status"] == "cancelled"
    assert_closed(table, scout, speak, "closed_cancelled")
    assert scout.last_text().startswith("🛑 ")  # told why, in a message of its own


@LANGS
def test_the_speaking_prompt_is_closed_when_speaking_time_is_over(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.configure(speak_seconds=30)
    state = table.start(seed=12)
    table.scout(state.first, state.first % 4 + 1)
    scout = table.player_at(state.first)
    speak = scout.prompt()
    memory_bot.advance(30)
    assert_closed(table, scout, speak, "closed_timeout_speak")
    assert late_press(table, scout, speak) == table.t_for(scout, "too_late")


# -- whole games: no live button left anywhere ------------------------------------------------

VARIANT_SETS = [
    {},
    {"turncoat": True, "turncoat_seconds": 10},
    {"observer": True},
    {"spy": True, "spy_seconds": 10},
    {"virtual_players": 1, "bodyguards": True},
    {"turncoat": True, "turncoat_seconds": 10, "spy": True, "spy_seconds": 10},
    {"virtual_players": 2, "observer": True, "no_first_round_decapitation": True},
]
ENDINGS = ["decision", "timeouts", "cancel", "removed"]


def seconds_of(settings: dict, phase: str) -> int:
    key = {TURN: "turn_seconds", SPEAK: "speak_seconds", TURNCOAT: "turncoat_seconds"}.get(
        phase, "spy_seconds"
    )
    return settings.get(key) or {"turn_seconds": 90, "speak_seconds": 60}.get(key, 15)


def play_one_step(table: Table, bot: Bot, rng: random.Random, settings: dict, ending: str) -> None:
    """Whoever the game waits for decides something legal, or lets the time run out."""
    hold = table.data().get("hold")
    if hold:  # a secret window: nobody else may act until it closes
        bot.advance(max(1, hold["until"] - bot.clock()))
        return
    state = table.state
    seat = waiting_for(state)
    phase = state.phase
    if ending == "timeouts" or seat is None or state.virtual[seat - 1] or rng.random() < 0.25:
        bot.advance(seconds_of(settings, phase))
        return
    if phase == TURN:
        may = may_decapitate(state, seat) is None and state.acted and rng.random() < 0.2
        others = [s for s in range(1, state.seats + 1) if s != seat]
        if may and ending == "decision":
            proxy = rng.choice([True, False]) if state.variants.virtual_players else None
            guard = rng.choice([True, False]) if state.variants.bodyguards else None
            table.decapitate(seat, rng.choice(others), proxy, guard)
        else:
            table.scout(seat, rng.choice(others))
    elif phase == SPEAK:
        observer = state.cards[seat - 1] == OBSERVER and state.prediction is None
        if observer and rng.random() < 0.5:
            table.predict(seat, rng.choice(["red", "blue"]))
        else:
            table.done(seat)
    elif phase == TURNCOAT:
        (table.swap if rng.random() < 0.5 else table.keep)(seat)
    elif phase == SPY_PHASE:
        caps = captains(state.cards)
        table.spy_guess(seat, caps["red"] or 1, caps["blue"] or 2)


@pytest.mark.parametrize("ending", ENDINGS)
def test_no_live_button_is_left_in_any_private_chat_after_a_game(
    memory_bot: Bot, ending: str
) -> None:
    rng = random.Random(f"prompts-{ending}")
    for number, settings in enumerate(VARIANT_SETS):
        humans = rng.randint(4, 7)
        table = Table.of(memory_bot, humans, lang=rng.choice(["en", "zh"]))
        table.open()
        table.configure(**settings)
        table.start(seed=rng.randrange(10**6))
        steps = rng.randint(2, 12) if ending in ("cancel", "removed") else 200
        for _ in range(steps):
            if table.data()["status"] != "playing":
                break
            play_one_step(table, memory_bot, rng, settings, ending)
        if ending == "cancel" and table.data()["status"] == "playing":
            table.host.say("/cancel")
        if ending == "removed" and table.data()["status"] == "playing":
            memory_bot.act(lambda t=table: memory_bot.fake.kick_bot(t.group, by=t.host.user))
        if ending == "decision":  # games that did not end by a decision are ended by time
            for _ in range(50):
                if table.data()["status"] != "playing":
                    break
                memory_bot.advance(seconds_of(settings, table.state.phase))
        assert table.data()["status"] in ("over", "cancelled"), (number, ending)
        for player in table.players:
            assert live(player) == [], (number, ending, player.name, player.texts())


def test_a_prompt_sent_again_after_start_is_closed_when_its_wait_ends(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    host = table.host
    table.open()
    table.start(seed=11)
    seat = table.seat_of(host)
    memory_bot.fake.block(host.user)  # after the deal: the bot learns it at their turn's prompt
    while table.state.turn != seat:
        turn = table.state.turn
        table.scout_and_done(turn, turn % 4 + 1)
    host.private("/start")  # the card and the prompt come again
    prompt = host.prompt()
    assert prompt is not None
    memory_bot.advance(90)
    assert_closed(table, host, prompt, "closed_timeout_turn")
    assert live(host) == []


def test_a_prompt_telegram_held_back_still_closes_when_its_wait_ends(
    memory_bot: Bot,
) -> None:
    """Telegram refuses the next turn's prompt (429): it goes out again later, its id is
    remembered then, and the turn's end closes it all the same; no live button is left."""
    table = Table.of(memory_bot, 4)
    table.open()
    first = table.start(seed=11).first
    player = table.player_at(first % 4 + 1)
    memory_bot.fake.fail_next("sendMessage", status=429, retry_after=30, chat_id=player.user)
    table.scout_and_done(first, first % 4 + 1)  # the next turn's prompt is refused once
    memory_bot.advance(90 + 30)  # the turn runs out, its deadline moved by the wait
    assert live(player) == []
    assert table.t_for(player, "closed_timeout_turn") in player.texts()
