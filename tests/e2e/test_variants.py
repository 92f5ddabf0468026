"""One whole game through the bot for each optional rule of the card."""

from __future__ import annotations

import re

import pytest

from engine import Variants, captains
from engine.cards import color
from engine.resolution import bodyguard_beside
from handlers.display.render import isolate
from testing.deals import find_seed, lone_x, observer_opens, spy_can_win, x_apart
from testing.drivers import Bot
from testing.players import Table


def other(colour: str) -> str:
    return "blue" if colour == "red" else "red"


def group_calls_since(table: Table, mark: int) -> list[str]:
    """What the bot did in the group since call number `mark`: the method of each call."""
    calls = table.fake.calls[mark:]
    return [c.method for c in calls if c.params.get("chat_id") == table.chat and c.kind == "ok"]


def test_virtual_captain_lets_any_human_of_its_colour_decapitate_by_proxy(
    memory_bot: Bot,
) -> None:
    variants = Variants(virtual_players=2)

    def proxy_deal(state):
        caps = captains(state.cards)
        side = color(state.cards[state.first - 1])
        if side is None or caps[side] is None or caps[other(side)] is None:
            return False
        return state.virtual[caps[side] - 1] and not state.virtual[caps[other(side)] - 1]

    seed, dealt = find_seed(4, variants, proxy_deal)
    table = Table.of(memory_bot, 4)
    table.open()
    table.configure(virtual_players=2)
    state = table.start(seed)
    assert state.deal == dealt.deal and sum(state.virtual) == 2
    seating = table.lobby_message().text
    for seat in range(1, 7):
        tag = " (virtual)" if state.virtual[seat - 1] else ""
        assert f"\n{table.seat_label(seat)}{tag}\n" in seating

    side = color(state.cards[state.first - 1])
    caps = captains(state.cards)
    own, target = caps[side], caps[other(side)]
    # The virtual captain can be scouted like anyone; virtual seats never get a turn.
    table.scout(state.first, own)
    first = table.player_at(state.first)
    seen = f"{table.dealt(first, state)}\n🔍 {table.seat_label(own)} holds "  # below the card
    assert first.texts()[-2].startswith(seen)
    table.done(state.first)
    turns = []
    for _ in range(3):
        seat = table.state.turn
        turns.append(seat)
        table.scout_and_done(seat, state.first)
    assert state.first not in turns and not any(state.virtual[s - 1] for s in turns)
    assert table.state.turn == state.first

    first.press(table.t("btn_decapitate"))
    first.press(table.seat_label(target))
    assert first.prompt().text == "Do you act on behalf of a virtual player?"
    first.press(table.t("btn_yes"))
    label = table.seat_label(target)
    assert first.prompt().text == (
        f"Decapitate {label}, for a virtual player: Yes? This ends the game."
    )
    assert first.press(table.t("btn_confirm")) is None  # no toast: the prompt says it
    ending = table.ending().text
    assert ending.startswith(f"🏁 {side.capitalize()} wins!")
    assert ", for a virtual player: Yes" in ending
    assert "Captain on captain: it worked." in ending


