"""Simulated people at a Telegram table: they read their chats and press what they are shown
(a `Player` is one user, a `Table` a group of them playing through the bot)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import GameState
from engine.cards import OBSERVER, SPY, color, is_x
from engine.codec import state_from_dict
from handlers.display.ids import Ids
from handlers.display.render import isolate
from handlers.display.texts import card_name, colour_name, language_for, t
from handlers.session.base import Seats
from handlers.storage.keeper import FORM, SESSION, Loaded
from handlers.telegram.item import Read, ids_of
from testing.drivers import Bot
from testing.fake_telegram import FakeChat, FakeMessage, FakeUser

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea")
GROUP_TITLE = "Friday club"
OK_ANSWERS = (None, "OK", "好")


def item_of(table: Seats) -> dict[str, Any]:
    """A group's item holding only `table`'s part (nothing owed, no message id kept), as
    storage writes it."""
    return {"form": FORM, SESSION: table.to_stored()}


class Player:
    """One Telegram user, who sees only their own chats."""

    def __init__(self, bot: Bot, user: FakeUser, group: FakeChat) -> None:
        self.bot = bot
        self.fake = bot.fake
        self.user = user
        self.group = group

    def __repr__(self) -> str:
        return f"Player({self.name})"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def lang(self) -> str | None:
        """The language Telegram says the user reads (None when it does not say)."""
        code = self.user.language_code
        return language_for(code) if code else None

    @property
    def name(self) -> str:
        """The name the bot shows for this user."""
        return " ".join(p for p in (self.user.first_name, self.user.last_name) if p)

    # -- reading -------------------------------------------------------------------------------

    def messages(self) -> list[FakeMessage]:
        """The bot's messages in this user's private chat, as they look now."""
        return [m for m in self.fake.chat(self.user) if m.from_bot and not m.deleted]

    def texts(self) -> list[str]:
        """The texts of the bot's private messages."""
        return [m.text or "" for m in self.messages()]

    def last_text(self) -> str:
        """The newest private message from the bot."""
        return self.texts()[-1]

    def prompt(self) -> FakeMessage | None:
        """The newest private message that has buttons to press, as a person would look for."""
        for message in reversed(self.messages()):
            if any(b.callback_data for row in message.buttons for b in row):
                return message
        return None

    def labels(self) -> list[str]:
        """The labels of the buttons on the newest prompt."""
        prompt = self.prompt()
        return prompt.button_labels if prompt else []

    # -- acting --------------------------------------------------------------------------------

    def press(
        self, label: str, message: FakeMessage | None = None, chat: Any = None
    ) -> str | None:
        """Press a button (on the newest prompt unless told); returns the popup text shown."""
        if message is None:
            message = self.prompt()
            assert message is not None, f"{self.name} has no buttons to press: {self.texts()}"
        where = chat if chat is not None else message.chat_id
        update = self.bot.act(lambda: self.fake.press(self.user, where, message.message_id, label))
        return self.answer_to(update)

    def press_data(self, data: str, message: FakeMessage, chat: Any = None) -> str | None:
        """A press carrying `data` on `message`, whatever its buttons say (a forged client)."""
        where = chat if chat is not None else message.chat_id
        update = self.bot.act(
            lambda: self.fake.press(self.user, where, message.message_id, callback_data=data)
        )
        return self.answer_to(update)

    def answer_to(self, update: dict | None) -> str | None:
        """The callback answer the bot gave to a press (AssertionError if it gave none)."""
        if update is None or "callback_query" not in update:
            return None
        query = update["callback_query"]["id"]
        for answer in self.fake.callback_answers:
            if answer.query_id == query:
                return answer.text
        raise AssertionError(f"the bot never answered {self.name}'s press")

    def say(self, text: str, chat: Any = None) -> dict | None:
        """Write in the group (or another chat); returns the update if the bot got one."""
        where = chat if chat is not None else self.group
        return self.bot.act(lambda: self.fake.send_text(self.user, where, text))

    def private(self, text: str) -> dict | None:
        """Write to the bot privately."""
        return self.say(text, chat=self.user)

    def open_link(self, url: str) -> dict | None:
        """Open a t.me deep link and tap Start."""
        return self.bot.act(lambda: self.fake.open_deep_link(self.user, url))


