"""One update's way through the bot, the same for a button, a command, a timer and anything that
acts later: read the group's item once, decide in the session, render after the decision, save
the change and the messages it owes in one conditional write, send them, acknowledge them, and
follow up (players the bot cannot reach, a group that moved or lost the bot).

    loaded = await hub.read(context, chat, update_id)   # a redelivery is answered here
    await hub.handle(context, loaded, step, update_id)   # step: the table in, `Decided` out

A step decides and renders and nothing else: data in, data out. When another change saved the
item first, the step runs again on the item as it is then.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace

from telegram.ext import ApplicationHandlerStop

from handlers.display import render
from handlers.display.ids import Ids
from handlers.display.messages import DropButtons, Edit, Out, Send, from_stored, to_stored
from handlers.session.events import Event
from handlers.session.table import LOBBY, PLAYING, Table
from handlers.storage.keeper import ATTEMPTS, Loaded
from handlers.storage.retry import backoff
from handlers.telegram import item
from handlers.telegram.answers import PressAnswer
from handlers.telegram.context import BotContext
from handlers.telegram.item import Kept, Read, ids_of
from handlers.telegram.outbox import HELD, Delivery, deliver, latest_edits
from infra.store import Conflict

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Decided:
    """A step's result: the table the session left (None: nothing to save) and the messages the
    change owes, rendered after the decision (the message ids the step was handed, kept up to
    date as they were; `ids`: others in their place)."""

    table: Table | None
    outs: list[Out] = field(default_factory=list)
    ids: Ids | None = None


# A step: the session's table and the Telegram side's message ids as read, in; `Decided`, out.
Step = Callable[[Table | None, Ids], Decided]


def shown(context: BotContext, table: Table, ids: Ids, events: list[Event], *more: Out) -> Decided:
    """The table as the session left it, its events rendered (and `more` messages after)."""
    bot = context.runtime.username
    return Decided(table, [*render.show(table, ids, events, bot), *more])


def unchanged(table: Table | None, ids: Ids) -> Decided:
    """A step that changes nothing (a dead run's messages are still sent)."""
    return Decided(None)


async def read(
    context: BotContext, chat: int, update_id: int | None = None, also: Collection[str] = ()
) -> Read:
    """The group's item, read once (with the small records `also`, in the same call). An update
    it shows applied already is a redelivery: it is answered from that same read (what its
    change still owes is sent) and goes no further."""
    loaded = Read.of(context.runtime.keeper.load(chat, also))
    if loaded.applied(update_id):
        await _phases(context, await _saved(context, loaded, unchanged, update_id), None)
    return loaded


def read_all(context: BotContext, chats: Collection[int]) -> list[Read]:
    """Several groups' items, read together (one call where the store allows)."""
    return [Read.of(loaded) for loaded in context.runtime.keeper.load_all(chats)]


async def handle(
    context: BotContext,
    loaded: Loaded | Read,
    step: Step,
    update_id: int | None = None,
    answer: PressAnswer | None = None,
) -> Kept:
    """One change: decide and render (`step`), save with what is owed, send (a press's answer
    alongside), acknowledge, follow up."""
    saved = await _saved(context, Read.of(loaded), step, update_id)
    await _phases(context, saved, answer)
    return saved


async def _phases(context: BotContext, saved: Kept, answer: PressAnswer | None) -> None:
    """Send what a saved change owes, acknowledge it, follow up; a redelivery stops here."""
    held = [i for i, out in enumerate(saved.outs) if out.get(HELD)]
    outs = latest_edits([from_stored(out) for out in saved.outs], held)
    delivery = await send(context, outs, None if saved.repeated else answer)
    latest = acknowledge(context, saved, delivery)
    await follow_up(context, saved, outs, delivery, latest)
    if saved.busy_until is not None:
        # Another run is sending what the update's change owes: should it die, a timer at the
        # end of its lease sends the rest, so Telegram need not come back (and hold the chat).
        context.runtime.keeper.wake(saved.chat, saved.busy_until)
    if saved.repeated:
        raise ApplicationHandlerStop  # a redelivery: its answers went out the first time


async def _saved(context: BotContext, loaded: Read, step: Step, update_id: int | None) -> Kept:
    """Decide, render and save in one conditional write; after a lost race, all again on the
    item as it is then (a redelivery found there is answered from it)."""
    keeper = context.runtime.keeper
    for attempt in range(ATTEMPTS):
        try:
            if loaded.applied(update_id):
                return item.answer_again(keeper, loaded, update_id)
            ids = loaded.ids()
            decided = step(loaded.table, ids)
            telegram = (decided.ids or ids).to_stored()
            stored = [to_stored(out) for out in decided.outs]
            return item.save(keeper, loaded, decided.table, telegram, stored, update_id)
        except Conflict:
            if attempt == ATTEMPTS - 1:
                raise
            await asyncio.sleep(backoff(attempt))
            loaded = Read.of(keeper.load(loaded.chat))
    raise AssertionError("unreachable")


async def send(
    context: BotContext, outs: list[Out], answer: PressAnswer | None = None
) -> Delivery:
    """Deliver messages (a press's answer alongside, when it is ready)."""
    if answer is not None and answer.ready is not None:
        delivery, _ = await asyncio.gather(deliver(context.bot, outs), answer.send())
        return delivery
    return await deliver(context.bot, outs)


def acknowledge(context: BotContext, saved: Kept, delivery: Delivery) -> bool:
    """The second phase: the change's messages are out. Their batches are marked delivered and
    the new message ids kept; True when no other change came between (what was sent is the
    latest)."""
    if saved.game is None or not (delivery.ids or saved.keys or delivery.retry):
        return False
    return context.runtime.keeper.acknowledge(
        saved.chat,
        saved.game,
        saved.item,
        delivery.ids,
        delivery.board_tag,
        saved.keys,
        [{**to_stored(out), HELD: True} for out in delivery.retry],
        delivery.wait,
    )


# -- following up -------------------------------------------------------------------------------


async def follow_up(
    context: BotContext, saved: Kept, outs: list[Out], delivery: Delivery, latest: bool
) -> None:
    """What a delivery asks for next: the lobby settled, unreachable players named and noted,
    a group that became a supergroup or removed the bot followed."""
    table = saved.table
    if table is None:
        return
    lobby = [out for out in outs if isinstance(out, Edit) and out.ref == "lobby_msg"]
    if lobby and not latest and table.status == LOBBY:
        await settle_lobby(context, table, lobby[-1])
    if "board" in delivery.ids and not latest and table.status == PLAYING:
        await settle_board(context, table, delivery.ids["board"], saved.keys)
    if delivery.unreachable and table.status in (LOBBY, PLAYING):
        await note_unreachable(context, table, delivery.unreachable, delivery.blocked)
    if delivery.retry and delivery.wait > 0 and table.status == PLAYING:
        await hold_the_deadline(context, table, delivery.wait)
    if delivery.migrated_to:
        await follow_upgrade(context, table, delivery)
    if saved.chat in delivery.removed_from:
        await removed(context, saved.chat, None)


async def settle_lobby(context: BotContext, table: Table, sent: Edit) -> None:
    """Make the lobby message end up showing the latest lobby. Runs that change the lobby at
    the same moment (people joining together) save in turn, but their edits may reach Telegram
    out of order; so after its edit each run looks again, and while the stored lobby reads
    otherwise than what it sent last, it sends that. The last edit to land is then the newest."""
    for _ in range(5):
        stored = Read.of(context.runtime.keeper.latest(table.chat))
        latest = stored.table
        if latest is None or latest.game != table.game or latest.status != LOBBY:
            return
        out = render.lobby_message(latest, ids_of(stored), context.runtime.username)
        if (out.text, out.kb) == (sent.text, sent.kb):
            return
        await deliver(context.bot, [out])
        sent = out


async def settle_board(
    context: BotContext, table: Table, message_id: int, keys: Collection[str]
) -> None:
    """A turn message this run posted, with another change saved before its delivery mark (the
    next player acting at once, the game ending): if the table no longer has it as its turn
    message, nobody will ever take its buttons off, so they come off now. (While the mark is
    not written, its batch is owed and goes out again: the message is left as it is.)"""
    latest = Read.of(context.runtime.keeper.latest(table.chat))
    current = latest.table
    if current is None or any(batch.key in keys for batch in latest.loaded.owed()):
        return
    posted = ids_of(latest).board
    if current.game == table.game and current.status == PLAYING and posted == message_id:
        return
    await deliver(context.bot, [DropButtons(table.chat, message_id, side=False)])


async def note_unreachable(
    context: BotContext, table: Table, users: list[int], blocked: Collection[int] = ()
) -> None:
    """Remember who a private message failed to reach (`blocked`: those who blocked the bot):
    the lobby names them (and Start waits for them); in a game, the one warning names them,
    and a wait of theirs whose prompt failed is cut short."""

    def note(current: Table | None, ids: Ids) -> Decided:
        if current is None or current.game != table.game:
            return Decided(None)
        news = current.out_of_reach(users, blocked, context.runtime.clock())
        return Decided(None) if news is None else shown(context, current, ids, news)

    await handle(context, await read(context, table.chat), note)


async def hold_the_deadline(context: BotContext, table: Table, seconds: float) -> None:
    """Telegram held the group's messages back `seconds` (a flood wait): the turn's deadline
    moves as much, so no player loses time to it (nothing is shown: the owed messages are).
    The owed messages' timer is set again after the deadline's (a local timer replaces it)."""
    runtime, moved = context.runtime, []

    def held(current: Table | None, ids: Ids) -> Decided:
        if current is None or current.game != table.game:
            return Decided(None)
        if not current.held_back(seconds, runtime.clock()):
            return Decided(None)
        moved.append(current)
        return Decided(current)

    await handle(context, await read(context, table.chat), held)
    if moved:
        runtime.keeper.wake(table.chat, runtime.clock() + max(seconds, 1.0))


async def follow_upgrade(context: BotContext, table: Table, delivery: Delivery) -> None:
    """The group became a supergroup before its service message reached the bot: move the
    table, and post what the old chat refused in the new one (edits as new messages there)."""
    new = delivery.migrated_to
    await migrate(context, table.chat, new)
    again: list[Out] = [
        replace(out, chat=new, msg=None) if isinstance(out, Edit) else replace(out, chat=new)
        for out in delivery.moved
        if isinstance(out, Send | Edit)
    ]
    if again:
        resent = await deliver(context.bot, again)
        if resent.ids:
            context.runtime.keeper.acknowledge(new, table.game, None, resent.ids, resent.board_tag)


async def migrate(context: BotContext, old: int, new: int) -> None:
    """The group became a supergroup: move its table to the new chat id (its private prompts
    still open; none of the old chat's messages), and post an open lobby there again."""
    stored = await read(context, old)
    table = stored.table
    if table is None:
        return
    moved = ids_of(stored)
    moved.moved()

    def move(current: Table | None, ids: Ids) -> Decided:
        if current is not None:
            return Decided(None)
        table.moved(new)
        if table.status != LOBBY:
            return Decided(table, ids=moved)
        lobby = render.show(table, moved, table.lobby.shown(menu=False), context.runtime.username)
        return Decided(table, lobby, ids=moved)

    await handle(context, await read(context, new), move)
    context.runtime.keeper.point(old, new)


async def removed(context: BotContext, chat: int, update_id: int | None) -> None:
    """The bot is no longer in the group: end its game (no timer is left running) and tell the
    players privately."""

    def end(table: Table | None, ids: Ids) -> Decided:
        if table is None or table.status not in (LOBBY, PLAYING):
            return Decided(None)
        return shown(context, table, ids, table.removed())

    await handle(context, await read(context, chat, update_id), end, update_id)
