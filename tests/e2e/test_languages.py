"""Who may switch the group's language, and each player's own language in private."""

from __future__ import annotations

from handlers.display.texts import card_name
from handlers.storage.keys import prefs_key
from handlers.telegram.refusals import REFUSAL_REF
from testing.drivers import Bot
from testing.players import Table

ONLY_HOST = "Only the host or a group admin may do that."

CLUB = "\u2068Friday club\u2069"  # the group's title as messages show it (isolated)


def zh(key: str, **kw) -> str:
    """A text in Chinese, as Telegram shows it."""
    return Table.t_in("zh", key, **kw)


def refusal(bot: Bot, table: Table) -> str:
    """What the group's one refusal message says now."""
    kept = bot.store.load(prefs_key(table.chat)).data
    return table.fake.message(table.group, kept[REFUSAL_REF]).text


def test_only_the_host_or_an_admin_may_switch_the_language(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 6)
    admin = table.players[5]
    memory_bot.fake.set_admin(table.group, admin.user)
    table.open(table.players[1:4])
    guest = table.players[1]
    before = memory_bot.item(table.chat)
    guest.say("/language")
    assert refusal(memory_bot, table) == ONLY_HOST
    assert memory_bot.item(table.chat) == before
    assert table.lobby_message().text.startswith("🎯 Decapitation")

    admin.say("/language")  # an admin who does not play
    assert table.group_texts()[-1] == "语言：中文。"
    assert table.data()["lang"] == "zh"
    table.host.say("/language")
    assert table.group_texts()[-1] == "Language: English."

    table.start(seed=51)
    before = memory_bot.item(table.chat)
    guest.say("/language")
    assert refusal(memory_bot, table) == ONLY_HOST
    assert memory_bot.item(table.chat) == before
    table.host.say("/language")  # mid-game, the host may
    assert table.group_texts()[-1] == "语言：中文。"
    guest.say("/language")
    assert refusal(memory_bot, table) == zh("only_host")
    assert table.data()["lang"] == "zh"


