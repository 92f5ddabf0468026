"""One group's table: the lobby, the running game around the engine, its deadlines and holds.

A `Table` wraps the JSON stored for a group. Its methods change it and return the messages the
change owes (`Out` dicts); they never talk to Telegram or the store themselves.
"""

from __future__ import annotations

from typing import Any

from engine import Action, GameState, IllegalAction, apply, new_game, waiting_for
from engine.actions import TIMEOUT
from engine.state import OVER, SPEAK, SPY_PHASE, TURN, TURNCOAT
from engine.variants import VARIANT_NAMES, Variants
from handlers.telegram import render

Out = dict[str, Any]

LOBBY, PLAYING, OVER_STATUS, CANCELLED = "lobby", "playing", "over", "cancelled"
MAX_PLAYERS = 12
MIN_PLAYERS = 4
BOT_CAN_DELETE = "bot_can_delete"  # the bot's right to delete messages here, as last heard
APPLIED_KEPT = 40  # recent update ids remembered, so a redelivery is never applied twice
LOBBY_SECONDS = 3600  # an unstarted lobby closes after an hour
REMIND_BEFORE = 15  # seconds before a deadline, the countdown is refreshed once
REMIND_MIN = 30  # waits shorter than this get no refresh

DEFAULT_SETTINGS: dict[str, Any] = {
    "virtual_players": 0,
    "no_first_round_decapitation": False,
    "uncertain_sides": False,
    "turncoat": False,
    "bodyguards": False,
    "observer": False,
    "spy": False,
    "turn_seconds": 90,
    "speak_seconds": 60,
    "turncoat_seconds": 10,
    "spy_seconds": 15,
    "delete_chatter": True,
}
CHOICES: dict[str, tuple] = {
    "virtual_players": (0, 1, 2),
    "turn_seconds": (30, 60, 90, 120, 180),
    "speak_seconds": (30, 45, 60, 90, 120),
    "turncoat_seconds": (10, 15, 20, 30),
    "spy_seconds": (10, 15, 20, 30),
}
SETTING_KEYS = tuple(DEFAULT_SETTINGS)


class Refused(Exception):
    """A request the table turns down; `key` names the text that says why."""

    def __init__(self, key: str, **kw: Any) -> None:
        super().__init__(key)
        self.key, self.kw = key, kw


def clean_settings(saved: dict | None) -> dict:
    """Group defaults merged over the built-in ones, ignoring anything unknown or out of range."""
    settings = dict(DEFAULT_SETTINGS)
    for key, value in (saved or {}).items():
        if key not in DEFAULT_SETTINGS or type(value) is not type(DEFAULT_SETTINGS[key]):
            continue
        if key in CHOICES and value not in CHOICES[key]:
            continue
        settings[key] = value
    return settings


