"""A running game's turns: decisions, deadlines, the secret windows that hold the news."""

from __future__ import annotations

from engine import Action, GameState, IllegalAction, apply, captains, waiting_for
from engine import events as kinds
from engine.actions import REMOVE, SCOUT, SWAP, TIMEOUT
from engine.cards import SPY, deals_x
from engine.state import SPEAK, SPY_PHASE, TURN, TURNCOAT
from engine.turns import may_decapitate
from handlers.session import ending
from handlers.session import events as ev
from handlers.session.base import LOBBY, OVER_STATUS, PLAYING, Illegal, Part, Refused
from handlers.session.events import Event
from handlers.session.holds import Hold
from handlers.session.settings import WAIT_SETTING

REMIND_BEFORE = 15  # seconds before a deadline, the countdown is refreshed once
REMIND_MIN = 30  # waits shorter than this get no refresh
SPY_HURRY = 5  # seconds before the Spy's wait ends, a Spy still guessing is hurried


class Play(Part):
    """The game part of a table: it applies decisions and deadlines through the engine."""

    def decide(self, user: int, action: Action, version: int, now: float) -> list[Event]:
        """A decision pressed on a private prompt made for `version` of the game; the seat is
        the presser's."""
        table = self.table
        if table.status != PLAYING:
            raise Refused("too_late")
        seat = table.seat_of(user)
        if seat is None:
            raise Refused("not_a_player")
        news = table.catch_up(now)
        table.check_version(version)  # a deadline that passed first has moved the game on
        return news + self._apply(user, action._replace(seat=seat), now)

    def menu_of(self, user: int, version: int, menu: str, target: int = 0) -> int:
        """The seat of `user`, who opens `menu` on a private prompt made for `version` ("scout",
        "strike", "turn": menus of their turn; "aim": the decapitation aimed at `target`;
        "spy": the Spy's second question). Nothing changes, but the menu must be theirs to
        open now."""
        table = self.table
        if table.status != PLAYING:
            raise Refused("too_late")
        seat = table.seat_of(user)
        if seat is None:
            raise Refused("not_a_player")
        table.check_version(version)
        state = table.state
        if menu in ("scout", "strike", "turn") and state.turn != seat:
            raise Refused("not_your_turn")
        if menu == "strike" and (may_decapitate(state, seat) is not None or state.phase != TURN):
            raise Refused("not_your_turn")
        if menu == "aim" and not (1 <= target <= state.seats and target != seat):
            raise Refused("bad_button")
        if menu == "spy" and (state.phase != SPY_PHASE or state.holder(SPY) != seat):
            raise Refused("not_your_turn")
        return seat

    def from_turn_message(
        self, user: int, version: int, now: float, action: Action | None, listed: bool = False
    ) -> list[Event]:
        """A press on the group's turn message made for `version`: the acting player's Scout
        (`listed`) or Back, a seat to scout, Done (`action`); anyone else is told whose turn
        it is (public, whatever the game waits on in secret)."""
        table = self.table
        news = table.catch_up(now)
        table.check_version(version)  # a deadline that passed first has moved the game on
        state = table.state
        turn = state.turn
        scouted = action.target if action is not None and action.act == SCOUT else None
        if scouted is not None and (not 1 <= scouted <= state.seats or scouted == turn):
            raise Refused("bad_button")
        if table.seat_of(user) != turn:
            raise Refused("turn_of", seat=turn)
        if action is None:
            return news + table.board.list_seats(user, listed, now)
        return news + self._apply(user, action._replace(seat=turn), now, in_group=True)

    def act(self, user: int, action: Action, now: float) -> list[Event]:
        """Apply a seated user's decision, unless a deadline passed before it came."""
        table = self.table
        version = table.public_version if table.status == PLAYING else -1
        news = table.catch_up(now)
        table.check_version(version)
        return news + self._apply(user, action, now)

    def _apply(self, user: int, action: Action, now: float, in_group: bool = False) -> list[Event]:
        """Apply a seated user's decision to the game as it is now (its deadlines caught up);
        `in_group`: pressed on the group's turn message (a scout there speaks there too)."""
        seat = self.table.seat_of(user)
        if seat is None:
            raise Refused("not_a_player")
        return self.seat_moves(seat, action, now, in_group)

    def seat_moves(
        self, seat: int, action: Action, now: float, in_group: bool = False
    ) -> list[Event]:
        """Apply `seat`'s decision (its player's press, or a bot seat's move)."""
        table = self.table
        if table.absence.is_removed(seat):
            raise table.absence.gone(seat)
        if action.seat != seat and action.act != TIMEOUT:
            raise Refused("bad_button")
        if waiting_for(table.state) != seat or self._held_from(seat):
            raise Refused("not_your_turn")
        secret = table.state.phase in (TURNCOAT, SPY_PHASE)
        decided = _decided(action, table.state)
        if in_group and action.act == SCOUT:
            decided["group"] = True  # the result goes to a new message: the scout is elsewhere
        try:
            state, events = apply(table.state, action)
        except IllegalAction:
            raise Illegal from None
        if not secret and not table.bots.is_bot(seat):  # a secret one shows nowhere, not even
            # in the idle count; nor does a bot seat's move (a round of people idle ends the game)
            self.record.skips = 0
            table.absence.acted(seat)
        table.set_state(state, secret)
        if decided.get("group"):
            self.record.group_scout = True
        closed = table.prompts.close(seat, decided)  # however the decision came
        return closed + self.deliver(events, now)

    def _held_from(self, seat: int) -> bool:
        """During a hold only the Turncoat or the Spy may decide; the scout's moment waits."""
        return self.table.hold is not None and self.table.state.phase in (SPEAK, TURN)

    def remind(self, now: float) -> list[Event]:
        """Refresh the turn message's countdown and nudge the player being waited for (in the
        Spy's wait, only the Spy, privately, if they have not guessed)."""
        table = self.table
        if table.status != PLAYING:
            return []
        if table.hold is not None:
            return self._hurry_spy(now)
        left = (self.record.deadline or now) - now
        news = [table.board.shown(left)]
        seat = waiting_for(table.state)
        if seat is not None and table.user_at(seat):
            news.append(ev.event(ev.HURRY, seat=seat, seconds=max(int(left), 0)))
        return news

    def _hurry_spy(self, now: float) -> list[Event]:
        """The Spy still guessing is told privately how long is left; nobody else hears of it,
        and a Spy set aside, virtual or done changes nothing."""
        table = self.table
        state = table.state
        seat = waiting_for(state) if state.phase == SPY_PHASE else None
        if not seat or not table.user_at(seat) or table.absence.is_removed(seat):
            return []
        left = max(int((self.record.deadline or now) - now), 0)
        return [ev.event(ev.HURRY, seat=seat, seconds=left)]

    def _timed_out(self, seat: int | None, phase: str) -> list[Event]:
        """Tell a human whose wait (in `phase`) ran out, on its prompt (a removed seat's player
        is told nothing more)."""
        if not seat or self.table.absence.is_removed(seat):
            return []
        return self.table.prompts.close(seat, {"act": TIMEOUT, "phase": phase}, tell=True)

    def on_deadline(self, now: float) -> list[Event]:
        """A game's deadline passed (a lobby's countdown: see `Lobby.ends`)."""
        table = self.table
        if table.status != PLAYING:
            self.record.deadline = None
            return []
        if table.hold is not None:
            return self._end_hold(now)
        state = table.state
        seat, phase = waiting_for(state), state.phase
        state, events = apply(state, Action(TIMEOUT))
        table.set_state(state)
        news = self._timed_out(seat, phase)
        if table.absence.count_skip(phase):
            return news + self._cancel_idle(events)
        delivered = self.deliver(events, now)
        if phase == TURN and table.status == PLAYING:
            news += table.absence.missed(seat)  # told before the next turn message
        return news + delivered

    def _cancel_idle(self, events: list[dict], lines: list | tuple = ()) -> list[Event]:
        """A whole round passed unplayed: the last skip goes on the board, which the
        cancellation then closes."""
        shown = [e for e in events if e["to"] == "all" and e["type"] in ev.BOARD_KINDS]
        self.table.board.add([*lines, *shown])
        return self.cancel(None)

    def _skip_waited(self) -> tuple[list[dict], bool]:
        """The seat waited for is away or removed: its turn (or speaking moment) passes now.
        Returns the engine's events, the timeout marked as such, and whether a whole round has
        now passed unplayed."""
        table = self.table
        state = table.state
        seat, phase = waiting_for(state), state.phase
        why = "removed" if table.absence.is_removed(seat) else "away"
        why = "left" if table.absence.has_left(seat) else why
        state, events = apply(state, Action(TIMEOUT))
        table.set_state(state)
        events = [{**e, "passed": why} if e["type"] == kinds.TIMED_OUT else e for e in events]
        return events, table.absence.count_skip(phase)

    def _pass_now(self, now: float) -> list[Event]:
        """Pass the waited seat's turn or speaking moment at once, and go on."""
        events, idle = self._skip_waited()
        if idle:
            return self._cancel_idle(events)
        return self.deliver(events, now)

    def remove(self, seat: int, by: str, now: float, themselves: bool = False) -> list[Event]:
        """The host or an admin removes the seat's player (`themselves`: their own seat): the
        seat plays on, its turns passing at once (a secret window of theirs still runs its full
        time)."""
        table = self.table
        news = table.catch_up(now)
        if table.status != PLAYING:
            raise Refused("too_late")
        gone = table.absence.mark_removed(seat, by, themselves=themselves)
        return news + self._plays_on(seat, gone, "removed", now)

    def leave_game(self, user: int, now: float) -> list[Event]:
        """Leave, on the /leave question: the player's seat plays on as after a removal."""
        table = self.table
        news = table.catch_up(now)
        where = table.absence.leaving_asked(user) if table.status == PLAYING else None
        seat = table.seat_of(user)
        if where is None or seat is None:
            raise Refused("too_late")
        self.record.leaving.pop(str(user))
        gone = table.absence.mark_removed(seat, None, where)
        return news + self._plays_on(seat, gone, "left", now)

    def _plays_on(self, seat: int, news: list[Event], act: str, now: float) -> list[Event]:
        """The seat's player is gone (`act`: "removed" or "left"): the seat is virtual from now
        on, its prompt closes, and a turn of its passes at once."""
        table = self.table
        self._engine_removes(seat)
        news += table.prompts.close(seat, {"act": act})
        if not table.absence.present():
            return news + self.cancel(None, why="empty")
        state = table.state
        if table.hold is None and waiting_for(state) == seat and state.phase in (TURN, SPEAK):
            news += self._pass_now(now)
        return news

    def _engine_removes(self, seat: int) -> None:
        """The engine learns the seat is virtual from now on (for a proxy decapitation, and a
        neutral card there has no effect). Once a decapitation is announced the seats are judged
        as they stood, so it is not told then. No button changes: the group's version stays."""
        try:
            state, _ = apply(self.table.state, Action(REMOVE, seat))
        except IllegalAction:
            return
        self.table.set_state(state)
        self.record.shift -= 1

    def _end_hold(self, now: float) -> list[Event]:
        """A secret window closes: a silent Turncoat or Spy times out, and the held news goes
        out, the speaking moment last (it begins as the window closes)."""
        table = self.table
        hold, state = table.hold, table.state
        assert hold is not None
        news: list[Event] = []
        if state.phase in (TURNCOAT, SPY_PHASE):
            seat, phase = waiting_for(state), state.phase
            state, events = apply(state, Action(TIMEOUT))
            table.set_state(state, secret=True)
            news += self._timed_out(seat, phase)
            hold = hold.keeping(*[e for e in events if e["to"] == "all"])
            news += self.deliver([e for e in events if e["to"] != "all"], now)
        held = sorted(hold.held, key=lambda event: event["type"] == kinds.SPEAKS)
        table.hold = None
        self.record.shift += 1  # the wait's end, seen by all
        return news + self.deliver(list(held), now)

    def deliver(self, events: list[dict], now: float) -> list[Event]:
        """Turn engine events into session events, holding public news while a secret wait
        runs."""
        table, record = self.table, self.record
        absence, board = table.absence, table.board
        news: list[Event] = []
        hold = table.hold
        seen = None  # a card or a scout result told with the prompt it opens
        lines: list[dict | list] = []  # the turn message's new lines
        new_phase = False
        queue = list(events)
        while queue:
            event = queue.pop(0)
            if event["to"] != "all":
                if not table.user_at(event["to"]) or absence.is_removed(event["to"]):
                    continue
                if self._shown_with_speaking(event) or self._dealt_with_turn(event):
                    seen = event  # one message: what they saw or hold, and what to do now
                else:
                    news.append(self._private(event))
                continue
            if hold is not None:
                hold = hold.keeping(event)
                table.hold = hold
                continue
            kind = event["type"]
            if kind == kinds.TURN_BEGINS and absence.passes_now(event["seat"]):
                passed, idle = self._skip_waited()
                if idle:
                    return news + self._cancel_idle(passed, lines)
                queue += passed  # the next turn follows at once
                continue
            if kind == kinds.TURN_BEGINS:
                record.group_scout = False
                news += absence.leaves_expire("moved")
                news += board.close(lines)
                lines = []
                news += absence.returns(event["seat"])
                news.append(board.open(event["seat"]))
                new_phase = True
                continue
            if kind == kinds.RESOLVED:
                news += board.close(lines)
                lines = []
                news += self._finish(event, now)
                continue
            if kind in ev.BOARD_KINDS:
                lines.append(event)  # rendered when shown, in the language of the moment
            if kind == kinds.SPEAKS:
                new_phase = True
            settings = record.settings
            if kind == kinds.SCOUTED and self.turncoat_pauses():
                lines.append(["pause", event["seat"], settings["turncoat_seconds"]])
                hold = self._hold(settings["turncoat_seconds"], now)
            if kind == kinds.DECAPITATION_ANNOUNCED and settings["spy"]:
                lines.append(["sealed", settings["spy_seconds"]])
                hold = self._hold(settings["spy_seconds"], now)
                until = hold.until
                if settings["spy_seconds"] > SPY_HURRY:  # wakes whoever holds the Spy
                    record.reminder = [until - SPY_HURRY, until]
        opens = table.status == PLAYING and hold is None and new_phase
        if opens and table.state.phase == SPEAK and absence.is_removed(table.state.turn):
            # A held speaking moment, its scout removed: it passes at once, and the turn message
            # closes with its lines, never offering Done.
            board.add(lines)
            return news + self._pass_now(now)
        if lines:
            news.append(board.extend(lines, now))
        if opens:
            key = WAIT_SETTING.get(table.state.phase)
            self.wait(record.settings[key] if key else None, now)
            seat = waiting_for(table.state)
            if seat is not None and table.user_at(seat):
                told = seen if seen is not None and seen["to"] == seat else None
                news.append(self._prompt_event(seat, told))
                seen = None if told is not None else seen
        elif hold is not None:
            record.deadline = hold.until
        if seen is not None:
            news.append(self._private(seen))
        return news

    def speaks_in_group(self) -> bool:
        """True when this turn's scout was pressed on the group's turn message: its speaking
        moment ends with Done there, and the private chat offers no Done."""
        return self.record.group_scout

    def _shown_with_speaking(self, event: dict) -> bool:
        """A scout result of a scout made from the group, with no pause before speaking: told
        in the one message that opens the speaking moment."""
        return (
            event["type"] == kinds.SCOUT_RESULT
            and self.speaks_in_group()
            and not self.turncoat_pauses()
        )

    def _dealt_with_turn(self, event: dict) -> bool:
        """The deal's card of the player whose turn opens the game: told in the one message
        that opens their turn."""
        state = self.table.state
        return (
            event["type"] == kinds.YOUR_CARD
            and state.phase == TURN
            and event["to"] == waiting_for(state)
        )

    def _prompt_event(self, seat: int, seen: dict | None) -> Event:
        """Open the prompt of the wait the game is now in on `seat`, telling `seen` (their
        card at the deal, what they saw in a scout from the group) above it; the prompt keeps
        it when it closes. After a scout from the group it says to speak there (Done is on
        the turn message)."""
        table = self.table
        group = self.speaks_in_group() and table.state.phase == SPEAK
        tag = table.prompts.open(seat, seen)
        facts: dict = {"group": True} if group else {}
        if seen is not None:
            facts["shows"] = seen
        return ev.event(ev.PROMPT, seat=seat, version=table.public_version, tag=tag, **facts)

    def turncoat_pauses(self) -> bool:
        """True when every scout is followed by the Turncoat's window: the variant is on and the
        game is big enough for an X to be dealt (whether one was or not)."""
        return bool(self.record.settings["turncoat"]) and deals_x(self.table.state.seats)

    def _private(self, event: dict) -> Event:
        """A private engine event for its seat; a Turncoat's offer or the Spy's question opens
        a prompt."""
        tag = None
        if event["type"] in (kinds.TURNCOAT_OFFER, kinds.SPY_TURN):
            tag = self.table.prompts.open(event["to"])
        version = self.table.public_version
        return ev.event(ev.PRIVATE, event=event, version=version, tag=tag)

    def _hold(self, seconds: int, now: float) -> Hold:
        hold = Hold(now + seconds)
        self.record.reminder = None  # the window is fixed; nothing else wakes the table
        self.table.hold = hold
        return hold

    def held_back(self, seconds: float, now: float) -> bool:
        """Telegram held the table's messages back `seconds` (a flood wait): the wait running
        ends that much later, so no player loses time to it. False when nothing waits."""
        record, table = self.record, self.table
        if table.status != PLAYING or record.deadline is None or record.deadline <= now:
            return False
        record.deadline += seconds
        if record.reminder is not None:
            record.reminder = [moment + seconds for moment in record.reminder]
        if table.hold is not None:
            table.hold = Hold(table.hold.until + seconds, table.hold.held)
        return True

    def wait(self, seconds: float | None, now: float) -> None:
        """The public wait ends `seconds` from now (None: nothing waits); a wait long enough
        gets one countdown refresh near its end, so the group sees time running out."""
        record = self.record
        record.deadline = now + seconds if seconds is not None else None
        record.reminder = None
        if seconds is not None and seconds >= REMIND_MIN:
            deadline = now + seconds
            record.reminder = [deadline - REMIND_BEFORE, deadline]

    def _finish(self, resolved: dict, now: float) -> list[Event]:
        table = self.table
        self.record.status = OVER_STATUS
        self.record.deadline = None
        table.hold = None
        end = ending.finished(table, resolved["winner"], now)
        table.ending = end if not table.practice else None  # practice: counted nowhere
        figures = end.figures  # how long it lasted, counted once for all who tell it
        assert figures is not None
        length = {"seconds": figures["seconds"], "turns": figures["turns"]}
        bots = {"bots": table.bots.told()} if self.record.bots else {}
        finished = ev.event(ev.FINISHED, resolved=resolved, **length, **bots)
        over = table.prompts.close_all({"act": "over"})
        return [finished, *over, *table.absence.leftovers()]

    def cancel(self, by: str | None, why: str | None = None) -> list[Event]:
        """End the game or lobby now; `by` is who cancelled (None: nobody played, or, `why`
        "empty", nobody is left to play)."""
        table = self.table
        if table.status not in (LOBBY, PLAYING):
            raise Refused("cancel_none")
        was_lobby = table.status == LOBBY
        table.close()
        if was_lobby:
            return [ev.event(ev.CANCELLED, by=by, was_lobby=True), *table.absence.leftovers()]
        closed = table.prompts.close_all({"act": "cancelled"})
        # The game is over: everything is shown, as it stands (a swap in its window included).
        state = table.state
        shown = {
            "cards": list(state.cards),
            "set_aside": list(state.set_aside),
            "captains": captains(state.cards),
        }
        if why:
            shown["why"] = why
        table.ending = ending.cancelled(table) if not table.practice else None
        cancelled = ev.event(ev.CANCELLED, by=by, was_lobby=False, **shown)
        board = table.board.close([["cancelled"]])  # the turn message says so, with no button
        return [*board, cancelled, *closed, *table.absence.leftovers()]

    def removed(self) -> list[Event]:
        """The bot is no longer in the group: end the lobby or game, with no wait left, and
        tell its players privately (the group can no longer be told)."""
        table = self.table
        if table.status not in (LOBBY, PLAYING):
            return []
        closed = table.prompts.close_all({"act": "cancelled"})
        table.close()
        gone = table.absence.leftovers(group_open=False)
        return [ev.event(ev.REMOVED, users=table.users()), *closed, *gone]


def _decided(action: Action, state: GameState) -> dict:
    """What a decision's prompt says was decided: the action's record (a swap also names the
    scout, whose turn it is; a speech is not repeated; a timeout names the wait)."""
    if action.act == TIMEOUT:
        return {"act": TIMEOUT, "phase": state.phase}
    decided = {k: v for k, v in action.to_dict().items() if k != "say"}
    if action.act == SWAP:
        decided["scout"] = state.turn
    return decided