def test_without_a_game_only_an_admin_may_switch_the_language(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    member, owner = table.players[2], table.players[0]
    member.say("/language")
    assert table.group_texts()[-1] == ONLY_HOST
    member.say("/help")
    assert table.group_texts()[-1].startswith("🎯 Decapitation")
    owner.say("/language")  # the group's owner administers it
    assert table.group_texts()[-1] == "语言：中文。"
    member.say("/newgame")
    assert table.lobby_message().text.startswith("🎯 斩首行动")


def test_the_settings_language_switch_is_for_the_host_or_an_admin(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    table.open()
    assert table.host.press(table.t("btn_settings"), table.lobby_message()) is None
    menu = table.lobby_message()
    assert table.players[2].press(table.t("set_lang"), menu) == ONLY_HOST
    assert table.data()["lang"] == "en"
    assert table.host.press(table.t("set_lang"), menu) is None
    assert table.data()["lang"] == "zh"


def test_each_player_reads_private_messages_in_their_own_language(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)  # an English group
    ben, cat = table.players[1], table.players[2]
    ben.user.language_code = "zh-hans"
    table.open()
    assert ben.last_text() == zh("joined", group=CLUB)  # 你已加入「Friday club」的游戏。
    assert cat.last_text() == f"You joined the game in {CLUB}."
    state = table.start(seed=52)
    mine, seat = table.seat_of(ben), table.seat_of(cat)
    assert ben.texts()[-1 if state.first != mine else -2].startswith(
        zh("your_seat", seat=mine, group=CLUB) + "\n" + zh("your_card", card="")
    )
    assert cat.texts()[-1 if state.first != seat else -2].startswith(
        f"You sit in seat {seat} in {CLUB}.\n🃏 Your card: "
    )
    while table.state.turn != mine:
        turn = table.state.turn
        table.scout_and_done(turn, turn % 4 + 1)
    assert ben.prompt().text == zh("prompt_turn", group=CLUB)
    assert ben.labels() == [zh("btn_scout"), zh("btn_decapitate")]  # 🔍 侦查, 🗡 斩首
    assert table.board().text.startswith(f"▶️ {table.seat_label(mine)}'s turn")  # the group's

    memory_bot.advance(75)
    assert ben.last_text() == zh("hurry", s=15)
    target = mine % 4 + 1
    assert ben.press(zh("btn_scout")) is None  # a menu opens
    assert table.seat_label(target, "zh") in ben.labels()
    assert ben.press(table.seat_label(target, "zh")) is None  # no toast: the prompt says it
    code = table.state.cards[target - 1]
    seen = zh("scout_result", target=table.seat_label(target, "zh"), card=card_name("zh", code))
    # The prompt scouted from shows what Ben saw; the invitation to speak is the one new message.
    assert ben.texts()[-3:] == [seen, zh("hurry", s=15), zh("prompt_speak")]
    assert ben.prompt().text == zh("prompt_speak")
    scouted = f"🔍 {table.seat_label(mine)} scouted {table.seat_label(target)}."
    assert scouted in table.board().text

    popup = ben.press("🃏 My card", table.board())  # the group's button, the presser's language
    own = card_name("zh", table.state.cards[mine - 1])
    assert popup.startswith(f"{zh('your_card', card=own)}{zh('popup_seat', seat=mine)}")
    assert cat.press("🃏 My card", table.board()).startswith("🃏 Your card: ")
    ben.private("/mycard")
    assert ben.last_text().startswith(zh("your_seat", seat=mine, group=CLUB))
    assert zh("mycard_learned") in ben.last_text()

    done = ben.prompt()
    memory_bot.advance(60)  # the speaking moment runs out
    closed = table.fake.message(ben.user, done.message_id)
    assert (closed.text, closed.buttons) == (zh("closed_timeout_speak"), [])  # 发言时间结束
    late = done.button(zh("btn_done")).callback_data  # a client that missed the edit
    assert ben.press_data(late, closed) == zh("too_late")  # a late press, in their language


def test_a_player_whose_language_telegram_does_not_say_reads_the_groups(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    quiet = table.players[3]
    quiet.user.language_code = None
    table.open()
    assert quiet.last_text() == zh("joined", group=CLUB)
    table.start(seed=53)
    assert zh("your_card", card="") in "\n".join(quiet.texts())
    table.host.say("/language")  # the group's language changes, and with it theirs
    quiet.private("/mycard")
    assert quiet.last_text().startswith("You sit in seat ")
    table.players[1].private("/mycard")  # who said Chinese keeps it
    seat = table.seat_of(table.players[1])
    assert table.players[1].last_text().startswith(zh("your_seat", seat=seat, group=CLUB))


def test_play_again_keeps_each_players_language(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    ben = table.players[1]
    ben.user.language_code = "zh-hans"
    table.open()
    state = table.start(seed=54)
    table.decapitate(state.first, state.first % 4 + 1)
    assert table.players[2].press(table.t("btn_play_again"), table.ending()) is None
    state = table.start(seed=55)
    seat = table.seat_of(ben)
    card = card_name("zh", state.cards[seat - 1])
    assert zh("your_card", card=card) in "\n".join(ben.texts()[-2:])
    other = table.players[3]
    seat = table.seat_of(other)
    assert f"Your card: {card_name('en', state.cards[seat - 1])}" in "\n".join(other.texts()[-2:])


def test_a_popup_is_in_the_language_of_the_one_who_reads_it(memory_bot: Bot) -> None:
    # One rule for popups: only the presser sees one, so it is in their language, whichever
    # message the button sits on (a lobby's, a game's, a record's).
    table = Table.of(memory_bot, 5, lang="zh")
    ann = table.players[1]
    ann.user.language_code = "en"
    table.open(table.players[1:4])
    lobby = table.lobby_message()
    assert ann.press(zh("btn_start"), lobby) == Table.t_in("en", "only_host")
    assert ann.press(zh("btn_leave"), table.lobby_message()) == Table.t_in("en", "left")
    guest = table.players[4]
    guest.user.language_code = "en"
    assert guest.press(zh("btn_leave"), table.lobby_message()) == Table.t_in("en", "not_in_lobby")
