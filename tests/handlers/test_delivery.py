"""Players the bot cannot message privately: the group is told, and the game goes on."""

from __future__ import annotations

import pytest

from engine import GameState, Variants
from engine.cards import color, is_x
from testing.deals import WORKED_EXAMPLE_SEED, find_seed, lone_x, x_apart
from testing.drivers import Bot, LambdaBot
from testing.players import GROUP_TITLE, NAMES, Table


@pytest.mark.over_http
def test_player_the_bot_cannot_reach_is_named_with_a_button_and_the_game_goes_on(
    bot: Bot,
) -> None:
    table = Table.of(bot, 4)
    host = table.host
    table.open()
    state = table.start(seed=WORKED_EXAMPLE_SEED)
    seat = table.seat_of(host)
    bot.fake.block(host.user)  # after the deal: the bot learns it at the next private message
    while table.state.turn != seat:
        table.scout_and_done(table.state.turn, seat)
    warning = next(m for m in table.group_messages() if m.text.startswith("⚠️"))
    assert warning.text.startswith(f"⚠️ {table.seat_label(seat)}: I can't send you private")
    (button,) = warning.buttons[0]
    assert button.text == table.t("btn_open_chat") and button.url.startswith("https://t.me/")
    assert table.data()["status"] == "playing"

    # The host opens the chat from the button: welcomed, shown their seat, and their turn.
    before = len(host.texts())
    host.press(button.text, warning)
    texts = host.texts()[before:]  # answered with the game, not the welcome
    assert texts[0].startswith(f"You sit in seat {seat} in \u2068{GROUP_TITLE}\u2069.")
    assert not any(text.startswith("Hello! I host Decapitation") for text in texts)
    assert host.labels() == [table.t("btn_scout"), table.t("btn_decapitate")]
    table.decapitate(seat, state.first if state.first != seat else seat % 4 + 1)
    assert table.ending() is not None


def test_player_who_blocks_the_bot_mid_game_is_named_and_skipped_in_time(
    lambda_bot: LambdaBot,
) -> None:
    table = Table.of(lambda_bot, 4)
    table.open()
    state = table.start(seed=WORKED_EXAMPLE_SEED)
    nxt = state.first % 4 + 1
    blocker = table.player_at(nxt)
    lambda_bot.fake.block(blocker.user)
    table.scout_and_done(state.first, nxt)
    warning = next(text for text in table.group_texts() if text.startswith("⚠️"))
    assert warning.startswith(f"⚠️ {table.seat_label(nxt)}: I can't send you private messages")
    assert table.state.turn == nxt
    lambda_bot.advance(30)  # the turn whose prompt failed is cut to 30 s
    skipped = table.t("skipped_line", name=table.seat_label(nxt))
    assert any(skipped in text for text in table.group_texts())
    assert table.state.turn == nxt % 4 + 1


def group_calls_since(table: Table, mark: int) -> list[str]:
    calls = table.fake.calls[mark:]
    return [c.method for c in calls if c.params.get("chat_id") == table.chat and c.kind == "ok"]


def host_is_the_spy(state) -> bool:
    """The host holds the Spy and does not play first; the first player holds a colour."""
    spy = state.holder("SPY")
    first = color(state.cards[state.first - 1])
    return spy not in (None, state.first) and state.names[spy - 1] == NAMES[0] and bool(first)


def unreachable_spy(bot: Bot, seconds: int) -> tuple[Table, GameState]:
    """A six-player Spy game whose Spy (the host) blocked the bot after the deal."""
    seed, _ = find_seed(6, Variants(spy=True), host_is_the_spy)
    table = Table.of(bot, 6)
    table.open()
    table.configure(spy=True, spy_seconds=seconds)
    state = table.start(seed)
    bot.fake.block(table.host.user)  # after the deal: the bot learns it when the Spy is asked
    return table, state


def test_unreachable_spy_is_not_named_when_the_secret_wait_begins_or_ends(bot: Bot) -> None:
    table, state = unreachable_spy(bot, 10)
    assert table.player_at(state.holder("SPY")) is table.host
    mark = len(bot.fake.calls)
    table.decapitate(state.first, next(s for s in range(1, 7) if s != state.first))
    bot.advance(9)
    assert group_calls_since(table, mark) == ["editMessageText"]
    bot.advance(1)
    # The turn message closed and the reveal posted (side by side), and nothing else.
    assert sorted(group_calls_since(table, mark)[1:]) == ["editMessageText", "sendMessage"]
    assert table.ending() is not None


