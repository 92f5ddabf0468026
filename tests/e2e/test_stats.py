"""/stats: a group's finished games and leaderboard, and a player's own figures across groups,
counted once per finished game, in the very write that ends it."""

from __future__ import annotations

from engine import captains
from engine.cards import color
from handlers.display.render import isolate
from infra.store import Item
from testing.deals import a_right_prediction
from testing.drivers import Bot
from testing.games import worked_example
from testing.players import Player, Table

STATS_KEYS = ("stats#group#", "stats#user#")


def quick_game(table: Table, seed: int) -> None:
    """A 4-player game that ends at once: the first player decapitates the next seat."""
    table.open()
    seat = table.start(seed=seed).first
    table.decapitate(seat, seat % 4 + 1)
    assert table.ending() is not None


def group_stats(table: Table, who: Player | None = None) -> str:
    """What /stats answers in the group."""
    (who or table.host).say("/stats")
    return table.group_texts()[-1]


def own_stats(player: Player) -> str:
    """What /stats answers in the player's private chat."""
    player.private("/stats")
    return player.last_text()


def plain(table: Table, key: str, **kw) -> str:
    return table.t(key, **kw)


def leader_line(table: Table, rank: int, name: str, games: int, wins: int, worked: int) -> str:
    rate = round(100 * wins / games)
    return table.t(
        "stats_leader",
        rank=rank,
        name=isolate(name),
        games=games,
        wins=wins,
        rate=rate,
        worked=worked,
    )


def stored(bot: Bot, key: str) -> dict | None:
    item = bot.store.load(key)
    return item.data if item else None


def check_worked_example_counted(bot: Bot, table: Table) -> None:
    state = table.state
    caps = captains(state.cards)
    text = group_stats(table, table.players[-1])  # anyone in the group may ask
    lines = text.splitlines()
    assert lines[0] == table.t("stats_title", group=isolate(table.title))
    assert table.t("stats_games", n=1) in lines
    assert table.t("stats_wins", red=0, blue=1) in lines
    assert table.t("stats_decapitations", tried=1, worked=1) in lines
    assert table.t("stats_average", length=table.t("duration_m_s", m=2, s=5), turns=3) in lines
    captain_won = sum(1 for seat in caps.values() if color(state.cards[seat - 1]) == "blue")
    role = table.t("stats_role", role=table.t("role_captain"), won=captain_won, played=2)
    assert table.t("stats_roles", roles=role) in lines
    winners = [3, 4, 6]
    board = lines[lines.index(table.t("stats_leaders")) + 1 :]
    expected = [
        leader_line(table, rank, state.names[seat - 1], 1, 1, int(seat == 3))
        for rank, seat in enumerate(winners, 1)
    ] + [
        leader_line(table, rank, state.names[seat - 1], 1, 0, 0)
        for rank, seat in enumerate([1, 2, 5], 4)
    ]
    assert board == expected
    for seat in range(1, 7):
        player = table.player_at(seat)
        mine = own_stats(player).splitlines()
        won = int(seat in winners)
        assert mine[0] == table.t_for(player, "stats_own_title")
        assert table.t_for(player, "stats_own_games", n=1, groups=1) in mine
        assert table.t_for(player, "stats_own_wins", wins=won, rate=100 * won) in mine
        decapitations = table.t_for(
            player, "stats_own_decapitations", tried=int(seat == 3), worked=int(seat == 3)
        )
        assert decapitations in mine


def test_stats_count_a_finished_game_for_the_group_and_each_player(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 6)
    assert group_stats(table) == table.t("stats_none")
    assert own_stats(table.host) == table.t("stats_own_none")
    worked_example(memory_bot, table)
    check_worked_example_counted(memory_bot, table)


