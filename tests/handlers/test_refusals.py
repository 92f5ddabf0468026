"""Where a refusal is said in a group the bot may not delete in."""

import pytest

from handlers.display.messages import Delete, Edit, Send
from handlers.telegram.refusals import REFUSAL_REF, REFUSAL_SAID, refusal, said
from testing.drivers import Bot
from testing.fake_telegram.world import FakeMessage
from testing.players import Player, Table


def test_a_refusal_scrolled_out_of_sight_is_posted_anew_not_rewritten() -> None:
    kept = {REFUSAL_REF: 100, REFUSAL_SAID: said("No.")}
    outs = refusal(-5, kept, False, "No.", typed=107)
    assert outs == [Send(-5, "No.", remember=REFUSAL_REF, reply_to=107)]


def test_a_refusal_among_the_last_few_messages_is_rewritten_in_place() -> None:
    kept = {REFUSAL_REF: 100, REFUSAL_SAID: said("No.")}
    outs = refusal(-5, kept, False, "Not now.", typed=102)
    assert outs == [Edit(-5, "Not now.", msg=100, ref=REFUSAL_REF)]


def _refused(table: Table, who: Player, command: str) -> tuple[int, FakeMessage]:
    """`who` types `command` in the group, a host's: its message id and the group's refusal."""
    typed = who.say(command)["message"]["message_id"]
    said = [
        m for m in table.group_messages() if m.from_bot and m.text.startswith(table.t("only_host"))
    ]
    return typed, said[-1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_refused_command_is_answered_by_a_reply_to_it_and_its_repeat_by_a_count(
    memory_bot: Bot, lang: str
) -> None:
    table = Table.of(memory_bot, 5, lang=lang)
    table.open(table.players[1:4])
    guest = table.players[2]
    typed, first = _refused(table, guest, "/cancel")
    assert (first.text, first.reply_to_message_id) == (table.t("only_host"), typed)
    _, second = _refused(table, guest, "/cancel")  # the bot may not delete here: rewritten
    assert (second.message_id, second.text) == (first.message_id, f"{table.t('only_host')} (×2)")
    _, third = _refused(table, guest, "/cancel")
    assert third.text == f"{table.t('only_host')} (×3)"


def test_a_repeat_where_the_bot_may_delete_is_answered_by_a_reply_to_it() -> None:
    kept = {REFUSAL_REF: 100, REFUSAL_SAID: said("No.")}
    outs = refusal(-5, kept, True, "No.", typed=101)
    assert outs == [Delete(-5, 100), Send(-5, "No.", remember=REFUSAL_REF, reply_to=101)]
