"""A whole game played through the bot by its people, printed as they saw it.
`--write-golden` rewrites tests/golden/*.txt; `--help` says the rest."""

from __future__ import annotations

import argparse
import html
import io
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import Variants, captains
from testing.deals import find_seed, lone_x, spy_can_win, x_apart
from testing.drivers import START, Bot, FakeClock, LocalBot, MemoryBot
from testing.fake_telegram import TEST_TOKEN, FakeTelegram
from testing.games import after, miss_two_turns, remove
from testing.players import Table

SHOWN = ("sendMessage", "editMessageText", "sendDocument", "answerCallbackQuery")
GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"  # in the source tree
LANGS = ("en", "zh")

Move = Callable[[str], Any]


def plain(text: str) -> str:
    """A message's HTML as a reader sees it (tags gone, isolates dropped)."""
    text = re.sub(r"<[^>]+>", "", text or "")
    return html.unescape(text).replace("\u2068", "").replace("\u2069", "")


def buttons(params: dict[str, Any]) -> str:
    """The inline keyboard of a call, as [label] [label] rows."""
    rows = (params.get("reply_markup") or {}).get("inline_keyboard") or []
    return plain(" / ".join(" ".join(f"[{b['text']}]" for b in row) for row in rows))


def private_names(table: Table) -> dict[int, str]:
    """Each player's name as their private chat is headed: a name two players share gets their
    place among its holders (Ana#1, Ana#2), so the reader can tell the chats apart."""
    counts = Counter(p.name for p in table.players)
    seen: Counter[str] = Counter()
    names = {}
    for player in table.players:
        seen[player.name] += 1
        several = counts[player.name] > 1
        names[player.id] = f"{player.name}#{seen[player.name]}" if several else player.name
    return names


