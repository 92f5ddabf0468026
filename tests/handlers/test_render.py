"""Rendering: what the lobby suggests, what each prompt offers, names made safe, short popups."""

from __future__ import annotations

import pytest

from engine import Action
from engine.actions import DECAPITATE, END_TURN, SCOUT, SWAP
from engine.variants import Variants
from handlers.display import presses, render
from handlers.display.ids import Ids
from handlers.display.messages import Edit, Send
from handlers.display.render.past_games import MESSAGE_LIMIT, pages
from testing.deals import find_seed, lone_x, x_apart
from tests.support.tables import CHAT, NOW, lobby, started

BOT = "decapitation_bot"


def labels(kb) -> list[str]:
    return [label for row in kb or [] for label, _ in row]


def args(kb) -> list[str]:
    """The presses of a keyboard's buttons, as their data writes them."""
    return [data.rsplit("|", 1)[1] for row in kb or [] for _, data in row if presses.decode(data)]


def step(arg: str) -> presses.Declaring:
    """The decapitation menu's step a button's last field names."""
    return presses.decode(f"{presses.PROMPT}|{CHAT}|1|0|{arg}").press


@pytest.mark.parametrize(
    "players, settings, hints",
    [
        (4, {}, ["lobby_hint_4", "calm"]),
        (4, {"virtual_players": 2}, ["calm"]),
        (5, {}, ["lobby_hint_5", "calm"]),
        (5, {"virtual_players": 1, "no_first_round_decapitation": True}, []),
        (6, {"uncertain_sides": True, "virtual_players": 1}, ["calm", "uneven"]),
    ],
)
def test_lobby_suggests_what_the_card_suggests(players: int, settings: dict, hints: list) -> None:
    text, _ = render.lobby(lobby(players, **settings), BOT)
    found = []
    if "two virtual players at 4" in text:
        found.append("lobby_hint_4")
    if "at least one virtual player at 5" in text:
        found.append("lobby_hint_5")
    if "calmer play" in text:
        found.append("calm")
    if "very uneven" in text:
        found.append("uneven")
    assert found == hints


def test_lobby_is_ready_only_with_four_to_twelve_players() -> None:
    assert "Needs 4 to 12 players" in render.lobby(lobby(3), BOT)[0]
    assert "Ready: the host or an admin may press Start." in render.lobby(lobby(4), BOT)[0]


def test_names_are_escaped_and_isolated_in_texts_and_plain_and_isolated_on_buttons() -> None:
    table = lobby(3)
    table.join(4, "<b>Zed</b> & Co")
    assert "• \u2068&lt;b&gt;Zed&lt;/b&gt; &amp; Co\u2069" in render.lobby(table, BOT)[0]
    table.start(NOW, 1)
    seat = table.seat_of(4)
    assert render.seat_name(table, seat) == f"{seat}. \u2068&lt;b&gt;Zed&lt;/b&gt; &amp; Co\u2069"
    kb = render.seat_keyboard(table, presses.Scout, None)
    assert f"{seat}. \u2068<b>Zed</b> & Co\u2069" in labels(kb)
    assert not any("Zed" in data for row in kb for _, data in row)  # names are no button data


def test_a_longest_name_still_fits_a_seat_button_and_its_callback_data() -> None:
    table = lobby(3)
    table.join(4, "ملك" * 11)  # cut to the 32 characters a name may have
    table.start(NOW, 1)
    kb = render.seat_keyboard(table, presses.Scout, None)
    for label, data in (b for row in kb for b in row):
        assert len(label) <= 4 + 32 + 2 and len(data.encode()) <= 64


def test_seat_keyboard_offers_every_other_seat_two_a_row() -> None:
    table = started(5)
    kb = render.seat_keyboard(table, presses.Scout, 3)
    assert args(kb) == ["s1", "s2", "s4", "s5"] and [len(row) for row in kb] == [2, 2]


