"""The secrecy check every e2e game ends with: who could read which card, and where."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.views import learned
from handlers.display.texts import LANGUAGES, t
from testing.fake_telegram import FakeMessage

if TYPE_CHECKING:
    from testing.players import Table

COLOURED = re.compile(r"\b(Red|Blue) ([1-7X])\b|([红蓝])([1-7X])")
NEUTRAL = re.compile(r"Observer|Spy|观察员|密探")
NEUTRAL_CODE = {"Observer": "OBS", "观察员": "OBS", "Spy": "SPY", "密探": "SPY"}
# Lines that name a variant or a setting, not a card anybody holds.
NOT_A_CARD = re.compile(
    r"^(Variants: |可选规则："  # the variants in play
    r"|(Observer|Spy|观察员|密探)[:：] ?(on|off|开|关)$"  # settings buttons
    r"|Spy's guess: |密探猜测时限："  # the Spy's time limit, and its row in the settings
    r"|🕵 (Spy's guess|密探猜测时限)$"
    r"|Time limits: |时限："  # /status in a lobby
    r"|🕵 A decapitation was announced|🕵 有人宣布斩首"  # the Spy's own prompt
    r"|By role: |按角色："  # /stats: the roles of finished games
    # a bot seat's claim: its words, as a player's
    r"|\u2068?🤖 (Bot |机器人)\d+\u2069?[:：] ?[\"“])"
)
END_MARK = "🏁"
CANCEL_MARK = "🛑"  # a cancelled game: every card, as it stood
AFTER_THE_GAME = (END_MARK, CANCEL_MARK)


def plain(text: str) -> str:
    return text.replace("<b>", "").replace("</b>", "")


RULES_TEXTS = {plain(t(lang, key)) for lang in LANGUAGES for key in ("rules", "help")}


def cards_named(text: str | None) -> set[str]:
    """The card codes a text names (R4, BX, OBS, SPY), ignoring variant and setting names."""
    if not text or plain(text) in RULES_TEXTS:
        return set()
    found: set[str] = set()
    for line in text.splitlines():
        if NOT_A_CARD.search(line):
            continue
        for match in COLOURED.finditer(line):
            colour, rank = (
                (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
            )
            found.add(("R" if colour in ("Red", "红") else "B") + rank)
        found |= {NEUTRAL_CODE[word] for word in NEUTRAL.findall(line)}
    return found


def versions(message: FakeMessage) -> list[tuple[str | None, list[str]]]:
    """Every text and set of button labels a message showed, oldest first."""
    shown = []
    for old in message.history:
        rows = (old.reply_markup or {}).get("inline_keyboard", [])
        shown.append((old.text, [b["text"] for row in rows for b in row]))
    shown.append((message.text, message.button_labels))
    return shown


def check(table: Table) -> None:
    """Fail, naming the message, if any card reached someone who may not see it."""
    table.refresh()
    fake = table.fake
    public: set[str] = set()
    known: dict[int, set[str]] = {}
    for state, _ in table.snapshots.values():
        public |= set(state.face_up)
    # A player seated at several tables of the bot was told their cards at each.
    others = [other for other in table.bot.tables if other is not table]
    for other in others:
        other.refresh()
    games = [game for one in (table, *others) for game in one.snapshots.values()]
    for state, seats in games:
        for seat, user in enumerate(seats, 1):
            if not user:
                continue
            told = known.setdefault(user, set())
            for event in learned(state, seat):
                if "card" in event:
                    told.add(event["card"])

    # A card becomes public when the group is told: a reveal in play (a swapped X, the
    # Observer) when the group first reads it, every card of a game once the game is over (its
    # final reveal, or the message that says it was cancelled).
    sent_at: dict[tuple[int, int], int] = {}
    answered_at: dict[str, int] = {}
    told_at: dict[str, int] = {}
    groups = {group.id for group in table.groups}
    for index, call in enumerate(fake.calls):
        if call.kind != "ok":
            continue
        if call.method in ("sendMessage", "editMessageText"):
            chat, text = call.result["chat"]["id"], call.result.get("text", "")
            if call.method == "sendMessage":
                sent_at[(chat, call.result["message_id"])] = index
            if chat in groups and text.startswith(AFTER_THE_GAME):
                for card in cards_named(text):
                    told_at.setdefault(card, index)
            elif chat in groups:
                for card in cards_named(text) & public:
                    told_at.setdefault(card, index)
        elif call.method == "answerCallbackQuery":
            answered_at[call.params["callback_query_id"]] = index

    def public_by(index: int) -> set[str]:
        return {card for card, at in told_at.items() if at < index}

    # A practice game's "group" is its player's own chat: what it shows is held to what they
    # may know, below (its end, as a group's, shows every card).
    own = {player.id for player in table.players}
    shared = [group for group in table.groups if group.id not in own]
    for message in (m for group in shared for m in fake.chat(group)):
        if not message.from_bot:
            continue
        for text, labels in versions(message):
            if (text or "").startswith(AFTER_THE_GAME):
                continue
            for shown in (text, *labels):
                leaked = cards_named(shown) - public
                assert not leaked, f"the group saw {sorted(leaked)} in {shown!r}"

    for player in table.players:
        mine = known.get(player.id, set())
        for message in fake.chat(player.user):
            if not message.from_bot:
                continue
            allowed = mine | public_by(sent_at.get((player.id, message.message_id), 0))
            secret = False
            for text, labels in versions(message):
                if player.id in groups and (text or "").startswith(AFTER_THE_GAME):
                    continue  # a practice game's end, in its player's chat
                for shown in (text, *labels):
                    named = cards_named(shown)
                    secret = secret or bool(named)
                    leaked = named - allowed
                    assert not leaked, f"{player.name} was shown {sorted(leaked)} in {shown!r}"
            buttons = any(b.callback_data for row in message.buttons for b in row)
            if secret or buttons:
                assert message.protect_content, f"unprotected private message {message.text!r}"

    for answer in fake.callback_answers:
        allowed = known.get(answer.user_id, set())
        allowed |= public_by(answered_at.get(answer.query_id, 0))
        leaked = cards_named(answer.text) - allowed
        assert not leaked, f"a popup to user {answer.user_id} named {sorted(leaked)}"