class Transcript:
    """Prints what the bot said since the last move, under the move's own line."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seen = 0
        self.names = private_names(table)

    def where(self, chat: Any) -> str:
        chat = int(chat)
        if chat == self.table.chat:
            return "group"
        return f"→ {self.names.get(chat, chat)}"

    def line(self, call: Any) -> str | None:
        p = call.params
        if call.method == "answerCallbackQuery":
            return f"    (popup) {plain(p['text'])}" if p.get("text") else None
        if call.method == "sendDocument":
            return f"    [{self.where(p['chat_id'])}] 📄 {plain(p.get('caption', ''))}"
        mark = "✎ " if call.method == "editMessageText" else ""
        text = plain(p.get("text", "")).replace("\n", "\n        ")
        kb = buttons(p)
        return f"    [{self.where(p['chat_id'])}] {mark}{text}" + (f"\n        {kb}" if kb else "")

    def flush(self) -> None:
        calls = self.table.fake.calls
        for call in calls[self.seen :]:
            if call.kind == "ok" and call.method in SHOWN:
                shown = self.line(call)
                if shown:
                    print(shown)
        self.seen = len(calls)

    @contextmanager
    def move(self, what: str) -> Iterator[None]:
        print(f"» {what}")
        yield
        self.flush()


def opened(table: Table, move: Move, **settings: Any) -> None:
    """The host opens a lobby, the others join, and the host sets `settings` (if any)."""
    with move(f"{table.host.name} sends /newgame; the others press Join"):
        table.open()
    if settings:
        shown = ", ".join(f"{key}={value}" for key, value in settings.items())
        with move(f"{table.host.name} sets {shown} in Settings"):
            table.configure(**settings)


def short(table: Table, seed: int, move: Move) -> None:
    """A lobby, a scout from the group, a private scout, a turn left to run out, and a
    decapitation (five players)."""
    opened(table, move)
    with move(f"{table.host.name} presses Start"):
        state = table.start(seed=seed)
    first = state.first
    second, third = first % 5 + 1, (first + 1) % 5 + 1
    with move(f"{table.player_at(first).name} scouts seat {second} from the group"):
        table.scout_in_group(first, second)
    with move(f"{table.player_at(first).name} speaks, then presses Done in the group"):
        table.done_in_group(first)
    with move(f"{table.player_at(second).name} scouts seat {third} privately and presses Done"):
        table.scout_and_done(second, third)
    with move(f"{table.player_at(third).name} does nothing; the turn runs out"):
        table.bot.advance(table.data()["settings"]["turn_seconds"])
    attacker = table.state.turn
    target = attacker % 5 + 1
    with move(f"{table.player_at(attacker).name} decapitates seat {target}"):
        table.decapitate(attacker, target)


def turncoat(table: Table, seed: int, move: Move) -> None:
    """The Turncoat's window: the first player scouts the X card's holder, who swaps in secret;
    the group hears of it when the window ends (seven players)."""
    opened(table, move, turncoat=True, turncoat_seconds=10)
    with move(f"{table.host.name} presses Start"):
        state = table.start(seed=seed)
    first = state.first
    holder = lone_x(state)
    assert holder is not None, "the deal has no lone X card"
    with move(f"{table.player_at(first).name} scouts seat {holder} (the X card) privately"):
        table.scout(first, holder)
    with move(f"{table.player_at(holder).name} swaps, in secret"):
        table.swap(holder)
    with move("The Turncoat's window ends"):
        table.bot.advance(10)
    with move(f"{table.player_at(first).name} presses Done"):
        table.done(first)
    attacker = table.state.turn
    target = next(s for s in range(1, 8) if s not in (attacker, first, holder))
    with move(f"{table.player_at(attacker).name} decapitates seat {target}"):
        table.decapitate(attacker, target)


def spy(table: Table, seed: int, move: Move) -> None:
    """The Spy's wait: the first player announces a decapitation, the Spy names both captains,
    and the target opens when the wait ends (six players)."""
    opened(table, move, spy=True, spy_seconds=15)
    with move(f"{table.host.name} presses Start"):
        state = table.start(seed=seed)
    first, seat = state.first, state.holder("SPY")
    caps = captains(state.cards)
    target = next(s for s in range(1, 7) if s not in (first, seat))
    with move(f"{table.player_at(first).name} decapitates seat {target}"):
        table.decapitate(first, target)
    with move(f"{table.player_at(seat).name}, the Spy, names both captains"):
        table.spy_guess(seat, caps["red"], caps["blue"])
    with move("The Spy's wait ends"):
        table.bot.advance(15)


def away(table: Table, seed: int, move: Move) -> None:
    """Absence: a player misses two turns and is marked away, comes back, /status, the end,
    and Play again (four players)."""
    opened(table, move)
    with move(f"{table.host.name} presses Start"):
        state = table.start(seed=seed)
    missing = table.player_at(after(table, state.first))
    with move(f"{missing.name} misses two turns while the others scout"):
        miss_two_turns(table.bot, table)
    with move(f"{missing.name} presses I'm back"):
        missing.press(table.t_for(missing, "btn_back_in"))
    with move(f"{table.host.name} sends /status"):
        table.host.say("/status")
    attacker = table.state.turn
    target = after(table, attacker)
    with move(f"{table.player_at(attacker).name} decapitates seat {target}"):
        table.decapitate(attacker, target)
    with move(f"{missing.name} presses Play again"):
        ending = table.ending()
        assert ending is not None
        missing.press(table.t("btn_play_again"), ending, table.group)


def namesakes(table: Table, seed: int, move: Move) -> None:
    """Two players with one name, told apart by a letter; the host (one of them) removes the
    other mid-game, whose seat plays on as a virtual seat until a decapitation (five
    players)."""
    opened(table, move)
    with move(f"{table.host.name} presses Start"):
        state = table.start(seed=seed)
    names = state.names  # as the table shows them
    first = state.first
    with move(f"{names[first - 1]} scouts seat {after(table, first)} privately"):
        table.scout_and_done(first, after(table, first))
    seat = next(s for s in range(1, 6) if s != table.state.turn and "Ana" in names[s - 1])
    host = names[table.seat_of(table.host) - 1]
    with move(f"{host}, the host, removes seat {seat} ({names[seat - 1]}) with /remove"):
        remove(table, table.host, seat)
    attacker = table.state.turn
    target = after(table, attacker)
    with move(f"{names[attacker - 1]} decapitates seat {target}"):
        table.decapitate(attacker, target)


@dataclass(frozen=True)
class Game:
    """A scripted game: its players, the deal it needs, and its moves."""

    players: int
    deal: Callable[[], int]
    play: Callable[[Table, int, Move], None]
    names: tuple[str, ...] | None = None  # the players' names, when not the usual ones


GAMES = {
    "short": Game(5, lambda: 33, short),
    "turncoat": Game(
        7,
        lambda: find_seed(7, Variants(turncoat=True), lambda s: x_apart(s, s.first))[0],
        turncoat,
    ),
    "spy": Game(6, lambda: find_seed(6, Variants(spy=True), spy_can_win)[0], spy),
    "away": Game(4, lambda: 11, away),
    "namesakes": Game(5, lambda: 21, namesakes, ("Ana", "Ben", "Ana", "Cat", "Dan")),
}


@contextmanager
def running(kind: str) -> Iterator[Bot]:
    """The bot on the fake Bot API, in memory or polling it on loopback, on a temporary store."""
    fake = FakeTelegram(TEST_TOKEN)
    with tempfile.TemporaryDirectory() as home:
        db = Path(home) / "games.sqlite3"
        if kind == "poller":
            fake.start()
            bot: Bot = LocalBot(fake, FakeClock(START), db).start()
        else:
            bot = MemoryBot(fake, FakeClock(START), db)
        try:
            yield bot
        finally:
            bot.close()
            fake.stop()


def transcript(game: str, lang: str, seed: int | None = None, bot: str = "memory") -> str:
    """The text of `game` played in `lang` (its own deal unless `seed` is given)."""
    script = GAMES[game]
    out = io.StringIO()
    with running(bot) as running_bot, redirect_stdout(out):
        names = {"names": script.names} if script.names else {}
        table = Table.of(running_bot, script.players, lang=lang, **names)
        shown = Transcript(table)
        script.play(table, script.deal() if seed is None else seed, shown.move)
    return out.getvalue()


def golden_path(game: str, lang: str, folder: Path = GOLDEN) -> Path:
    """Where the golden transcript of `game` in `lang` is kept."""
    return folder / f"{game}.{lang}.txt"


def write_golden(folder: Path = GOLDEN) -> list[Path]:
    """Write every game's transcript in every language into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game in GAMES:
        for lang in LANGS:
            path = golden_path(game, lang, folder)
            path.write_text(transcript(game, lang), encoding="utf-8")
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=LANGS, default="en")
    parser.add_argument("--game", choices=sorted(GAMES), default="short")
    parser.add_argument("--seed", type=int, default=None, help="another deal than the game's")
    parser.add_argument("--bot", choices=("memory", "poller"), default="memory")
    parser.add_argument(
        "--write-golden",
        nargs="?",
        const=GOLDEN,
        type=Path,
        metavar="FOLDER",
        help="write every game in both languages into FOLDER (default tests/golden)",
    )
    args = parser.parse_args(argv)
    if args.write_golden is not None:
        for path in write_golden(args.write_golden):
            print(f"wrote {path}")
        return
    print(transcript(args.game, args.lang, args.seed, args.bot), end="")


if __name__ == "__main__":
    main()
