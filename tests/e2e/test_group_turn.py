"""The player whose turn it is acts from the group's turn message: Scout, a seat, Done.

What is public anyway (who scouted whom, the end of a speaking moment) can be pressed where the
table is; what is secret (a scout's result, decapitation, the Turncoat, the Observer's
prediction, the Spy) stays in the private chat.
"""

from __future__ import annotations

import pytest

from engine import Variants
from engine.cards import OBSERVER, color
from handlers.display import presses
from handlers.display.render import isolate
from handlers.display.texts import card_name
from testing.deals import find_seed
from testing.drivers import Bot
from testing.players import OK_ANSWERS, Table


def labels_of(table: Table) -> list[str]:
    return table.board().button_labels


def seat_labels(table: Table, seat: int) -> list[str]:
    """The seats one may scout, as the group's buttons name them."""
    return [table.seat_label(s) for s in range(1, table.state.seats + 1) if s != seat]


def turn_of(table: Table, seat: int, lang: str | None = None) -> str:
    """The popup someone else gets on the acting player's buttons."""
    name = isolate(table.state.names[seat - 1])
    return table.t_in(lang or table.lang, "turn_of", seat=seat, name=name)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_acting_player_scouts_from_the_groups_turn_message(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    state = table.start(seed=31)
    first, target = state.first, state.first % 5 + 1
    board = table.board()
    assert labels_of(table) == [table.t("btn_scout"), table.t("btn_my_card")]
    scout = table.player_at(first)
    assert scout.press(table.t("btn_scout"), board, table.group) in OK_ANSWERS
    # The same message now lists the seats, the acting player's own left out, and Back.
    assert table.board().message_id == board.message_id
    back, me = table.t("btn_back"), table.t("btn_my_card")
    assert labels_of(table) == [*seat_labels(table, first), back, me]
    assert scout.press(back, table.board(), table.group) in OK_ANSWERS
    assert labels_of(table) == [table.t("btn_scout"), me]
    table.scout_in_group(first, target)
    assert table.state.phase == "speak" and table.state.turn == first
    line = table.t("scouted_line", name=table.seat_label(first), target=table.seat_label(target))
    assert line in table.board().text
    assert labels_of(table) == [table.t("btn_done"), me]
    assert scout.prompt() is None  # Done is pressed where they are: on the turn message
    table.done_in_group(first)
    assert table.state.turn != first


def speak_in_group(table: Table, lang: str, seen: str | None) -> str:
    """The one private message of a scout made from the group: what they saw (unless it came
    before, in a Turncoat's pause), and where to speak and press Done."""
    invite = table.t_in(lang, "prompt_speak_group")
    return f"{seen}\n{invite}" if seen else invite


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_scout_from_the_group_brings_one_private_message_with_the_result_and_no_button(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    state = table.start(seed=32)
    first, target = state.first, state.first % 5 + 1
    scout = table.player_at(first)
    turn_prompt = scout.prompt()
    before = {p.id: len(p.messages()) for p in table.players}
    table.scout_in_group(first, target)
    seen = card_name(lang, state.cards[target - 1])
    result = table.t_in(lang, "scout_result", target=table.seat_label(target), card=seen)
    news = {p.id: p.texts()[before[p.id] :] for p in table.players}
    # One new message: the result and the invitation to speak in the group; nothing to press.
    assert news[scout.id] == [speak_in_group(table, lang, result)]
    assert scout.prompt() is None, scout.labels()
    closed = table.fake.message(scout.id, turn_prompt.message_id)
    assert closed.buttons == []
    scouted = table.t_in(lang, "closed_scout", target=table.seat_label(target))
    assert closed.text == f"{table.dealt(scout, state)}\n{scouted}"  # below the card
    for player in table.players:
        if player is not scout:
            assert news[player.id] == [], (player, news[player.id])
    line = table.t("scouted_line", name=table.seat_label(first), target=table.seat_label(target))
    assert line in table.board().text
    assert labels_of(table) == [table.t("btn_done"), table.t("btn_my_card")]
    speaking = scout.messages()[-1]
    table.done_in_group(first)
    # The message keeps what they saw and says how the moment ended.
    ended = table.fake.message(scout.id, speaking.message_id)
    assert ended.text == f"{result}\n{table.t_in(lang, 'closed_end_turn')}"
    assert ended.buttons == []
    # The next player, scouting privately, speaks with the private Done as ever.
    nxt = table.state.turn
    table.scout(nxt, first)
    assert table.player_at(nxt).labels() == [table.t_for(table.player_at(nxt), "btn_done")]


def test_a_private_scout_sees_the_result_in_the_prompt_and_gets_one_message_to_speak(
    memory_bot: Bot,
) -> None:
    """One moment, one new message in the scout's chat (one Telegram round): the prompt they
    scouted from turns into what they saw, and the invitation to speak follows it."""
    table = Table.of(memory_bot, 5)
    table.open()
    state = table.start(seed=32)
    first, target = state.first, state.first % 5 + 1
    scout = table.player_at(first)
    prompt, before = scout.prompt(), len(scout.messages())
    table.scout(first, target)
    seen = card_name("en", state.cards[target - 1])
    result = table.t("scout_result", target=table.seat_label(target), card=seen)
    assert scout.texts()[before:] == [table.t("prompt_speak")]
    dealt = table.dealt(scout, state)  # the first turn's prompt came with the card
    assert table.fake.message(scout.id, prompt.message_id).text == f"{dealt}\n{result}"
    assert table.fake.message(scout.id, prompt.message_id).buttons == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_done_from_the_group_ends_speaking(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(seed=33)
    first = state.first
    table.scout_in_group(first, first % 4 + 1)
    speaker = table.player_at(first)
    spoken = table.board()
    assert speaker.prompt() is None  # nothing to press in private: Done is in the group
    table.done_in_group(first)
    assert table.state.turn == first % 4 + 1 and table.state.phase == "turn"
    closed = table.fake.message(table.group, spoken.message_id)
    assert closed.text.endswith(table.t("done_line", name=table.seat_label(first)))
    assert closed.buttons == []
    assert table.board().message_id != spoken.message_id
    assert labels_of(table) == [table.t("btn_scout"), table.t("btn_my_card")]
    assert speaker.prompt() is None
    assert speaker.texts()[-1].endswith(table.t_for(speaker, "closed_end_turn"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_someone_else_pressing_the_groups_turn_buttons_gets_a_popup(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 6, lang=lang)
    table.open(table.players[1:5])  # the sixth is in the group but does not play
    state = table.start(seed=34)
    first = state.first
    other = table.player_at(first % 5 + 1)
    outsider = table.players[5]
    board = table.board()
    for presser in (other, outsider):
        assert presser.press(table.t("btn_scout"), board, table.group) == turn_of(table, first)
    assert table.board().button_labels == board.button_labels  # nothing changed
    assert table.state.phase == "turn"
    scout = table.player_at(first)
    scout.press(table.t("btn_scout"), table.board(), table.group)
    seat = table.seat_label(first % 5 + 1)
    for presser in (other, outsider):
        assert presser.press(seat, table.board(), table.group) == turn_of(table, first)
        assert presser.press(table.t("btn_back"), table.board(), table.group) == turn_of(
            table, first
        )
    assert table.state.phase == "turn" and table.board().button_labels == [
        *seat_labels(table, first),
        table.t("btn_back"),
        table.t("btn_my_card"),
    ]
    scout.press(seat, table.board(), table.group)  # the seats are listed: the acting player picks
    done = table.t("btn_done")
    for presser in (other, outsider):
        assert presser.press(done, table.board(), table.group) == turn_of(table, first)
    assert table.state.phase == "speak"
    table.done_in_group(first)


def _shape(table: Table) -> list[tuple[str, str]]:
    """The group's buttons as anyone sees them: each label and what it does (the game and the
    group left out)."""
    shape = []
    for row in table.board().buttons:
        for button in row:
            pressed = presses.decode(button.callback_data)
            assert pressed is not None and pressed.chat == table.chat
            shape.append((button.text, f"{pressed.where}|{pressed.version}|{pressed.press}"))
    return shape


def test_the_groups_turn_buttons_are_the_same_whatever_the_cards(memory_bot: Bot) -> None:
    """An Observer (who may not decapitate, and may predict) and a coloured card are given the
    same group buttons at every step, on the same seating; only their private prompts differ."""
    variants = Variants(observer=True)
    seed_a, a = find_seed(5, variants, lambda s: s.cards[s.first - 1] == OBSERVER)
    seed_b, _ = find_seed(
        5,
        variants,
        lambda s: s.names == a.names and s.first == a.first and color(s.cards[s.first - 1]),
    )
    shapes, prompts = [], []
    for seed in (seed_a, seed_b):
        table = Table.of(memory_bot, 5)
        table.open()
        table.configure(observer=True)
        first = table.start(seed).first
        scout = table.player_at(first)
        prompts.append(scout.labels())
        steps = [_shape(table)]
        scout.press(table.t("btn_scout"), table.board(), table.group)
        steps.append(_shape(table))
        scout.press(table.seat_label(first % 5 + 1), table.board(), table.group)
        steps.append(_shape(table))
        prompts.append(scout.labels())
        speaking = scout.prompt()
        red = table.t("btn_predict_red")
        predict = speaking.button(red) if red in prompts[-1] else None
        table.done_in_group(first)
        steps.append(_shape(table))
        if table.state.cards[first - 1] == OBSERVER:  # Done let the prediction pass
            late = scout.press_data(predict.callback_data, speaking)
            assert late == table.t("too_late") and table.state.prediction is None
        shapes.append(steps)
    assert shapes[0] == shapes[1]
    # Privately, the Observer may not decapitate and may predict; the other card may decapitate.
    scout_only, observer_speaks, both, speaks = prompts
    assert scout_only == [Table.t_in("en", "btn_scout")]
    assert both == [Table.t_in("en", "btn_scout"), Table.t_in("en", "btn_decapitate")]
    assert Table.t_in("en", "btn_predict_red") in observer_speaks
    assert Table.t_in("en", "btn_done") not in observer_speaks  # Done is on the turn message
    assert speaks == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_observer_who_scouted_from_the_group_may_predict_from_the_one_private_message(
    memory_bot: Bot, lang: str
) -> None:
    seed, _ = find_seed(5, Variants(observer=True), lambda s: s.cards[s.first - 1] == OBSERVER)
    table = Table.of(memory_bot, 5, lang=lang)
    table.open()
    table.configure(observer=True)
    state = table.start(seed)
    first, target = state.first, state.first % 5 + 1
    scout = table.player_at(first)
    before = len(scout.messages())
    table.scout_in_group(first, target)
    seen = card_name(lang, state.cards[target - 1])
    result = table.t_in(lang, "scout_result", target=table.seat_label(target), card=seen)
    assert scout.texts()[before:] == [speak_in_group(table, lang, result)]
    red, blue = table.t_in(lang, "btn_predict_red"), table.t_in(lang, "btn_predict_blue")
    assert scout.labels() == [red, blue]
    speaking = scout.prompt()
    table.predict(first, "red")
    assert table.state.prediction is not None and table.state.turn != first
    closed = table.fake.message(scout.id, speaking.message_id)
    assert closed.buttons == [] and closed.text.startswith(result + "\n")
    assert scout.prompt() is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_scout_from_the_group_in_the_turncoats_pause_is_told_twice_once_a_moment(
    memory_bot: Bot, lang: str
) -> None:
    """The result comes at once, with the pause; the invitation to speak when it is over:
    each a new message, neither with a button."""
    table = Table.of(memory_bot, 7, lang=lang)  # seven seats: the Turncoat pauses every scout
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    state = table.start(seed=36)
    first, target = state.first, state.first % 7 + 1
    scout = table.player_at(first)
    before = len(scout.messages())
    table.scout_in_group(first, target)
    seen = card_name(lang, state.cards[target - 1])
    result = table.t_in(lang, "scout_result", target=table.seat_label(target), card=seen)
    wait = "scout_wait_deleted" if table.data().get("silence") else "scout_wait"
    assert scout.texts()[before:] == [f"{result}\n{table.t_in(lang, wait, s=10)}"]
    assert scout.prompt() is None
    memory_bot.advance(10)
    assert table.state.phase == "speak"
    news = scout.texts()[before + 1 :]
    assert news[-1] == speak_in_group(table, lang, None), news
    assert scout.prompt() is None
    assert labels_of(table) == [table.t("btn_done"), table.t("btn_my_card")]
    table.done_in_group(first)
    assert table.state.turn != first and scout.prompt() is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stale_group_button_is_refused_cleanly(memory_bot: Bot, lang: str) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    state = table.start(seed=35)
    first = state.first
    player = table.player_at(first)
    old = table.board()
    scout_data = old.button(table.t("btn_scout")).callback_data
    # The private prompt is used first: the group's Scout is then out of date.
    table.scout(first, first % 4 + 1)
    too_late = table.t_for(player, "too_late")
    assert player.press_data(scout_data, old) == too_late
    done_data = table.board().button(table.t("btn_done")).callback_data
    # The group's Done is used first: the private one is then out of date.
    private_done = player.prompt()
    private_data = private_done.button(table.t_for(player, "btn_done")).callback_data
    table.done_in_group(first)
    assert player.press_data(private_data, private_done) == too_late
    assert player.press_data(done_data, old) == too_late
    assert table.state.turn == first % 4 + 1
    # A button of a game that is over.
    table.decapitate(table.state.turn, first)
    assert table.ending() is not None
    assert player.press_data(scout_data, old) == table.t_for(player, "too_late")
    assert all(m.buttons == [] for m in table.group_messages()[:-1])


def test_the_groups_buttons_are_removed_when_the_turn_ends(memory_bot: Bot) -> None:
    """Only the current turn message has buttons: a turn done, skipped, or ended by a
    decapitation leaves none behind, and the Turncoat's window shows only My card."""
    table = Table.of(memory_bot, 7, lang="zh")  # seven seats: the Turncoat pauses every scout
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10, turn_seconds=30)
    state = table.start(seed=36)

    def live() -> list[int]:
        return [m.message_id for m in table.group_messages() if m.buttons]

    first = state.first
    table.scout_in_group(first, first % 7 + 1)
    assert labels_of(table) == [table.t("btn_my_card")]  # the window: nothing to press yet
    memory_bot.advance(10)
    assert labels_of(table) == [table.t("btn_done"), table.t("btn_my_card")]
    table.done_in_group(first)
    assert live() == [table.board().message_id]
    skipped = table.state.turn
    table.player_at(skipped).press(table.t("btn_scout"), table.board(), table.group)
    memory_bot.advance(30)  # the turn runs out while the seats are listed
    assert table.state.turn != skipped
    assert live() == [table.board().message_id]
    table.decapitate(table.state.turn, first)
    assert table.ending() is not None
    assert [m.message_id for m in table.group_messages() if m.buttons] == [
        table.ending().message_id
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_my_card_popup_names_the_seat_of_each_card_learned(bot: Bot, lang: str) -> None:
    table = Table.of(bot, 4, lang=lang)
    table.open()
    first = table.start(seed=3).first
    target = first % 4 + 1
    table.scout(first, target)
    popup = table.player_at(first).press(table.t("btn_my_card"), table.board())
    seen = card_name(lang, table.state.cards[target - 1])
    fact = {"en": f"seat {target}: {seen}", "zh": f"{target}号位：{seen}"}[lang]
    assert fact in popup


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_speaking_hurry_asks_to_finish_speaking_not_to_decide(bot: Bot, lang: str) -> None:
    table = Table.of(bot, 4, lang=lang)
    table.open()
    first = table.start(seed=3).first
    table.scout(first, first % 4 + 1)
    bot.advance(60 - 15)
    speaker = table.player_at(first)
    assert table.t("hurry_speak", s=15) in speaker.texts()
    assert table.t("hurry", s=15) not in speaker.texts()