class Table:
    """A group's lobby or game, as stored."""

    def __init__(self, data: dict) -> None:
        self.data = data
        self._state: GameState | None = None

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def open_lobby(
        cls,
        chat: int,
        game: int,
        creator: int,
        name: str,
        lang: str,
        settings: dict,
        now: float,
        title: str = "",
    ) -> tuple[Table, list[Out]]:
        """A new lobby with its creator seated; returns the lobby message to post."""
        table = cls(
            {
                "chat": chat,
                "game": game,
                "title": title[:64],
                "status": LOBBY,
                "lang": lang,
                "creator": creator,
                "players": [[creator, name[:32]]],
                "settings": clean_settings(settings),
                "lobby_msg": None,
                "opened": now,
                "deadline": now + LOBBY_SECONDS,
                "applied": [],
            }
        )
        return table, [render.send_group(table, *render.lobby(table), remember="lobby_msg")]

    # -- plain accessors -----------------------------------------------------------------------

    @property
    def chat(self) -> int:
        return self.data["chat"]

    @property
    def game(self) -> int:
        return self.data["game"]

    @property
    def status(self) -> str:
        return self.data["status"]

    @property
    def lang(self) -> str:
        return self.data["lang"]

    @property
    def settings(self) -> dict:
        return self.data["settings"]

    @property
    def players(self) -> list[list]:
        return self.data["players"]

    @property
    def state(self) -> GameState:
        """The engine's state (rebuilt from the stored deal and decisions once per load)."""
        if self._state is None:
            self._state = GameState.from_dict(self.data["engine"])
        return self._state

    def _set_state(self, state: GameState, secret: bool = False) -> None:
        """Store the engine's new state; `secret` when it follows a decision the group must not
        learn of (a Turncoat's or the Spy's, or their silence)."""
        self._state = state
        self.data["engine"] = state.to_dict()
        if secret:
            self.data["shift"] = self.data.get("shift", 0) - 1

    @property
    def public_version(self) -> int:
        """The game's version as buttons carry it. It counts what everyone sees (decisions,
        and the end of each secret wait) and not the decisions made in secret, so nobody can
        tell from a button whether a Turncoat or a Spy decided, and a Turncoat's buttons are
        out of date once the wait is over."""
        return self.state.version + self.data.get("shift", 0)

    def seat_of(self, user: int) -> int | None:
        """The seat a user sits in, or None."""
        seats = self.data.get("seats") or []
        return seats.index(user) + 1 if user in seats else None

    def user_at(self, seat: int) -> int:
        """The user id in a seat (0 for a virtual seat)."""
        return self.data["seats"][seat - 1]

    def name_of(self, seat: int) -> str:
        """A seat's display name."""
        return self.state.names[seat - 1]

    def is_player(self, user: int) -> bool:
        """Seated (or, in the lobby, joined)."""
        if self.status == LOBBY:
            return any(uid == user for uid, _ in self.players)
        return self.seat_of(user) is not None

    def remember_update(self, update_id: int | None) -> bool:
        """Record an update as applied; False if it was applied before."""
        if update_id is None:
            return True
        applied = self.data.setdefault("applied", [])
        if update_id in applied:
            return False
        applied.append(update_id)
        del applied[:-APPLIED_KEPT]
        return True

    # -- lobby ---------------------------------------------------------------------------------

    def join(self, user: int, name: str) -> list[Out]:
        """Seat a user in the lobby."""
        if self.status != LOBBY:
            raise Refused("lobby_gone")
        if self.is_player(user):
            raise Refused("already_joined")
        if len(self.players) >= MAX_PLAYERS:
            raise Refused("lobby_full")
        self.players.append([user, name[:32]])
        return [self.lobby_message(menu=False)]

    def leave(self, user: int) -> list[Out]:
        """Take a user out of the lobby."""
        if self.status != LOBBY or not self.is_player(user):
            raise Refused("not_in_lobby")
        self.data["players"] = [p for p in self.players if p[0] != user]
        return [self.lobby_message(menu=False)]

    def show_settings(self) -> list[Out]:
        """Turn the lobby message into the settings menu."""
        if self.status != LOBBY:
            raise Refused("lobby_gone")
        return [self.lobby_message(menu=True)]

    def show_lobby(self) -> list[Out]:
        """Back from the settings menu."""
        if self.status != LOBBY:
            raise Refused("lobby_gone")
        return [self.lobby_message(menu=False)]

    def lobby_message(self, menu: bool | None = None) -> Out:
        """The edit that makes the lobby message read as it should now: the lobby, or the
        settings menu (`menu` switches between them; None keeps the one shown)."""
        if menu is not None:
            self.data["menu"] = menu
        if self.data.get("menu"):
            return render.edit_ref(self, "lobby_msg", *render.settings_menu(self))
        return render.edit_lobby(self)

    def change_setting(self, key: str) -> list[Out]:
        """Toggle a switch or step a choice to its next value."""
        if self.status != LOBBY:
            raise Refused("lobby_gone")
        if key == "lang":
            self.data["lang"] = "zh" if self.lang == "en" else "en"
        elif key in CHOICES:
            options = CHOICES[key]
            current = self.settings[key]
            index = options.index(current) if current in options else -1
            self.settings[key] = options[(index + 1) % len(options)]
        elif key in DEFAULT_SETTINGS and isinstance(DEFAULT_SETTINGS[key], bool):
            self.settings[key] = not self.settings[key]
        else:
            raise Refused("bad_button")
        return [self.lobby_message(menu=True)]

    def variants(self) -> Variants:
        """The variants the settings switch on."""
        return Variants(**{name: self.settings[name] for name in VARIANT_NAMES})

    def start(self, now: float, seed: int | None = None, can_delete: bool = False) -> list[Out]:
        """Deal: seat everyone, send each their card, turn the lobby message into the seating
        and post the first turn."""
        if self.status != LOBBY:
            raise Refused("lobby_gone")
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise Refused("need_players", n=len(self.players))
        names = [name for _, name in self.players]
        ids = {name: uid for uid, name in self.players}
        if len(ids) != len(names):  # two players with one name: tell them apart
            names = [f"{name} ({i})" for i, name in enumerate(names, 1)]
            ids = {n: uid for n, (uid, _) in zip(names, self.players, strict=True)}
        state, events = new_game(names, self.variants(), seed=seed)
        self.data["seats"] = [
            0 if v else ids[n] for n, v in zip(state.names, state.virtual, strict=True)
        ]
        self.data["status"] = PLAYING
        self.data["skips"] = 0
        self.data["board"] = {"msg": None, "lines": []}
        self.data["hold"] = None
        self._set_state(state)
        silence = self.settings["delete_chatter"] and can_delete
        self.data["silence"] = silence
        self.data[BOT_CAN_DELETE] = can_delete  # kept for the next game here
        return self._deliver(events, now, intro=render.seating(self, silence))

    # -- play ----------------------------------------------------------------------------------

    def act(self, user: int, action: Action, now: float) -> list[Out]:
        """Apply a seated user's decision, unless a deadline passed before it came."""
        version = self.state.version if self.status == PLAYING else None
        outs = self.catch_up(now)
        if self.status != PLAYING or self.state.version != version:
            raise Refused("too_late")
        seat = self.seat_of(user)
        if seat is None:
            raise Refused("not_a_player")
        if action.seat != seat and action.act != TIMEOUT:
            raise Refused("bad_button")
        if waiting_for(self.state) != seat or self._held_from(seat):
            raise Refused("not_your_turn")
        secret = self.state.phase in (TURNCOAT, SPY_PHASE)
        try:
            state, events = apply(self.state, action)
        except IllegalAction:
            raise Refused("too_late") from None
        self.data["skips"] = 0
        self._set_state(state, secret)
        return outs + self._deliver(events, now)

    def _held_from(self, seat: int) -> bool:
        """During a hold only the Turncoat or the Spy may decide; the scout's moment waits."""
        hold = self.data.get("hold")
        return bool(hold) and self.state.phase in (SPEAK, TURN)

    def catch_up(self, now: float) -> list[Out]:
        """Apply what the deadline says has happened by `now` (at most one step at a time)."""
        outs: list[Out] = []
        for _ in range(3):
            deadline = self.data.get("deadline")
            if deadline is None or now < deadline:
                break
            outs += self._on_deadline(now)
        reminder = self._reminder()
        if reminder is not None and now >= reminder:
            self.data["reminder"] = None
            outs += self._remind(now)
        return outs

    def redraw(self, now: float) -> list[Out]:
        """The current turn message again (after a language switch), its countdown as of now."""
        board = self.data.get("board") or {}
        if self.status != PLAYING or not board.get("msg"):
            return []
        hold = self.data.get("hold")
        until = hold["until"] if hold else self.data.get("deadline")
        return [render.edit_board(self, None if until is None else round(until - now))]

    def _reminder(self) -> float | None:
        """When the board's countdown is next refreshed (only for the wait it was set for)."""
        reminder = self.data.get("reminder")
        if not reminder or reminder[1] != self.data.get("deadline"):
            return None
        return reminder[0]

    def _remind(self, now: float) -> list[Out]:
        """Refresh the turn message's countdown and nudge the player being waited for."""
        if self.status != PLAYING or self.data.get("hold"):
            return []
        left = self.data["deadline"] - now
        outs = [render.edit_board(self, left)]
        seat = waiting_for(self.state)
        if seat is not None and self.user_at(seat):
            text = render.t_(self, "hurry", s=max(int(left), 0))
            outs.append({**render.send_private(self.user_at(seat), text), "quiet": True})
        return outs

    def _on_deadline(self, now: float) -> list[Out]:
        if self.status == LOBBY:
            self.data["status"] = CANCELLED
            self.data["deadline"] = None
            return [render.edit_ref(self, "lobby_msg", render.t_(self, "lobby_expired"), None)]
        if self.status != PLAYING:
            self.data["deadline"] = None
            return []
        hold = self.data.get("hold")
        state = self.state
        if hold:
            outs: list[Out] = []
            if state.phase in (TURNCOAT, SPY_PHASE):
                seat = waiting_for(state)
                state, events = apply(state, Action(TIMEOUT))
                self._set_state(state, secret=True)
                outs += render.timed_out_private(self, seat, quiet=True)
                hold["held"] += [e for e in events if e["to"] == "all"]
                outs += self._deliver([e for e in events if e["to"] != "all"], now)
            # The speaking moment begins as the window closes: after whatever happened in it.
            held = sorted(hold["held"], key=lambda event: event["type"] == "speak")
            self.data["hold"] = None
            self.data["shift"] = self.data.get("shift", 0) + 1  # the wait's end, seen by all
            return outs + self._deliver(held, now)
        seat = waiting_for(state)
        phase = state.phase
        state, events = apply(state, Action(TIMEOUT))
        self._set_state(state)
        outs = render.timed_out_private(self, seat)
        if phase == TURN:
            self.data["skips"] = self.data.get("skips", 0) + 1
            if self.data["skips"] >= len(self.state.humans()):
                # The last skip goes on the board, which the cancellation then closes.
                shown = [e for e in events if e["to"] == "all" and render.public_line(self, e)]
                self.data["board"]["lines"] += shown
                return outs + self.cancel(None)
        return outs + self._deliver(events, now)

    def _deliver(self, events: list[dict], now: float, intro: Out | None = None) -> list[Out]:
        """Turn engine events into messages, holding public news while a secret wait runs."""
        outs: list[Out] = [intro] if intro else []
        hold = self.data.get("hold")
        lines: list[dict | list] = []  # the turn message's lines, as `render.board_line` takes
        new_phase = False
        for event in events:
            if event["to"] != "all":
                outs += render.private_event(self, event)
                continue
            if hold is not None:
                hold["held"].append(event)
                continue
            kind = event["type"]
            if kind == "seated":
                continue
            if kind == "turn":
                outs += self._close_board(lines)
                lines = []
                outs.append(self._open_board(event["seat"], now))
                new_phase = True
                continue
            if kind == "resolved":
                outs += self._close_board(lines)
                lines = []
                outs += self._finish(event)
                continue
            if render.public_line(self, event):
                lines.append(event)  # rendered when shown, in the language of the moment
            if kind == "speak":
                new_phase = True
            if kind == "scouted" and self.settings["turncoat"]:
                hold = self._hold(self.settings["turncoat_seconds"], now)
            if kind == "decapitation_announced" and self.settings["spy"]:
                lines.append(["sealed", self.settings["spy_seconds"]])
                hold = self._hold(self.settings["spy_seconds"], now)
        if lines:
            outs.append(self._extend_board(lines, now))
        if self.status == PLAYING and hold is None and new_phase:
            self._set_deadline(now)
            outs += render.prompt(self)
        elif hold is not None:
            self.data["deadline"] = hold["until"]
        return outs

    def _hold(self, seconds: int, now: float) -> dict:
        hold = {"until": now + seconds, "held": []}
        self.data["reminder"] = None  # the window is fixed; nothing else wakes the table
        self.data["hold"] = hold
        return hold

    def _set_deadline(self, now: float) -> None:
        phase = self.state.phase
        seconds = {
            TURN: "turn_seconds",
            SPEAK: "speak_seconds",
            TURNCOAT: "turncoat_seconds",
            SPY_PHASE: "spy_seconds",
        }.get(phase)
        self.data["deadline"] = now + self.settings[seconds] if seconds else None
        self.data["reminder"] = None
        if seconds and self.settings[seconds] >= REMIND_MIN:
            # One countdown refresh near the end: the group sees time running out.
            deadline = self.data["deadline"]
            self.data["reminder"] = [deadline - REMIND_BEFORE, deadline]

    def _open_board(self, seat: int, now: float) -> Out:
        tag = self.state.version
        board = {"msg": None, "tag": tag, "lines": [["turn", seat]]}
        self.data["board"] = board
        seconds = self.settings["turn_seconds"]
        out = render.send_group(self, *render.board(self, seconds), remember="board")
        out["tag"] = tag
        return out

    def _extend_board(self, lines: list[dict | list], now: float) -> Out:
        board = self.data["board"]
        board["lines"] += lines
        seconds = None
        if self.state.phase == SPEAK and not self.data.get("hold"):
            seconds = self.settings["speak_seconds"]
        elif self.data.get("hold"):
            seconds = round(self.data["hold"]["until"] - now)
        return render.edit_board(self, seconds)

    def _close_board(self, lines: list[dict | list]) -> list[Out]:
        board = self.data.get("board") or {}
        if not lines and not board.get("lines"):
            return []
        board.setdefault("lines", []).extend(lines)
        # The closed turn message stays where it is: its edit need not wait for anything.
        return [{**render.edit_board(self, None, final=True), "side": True}]

    def _finish(self, resolved: dict) -> list[Out]:
        self.data["status"] = OVER_STATUS
        self.data["deadline"] = None
        self.data["hold"] = None
        return [render.send_group(self, *render.ending(self, resolved))]

    def cancel(self, by: str | None) -> list[Out]:
        """End the game or lobby now; `by` is who cancelled (None: nobody played)."""
        if self.status not in (LOBBY, PLAYING):
            raise Refused("cancel_none")
        was_lobby = self.status == LOBBY
        self.data["status"] = CANCELLED
        self.data["deadline"] = None
        self.data["hold"] = None
        text = render.t_(self, "cancelled", name=by) if by else render.t_(self, "cancelled_idle")
        if was_lobby:
            return [render.edit_ref(self, "lobby_msg", text, None)]
        return [*self._close_board([]), render.send_group(self, text, None)]

    def removed(self) -> list[Out]:
        """The bot is no longer in the group: end the lobby or game, with no wait left, and
        tell its players privately (the group can no longer be told)."""
        if self.status not in (LOBBY, PLAYING):
            return []
        self.data["status"] = CANCELLED
        self.data["deadline"] = None
        self.data["hold"] = None
        title = render.esc(self.data.get("title") or "")
        users = self.data.get("seats") or [uid for uid, _ in self.players]
        text = render.t_(self, "removed", group=title)
        return [render.send_private(user, text) for user in users if user]

    def deadline(self) -> float | None:
        """When the current wait ends (None when nothing waits)."""
        return self.data.get("deadline")

    def next_wake(self) -> float | None:
        """When the table next needs waking: the countdown refresh, else the deadline."""
        reminder = self._reminder()
        return reminder if reminder is not None else self.data.get("deadline")

    def speaker(self) -> int | None:
        """The user whose speaking moment it is now, if any."""
        if self.status != PLAYING or self.data.get("hold"):
            return None
        if self.state.phase != SPEAK:
            return None
        return self.user_at(self.state.turn)

    def phase_over(self) -> bool:
        """True when the engine has resolved the game."""
        return self.status == PLAYING and self.state.phase == OVER
