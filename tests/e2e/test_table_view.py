"""The table view in the bot: a game played from it by every player, mixed with chat buttons,
leaves the group exactly as the same game played by chat buttons; a move sent again changes
nothing twice (its timer included), and its id sent with another move is refused; whichever of
a chat press and a table move comes second is too late.

Through the local poller (the page's API on its loopback server) and the Lambda entries (the
table's own function, moves through the webhook's Application), in English and Chinese.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from handlers.display import table_view
from handlers.display.render import table_links
from handlers.entry import lambda_table
from handlers.table import api
from handlers.table.auth import Opening, check_init_data
from testing.drivers import Bot, FakeClock, LambdaBot, LocalBot
from testing.fake_telegram import FakeMessage
from testing.players import OK_ANSWERS, Player, Table
from testing.table_visits import Visit
from tests.support.bots import _finish

PAGE = "https://table.example.org/table"
APP = "table"
SEED = 31


@pytest.fixture(
    params=[
        pytest.param("lambda", marks=pytest.mark.slow),
        pytest.param("local", marks=pytest.mark.slow),
        "memory",
    ]
)
def table_bot(
    request: pytest.FixtureRequest,
    clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Bot]:
    """The bot with the table view on (its page's URL and its Mini App's short name), each way
    it runs (in memory: the routes called straight over the Application's store); the Mini App
    made with BotFather."""
    env = {"TABLE_URL": PAGE, "TABLE_APP": APP}
    try:
        if request.param == "lambda":
            for name, value in env.items():  # read when the Application is built
                monkeypatch.setenv(name, value)
            bot = request.getfixturevalue("lambda_bot")
            bot.fake.register_mini_app(APP, PAGE)
            yield bot
            return
        if request.param == "memory":
            bot = request.getfixturevalue("memory_bot")
            runtime = bot.application.bot_data["runtime"]
            # as `make play` takes them, with nothing served
            table_links.configure(PAGE, APP, runtime.username)
            bot.fake.register_mini_app(APP, PAGE)
            yield bot
            return
        fake = request.getfixturevalue("fake_telegram")
        fake.register_mini_app(APP, PAGE)
        bot = LocalBot(fake, clock, tmp_path / "games.sqlite3", env | {"TABLE_PORT": "0"})
        bot.start()
        try:
            yield bot
            _finish(bot)
        finally:
            bot.close()
    finally:
        table_links.configure(None, None, "")


def card_message(table: Table, player: Player) -> FakeMessage:
    """The player's private card message: the one with the table's button."""
    label = table.t_for(player, "btn_table")
    found = [m for m in player.messages() if label in m.button_labels]
    assert found, player.texts()
    return found[-1]


def visit(table: Table, seat: int) -> Visit:
    """The seat's player opens the table from their card message (a web_app button)."""
    player = table.player_at(seat)
    return Visit.open(
        table.bot, player.user, card_message(table, player), table.t_for(player, "btn_table")
    )


def visit_from_group(table: Table, seat: int) -> Visit:
    """The seat's player opens the table from the group's turn message (the direct link)."""
    player = table.player_at(seat)
    return Visit.open(table.bot, player.user, table.board(), table.t("btn_table"), table.group)


def applied(answer) -> dict:
    assert answer.status == 200, (answer.status, answer.body)
    return answer.json["view"]


def group_shown(table: Table) -> list:
    """The group's messages as they read now: texts and buttons, the group's own chat id
    (in callback data and links) and a replay link's key (made from it) set aside."""
    ids = re.compile(rf"m?-?{abs(table.chat)}(_[0-9]+_[0-9a-f]{{16}}\b)?")
    shown = []
    for message in table.group_messages():
        rows = [
            [
                (b.text, ids.sub("CHAT", b.callback_data or ""), ids.sub("CHAT", b.url or ""))
                for b in row
            ]
            for row in message.buttons
        ]
        shown.append((message.text, rows))
    return shown


def a_game(bot: Bot, lang: str) -> Table:
    """Five players, Bodyguards on, dealt the same cards and seats each time."""
    table = Table.of(bot, 5, lang=lang)
    table.open()
    table.configure(bodyguards=True)
    table.start(seed=SEED)
    return table


def turn_order(table: Table) -> list[int]:
    first = table.state.first
    return [(first - 1 + i) % 5 + 1 for i in range(5)]


def by_chat(table: Table) -> None:
    """Four turns of scouting the next seat and Done, then a decapitation, in the chat."""
    order = turn_order(table)
    for seat in order[:4]:
        table.scout_and_done(seat, seat % 5 + 1)
    table.decapitate(order[4], order[0], bodyguard=False)


def at_the_table(table: Table) -> None:
    """The same game, every player at the table for some of it, some moves in the chat."""
    order = turn_order(table)
    one, two, three, four, five = order
    ann = visit(table, one)
    applied(ann.move("scout", target=one % 5 + 1))
    applied(ann.move("done"))
    table.scout_in_group(two, two % 5 + 1)  # Scout, then the seat, on the group's turn message
    applied(visit(table, two).move("done"))
    applied(visit_from_group(table, three).move("scout", target=three % 5 + 1))
    table.done(three)  # Done on the private prompt
    dee = visit(table, four)
    applied(dee.move("scout", target=four % 5 + 1))
    applied(dee.move("done"))
    eve = visit(table, five)
    assert eve.fresh()["you"]["moves"]["decapitate"]["declare"] == ["bodyguard"]
    end = applied(eve.move("decapitate", target=one, bodyguard=False))
    assert end["phase"] == "over" and end["result"]["replay"].startswith("r")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_game_played_at_the_table_leaves_the_group_as_the_chat_alone_would(
    table_bot: Bot, lang: str
) -> None:
    in_chat = a_game(table_bot, lang)
    by_chat(in_chat)
    at_table = a_game(table_bot, lang)
    at_the_table(at_table)

    assert in_chat.ending() is not None and at_table.ending() is not None
    assert group_shown(at_table) == group_shown(in_chat)
    labels = at_table.group_messages()[0].button_labels  # the seating, then each turn message
    assert labels == [at_table.t("btn_table")]
    assert at_table.t("btn_replay") in at_table.ending().button_labels


def test_a_move_sent_again_changes_nothing_twice(table_bot: Bot) -> None:
    table = a_game(table_bot, "en")
    first = table.state.first
    ann = visit(table, first)
    scout = ann.move("scout", target=first % 5 + 1)
    view = applied(scout)
    request = ann.last_move
    stored = table_bot.item(table.chat)
    group = group_shown(table)
    private = table.player_at(first).texts()

    again = ann.move(
        "scout", target=first % 5 + 1, version=request["version"], move_id=request["move_id"]
    )

    assert applied(again) == view  # the same answer: applied, the view as it is
    assert table_bot.item(table.chat).version == stored.version
    assert group_shown(table) == group
    assert table.player_at(first).texts() == private
    assert table.state.phase == "speak"


def test_a_table_move_made_after_the_chat_press_is_too_late(table_bot: Bot) -> None:
    table = a_game(table_bot, "zh")
    first = table.state.first
    ann = visit(table, first)
    seen = ann.fresh()
    table.scout(first, first % 5 + 1)  # in the chat, first
    group = group_shown(table)

    late = ann.move("scout", target=(first + 1) % 5 + 1, version=seen["version"])

    assert late.status == 409 and late.json["error"] == "stale"
    assert late.json["view"]["phase"] == "speak" and late.json["view"]["you"]["moves"] == {
        "done": {}
    }
    assert group_shown(table) == group


@pytest.mark.parametrize("version", ["x_1", "-1_ab", "12", "999999999_ab"])
def test_a_table_move_whose_version_names_no_moment_of_the_game_is_refused_as_stale(
    table_bot: Bot, version: str
) -> None:
    table = a_game(table_bot, "en")
    first = table.state.first
    ann = visit(table, first)
    stored = table_bot.item(table.chat)
    group = group_shown(table)

    refused = ann.move("scout", target=first % 5 + 1, version=version)

    assert refused.status == 409 and refused.json["error"] == "stale"
    assert table_bot.item(table.chat).version == stored.version
    assert group_shown(table) == group
    assert table.state.phase == "turn"


def test_a_table_move_without_a_version_is_a_bad_request_and_changes_nothing(
    table_bot: Bot,
) -> None:
    table = a_game(table_bot, "en")
    first = table.state.first
    ann = visit(table, first)
    stored = table_bot.item(table.chat)

    refused = ann.move("scout", target=first % 5 + 1, version="")

    assert refused.status == 400 and refused.json["error"] == "bad_request"
    assert table_bot.item(table.chat).version == stored.version
    assert table.state.phase == "turn"


def test_a_chat_press_made_after_the_table_move_is_too_late(table_bot: Bot) -> None:
    table = a_game(table_bot, "en")
    first = table.state.first
    player = table.player_at(first)
    table.scout(first, first % 5 + 1)  # privately: Done is both there and in the group
    board = table.board()
    done = board.button(table.t("btn_done")).callback_data
    prompt = player.prompt()
    assert prompt is not None
    private_done = prompt.button(table.t_for(player, "btn_done")).callback_data

    applied(visit(table, first).move("done"))  # at the table, first
    group = group_shown(table)

    assert player.press_data(done, board, table.group) == table.t("too_late")
    assert player.press_data(private_done, prompt) == table.t_for(player, "too_late")
    assert group_shown(table) == group
    assert table.state.turn != first
    assert player.press_data(done, board, table.group) not in OK_ANSWERS


def test_the_table_opens_from_mycard_and_a_finished_games_replay_from_its_end_and_history(
    table_bot: Bot,
) -> None:
    table = a_game(table_bot, "zh")
    seat = table.state.first
    player = table.player_at(seat)
    player.private("/mycard")
    mycard = player.messages()[-1]
    label = table.t_for(player, "btn_table")
    assert mycard.button(label).web_app.startswith(PAGE + "?tgWebAppStartParam=g")
    mine = Visit.open(table_bot, player.user, mycard, label)
    assert mine.fresh()["you"]["seat"] == seat
    page = mine.page()
    assert page.status == 200 and page.body.startswith(b"<!doctype html>")

    table.decapitate(seat, seat % 5 + 1, bodyguard=False)
    end = table.ending()
    assert end is not None
    onlooker = table.member("Zoe")  # in the group, never at the table: the record is open
    watch = Visit.open(table_bot, onlooker.user, end, table.t("btn_replay"), table.group)
    replay = watch.replay(watch.selector)
    assert replay.status == 200
    assert replay.json["result"]["winner"] == table.state.outcome.winner
    assert [s["card"] for s in replay.json["seats"]] == list(table.state.deal)
    # The game's table view is for its players only.
    table_of_it = "g" + watch.selector[1:].rsplit("_", 1)[0]  # the replay's key left out
    assert watch.request("GET", "/api/table?g=" + table_of_it).status == 403
    # The replay is the group's: once Zoe has left it, her link (and a copy of it) opens nothing.
    table_bot.fake.leave(onlooker.user, table.group)
    gone = Visit(table_bot, watch.opening)  # the same opening, without the pass it was given
    assert (gone.replay(watch.selector).status, gone.replay(watch.selector).json) == (
        404,
        {"error": "not_found"},
    )

    table.host.say("/history")
    listed = table.group_messages()[-1]
    assert table.t("btn_replay_n", n=1) in listed.button_labels


def timers_set(bot: LambdaBot) -> int:
    """The messages on the timer queue all groups share (waiting, delayed or in flight)."""
    kinds = ("Messages", "MessagesDelayed", "MessagesNotVisible")
    names = ["ApproximateNumberOf" + kind for kind in kinds]
    found = bot.sqs.get_queue_attributes(QueueUrl=bot.queue_url, AttributeNames=names)
    return sum(int(value) for value in found["Attributes"].values())


@pytest.fixture
def lambda_table_bot(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> LambdaBot:
    """The Lambda bot (the table's function against moto) with the table view on."""
    monkeypatch.setenv("TABLE_URL", PAGE)
    monkeypatch.setenv("TABLE_APP", APP)
    bot = request.getfixturevalue("lambda_bot")
    bot.fake.register_mini_app(APP, PAGE)
    return bot


@pytest.mark.slow
def test_a_move_sent_again_twenty_times_sets_no_timer_again(lambda_table_bot: LambdaBot) -> None:
    table = a_game(lambda_table_bot, "en")
    first = table.state.first
    ann = visit(table, first)
    applied(ann.move("scout", target=first % 5 + 1))
    request = ann.last_move
    timers = timers_set(lambda_table_bot)

    for _ in range(20):
        again = ann.move(
            "scout", target=first % 5 + 1, version=request["version"], move_id=request["move_id"]
        )
        applied(again)

    assert timers_set(lambda_table_bot) == timers


def test_a_move_id_used_again_for_another_move_is_refused(table_bot: Bot) -> None:
    table = a_game(table_bot, "en")
    first = table.state.first
    ann = visit(table, first)
    applied(ann.move("scout", target=first % 5 + 1))
    request = ann.last_move
    stored = table_bot.item(table.chat)
    group = group_shown(table)

    other = ann.move("done", version=request["version"], move_id=request["move_id"])

    assert other.status == 409 and other.json["error"] == "move_id_reused"
    assert table_bot.item(table.chat).version == stored.version
    assert group_shown(table) == group
    assert table.state.phase == "speak"


@pytest.mark.slow
def test_a_table_move_on_the_lambda_checks_the_openers_init_data_once(
    lambda_table_bot: LambdaBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = a_game(lambda_table_bot, "en")
    first = table.state.first
    ann = visit(table, first)
    ann.fresh()
    checked: list[str] = []

    def counted(init_data: str, token: str, now: float) -> Opening:
        checked.append(init_data)
        return check_init_data(init_data, token, now)

    monkeypatch.setattr(lambda_table, "check_init_data", counted)
    monkeypatch.setattr(api, "check_init_data", counted)

    applied(ann.move("scout", target=first % 5 + 1))

    assert checked == [ann.opening.init_data]


def a_bystander(table: Table, first: int) -> int:
    """A seat neither the first turn's nor the one it scouts, its player not the host."""
    return next(
        seat
        for seat in range(1, 6)
        if seat not in (first, first % 5 + 1) and table.player_at(seat) != table.host
    )


def test_a_move_made_while_the_game_stood_still_is_applied_as_its_chat_button_is(
    table_bot: Bot,
) -> None:
    """The view changed (another seat was removed) but not the game's moment: the chat's
    buttons still act, and so does the view the page holds."""
    table = a_game(table_bot, "en")
    first = table.state.first
    ann = visit(table, first)
    seen = ann.fresh()
    gone = a_bystander(table, first)
    table.host.say("/remove")
    assert table.host.press(table.seat_label(gone), table.group_messages()[-1]) is None
    assert ann.fresh()["version"] != seen["version"]  # what the seat is shown changed

    view = applied(ann.move("scout", target=first % 5 + 1, version=seen["version"]))

    assert view["phase"] == "speak" and table.state.phase == "speak"


def test_a_table_move_builds_the_seats_view_once(
    table_bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = a_game(table_bot, "en")
    first = table.state.first
    ann = visit(table, first)
    ann.fresh()
    built: list[int] = []
    build = table_view.table_view
    monkeypatch.setattr(
        table_view, "table_view", lambda **kw: built.append(kw["you"]) or build(**kw)
    )

    applied(ann.move("scout", target=first % 5 + 1))

    assert built == [first]