def test_stats_count_a_finished_game_for_the_group_and_each_player_in_chinese(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 6, lang="zh")
    assert group_stats(table) == "📊 本群还没有打完的对局。"
    worked_example(memory_bot, table)
    check_worked_example_counted(memory_bot, table)
    text = group_stats(table)
    assert "获胜：红方 0 局，蓝方 1 局" in text.splitlines()
    assert "平均每局：2 分 5 秒，3 回合" in text.splitlines()


def test_a_redelivered_end_counts_once(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 6)
    end = worked_example(memory_bot, table)
    counted = {key: stored(memory_bot, key) for key in stats_keys(table)}
    text = group_stats(table)

    memory_bot.redeliver(end)

    assert {key: stored(memory_bot, key) for key in stats_keys(table)} == counted
    assert counted[f"stats#group#{table.chat}"]["games"] == 1
    assert group_stats(table) == text


def stats_keys(table: Table) -> list[str]:
    return [f"stats#group#{table.chat}", *(f"stats#user#{p.id}" for p in table.players)]


def same_people_elsewhere(table: Table, title: str, lang: str = "en") -> Table:
    """The same people in another group with the bot."""
    fake = table.bot.fake
    users = [player.user for player in table.players]
    group = fake.add_group(title, users, owner=users[0])
    players = [Player(table.bot, user, group) for user in users]
    return Table(table.bot, players, group, lang, title)


def test_stats_in_a_private_chat_show_the_players_own_figures_across_groups(
    memory_bot: Bot,
) -> None:
    first = Table.of(memory_bot, 4)
    second = same_people_elsewhere(first, "Saturday club")
    quick_game(first, seed=11)
    quick_game(second, seed=12)
    for player in first.players:
        games = []
        for table in (first, second):
            state = table.state
            seat = table.seat_of(player)
            games.append(color(state.cards[seat - 1]) == state.outcome.winner)
        won = sum(games)
        mine = own_stats(player).splitlines()
        assert first.t_for(player, "stats_own_games", n=2, groups=2) in mine
        assert first.t_for(player, "stats_own_wins", wins=won, rate=round(50 * won)) in mine
    # Each group's own figures count its own game only.
    assert first.t("stats_games", n=1) in group_stats(first).splitlines()
    assert second.t("stats_games", n=1) in group_stats(second).splitlines()