def test_turn_prompt_offers_only_the_legal_choices() -> None:
    table = started(4)
    first = table.state.first
    text, kb = render.turn_prompt(table, first)
    assert args(kb) == ["S", "D"] and text == "Your turn in \u2068Club\u2069. Scout or decapitate?"
    table = started(4, no_first_round_decapitation=True)
    text, kb = render.turn_prompt(table, table.state.first)
    assert args(kb) == ["S"] and "First round: you must scout." in text
    seed, _ = find_seed(6, Variants(observer=True), lambda s: s.cards[s.first - 1] == "OBS")
    table = started(6, seed, observer=True)
    text, kb = render.turn_prompt(table, table.state.first)
    assert args(kb) == ["S"] and "must scout" not in text


def test_speak_prompt_offers_the_observer_a_prediction_once() -> None:
    seed, _ = find_seed(6, Variants(observer=True), lambda s: s.cards[s.first - 1] == "OBS")
    table = started(6, seed, observer=True)
    first = table.state.first
    table.act(table.user_at(first), Action(SCOUT, first, target=first % 6 + 1), NOW)
    assert args(render.speak_prompt(table, first)[1]) == ["e", "pr", "pb"]
    table = started(6, 1)
    first = table.state.first
    table.act(table.user_at(first), Action(SCOUT, first, target=first % 6 + 1), NOW)
    assert args(render.speak_prompt(table, first)[1]) == ["e"]


@pytest.mark.parametrize(
    "settings, steps",
    [
        ({}, [("d3", ["x3", "D"])]),
        ({"bodyguards": True}, [("d3", ["d3b1", "d3b0", "D"]), ("d3b0", ["x3b0", "D"])]),
        (
            {"virtual_players": 1, "bodyguards": True},
            [
                ("d3", ["d3p1", "d3p0", "D"]),
                ("d3p1", ["d3p1b1", "d3p1b0", "D"]),
                ("d3p1b1", ["x3p1b1", "D"]),
            ],
        ),
    ],
)
def test_decapitation_menu_asks_each_declaration_in_play(settings: dict, steps: list) -> None:
    table = started(4, **settings)
    seat = next(s for s in range(1, table.state.seats + 1) if s != 3 and table.user_at(s))
    for arg, offered in steps:
        _, kb = render.decapitation_menu(table, seat, step(arg))
        assert args(kb) == offered


def test_my_card_popup_fits_telegrams_200_characters() -> None:
    table = started(12, 1)
    first = table.state.first
    for round_ in range(11):  # the first player scouts all eleven other seats
        for _ in range(12):
            turn = table.state.turn
            target = (first + round_) % 12 + 1 if turn == first else turn % 12 + 1
            table.act(table.user_at(turn), Action(SCOUT, turn, target=target), NOW)
            table.act(table.user_at(turn), Action(END_TURN, turn), NOW)
    popup = render.my_card(table, first, True)
    assert len(popup) <= 200 and "<" not in popup
    assert popup.count(":") == 12


def test_card_views_stay_secret_while_the_reveal_is_held() -> None:
    seed, _ = find_seed(6, Variants(spy=True), lambda s: s.holder("SPY") is None)
    table = started(6, seed, spy=True)
    first = table.state.first
    target = first % 6 + 1
    table.act(table.user_at(first), Action(DECAPITATE, first, target=target), NOW)
    assert table.state.over and table.hold  # resolved, the Spy's wait still running
    own = render.card(table, table.state.cards[first - 1])
    assert render.my_card(table, first, True) == f"🃏 Your card: {own} (seat {first})"
    assert "What you know" not in render.my_card(table, first, False)
    table.catch_up(NOW + 15)
    assert table.status == "over"
    assert render.my_card(table, first, True).count(":") == 6