class Table:
    """A group of players and the game they play through the bot."""

    def __init__(
        self,
        bot: Bot,
        players: Sequence[Player],
        group: FakeChat,
        lang: str,
        title: str = GROUP_TITLE,
    ) -> None:
        self.bot = bot
        self.title = title
        self.fake = bot.fake
        self.players = list(players)
        self.group = group
        self.groups = [group]  # every chat the group has had (an upgrade gives it a new one)
        self.lang = lang
        self.snapshots: dict[int, tuple[GameState, list[int]]] = {}  # game -> (state, seats)
        bot.tables.append(self)

    @classmethod
    def of(
        cls,
        bot: Bot,
        count: int,
        *,
        lang: str = "en",
        bot_admin: bool = False,
        started: bool = True,
        names: Sequence[str] = NAMES,
        title: str = GROUP_TITLE,
    ) -> Table:
        """`count` users in a new group with the bot; the first one owns the group."""
        code = "zh-hans" if lang == "zh" else "en"
        users = [
            bot.fake.add_user(name, language_code=code, started=started) for name in names[:count]
        ]
        group = bot.fake.add_group(title, users, owner=users[0], bot_admin=bot_admin)
        return cls(bot, [Player(bot, u, group) for u in users], group, lang, title)

    def upgrade_to_supergroup(self) -> None:
        """Telegram upgrades the group: it gets a new chat id, the old chat is read-only."""
        new = self.fake.migrate(self.group)
        self.bot.settle()
        self.group = self.fake.chats[new]
        self.groups.append(self.group)
        for player in self.players:
            player.group = self.group

    def member(self, name: str = "Zoe", started: bool = True) -> Player:
        """Someone who joins the group without playing (in the table's language); `started`:
        they have pressed Start in the bot's private chat."""
        code = "zh-hans" if self.lang == "zh" else "en"
        user = self.fake.add_user(name, language_code=code, started=started)
        self.bot.act(lambda: self.fake.join(user, self.group))
        return Player(self.bot, user, self.group)

    @property
    def host(self) -> Player:
        return self.players[0]

    @property
    def chat(self) -> int:
        return self.group.id

    def t(self, key: str, **kw: Any) -> str:
        """A bot text in the table's language, as Telegram shows it (no HTML tags)."""
        return self.t_in(self.lang, key, **kw)

    def t_for(self, player: Player, key: str, **kw: Any) -> str:
        """A bot text as `player` reads it in private: in their own language (the table's when
        Telegram does not say theirs)."""
        return self.t_in(player.lang or self.lang, key, **kw)

    @staticmethod
    def t_in(lang: str, key: str, **kw: Any) -> str:
        text = t(lang, key, **kw)
        for tag in ("<b>", "</b>"):
            text = text.replace(tag, "")
        return text

    # -- the store -----------------------------------------------------------------------------

    def stored(self) -> Read:
        """The group's item as stored, in its parts."""
        return Read(Loaded(self.chat, self.bot.item(self.chat)))

    def data(self) -> dict:
        """The group's table as the session keeps it (the session's part of the item)."""
        table = self.stored().table
        assert table is not None, "no table stored for the group"
        return table.to_stored()

    def envelope(self) -> dict:
        """Storage's part of the group's item: the updates applied, the messages owed."""
        return self.stored().loaded.envelope.to_stored()

    def ids(self) -> Ids:
        """The ids of the group's messages the bot edits (the Telegram side's part)."""
        return ids_of(self.stored())

    def refresh(self) -> GameState | None:
        """Remember the stored game as it is now (the leak check needs every game's deal)."""
        table = self.stored().table
        if table is None or table.record.engine is None:
            return None
        data = table.to_stored()
        state = state_from_dict(data["engine"])
        self.snapshots[data["game"]] = (state, list(data["seats"]))
        return state

    @property
    def state(self) -> GameState:
        """The engine's state of the running game."""
        state = self.refresh()
        assert state is not None, "no game was dealt"
        return state

    def player_at(self, seat: int) -> Player:
        """The player sitting in `seat`."""
        user = self.data()["seats"][seat - 1]
        assert user, f"seat {seat} is a virtual player"
        return next(p for p in self.players if p.id == user)

    def seat_of(self, player: Player) -> int:
        return self.data()["seats"].index(player.id) + 1

    def seat_label(self, seat: int, lang: str | None = None) -> str:
        """A seat as its button reads: '5. Eve' (the name isolated; in the table's language
        unless told)."""
        return self.t_in(
            lang or self.lang, "seat_label", seat=seat, name=isolate(self.state.names[seat - 1])
        )

    def dealt(self, player: Player, state: GameState | None = None) -> str:
        """What the deal told `player` privately, in their language: their seat, their card and
        what it means (`state`: the deal's, by default the game as it is now). The player whose
        turn opens the game reads their turn's prompt below it, in the same message."""
        state = state or self.state
        seat = self.seat_of(player)
        code = state.cards[seat - 1]
        lang = player.lang or self.lang
        if code in (OBSERVER, SPY):
            hints = [self.t_in(lang, "hint_observer" if code == OBSERVER else "hint_spy")]
        else:
            hints = [self.t_in(lang, "hint_colour", colour=colour_name(lang, color(code)))]
            if is_x(code) and state.variants.turncoat:
                hints.append(self.t_in(lang, "hint_x_turncoat"))
        title = isolate(self.title)
        return "\n".join(
            [
                self.t_in(lang, "your_seat", seat=seat, group=title),
                self.t_in(lang, "your_card", card=card_name(lang, code)),
                *hints,
            ]
        )

    # -- the group -----------------------------------------------------------------------------

    def group_messages(self) -> list[FakeMessage]:
        """The bot's messages in the group, as they look now."""
        return [m for m in self.fake.chat(self.group) if m.from_bot and not m.deleted]

    def group_texts(self) -> list[str]:
        return [m.text or "" for m in self.group_messages()]

    def lobby_message(self) -> FakeMessage:
        """The lobby (or settings) message of the current game."""
        return self.fake.message(self.group, self.ids().lobby)

    def board(self) -> FakeMessage:
        """The current turn message in the group."""
        return self.fake.message(self.group, self.ids().board)

    def ending(self) -> FakeMessage | None:
        """The final reveal, once the game is over."""
        title = self.t("end_title", colour="")[:2]
        for message in reversed(self.group_messages()):
            if (message.text or "").startswith(title):
                return message
        return None

    # -- the lobby -----------------------------------------------------------------------------

    def open(self, players: Sequence[Player] | None = None) -> None:
        """The host sends /newgame in the group; the others press Join and Start the bot."""
        self.host.say("/newgame")
        for player in players if players is not None else self.players[1:]:
            self.join(player)

    def join(self, player: Player) -> None:
        lobby = self.lobby_message()
        player.press(self.t("btn_join"), message=lobby, chat=self.group)
        joined = self.t_for(player, "joined", group=isolate(self.title))
        assert player.last_text() == joined, player.texts()

    def configure(self, **settings: Any) -> None:
        """The host opens Settings, turns each switch to the state asked or picks the value
        asked from the setting's row of choices, and goes back."""
        assert self.host.press(self.t("btn_settings"), self.lobby_message()) is None
        for key, value in settings.items():
            menu = self.lobby_message()
            if isinstance(value, bool):
                wanted = self.t(f"set_{key}", v=self.t("on" if value else "off"))
                label = next(
                    b.text
                    for row in menu.buttons
                    for b in row
                    if b.callback_data.endswith(f"|t:{key}")
                )
                if label != wanted:
                    assert self.host.press(label, menu) is None
                assert wanted in self.lobby_message().button_labels, wanted
                continue
            # The same label may stand in several rows: the choice is pressed where it is.
            rows = [[b.text for b in row] for row in menu.buttons]
            head = rows.index([self.t(f"head_{key}")])
            row = [
                b
                for r in menu.buttons[head + 1 : head + 3]
                for b in r
                if f"|v:{key}:" in b.callback_data
            ]
            unit = "choice_minutes" if key == "lobby_minutes" else "choice_seconds"
            plain = key in ("virtual_players", "bot_seats")
            shown = str(value) if plain else self.t(unit, v=value)
            chosen = self.t("choice_chosen", v=shown)
            button = next((b for b in row if b.text in (shown, chosen)), None)
            assert button is not None, f"no choice {shown!r} for {key} in {rows}"
            if button.text != chosen:
                assert self.host.press_data(button.callback_data, menu) is None
            assert chosen in self.lobby_message().button_labels, chosen
        assert self.host.press(self.t("btn_back"), self.lobby_message()) is None

    def start(self, seed: int | None = None) -> GameState:
        """The host presses Start (with the deal fixed by `seed`)."""
        self.bot.seed = seed
        answer = self.host.press(self.t("btn_start"), self.lobby_message())
        assert answer is None, answer
        return self.state

    def lobby_names(self) -> list[str]:
        """The players' names in lobby order, as the deal sees them."""
        return [name for _, name in self.data()["players"]]

    # -- moves ---------------------------------------------------------------------------------

    def _move(self, player: Player, label: str) -> None:
        answer = player.press(label)
        assert answer in OK_ANSWERS, f"{player.name} pressed {label!r} and was told {answer!r}"
        self.refresh()

    def _label(self, player: Player, key: str) -> str:
        """A button of `player`'s private prompts, in their language."""
        return self.t_for(player, key)

    def _seat_button(self, player: Player, seat: int) -> str:
        return self.seat_label(seat, player.lang or self.lang)

    def scout(self, seat: int, target: int) -> None:
        """The seat's player scouts `target` from their private turn prompt."""
        player = self.player_at(seat)
        self._move(player, self._label(player, "btn_scout"))
        self._move(player, self._seat_button(player, target))

    def done(self, seat: int) -> None:
        """The scout ends their speaking moment."""
        player = self.player_at(seat)
        self._move(player, self._label(player, "btn_done"))

    def _board_move(self, player: Player, label: str) -> None:
        """`player` presses `label` on the group's turn message (its labels: the table's)."""
        answer = player.press(label, message=self.board(), chat=self.group)
        assert answer in OK_ANSWERS, f"{player.name} pressed {label!r} and was told {answer!r}"
        self.refresh()

    def scout_in_group(self, seat: int, target: int) -> None:
        """The seat's player scouts `target` from the group's turn message: Scout, the seat."""
        player = self.player_at(seat)
        self._board_move(player, self.t("btn_scout"))
        self._board_move(player, self.seat_label(target))

    def done_in_group(self, seat: int) -> None:
        """The scout ends their speaking moment from the group's turn message."""
        self._board_move(self.player_at(seat), self.t("btn_done"))

    def scout_and_done(self, seat: int, target: int) -> None:
        self.scout(seat, target)
        self.done(seat)

    def predict(self, seat: int, colour: str) -> None:
        """The Observer reveals and predicts after their scout."""
        player = self.player_at(seat)
        self._move(player, self._label(player, f"btn_predict_{colour}"))

    def decapitate(
        self, seat: int, target: int, proxy: bool | None = None, bodyguard: bool | None = None
    ) -> None:
        """The seat's player decapitates `target`, answering the declarations asked (asked
        whether they act for a virtual player and not told, No: they act for themselves)."""
        player = self.player_at(seat)
        if proxy is None and self.state.asks_proxy:
            proxy = False
        self._move(player, self._label(player, "btn_decapitate"))
        self._move(player, self._seat_button(player, target))
        for declared in (proxy, bodyguard):
            if declared is not None:
                self._move(player, self._label(player, "btn_yes" if declared else "btn_no"))
        self._move(player, self._label(player, "btn_confirm"))

    def swap(self, seat: int) -> None:
        player = self.player_at(seat)
        self._move(player, self._label(player, "btn_swap"))

    def keep(self, seat: int) -> None:
        player = self.player_at(seat)
        self._move(player, self._label(player, "btn_keep"))

    def spy_guess(self, seat: int, red: int, blue: int) -> None:
        """The Spy names the Red captain, then the Blue one."""
        player = self.player_at(seat)
        self._move(player, self._seat_button(player, red))
        self._move(player, self._seat_button(player, blue))
