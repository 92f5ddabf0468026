"""A game behind the table's API, for the table's tests: the engine's game, each seat shown what
the engine's events told it, in the bot's words. It keeps to `handlers.table.api.TableSource`.

It stands in for the bot's store and session (no holds, no away or removed players, no
timers): the contract's checks, the page and the browser tests run against it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

from engine import (
    Action,
    GameState,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    to_record,
)
from engine.state import OVER, TURNCOAT, start_state
from engine.variants import Variants
from engine.views import PUBLIC_PHASE, events_for, known_cards
from handlers.display.texts import card_name, colour_name, t
from handlers.table.api import APPLIED, ILLEGAL, NOT_YOURS, STALE, MoveOutcome
from handlers.table.auth import Opening
from handlers.table.moves import MoveRequest, moves_for, to_action
from handlers.table.replay import replay_view
from handlers.table.selector import REPLAY, TABLE, Selector, replay_selector, table_selector
from handlers.table.view import (
    SeatShown,
    game_result,
    scouts_and_swaps,
    table_view,
    view_version,
)

TOKEN = "123456:TEST-table-token"
CHAT, GAME = -1001234567890, 1764547200
NAMES = ("Ann", "Bo", "Cai", "Dee", "Eve", "Fay", "Gus", "Hal")
USERS = tuple(range(101, 109))  # Telegram user ids of the seats, in seat order
LANGS = ("en", "zh") * 4
DEAL = ("R1", "B7", "R4", "B3")  # a four-seat deal: 1, 3, 4, 5, 7 of each colour are in play
OUTSIDER = 999
TURN_SECONDS = 60


def plain(text: str) -> str:
    """A bot line without its HTML tags (the table shows text, never markup)."""
    return re.sub(r"<[^>]+>", "", text)


@dataclass
class TableGame:
    """One game of four (Ann, Bo, Cai, Dee) that the table's API answers for."""

    state: GameState
    now: float
    users: tuple[int, ...] = USERS  # 0 for a virtual seat
    langs: tuple[str, ...] = LANGS
    title: str = "Friday table"
    deadline: float | None = None
    pause: bool = False  # the Turncoat's pause after a scout, as the bot holds it (set by hand)
    applied: dict[tuple[int, str], bool] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def deal(
        cls,
        now: float,
        variants: Variants | None = None,
        deal: tuple[str, ...] = DEAL,
        set_aside: tuple[str, ...] = (),
    ) -> TableGame:
        """Ann, Bo, Cai and Dee (and more, for a longer `deal`) dealt `deal`; seat 1 (Ann)
        plays first."""
        state = start_state(
            variants=variants or Variants(),
            names=NAMES[: len(deal)],
            virtual=(False,) * len(deal),
            deal=deal,
            set_aside=set_aside,
            first=1,
        )
        return cls(state, now, deadline=now + TURN_SECONDS)

    @classmethod
    def full(cls, now: float, seed: int = 7) -> TableGame:
        """The largest table: twelve players (long and Chinese names) and two virtual seats."""
        names = [f"{n}{i}" for i, n in enumerate(("Alexandrina", "张伟", "Bo", "李秀英"), 1)]
        names += [f"Player {i}" for i in range(5, 13)]
        state, _ = new_game(names, Variants(virtual_players=2, bodyguards=True), seed=seed)
        users = tuple(0 if v else 200 + s for s, v in enumerate(state.virtual, 1))
        langs = tuple("zh" if "张" in n or "李" in n else "en" for n in state.names)
        return cls(state, now, users, langs, deadline=now + TURN_SECONDS)

    def user(self, seat: int) -> dict:
        """The Telegram user in `seat`, as initData carries them."""
        lang = "zh-hans" if self.langs[seat - 1] == "zh" else "en"
        return {
            "id": self.users[seat - 1],
            "first_name": self.state.names[seat - 1],
            "language_code": lang,
        }

    # The API's side (TableSource).
    def member(self, chat: int, user: int) -> bool | None:
        """The group's members: those seated at its game."""
        return chat == CHAT and user in self.users

    def view(
        self, selector: Selector, opening: Opening, now: float, held: str | None = None
    ) -> dict | None:
        seat = self._seat(selector, opening, TABLE)
        return None if seat is None else self.view_of(seat)

    def move(
        self, selector: Selector, opening: Opening, request: MoveRequest, now: float
    ) -> MoveOutcome:
        seat = self._seat(selector, opening, TABLE)
        if seat is None:
            return MoveOutcome(NOT_YOURS)
        with self.lock:
            if (seat, request.move_id) in self.applied:
                return MoveOutcome(APPLIED, self.view_of(seat))
            if request.version != view_version(self.view_of(seat)):
                return MoveOutcome(STALE, self.view_of(seat))
            try:
                self.act(to_action(request.move, seat), now)
            except IllegalAction:
                return MoveOutcome(ILLEGAL, self.view_of(seat))
            self.applied[seat, request.move_id] = True
            return MoveOutcome(APPLIED, self.view_of(seat))

    def replay(
        self, selector: Selector, opening: Opening, now: float, member: bool
    ) -> dict | None:
        if (selector.chat, selector.game) != (CHAT, GAME) or selector.kind != REPLAY:
            return None
        if not member and opening.user.id not in self.users:
            return None
        if not self.state.over:
            return None
        lang = "zh" if opening.user.language_code.startswith("zh") else "en"
        return replay_view(
            to_record(self.state),
            lang=lang,
            selector=replay_selector(CHAT, GAME),
            title=self.title,
            describe=lambda state, action: self.step_line(state, action, lang),
        )

    def _seat(self, selector: Selector, opening: Opening, kind: str) -> int | None:
        if (selector.kind, selector.chat, selector.game) != (kind, CHAT, GAME):
            return None
        uid = opening.user.id
        return self.users.index(uid) + 1 if uid and uid in self.users else None

    # The game's side.
    def act(self, action: Action, now: float) -> None:
        """Apply a decision (raises IllegalAction), starting the next wait's clock."""
        self.state, _ = apply(self.state, action)
        self.deadline = None if self.state.over else now + TURN_SECONDS

    def label(self, seat: int, lang: str) -> str:
        return t(lang, "seat_label", seat=seat, name=self.state.names[seat - 1])

    def view_of(self, seat: int) -> dict:
        """What `seat` is shown now, built from the events it was sent."""
        state, lang = self.state, self.langs[seat - 1]
        known = known_cards(state, seat)
        seats = [
            SeatShown(
                s,
                name,
                virtual=state.virtual[s - 1],
                card=known.get(s),
                face_up=state.over or (s in known and known[s] in state.face_up),
            )
            for s, name in enumerate(state.names, 1)
        ]
        lines = [line for e in events_for(state, None) if (line := self.line(e, lang))]
        return table_view(
            lang=lang,
            selector=table_selector(CHAT, GAME),
            title=self.title,
            phase=PUBLIC_PHASE[state.phase],
            turn=None if state.over else state.turn,
            first=state.first,
            deadline=self.deadline,
            seats=seats,
            you=seat,
            facts=self.facts(seat),
            moves=moves_for(
                legal_actions(state, seat), state.turn if state.phase == TURNCOAT else None
            ),
            next_up=not state.over and self.next_after(state.turn) == seat,
            timeline=lines,
            latest=len(lines) - 1 if lines else None,
            variants=state.variants.names_on(),
            prediction=(
                {"seat": state.prediction[0], "color": state.prediction[1]}
                if state.prediction
                else None
            ),
            result=self.result(seat),
            pause=self.pause,
        )

    def next_after(self, seat: int) -> int:
        """The human seat whose turn comes after `seat`'s."""
        seat = seat % self.state.seats + 1
        while self.state.virtual[seat - 1]:
            seat = seat % self.state.seats + 1
        return seat

    def facts(self, seat: int) -> list[dict]:
        return scouts_and_swaps(events_for(self.state, seat), seat)

    def line(self, event: dict, lang: str) -> str | None:
        kind, label = event["type"], self.label
        if kind == "scouted":
            return t(
                lang,
                "scouted_line",
                name=label(event["seat"], lang),
                target=label(event["target"], lang),
            )
        if kind == "turn_ended":
            return t(lang, "done_line", name=label(event["seat"], lang))
        if kind == "turn":
            return plain(t(lang, "turn_line", name=label(event["seat"], lang)))
        if kind == "predicted":
            colour = colour_name(lang, event["color"])
            return plain(t(lang, "predicted_line", name=label(event["seat"], lang), colour=colour))
        if kind == "swapped":
            holder, scout = label(event["seat"], lang), label(event["scout"], lang)
            card = card_name(lang, event["card"])
            return plain(t(lang, "swapped_line", holder=holder, scout=scout, card=card))
        if kind == "decapitation_announced":
            return plain(t(lang, "announced_line", name=label(event["seat"], lang)))
        return None

    def step_line(self, state: GameState, action: Action, lang: str) -> str:
        """A replay step in words (the public line of the decision, or its own)."""
        if action.act == "scout":
            line = self.line({"type": "scouted", **action.to_dict()}, lang)
            card = card_name(lang, state.cards[action.target - 1])
            return f"{line} ({card})"
        if action.act == "end_turn":
            return self.line({"type": "turn_ended", "seat": action.seat}, lang)
        if action.act == "decapitate":
            target = self.label(action.target, lang)
            announced = self.line({"type": "decapitation_announced", "seat": action.seat}, lang)
            return f"{announced} → {target}"
        return action.act

    def result(self, seat: int) -> dict | None:
        if self.state.phase != OVER:
            return None
        resolved = next(e for e in events_for(self.state, None) if e["type"] == "resolved")
        return game_result(resolved, seat, replay_selector(CHAT, GAME))