def test_status_names_the_public_phase_only() -> None:
    table = started(4)
    first = table.state.first
    name = render.seat_name(table, first)
    assert f"{name}'s turn: scout or decapitate." in render.status(table, NOW)
    table.act(table.user_at(first), Action(SCOUT, first, target=first % 4 + 1), NOW)
    assert f"It is {name}'s speaking moment." in render.status(table, NOW + 5)
    assert "⏳ 55 s left." in render.status(table, NOW + 5)


def test_a_swap_in_the_turncoat_window_is_known_only_to_its_two_seats() -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), x_apart)
    table = started(7, seed, turncoat=True, turncoat_seconds=10)
    first = table.state.first
    holder = lone_x(table.state)
    x = render.card(table, table.state.cards[holder - 1])
    third = next(s for s in range(1, 8) if s not in (first, holder))
    table.act(table.user_at(first), Action(SCOUT, first, target=holder), NOW)
    table.act(table.user_at(holder), Action(SWAP, holder), NOW + 1)
    assert f"{first}: {x}" not in render.my_card(table, third, True)
    assert x not in render.my_card(table, third, False)
    assert f"Your card: {x}" in render.my_card(table, first, True)
    assert f"{first}: {x}" in render.my_card(table, holder, True)
    table.catch_up(NOW + 10)  # the window ends and the group is told
    assert f"{first}: {x}" in render.my_card(table, third, True)


def test_a_lobby_that_expires_says_so_on_its_message() -> None:
    table = lobby(auto_start=False)
    outs = render.show(table, Ids(), table.catch_up(NOW + 300), BOT)
    assert [(o.ref, o.kb) for o in outs] == [("lobby_msg", None)]
    assert outs[0].text == "This lobby closed without a game. /newgame opens a new one."


def test_countdown_and_timeout_read_as_the_group_and_the_player_see_them() -> None:
    table = started(turn_seconds=30)
    first = table.state.first
    outs = render.show(table, Ids(), table.catch_up(NOW + 29), BOT)
    assert isinstance(outs[0], Edit) and outs[0].text.endswith("⏳ 1 s")
    assert outs[1].chat == table.user_at(first) and outs[1].text.startswith("⏳ 1 s left")
    outs = render.show(table, Ids(), table.catch_up(NOW + 30), BOT)
    assert any("ran out of time" in o.text for o in outs if o.chat == CHAT)
    told = next(o for o in outs if o.chat == table.user_at(first))
    assert (type(told), told.kb, told.close) == (Edit, None, True)  # the prompt, closed
    assert told.text.startswith("You sit in seat ")  # the first turn's came with the card
    assert told.text.endswith("\n⌛ Time ran out: turn skipped.")


def test_cancel_closes_the_lobby_message_or_the_turn_message_and_names_who() -> None:
    table = lobby()
    outs = render.show(table, Ids(), table.cancel("Ann"), BOT)
    assert [(type(o), o.ref, o.kb) for o in outs] == [(Edit, "lobby_msg", None)]
    table = started()
    ids = Ids()
    ids.opening_board(table.record.board.tag)
    ids.board = 77
    user = table.user_at(table.state.first)
    ids.pressed(user, table.open_prompt_of(user).tag, 88)
    outs = render.show(table, ids, table.cancel("A<n"), BOT)
    shape = [(type(o), getattr(o, "msg", None)) for o in outs]
    assert shape == [(Edit, 77), (Send, None), (Edit, 88)]
    assert outs[2].text.startswith("You sit in seat ") and outs[2].kb is None  # below the card
    assert outs[2].text.endswith("\n🛑 The game was cancelled.")
    assert outs[0].kb is None
    assert labels(outs[1].kb) == ["🔁 Play again", "📄 Record", "🔔 Next game"]
    assert outs[1].text.startswith("🛑 The game was cancelled by \u2068A&lt;n\u2069.\n")