def test_first_round_offers_no_decapitation_until_the_player_has_acted(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.configure(no_first_round_decapitation=True)
    state = table.start(seed=3)
    first = table.player_at(state.first)
    prompt = first.prompt()
    title = f"\u2068{table.group.title}\u2069"
    turn = f"Your turn in {title}. First round: you must scout."
    assert prompt.text == f"{table.dealt(first, state)}\n{turn}"  # the deal's one message
    assert prompt.button_labels == [table.t("btn_scout")]

    # A turn that runs out is not an action: the next turn is still a first one.
    memory_bot.advance(90)
    order = [state.first]
    for _ in range(3):
        seat = table.state.turn
        order.append(seat)
        assert table.player_at(seat).labels() == [table.t("btn_scout")]
        table.scout_and_done(seat, state.first)
    assert table.state.turn == state.first
    assert first.labels() == [table.t("btn_scout")]
    table.scout_and_done(state.first, order[1])

    second = table.state.turn
    assert table.player_at(second).labels() == [table.t("btn_scout"), table.t("btn_decapitate")]
    table.decapitate(second, order[2])
    assert table.ending() is not None


def test_uncertain_sides_deals_from_two_more_cards_and_sets_two_aside(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    table.configure(uncertain_sides=True)
    state = table.start(seed=5)
    assert len(state.set_aside) == 2
    assert sum(color(c) == "red" for c in (*state.deal, *state.set_aside)) == 3
    table.decapitate(state.first, state.first % 4 + 1)
    ending = table.ending().text
    aside = ", ".join(
        f"{'Red' if c[0] == 'R' else 'Blue'} {c[1:]}" for c in sorted(state.set_aside)
    )
    assert f"Set aside: {aside}" in ending


def test_turncoat_swap_is_announced_only_when_the_fixed_window_ends(memory_bot: Bot) -> None:
    variants = Variants(turncoat=True)

    seed, _ = find_seed(7, variants, lambda s: x_apart(s, s.first, s.first % 7 + 1))
    table = Table.of(memory_bot, 7)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    state = table.start(seed)
    scout = state.first
    holder = lone_x(state)
    x_card, scout_card = state.cards[holder - 1], state.cards[scout - 1]
    x_name = ("Red" if x_card == "RX" else "Blue") + " X"
    assert table.t("hint_x_turncoat") in table.player_at(holder).texts()[-1]

    def scout_through_the_window(seat: int, target: int, swap: bool | None) -> list[list[str]]:
        """Scout, let the holder choose, and see what the group got at each moment."""
        mark = len(memory_bot.fake.calls)
        table.scout(seat, target)
        at_scout = group_calls_since(table, mark)
        assert table.t("speak_line", name=table.seat_label(seat)) not in table.board().text
        assert table.player_at(seat).labels() == []  # no speaking moment yet
        mark = len(memory_bot.fake.calls)
        if swap is not None:
            (table.swap if swap else table.keep)(target)
        # Someone else looks at what they know: nothing tells them the window's outcome.
        third = table.player_at(next(s for s in range(1, 8) if s not in (seat, target)))
        third.press(table.t("btn_my_card"), table.board())
        third.private("/mycard")
        memory_bot.advance(9)
        during = group_calls_since(table, mark)
        mark = len(memory_bot.fake.calls)
        memory_bot.advance(1)
        at_end = group_calls_since(table, mark)
        assert table.player_at(seat).labels() == [table.t("btn_done")]
        return [at_scout, during, at_end]

    swap_shape = scout_through_the_window(scout, holder, swap=True)
    board = table.board().text
    swapped = f"🔄 {table.seat_label(holder)} reveals {x_name} and swaps cards with "
    assert swapped + f"{table.seat_label(scout)}!" in board
    # The speaking moment the window held back comes after the swap, as it began after it.
    speak = re.sub("<[^>]+>", "", table.t("speak_line", name=table.seat_label(scout)))
    assert board.index(swapped) < board.index(speak)
    assert f"🔄 You swapped with {table.seat_label(scout)}." in table.player_at(holder).texts()
    new_card = table.player_at(holder).texts()[-1]
    assert new_card.startswith(f"🔄 You swapped with {table.seat_label(scout)}: you now hold ")
    assert table.state.cards[scout - 1] == x_card
    assert table.state.cards[holder - 1] == scout_card
    table.done(scout)

    nobody = table.state.turn
    target = next(s for s in range(1, 8) if s not in (nobody, holder, scout))
    plain_shape = scout_through_the_window(nobody, target, swap=None)
    assert swap_shape == plain_shape == [["editMessageText"], [], ["editMessageText"]]
    table.done(nobody)

    attacker = table.state.turn
    table.decapitate(attacker, scout)
    ending = table.ending().text
    assert f"{table.seat_label(scout)}: {x_name}" in ending


def test_bodyguard_declared_beside_the_target_lets_the_captain_win(memory_bot: Bot) -> None:
    variants = Variants(bodyguards=True)

    def guarded(state):
        caps = captains(state.cards)
        side = color(state.cards[state.first - 1])
        if side is None or caps[side] != state.first or caps[other(side)] is None:
            return False
        return bodyguard_beside(state.cards, caps[other(side)])

    seed, _ = find_seed(6, variants, guarded)
    table = Table.of(memory_bot, 6)
    table.open()
    table.configure(bodyguards=True)
    state = table.start(seed)
    side = color(state.cards[state.first - 1])
    target = captains(state.cards)[other(side)]
    attacker = table.player_at(state.first)
    attacker.press(table.t("btn_decapitate"))
    attacker.press(table.seat_label(target))
    label = table.seat_label(target)
    assert attacker.prompt().text == (
        f"Does a bodyguard (the 3 of {label}'s colour) sit directly next to {label}?"
    )
    attacker.press(table.t("btn_yes"))
    assert (
        attacker.prompt().text == f"Decapitate {label}, bodyguard beside: Yes? This ends the game."
    )
    assert attacker.press(table.t("btn_confirm")) is None
    ending = table.ending().text
    assert ending.startswith(f"🏁 {side.capitalize()} wins!")
    assert ", bodyguard beside: Yes" in ending


def observer_first(state) -> bool:
    caps = captains(state.cards)
    return state.cards[state.first - 1] == "OBS" and None not in caps.values()


def test_observer_who_predicts_is_revealed_skipped_and_wins(memory_bot: Bot) -> None:
    seed, _ = find_seed(6, Variants(observer=True), observer_first)
    table = Table.of(memory_bot, 6)
    table.open()
    table.configure(observer=True)
    state = table.start(seed)
    observer = state.first
    caps = captains(state.cards)
    assert table.player_at(observer).labels() == [table.t("btn_scout")]  # never decapitates
    table.scout(observer, caps["blue"])
    assert table.player_at(observer).labels() == [
        table.t("btn_done"),
        table.t("btn_predict_red"),
        table.t("btn_predict_blue"),
    ]
    table.predict(observer, "blue")
    assert (
        f"👁 {table.seat_label(observer)} reveals the Observer and predicts: Blue wins."
        in table.group_messages()[-2].text
    )
    after = table.state.turn
    seen = []
    for _ in range(5):  # a whole round: the Observer's turn never comes again
        seen.append(table.state.turn)
        table.scout_and_done(table.state.turn, observer)
    assert observer not in seen and table.state.turn == after
    while table.state.turn != caps["blue"]:
        table.scout_and_done(table.state.turn, observer)
    table.decapitate(caps["blue"], caps["red"])
    ending = table.ending().text
    assert ending.startswith("🏁 Blue wins!")
    assert f"👁 The Observer {table.seat_label(observer)} predicted right and wins." in ending


def test_observer_who_never_predicts_loses(memory_bot: Bot) -> None:
    seed, _ = find_seed(6, Variants(observer=True), observer_first)
    table = Table.of(memory_bot, 6)
    table.open()
    table.configure(observer=True)
    state = table.start(seed)
    caps = captains(state.cards)
    table.scout_and_done(state.first, caps["red"])
    while table.state.turn != caps["red"]:
        table.scout_and_done(table.state.turn, state.first)
    table.decapitate(caps["red"], caps["blue"])
    ending = table.ending().text
    assert ending.startswith("🏁 Red wins!")
    assert f"👁 The Observer {table.seat_label(state.first)} never predicted and loses." in ending


def test_spy_who_names_both_captains_wins_after_the_fixed_wait(memory_bot: Bot) -> None:
    seed, _ = find_seed(6, Variants(spy=True), spy_can_win)
    table = Table.of(memory_bot, 6)
    table.open()
    table.configure(spy=True, spy_seconds=15)
    state = table.start(seed)
    spy = state.holder("SPY")
    caps = captains(state.cards)
    target = next(s for s in range(1, 7) if s not in (state.first, spy))

    mark = len(memory_bot.fake.calls)
    table.decapitate(state.first, target)
    assert group_calls_since(table, mark) == ["editMessageText"]
    board = table.board().text
    assert table.t("announced_line", name=table.seat_label(state.first)) in board
    assert "The target is sealed; it opens in 15 s." in board
    assert table.player_at(spy).prompt().text == (
        "🕵 A decapitation was announced. Guess the Red captain:\n⏳ You have 15 s."
    )
    mark = len(memory_bot.fake.calls)
    table.spy_guess(spy, caps["red"], caps["blue"])
    sealed = table.t(
        "spy_sealed", red=table.seat_label(caps["red"]), blue=table.seat_label(caps["blue"])
    )
    assert sealed in table.player_at(spy).texts()  # the Spy sees the whole guess they sealed
    for seat in (spy, target):  # resolved, but nobody can tell from their own card view
        table.player_at(seat).press(table.t("btn_my_card"), table.board())
        table.player_at(seat).private("/mycard")
    memory_bot.advance(14)
    assert group_calls_since(table, mark) == []  # the group cannot tell the Spy answered
    assert table.ending() is None
    memory_bot.advance(1)
    ending = table.ending().text
    assert f"🕵 The Spy {table.seat_label(spy)} named both captains and wins." in ending


def test_spy_set_aside_the_group_waits_the_same_fixed_time(memory_bot: Bot) -> None:
    def spy_aside(state):
        return state.holder("SPY") is None and color(state.cards[state.first - 1]) is not None

    seed, _ = find_seed(6, Variants(spy=True), spy_aside)
    table = Table.of(memory_bot, 6)
    table.open()
    table.configure(spy=True, spy_seconds=15)
    state = table.start(seed)
    mark = len(memory_bot.fake.calls)
    table.decapitate(state.first, state.first % 6 + 1)
    # While the group waits, nobody's card view tells that the game is already resolved.
    waiting = table.player_at(state.first % 6 + 1)
    own = state.cards[state.first % 6]
    popup = waiting.press(table.t("btn_my_card"), table.board())
    shown = f"{'Red' if own[0] == 'R' else 'Blue'} {own[1:]}"
    assert popup == f"🃏 Your card: {shown} (seat {state.first % 6 + 1})"
    waiting.private("/mycard")
    assert "What you know" not in waiting.last_text()
    memory_bot.advance(14)
    assert group_calls_since(table, mark) == ["editMessageText"]
    assert table.ending() is None
    memory_bot.advance(1)
    ending = table.ending().text
    assert "Set aside: Spy" in ending and "🕵" not in ending


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_group_line_in_the_first_round_says_nobody_may_decapitate_yet(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.configure(no_first_round_decapitation=True)
    state = table.start(seed=3)
    first_line = table.board().text.splitlines()[0]
    assert first_line == table.t("turn_line_first", name=table.seat_label(state.first))
    for _ in range(4):  # a round: each seat scouts once
        table.scout_and_done(table.state.turn, table.state.turn % 4 + 1)
    again = table.board().text.splitlines()[0]
    assert again == table.t("turn_line", name=table.seat_label(state.first))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_round_header_keeps_its_wording_once_the_player_has_scouted(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 4, lang=lang)
    table.open()
    table.configure(no_first_round_decapitation=True)
    state = table.start(seed=3)
    table.scout(state.first, state.first % 4 + 1)
    first_line = table.board().text.splitlines()[0]
    assert first_line == table.t("turn_line_first", name=table.seat_label(state.first))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_observers_private_turn_prompt_asks_only_for_a_scout(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    state = observer_opens(table)
    observer = table.player_at(state.first)
    title = isolate(table.group.title)
    turn = table.t_for(observer, "prompt_turn_neutral", group=title)
    assert observer.prompt().text == f"{table.dealt(observer, state)}\n{turn}"  # with the card
    assert observer.labels() == [table.t_for(observer, "btn_scout")]
    # The group reads the same line as for any seat.
    first_line = table.board().text.splitlines()[0]
    assert first_line == table.t("turn_line", name=table.seat_label(state.first))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mycard_after_a_swap_says_the_face_up_x_has_no_power(memory_bot: Bot, lang: str) -> None:
    seed, _ = find_seed(7, Variants(turncoat=True), lambda s: x_apart(s, s.first))
    table = Table.of(memory_bot, 7, lang=lang)
    table.open()
    table.configure(turncoat=True, turncoat_seconds=10)
    state = table.start(seed)
    scout, holder = state.first, lone_x(state)
    table.scout(scout, holder)
    table.swap(holder)
    memory_bot.advance(10)
    scouting = table.player_at(scout)
    scouting.private("/mycard")
    told = scouting.last_text()
    assert table.t_for(scouting, "x_spent_scout") in told
    assert table.t_for(scouting, "hint_x_turncoat") not in told


def observer_then_spy(state) -> bool:
    """The Observer opens; the next seat holds a colour; the Spy sits elsewhere."""
    attacker = state.first % 6 + 1
    spy = state.holder("SPY")
    return (
        state.cards[state.first - 1] == "OBS"
        and color(state.cards[attacker - 1]) is not None
        and spy not in (None, state.first, attacker)
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_spy_is_offered_neither_their_own_seat_nor_a_revealed_observer(
    memory_bot: Bot, lang: str
) -> None:
    seed, _ = find_seed(6, Variants(observer=True, spy=True), observer_then_spy)
    table = Table.of(memory_bot, 6, lang=lang)
    table.open()
    table.configure(observer=True, spy=True)
    state = table.start(seed)
    observer, attacker, spy = state.first, state.first % 6 + 1, state.holder("SPY")
    target = next(s for s in range(1, 7) if s not in (observer, attacker, spy))
    table.scout(observer, attacker)
    table.predict(observer, "red")
    table.decapitate(attacker, target)
    offered = [s for s in range(1, 7) if s not in (observer, spy)]
    player = table.player_at(spy)
    assert player.labels() == [table.seat_label(s) for s in offered]  # the Red captain
    player.press(table.seat_label(offered[0]))
    assert player.labels() == [table.seat_label(s) for s in offered]  # the Blue captain