def test_stats_in_a_private_chat_speak_the_players_language(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    quick_game(table, seed=11)
    mine = own_stats(table.host).splitlines()
    assert mine[0] == "📊 你的战绩"
    assert "已完成：1 局（1 个群）" in mine


def test_stats_show_nothing_of_a_game_in_play(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    quick_game(table, seed=11)
    before = group_stats(table)
    mine = own_stats(table.host)
    table.open()
    state = table.start(seed=13)
    table.scout_and_done(state.first, state.first % 4 + 1)

    assert group_stats(table) == before
    assert group_stats(table, table.players[2]) == before
    assert own_stats(table.host) == mine

    table.host.say("/cancel")  # a cancelled game is not counted either
    assert group_stats(table) == before
    assert own_stats(table.host) == mine


def test_stats_show_nothing_of_a_game_in_play_in_chinese(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    table.open()
    state = table.start(seed=13)
    table.scout_and_done(state.first, state.first % 4 + 1)
    assert group_stats(table) == "📊 本群还没有打完的对局。"
    assert own_stats(table.host) == "📊 你还没有打完过一局。"


def test_the_leaderboard_keeps_the_top_fifty(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    # Fifty earlier players: the ten last to play have one game, the rest two or more.
    board = {str(9000 + n): [f"P{n}", 2 + n % 3 if n < 40 else 1, 1, 0, n] for n in range(50)}
    earlier = {
        "games": 60,
        "wins": {"red": 30, "blue": 30},
        "tried": 60,
        "worked": 20,
        "seconds": 6000,
        "turns": 180,
        "roles": {},
        "players": board,
    }
    memory_bot.store.save(Item(f"stats#group#{table.chat}", 0, earlier))
    quick_game(table, seed=11)

    data = stored(memory_bot, f"stats#group#{table.chat}")
    kept = data["players"]
    assert len(kept) == 50
    # The four newcomers, who played last, push out the four longest idle of the one-game ones.
    assert all(str(p.id) in kept for p in table.players)
    dropped = {str(9000 + n) for n in range(40, 44)}
    assert dropped.isdisjoint(kept)
    assert {str(9000 + n) for n in range(44, 50)} <= set(kept)
    assert data["games"] == 61
    # The message shows the top twenty and says how many more the board holds.
    lines = group_stats(table).splitlines()
    start = lines.index(table.t("stats_leaders")) + 1
    assert len(lines[start:]) == 21
    assert lines[-1] == table.t("stats_more", n=30)
    # The first line: one win in one game, the best rate among the most wins (who played last).
    winners = [p for p in table.players if leader_line(table, 1, p.name, 1, 1, 0) == lines[start]]
    assert len(winners) == 1


def test_forget_erases_the_players_statistics_and_their_leaderboard_lines(memory_bot: Bot) -> None:
    table = Table.of(memory_bot, 4)
    quick_game(table, seed=11)
    leaving = table.players[1]
    assert isolate(leaving.name) in group_stats(table)

    leaving.private("/forget")

    assert own_stats(leaving) == table.t("stats_own_none")
    text = group_stats(table)
    assert isolate(leaving.name) not in text
    assert table.t("stats_games", n=1) in text.splitlines()  # the group's own figures stay
    assert isolate(table.host.name) in text


def test_stats_count_the_observers_role_and_a_right_prediction_as_a_win(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 5)
    state, _ = a_right_prediction(table)
    observer = state.first

    lines = group_stats(table).splitlines()
    roles = [line for line in lines if line.startswith(table.t("stats_roles", roles=""))]
    assert table.t("stats_role", role=table.t("role_observer"), won=1, played=1) in roles[0]
    seen = own_stats(table.player_at(observer)).splitlines()
    assert table.t("stats_own_wins", wins=1, rate=100) in seen
    assert table.t("stats_own_colours", rp=0, rw=0, bp=0, bw=0) in seen


def test_the_leaderboard_ranks_equal_wins_and_decapitations_by_fewer_games(
    memory_bot: Bot,
) -> None:
    table = Table.of(memory_bot, 4, lang="zh")
    board = {
        "1": ["Often", 9, 1, 0, 9, 0],  # many games, one win
        "2": ["Sure", 2, 2, 0, 8, 0],  # two wins of two
        "3": ["Keen", 3, 2, 0, 7, 0],  # two wins of three
    }
    figures = {"games": 9, "wins": {"red": 5, "blue": 4}, "tried": 9, "worked": 3}
    earlier = {**figures, "seconds": 900, "turns": 27, "roles": {}, "players": board}
    memory_bot.store.save(Item(f"stats#group#{table.chat}", 0, earlier))
    lines = group_stats(table).splitlines()
    board_lines = lines[lines.index(table.t("stats_leaders")) + 1 :]
    assert board_lines == [
        leader_line(table, 1, "Sure", 2, 2, 0),
        leader_line(table, 2, "Keen", 3, 2, 0),
        leader_line(table, 3, "Often", 9, 1, 0),
    ]
    assert "2 局胜 2 局" in board_lines[0]


def test_a_player_whose_app_sends_no_language_reads_record_and_own_stats_in_the_groups(
    bot: Bot,
) -> None:
    table = Table.of(bot, 4, lang="zh")
    player = table.players[2]
    player.user.language_code = None
    quick_game(table, seed=51)
    seen = len(player.messages())
    assert player.press(table.t("btn_record"), table.ending()) == table.t("record_sent")
    record = [m.text or "" for m in player.messages()[seen:] if m.document is None]
    assert record[0].startswith(table.t("record_title", group=isolate(table.title), date="")[:3])
    assert table.t("timeline") in "\n".join(record)
    assert own_stats(player).startswith(table.t("stats_own_title"))