def test_private_messages_speak_each_players_language_and_the_group_the_tables() -> None:
    table = lobby(3)
    table.join(4, "Dan", "zh")
    outs = render.show(table, Ids(), table.start(NOW, 1), BOT)
    cards = {o.chat: o.text for o in outs if getattr(o, "private", False)}
    assert cards[4].startswith("你坐在「\u2068Club\u2069」的") and cards[2].startswith(
        "You sit in seat"
    )
    assert all("Seats:" in o.text or "turn" in o.text for o in outs if o.chat == CHAT)
    told = {o.chat: o.text for o in render.show(table, Ids(), table.removed(), BOT)}
    assert told[4].startswith("🛑 我已被移出「\u2068Club\u2069」") and told[2].startswith(
        "🛑 I was removed"
    )


def test_a_view_of_a_table_speaking_to_a_player_speaks_their_language() -> None:
    table = lobby(3)
    table.join(4, "Dan", "zh")
    table.start(NOW, 1)
    view = render.View.of(table.speaking_to(4))
    assert (view.lang, view.speaking_to(2).lang) == ("zh", "en")


def zh_started(players: int = 4, seed: int = 1, **settings):
    from handlers.session.table import Table
    from tests.support.tables import NAMES

    table, _ = Table.open_lobby(CHAT, 1, 1, NAMES[0], "zh", settings, NOW, "Club")
    for uid in range(2, players + 1):
        table.join(uid, NAMES[uid - 1], "zh")
    table.start(NOW, seed)
    return table


def test_the_turncoat_window_is_twenty_seconds_unless_chosen_otherwise() -> None:
    from handlers.session.settings import CHOICES, DEFAULT_SETTINGS

    assert DEFAULT_SETTINGS["turncoat_seconds"] == 20
    assert CHOICES["turncoat_seconds"] == (10, 15, 20, 30)


@pytest.mark.parametrize("make, says", [(started, "You have 20 s"), (zh_started, "你有 20 秒")])
def test_the_turncoats_offer_says_how_long_they_have(make, says) -> None:
    table = make(4, 1, turncoat=True)
    offer = {"type": "turncoat_offer", "to": 2, "scout": 1}
    [out] = render.private_event(table, offer, 1)
    assert says in out.text


@pytest.mark.parametrize(
    "make, says",
    [
        (started, "after every scout the game pauses for 15 s"),
        (zh_started, "每次侦查后，游戏都会固定暂停 15 秒"),
    ],
)
def test_the_seating_explains_the_turncoats_pause_once(make, says) -> None:
    from handlers.display.render.lobby import seating

    text = seating(make(7, 1, turncoat=True, turncoat_seconds=15), Ids(), True).text
    assert text.count(says) == 1
    assert says not in seating(make(7, 1), Ids(), True).text
    assert says not in seating(make(6, 1, turncoat=True, turncoat_seconds=15), Ids(), True).text


@pytest.mark.parametrize(
    "make, team, face_up",
    [
        (started, "You are now on the {colour} team.", "face up and has no power any more"),
        (zh_started, "你现在属于{colour}。", "已翻开，不再有变节者的能力"),
    ],
)
def test_after_a_swap_both_players_learn_their_team_and_that_the_x_is_spent(
    make, team, face_up
) -> None:
    from engine.cards import color
    from handlers.display.texts import colour_name

    def x_holder(state):
        return x_apart(state) and color(state.cards[state.first - 1])

    seed, _ = find_seed(7, Variants(turncoat=True), x_holder)
    table = make(7, seed, turncoat=True)
    first = table.state.first
    holder = lone_x(table.state)
    x, given = table.state.cards[holder - 1], table.state.cards[first - 1]
    events = table.act(table.user_at(first), Action(SCOUT, first, target=holder), NOW)
    events += table.act(table.user_at(holder), Action(SWAP, holder), NOW + 1)
    events += table.catch_up(NOW + 30)
    told = {}
    for out in render.show(table, Ids(), events, BOT):
        if getattr(out, "private", False) and "🔄" in out.text:
            told[out.chat] = out.text
    lang = table.lang
    scout_text, holder_text = told[table.user_at(first)], told[table.user_at(holder)]
    assert team.format(colour=colour_name(lang, color(x))) in scout_text
    assert team.format(colour=colour_name(lang, color(given))) in holder_text
    assert face_up in scout_text and face_up in holder_text


