"""The outbox's order: each chat's messages in turn, edits of messages in place alongside."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, ClassVar

from telegram.error import BadRequest, Forbidden

from handlers.display.messages import DropButtons, Edit, Send
from handlers.telegram.outbox import deliver, latest_edits

GROUP, ALICE = -100, 7


class StubBot:
    """Records the calls; an edit may wait for a send to the same chat, or fail as gone."""

    def __init__(self, edit_waits_for_send: bool = False, gone: set[int] = frozenset()) -> None:
        self.calls: list[tuple[str, int, Any]] = []
        self.sent = asyncio.Event()
        self.edit_waits_for_send = edit_waits_for_send
        self.gone = gone
        self.next_id = 100

    async def send_message(self, chat_id: int, text: str, **_: Any) -> Any:
        self.calls.append(("send", chat_id, text))
        self.sent.set()
        self.next_id += 1
        return SimpleNamespace(message_id=self.next_id)

    async def edit_message_text(self, chat_id: int, message_id: int, text: str, **_: Any) -> Any:
        if message_id in self.gone:
            raise BadRequest("Message to edit not found")
        if self.edit_waits_for_send:
            await asyncio.wait_for(self.sent.wait(), timeout=5)
        await asyncio.sleep(0.01 if text == "slow" else 0)
        self.calls.append(("edit", chat_id, text))
        return True

    async def edit_message_reply_markup(self, chat_id: int, message_id: int, **_: Any) -> Any:
        if message_id in self.gone:
            raise BadRequest("Message to edit not found")
        if self.edit_waits_for_send:
            await asyncio.wait_for(self.sent.wait(), timeout=5)
        self.calls.append(("drop_buttons", chat_id, message_id))
        return True


def edit(msg: int | None, text: str, side: bool = False, ref: str | None = None) -> Edit:
    return Edit(GROUP, text, None, msg=msg, ref=ref, side=side)


def send(text: str, remember: str | None = None) -> Send:
    return Send(GROUP, text, None, remember=remember)


def test_an_edit_in_place_goes_out_alongside_the_chats_new_messages() -> None:
    bot = StubBot(edit_waits_for_send=True)
    # Were the edit to keep its turn, it would wait for a send that waits for it.
    delivery = asyncio.run(deliver(bot, [edit(5, "closed", side=True), send("next")]))
    assert [c[0] for c in bot.calls] == ["send", "edit"]
    assert delivery.retry == [] and not delivery.unreachable and not delivery.removed_from


def test_an_edit_of_a_message_the_batch_touches_again_keeps_its_place() -> None:
    bot = StubBot()
    outs = [edit(5, "slow"), edit(5, "closed", side=True), send("next")]
    asyncio.run(deliver(bot, outs))
    assert [c[2] for c in bot.calls] == ["slow", "closed", "next"]


def test_an_edit_in_place_of_a_message_gone_is_posted_anew_and_remembered_by_nobody() -> None:
    bot = StubBot(gone={5})
    outs = [edit(5, "seating", side=True, ref="lobby_msg"), send("turn", remember="board")]
    delivery = asyncio.run(deliver(bot, outs))
    assert sorted(c[2] for c in bot.calls if c[0] == "send") == ["seating", "turn"]
    assert list(delivery.ids) == ["board"]


def test_an_edit_held_back_gives_way_to_a_later_edit_of_its_message_only() -> None:
    held = [edit(5, "first"), edit(6, "other"), edit(5, "second"), edit(6, "latest")]
    assert latest_edits(held, {0, 1}) == held[2:]
    assert latest_edits(held, {2}) == held  # not held back: each one is drawn
    posted_between = [edit(None, "old", ref="board"), send("new", remember="board")]
    assert latest_edits([*posted_between, edit(None, "x", ref="board")], {0}) == [
        *posted_between,
        edit(None, "x", ref="board"),
    ]


def drop_buttons(msg: int) -> DropButtons:
    return DropButtons(GROUP, msg)


def test_buttons_taken_off_a_message_go_out_alongside_and_a_message_gone_is_let_go() -> None:
    bot = StubBot(edit_waits_for_send=True)
    asyncio.run(deliver(bot, [drop_buttons(5), send("lobby")]))
    assert bot.calls == [("send", GROUP, "lobby"), ("drop_buttons", GROUP, 5)]
    bot = StubBot(gone={5})
    delivery = asyncio.run(deliver(bot, [drop_buttons(5)]))
    assert bot.calls == [] and delivery.retry == [] and not delivery.removed_from


class ShutBot(StubBot):
    """Refuses private messages as Telegram does: to one who blocked the bot, and to one who
    never pressed Start."""

    REFUSALS: ClassVar[dict[int, str]] = {
        8: "Forbidden: bot was blocked by the user",
        9: "Forbidden: bot can't initiate conversation with a user",
    }

    async def send_message(self, chat_id: int, text: str, **kw: Any) -> Any:
        if chat_id in self.REFUSALS:
            raise Forbidden(self.REFUSALS[chat_id])
        return await super().send_message(chat_id, text, **kw)


def test_a_refused_private_message_says_whether_its_player_blocked_the_bot() -> None:
    outs = [Send(user, "card", None, private=True) for user in (ALICE, 8, 9)]
    delivery = asyncio.run(deliver(ShutBot(), outs))
    assert sorted(delivery.unreachable) == [8, 9] and delivery.blocked == [8]