def host_holds_the_x(state) -> bool:
    """One X in the deal, held by the host, who does not play first."""
    return x_apart(state) and state.names[lone_x(state) - 1] == NAMES[0]


def unreachable_turncoat(bot: Bot, seconds: int) -> tuple[Table, GameState, int]:
    """A seven-player Turncoat game whose X holder (the host) blocked the bot after the
    deal."""
    seed, _ = find_seed(7, Variants(turncoat=True), host_holds_the_x)
    table = Table.of(bot, 7)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=seconds)
    state = table.start(seed)
    bot.fake.block(table.host.user)  # after the deal: the bot learns it when the X is offered
    holder = table.seat_of(table.host)
    assert is_x(state.cards[holder - 1])
    return table, state, holder


def test_unreachable_turncoat_is_not_named_when_scouted_or_when_the_window_ends(
    lambda_bot: LambdaBot,
) -> None:
    table, state, holder = unreachable_turncoat(lambda_bot, 10)
    mark = len(lambda_bot.fake.calls)
    table.scout(state.first, holder)
    lambda_bot.advance(10)
    assert group_calls_since(table, mark) == ["editMessageText", "editMessageText"]
    table.done(state.first)


def test_turncoat_who_opens_the_chat_in_the_window_gets_the_choice_and_may_swap(
    lambda_bot: LambdaBot,
) -> None:
    table, state, holder = unreachable_turncoat(lambda_bot, 30)
    table.scout(state.first, holder)
    lambda_bot.advance(5)
    table.host.private("/start")  # opens the chat while the window runs
    assert any("Your card" in text for text in table.host.texts())
    assert table.host.labels() == [table.t("btn_swap"), table.t("btn_keep")]
    table.swap(holder)
    lambda_bot.advance(25)
    assert table.state.cards[holder - 1] == state.cards[state.first - 1]
    # The scout's speaking moment came when the window closed, not when the host opened.
    assert table.player_at(state.first).labels() == [table.t("btn_done")]


def test_scout_who_opens_the_chat_in_the_window_gets_no_early_speaking_moment(
    lambda_bot: LambdaBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    def x_apart_from_the_first_two(state):
        first = state.first
        return state.names[first - 1] == NAMES[0] and x_apart(state, first, first % 7 + 1)

    seed, _ = find_seed(7, Variants(turncoat=True), x_apart_from_the_first_two)
    table = Table.of(lambda_bot, 7)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=30)
    state = table.start(seed)
    assert table.seat_of(table.host) == state.first
    fake, host = lambda_bot.fake, table.host
    send = fake._handlers["sendMessage"]

    def block_as_the_result_goes(p: dict) -> dict:
        if p["chat_id"] == host.id and not fake.users[host.id].blocked:
            fake.block(host.user)  # the host, who plays first, blocks the bot as they press
        return send(p)

    monkeypatch.setitem(fake._handlers, "sendMessage", block_as_the_result_goes)
    table.scout_in_group(state.first, state.first % 7 + 1)  # the result cannot reach them
    fake._handlers["sendMessage"] = send
    assert table.data()["unreachable"] == [table.host.id]
    table.host.private("/start")  # opens the chat again, inside the window
    speak = table.t("prompt_speak_group")
    assert speak not in table.host.texts()
    lambda_bot.advance(30)
    # Scouted from the group, they speak there: the moment is told, its Done is in the group.
    assert table.host.texts()[-1] == speak and table.host.messages()[-1].buttons == []


def test_spy_who_opens_the_chat_in_the_sealed_wait_gets_the_guess(lambda_bot: LambdaBot) -> None:
    table, state = unreachable_spy(lambda_bot, 30)
    table.decapitate(state.first, next(s for s in range(1, 7) if s != state.first))
    lambda_bot.advance(5)
    table.host.private("/start")
    labels = table.host.labels()
    # name the Red captain: any seat but the Spy's own
    assert table.seat_label(1) in labels and len(labels) == 5
    lambda_bot.advance(25)
    assert table.ending() is not None