def test_the_turn_line_mentions_a_human_so_their_phone_rings_but_not_a_virtual_seat() -> None:
    from handlers.display.render.board import turn_line

    table = lobby(5, virtual_players=1)
    outs = render.show(table, Ids(), table.start(NOW, 1), BOT)
    human = table.state.first
    user = table.user_at(human)
    name = f'<a href="tg://user?id={user}">\u2068{table.name_of(human)}\u2069</a>'
    assert name in turn_line(table, human)
    virtual = table.state.virtual.index(True) + 1
    assert "tg://user" not in turn_line(table, virtual)
    assert "\u2068" in turn_line(table, virtual)
    assert any(name in o.text for o in outs if o.chat == CHAT)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_warning_says_start_to_one_who_never_opened_and_restart_to_one_who_blocked(
    lang: str,
) -> None:
    from handlers.display.render.board import mention
    from handlers.display.render.reach import warning
    from handlers.display.texts import t
    from handlers.session.table import Table
    from tests.support.tables import NAMES

    table, _ = Table.open_lobby(CHAT, 1, 1, NAMES[0], lang, {}, NOW, "Club")
    for uid in range(2, 6):
        table.join(uid, NAMES[uid - 1], lang)
    table.start(NOW, 1)
    never, shut, back = (table.user_at(seat) for seat in (2, 3, 4))
    table.out_of_reach([never, shut, back], [shut], NOW)
    table.back_in_touch(back)
    (out,) = warning(table, Ids(reach=8), BOT)
    assert isinstance(out, Edit) and out.msg == 8
    button = t(lang, "btn_open_chat")
    assert out.text.splitlines() == [
        t(lang, "cannot_reach", names=mention(table, 2), button=button, s=30),
        t(lang, "cannot_reach_blocked", names=mention(table, 3), button=button, s=30),
        t(lang, "back_game", name=render.seat_name(table, 4)),
    ]
    assert [label for row in out.kb for label, _ in row] == [button]
    table.back_in_touch(never)
    table.back_in_touch(shut)
    (out,) = warning(table, Ids(reach=8), BOT)
    names = t(lang, "sep_list").join(render.seat_name(table, seat) for seat in (4, 2, 3))
    assert (out.text, out.kb) == (t(lang, "back_game", name=names), None)


def test_a_record_told_as_text_is_cut_between_lines_under_telegrams_limit() -> None:
    lines = [f"{n}. " + "x" * 90 for n in range(100)]
    told = pages(lines)
    assert len(told) > 1 and all(len(text) <= MESSAGE_LIMIT for text in told)
    assert "\n".join(told).splitlines() == lines


def test_a_view_renders_what_its_table_renders_in_each_readers_language() -> None:
    """A change's messages are rendered from one view of the table, built once: the same texts
    and buttons the table itself gives, each private one in its reader's language."""
    table = lobby(4)
    table.join(5, "Zoe", "zh")
    table.start(NOW, 1)
    view = render.View.of(table)
    assert render.View.of(view) is view
    assert view.speaking_to(5).lang == "zh" and view.speaking_to(1).lang == "en"
    zoe = table.seat_of(5)
    assert view.speaking_to(5).name_of(zoe) == table.name_of(zoe) == "Zoe"
    for seat in range(1, 6):
        assert render.turn_prompt(view, seat) == render.turn_prompt(table, seat)
        assert render.speak_prompt(view, seat) == render.speak_prompt(table, seat)
    assert render.prompt(view) == render.prompt(table)
    zh = render.View.of(table).speaking_to(5)
    assert render.seat_keyboard(zh, presses.Scout, zoe) == render.seat_keyboard(
        table.speaking_to(5), presses.Scout, zoe
    )
