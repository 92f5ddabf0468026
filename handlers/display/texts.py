"""Every text the bot says, in English and in the card's own Chinese (zh-CN)."""

from __future__ import annotations

EN, ZH = "en", "zh"
LANGUAGES = (EN, ZH)

# What the bot offers Telegram: its commands (setMyCommands, both languages) and the update kinds
# it asks for (setWebhook, getUpdates). The deploy-time resource reads these too.
COMMANDS: dict[str, list[tuple[str, str]]] = {
    EN: [
        ("newgame", "Open a game of Decapitation in this group"),
        ("status", "Show the state of play"),
        ("cancel", "End the game (host or admin)"),
        ("mycard", "Your card and what you learned (private chat)"),
        ("rules", "The rules"),
        ("help", "How to play with this bot"),
        ("language", "English / 中文"),
        ("forget", "Erase what the bot keeps about you (private chat)"),
        ("history", "This group's last ten games and their records"),
        ("nextgame", "Be told privately when the next game opens here"),
        ("remove", "Remove a player from the lobby or game (host or admin)"),
        ("stats", "Statistics of this group, or your own (private chat)"),
        ("extend", "Give the lobby 2 more minutes"),
        ("leave", "Leave the game you play in; your seat plays on"),
        ("practice", "Play alone against bot seats, to learn (private chat)"),
    ],
    ZH: [
        ("newgame", "在本群开一局斩首行动"),
        ("status", "查看局势"),
        ("cancel", "结束游戏（发起人或管理员）"),
        ("mycard", "你的人物牌和情报（私聊）"),
        ("rules", "游戏规则"),
        ("help", "使用说明"),
        ("language", "English / 中文"),
        ("forget", "删除机器人保存的你的数据（私聊）"),
        ("history", "本群最近十局及其对局记录"),
        ("nextgame", "本群开下一局时私聊通知你"),
        ("remove", "将玩家移出房间或游戏（发起人或管理员）"),
        ("stats", "本群战绩，或你自己的战绩（私聊）"),
        ("extend", "房间延长2分钟"),
        ("leave", "退出你正在玩的游戏；你的座位继续"),
        ("practice", "一个人和机器人号位练习对局（私聊）"),
    ],
}
ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]

CARD_NAMES = {
    EN: {"R": "Red {n}", "B": "Blue {n}", "OBS": "Observer", "SPY": "Spy"},
    ZH: {"R": "红{n}", "B": "蓝{n}", "OBS": "观察员", "SPY": "密探"},
}
COLOR_NAMES = {EN: {"red": "Red", "blue": "Blue"}, ZH: {"red": "红方", "blue": "蓝方"}}

TEXTS: dict[str, dict[str, str]] = {
    # lobby
    "lobby_title": {
        EN: "🎯 <b>Decapitation</b> — a new game",
        ZH: "🎯 <b>斩首行动</b> — 新的一局",
    },
    "lobby_players": {EN: "Players ({n}/{max}):", ZH: "玩家（{n}/{max}）："},
    "lobby_nobody": {EN: "nobody yet — press Join", ZH: "还没有人 — 点击「加入」"},
    "lobby_need": {
        EN: "Needs {min} to {max} players to start.",
        ZH: "需要 {min} 到 {max} 名玩家才能开始。",
    },
    "lobby_ready": {
        EN: "Ready: the host or an admin may press Start.",
        ZH: "人数已够：发起人或管理员可以点击「开始」。",
    },
    "lobby_hint_4": {
        EN: "💡 The card suggests two virtual players at 4.",
        ZH: "💡 4人局建议加入两名虚拟玩家。",
    },
    "lobby_hint_5": {
        EN: "💡 The card suggests at least one virtual player at 5.",
        ZH: "💡 5人局建议至少加入一名虚拟玩家。",
    },
    "lobby_hint_calm": {
        EN: "💡 For calmer play, switch on “no decapitation in the first round”.",
        ZH: "💡 想玩得稳一些，可以开启「第一轮禁止斩首」。",
    },
    "lobby_warn_uneven": {
        EN: "⚠️ Uncertain sides with virtual players may make the teams very uneven.",
        ZH: "⚠️ 「形势难料」与虚拟玩家同时使用，可能导致双方人数相差悬殊。",
    },
    "lobby_turncoat_idle": {
        EN: "⚠️ The Turncoat has no effect at {n} seats: no X is dealt at 6 seats or fewer.",
        ZH: "⚠️ 变节者在 {n} 个座位时不起作用：6 个座位或以下不发 X。",
    },
    "lobby_expired": {
        EN: "This lobby closed without a game. /newgame opens a new one.",
        ZH: "这个房间已关闭。发送 /newgame 重新开局。",
    },
    "btn_join": {EN: "➕ Join", ZH: "➕ 加入"},
    "btn_leave": {EN: "➖ Leave", ZH: "➖ 退出"},
    "btn_settings": {EN: "⚙️ Settings", ZH: "⚙️ 设置"},
    "btn_start": {EN: "▶️ Start", ZH: "▶️ 开始"},
    "btn_back": {EN: "⬅️ Back", ZH: "⬅️ 返回"},
    "btn_play_again": {EN: "🔁 Play again", ZH: "🔁 再来一局"},
    "btn_my_card": {EN: "🃏 My card", ZH: "🃏 我的人物牌"},
    "btn_open_chat": {EN: "💬 Open my chat", ZH: "💬 打开私聊"},
    "joined": {EN: "You joined the game in {group}.", ZH: "你已加入「{group}」的游戏。"},
    "already_joined": {EN: "You are already in this game.", ZH: "你已经在这局游戏中了。"},
    "join_members_only": {
        EN: "Only members of the group can join its game.",
        ZH: "只有该群的成员才能加入这局游戏。",
    },
    "member_check_failed": {
        EN: "I could not check that you are in the group. Please try again in a moment.",
        ZH: "我暂时无法确认你是否在群里，请稍后再试。",
    },
    "left": {EN: "You left the game.", ZH: "你已退出游戏。"},
    "not_in_lobby": {EN: "You are not in this game.", ZH: "你不在这局游戏中。"},
    "lobby_full": {EN: "The game is full ({max} players).", ZH: "人数已满（{max} 人）。"},
    "lobby_gone": {
        EN: "That game is no longer open to join.",
        ZH: "这局游戏已经不能加入了。",
    },
    "only_host": {
        EN: "Only the host or a group admin may do that.",
        ZH: "只有发起人或群管理员可以这样做。",
    },
    "need_players": {
        EN: "Start needs {min} to {max} players (now {n}).",
        ZH: "需要 {min} 到 {max} 名玩家才能开始（现在 {n} 人）。",
    },
    "game_running": {
        EN: "A game is already running here. /status shows it; /cancel ends it.",
        ZH: "这里已经有一局游戏在进行。/status 查看，/cancel 结束。",
    },
    "lobby_exists": {
        EN: "A lobby is already open here (see the message above).",
        ZH: "这里已经有一个房间（见上方消息）。",
    },
    # settings
    "settings_title": {
        EN: "⚙️ <b>Settings</b> (saved for this group)",
        ZH: "⚙️ <b>设置</b>（本群默认）",
    },
    "set_virtual_players": {EN: "Virtual players: {v}", ZH: "虚拟玩家：{v}"},
    "set_no_first_round_decapitation": {
        EN: "No decapitation in the first round: {v}",
        ZH: "第一轮禁止斩首：{v}",
    },
    "set_uncertain_sides": {EN: "Uncertain sides: {v}", ZH: "形势难料：{v}"},
    "set_turncoat": {EN: "Turncoat: {v}", ZH: "变节者：{v}"},
    "set_bodyguards": {EN: "Bodyguards: {v}", ZH: "保镖：{v}"},
    "set_observer": {EN: "Observer: {v}", ZH: "观察员：{v}"},
    "set_spy": {EN: "Spy: {v}", ZH: "密探：{v}"},
    "set_turn_seconds": {EN: "Turn time: {v} s", ZH: "行动时限：{v} 秒"},
    "set_speak_seconds": {EN: "Speaking time: {v} s", ZH: "发言时限：{v} 秒"},
    "set_turncoat_seconds": {EN: "Turncoat's choice: {v} s", ZH: "变节者决定时限：{v} 秒"},
    "set_spy_seconds": {EN: "Spy's guess: {v} s", ZH: "密探猜测时限：{v} 秒"},
    # a row of choices: the button naming it, each choice, the one chosen
    "head_virtual_players": {EN: "🤖 Virtual players", ZH: "🤖 虚拟玩家"},
    "head_turn_seconds": {EN: "⏱ Turn time", ZH: "⏱ 行动时限"},
    "head_speak_seconds": {EN: "🗣 Speaking time", ZH: "🗣 发言时限"},
    "head_turncoat_seconds": {EN: "🔄 Turncoat's choice", ZH: "🔄 变节者决定时限"},
    "head_spy_seconds": {EN: "🕵 Spy's guess", ZH: "🕵 密探猜测时限"},
    "choice_seconds": {EN: "{v} s", ZH: "{v}秒"},
    "choice_chosen": {EN: "✓ {v}", ZH: "✓ {v}"},
    "set_delete_chatter": {
        EN: "Delete out-of-turn messages: {v}",
        ZH: "删除回合外发言：{v}",
    },
    "set_lang": {EN: "Language: English", ZH: "语言：中文"},
    "on": {EN: "on", ZH: "开"},
    "off": {EN: "off", ZH: "关"},
    "variants_none": {EN: "no variants", ZH: "无可选规则"},
    "variant_virtual_players": {EN: "virtual players ×{n}", ZH: "虚拟玩家×{n}"},
    "variant_no_first_round_decapitation": {
        EN: "no decapitation in the first round",
        ZH: "第一轮禁止斩首",
    },
    "variant_uncertain_sides": {EN: "uncertain sides", ZH: "形势难料"},
    "variant_turncoat": {EN: "Turncoat", ZH: "变节者"},
    "variant_bodyguards": {EN: "Bodyguards", ZH: "保镖"},
    "variant_observer": {EN: "Observer", ZH: "观察员"},
    "variant_spy": {EN: "Spy", ZH: "密探"},
    # the deal
    "seating_title": {EN: "🎲 <b>The game begins.</b> Seats:", ZH: "🎲 <b>游戏开始。</b>座位："},
    "virtual_tag": {EN: " (virtual)", ZH: "（虚拟玩家）"},  # after a name, no space before （
    "in_play": {EN: "Variants: {list}", ZH: "可选规则：{list}"},
    "starts": {EN: "{name} starts.", ZH: "由 {name} 先行动。"},
    "silence_enforced": {
        EN: "🤫 Talk only in your speaking moment: other messages from players are deleted.",
        ZH: "🤫 玩家只可以在侦查后发言，回合外的消息会被删除。",
    },
    "silence_trust": {
        EN: "🤫 Talk only in your speaking moment. I can't delete messages here, so this is on "
        "trust.",
        ZH: "🤫 玩家只可以在侦查后发言。我在本群无法删除消息，请自觉遵守。",
    },
    "turncoat_pause": {
        EN: "🔄 Turncoat: after every scout the game pauses for {s} s, whether or not an X was "
        "seen, so nobody can tell.",
        ZH: "🔄 变节者：每次侦查后，游戏都会固定暂停 {s} 秒，无论是否查看到 X，谁也无法据此判断。",
    },
    "turncoat_none": {
        EN: "🔄 Turncoat: no X is dealt at {n} seats, so it has no effect and no scout is "
        "followed by a pause.",
        ZH: "🔄 变节者：{n} 个座位的游戏不发 X，此规则不起作用，侦查后也不会暂停。",
    },
    "your_card": {EN: "🃏 Your card: <b>{card}</b>", ZH: "🃏 你的人物牌：<b>{card}</b>"},
    "your_seat": {EN: "You sit in seat {seat} in {group}.", ZH: "你坐在「{group}」的{seat}号位。"},
    "hint_colour": {
        EN: "You are on the {colour} team. A decapitation works only when a captain decapitates "
        "the other captain (captain: lowest number, or highest if the team holds the 4; X never).",
        ZH: "你属于{colour}。只有队长斩首对方队长，行动才算成功（编号最小的为队长；队中有4号角色则"
        "改为编号最大的为队长；X号角色不会成为队长）。",
    },
    "hint_x_turncoat": {
        EN: "Turncoat: when someone scouts you, you may reveal your X and swap cards with them.",
        ZH: "变节者：当其他玩家查看你的人物牌时，你可以翻开人物牌，然后和对方交换人物牌。",
    },
    "hint_observer": {
        EN: "Observer: you may not decapitate. After a scout you may reveal and predict which "
        "colour wins; right wins, wrong or never loses.",
        ZH: "观察员：不可以发起斩首。查看一名玩家后，可以翻开人物牌，宣告红方或蓝方获胜。"
        "猜对获胜，猜错或始终未预测则失败。",
    },
    "hint_spy": {
        EN: "Spy: you may not decapitate. When someone announces a decapitation you guess both "
        "captains; both right and you win.",
        ZH: "密探：不可以发起斩首。当有人宣布斩首时，你猜测双方的队长，猜对则获胜。",
    },
    # turns
    "turn_line": {
        EN: "▶️ <b>{name}</b>'s turn: scout or decapitate.",
        ZH: "▶️ 轮到 <b>{name}</b>：侦查或斩首。",
    },
    "turn_line_first": {
        EN: "▶️ <b>{name}</b>'s turn: scout (no decapitation in the first round).",
        ZH: "▶️ 轮到 <b>{name}</b>：侦查（第一轮禁止斩首）。",
    },
    "time_left": {EN: "⏳ {s} s", ZH: "⏳ {s} 秒"},
    "scouted_line": {
        EN: "🔍 {name} scouted {target}.",
        ZH: "🔍 {name} 查看了 {target} 的人物牌。",
    },
    "speak_line": {
        EN: "🗣 {name} may speak now (write in the group).",
        ZH: "🗣 {name} 现在可以在群里发言。",
    },
    "swapped_line": {
        EN: "🔄 {holder} reveals <b>{card}</b> and swaps cards with {scout}!",
        ZH: "🔄 {holder} 翻开了 <b>{card}</b>，与 {scout} 交换了人物牌！",
    },
    "pause_line": {
        EN: "⏸ {name} speaks after the pause ({s} s).",
        ZH: "⏸ {name} 在暂停（{s} 秒）结束后发言。",
    },
    "done_line": {EN: "✅ {name}'s turn is over.", ZH: "✅ {name} 的回合结束。"},
    "said_line": {EN: "✅ {name}: “{say}”", ZH: "✅ {name}：「{say}」"},
    "predicted_line": {
        EN: "👁 {name} reveals the Observer and predicts: <b>{colour}</b> wins.",
        ZH: "👁 {name} 翻开观察员，宣告<b>{colour}</b>会赢得游戏。",
    },
    "skipped_line": {
        EN: "⌛ {name} ran out of time; the turn passes.",
        ZH: "⌛ {name} 超时，跳过回合。",
    },
    "speak_over_line": {
        EN: "⌛ {name}'s speaking time is over.",
        ZH: "⌛ {name} 的发言时间结束。",
    },
    "announced_line": {
        EN: "🗡 <b>{name} announces a decapitation!</b>",
        ZH: "🗡 <b>{name} 宣布发起斩首行动！</b>",
    },
    "sealed_line": {
        EN: "The target is sealed; it opens in {s} s.",
        ZH: "斩首目标已锁定，{s} 秒后公开。",
    },
    # private prompts
    "prompt_turn": {
        EN: "Your turn in {group}. Scout or decapitate?",
        ZH: "「{group}」轮到你了：侦查还是斩首？",
    },
    "prompt_turn_neutral": {
        EN: "Your turn in {group}. Scout a player: you may not decapitate.",
        ZH: "「{group}」轮到你了：请侦查一名玩家（你不可以发起斩首）。",
    },
    "prompt_turn_first": {
        EN: "Your turn in {group}. First round: you must scout.",
        ZH: "「{group}」轮到你了。第一轮禁止斩首，只能侦查。",
    },
    "btn_scout": {EN: "🔍 Scout", ZH: "🔍 侦查"},
    "btn_decapitate": {EN: "🗡 Decapitate", ZH: "🗡 斩首"},
    "pick_scout": {EN: "Whose card do you look at?", ZH: "查看谁的人物牌？"},
    "pick_target": {EN: "Whom do you decapitate?", ZH: "斩首谁？"},
    "scout_unblock_first": {
        EN: "You blocked me, so the card you scout could not reach you. Unblock me first "
        "(Restart in my chat), then scout: your turn is still yours.",
        ZH: "你屏蔽了我，侦查到的人物牌发不到你那里。请先解除屏蔽（在私聊中按「重新开始」），"
        "再侦查：仍是你的回合。",
    },
    "ask_proxy": {
        EN: "Do you act on behalf of a virtual player?",
        ZH: "你是否在代替虚拟玩家行动？",
    },
    "ask_bodyguard": {
        EN: "Does a bodyguard (the 3 of {target}'s colour) sit directly next to {target}?",
        ZH: "{target} 的相邻位置有没有同队的保镖（3号角色）？",
    },
    "btn_yes": {EN: "Yes", ZH: "是"},
    "btn_no": {EN: "No", ZH: "否"},
    "confirm_decapitation": {
        EN: "Decapitate {target}{decl}? This ends the game.",
        ZH: "确认斩首 {target}{decl}？游戏将进入结算。",
    },
    "decl_proxy": {EN: ", for a virtual player: {v}", ZH: "，代替虚拟玩家：{v}"},
    "decl_bodyguard": {EN: ", bodyguard beside: {v}", ZH: "，相邻保镖：{v}"},
    "btn_confirm": {EN: "🗡 Confirm", ZH: "🗡 确认"},
    "scout_result": {
        EN: "🔍 {target} holds <b>{card}</b>.",
        ZH: "🔍 {target} 的人物牌是 <b>{card}</b>。",
    },
    "scout_wait": {
        EN: "⏳ You speak once the {s} s pause is over.",
        ZH: "⏳ 暂停 {s} 秒结束后你才可以发言。",
    },
    "scout_wait_deleted": {
        EN: "⏳ You speak once the {s} s pause is over: what you write in the group before then "
        "is deleted.",
        ZH: "⏳ 暂停 {s} 秒结束后你才可以发言：在此之前你在群里发的消息会被删除。",
    },
    "prompt_speak": {
        EN: "Speak now in the group, then press Done.",
        ZH: "现在请在群里发言，然后点击「结束」。",
    },
    "prompt_speak_group": {
        EN: "Speak now in the group, then press Done on the turn message.",
        ZH: "现在请在群里发言，然后点击群里回合消息上的「结束」。",
    },
    "btn_done": {EN: "✅ Done", ZH: "✅ 结束"},
    "btn_predict_red": {EN: "👁 Reveal: Red wins", ZH: "👁 翻开人物牌：宣告红方会赢"},
    "btn_predict_blue": {EN: "👁 Reveal: Blue wins", ZH: "👁 翻开人物牌：宣告蓝方会赢"},
    "prompt_turncoat": {
        EN: "{scout} scouted you and saw your X. Reveal it and swap cards with {scout}?",
        ZH: "{scout} 查看了你的人物牌。是否翻开 X，与 {scout} 交换人物牌？",
    },
    "turncoat_time": {EN: "⏳ You have {s} s.", ZH: "⏳ 你有 {s} 秒。"},
    "btn_swap": {EN: "🔄 Swap", ZH: "🔄 交换"},
    "btn_keep": {EN: "Keep", ZH: "不交换"},
    "kept": {EN: "You keep your card.", ZH: "你没有交换。"},
    "new_card": {
        EN: "🔄 You swapped with {other}: you now hold <b>{card}</b>.",
        ZH: "🔄 你与 {other} 交换了人物牌：你现在的人物牌是 <b>{card}</b>。",
    },
    "new_team": {EN: "You are now on the {colour} team.", ZH: "你现在属于{colour}。"},
    "x_spent_scout": {
        EN: "This X is now face up and has no power any more.",
        ZH: "这张 X 已翻开，不再有变节者的能力。",
    },
    "x_spent_holder": {
        EN: "The X you gave {other} is now face up and has no power any more.",
        ZH: "你交给 {other} 的 X 已翻开，不再有变节者的能力。",
    },
    "prompt_spy_red": {
        EN: "🕵 A decapitation was announced. Guess the <b>Red</b> captain:",
        ZH: "🕵 有人宣布斩首。猜测<b>红方</b>队长：",
    },
    "spy_time": {EN: "⏳ You have {s} s.", ZH: "⏳ 你有 {s} 秒。"},
    "prompt_spy_blue": {EN: "Now guess the <b>Blue</b> captain:", ZH: "再猜测<b>蓝方</b>队长："},
    "spy_sealed": {
        EN: "🕵 Your guess is sealed: {red} for Red, {blue} for Blue. It is shown at the end.",
        ZH: "🕵 你的猜测已锁定：红方队长 {red}，蓝方队长 {blue}。游戏结束时揭晓。",
    },
    "hurry": {EN: "⏳ {s} s left to decide.", ZH: "⏳ 还剩 {s} 秒，请尽快决定。"},
    "hurry_speak": {
        EN: "⏳ {s} s left to speak: press Done when you have finished.",
        ZH: "⏳ 发言还剩 {s} 秒，说完请点击「结束」。",
    },
    # end
    "end_title": {EN: "🏁 <b>{colour} wins!</b>", ZH: "🏁 <b>{colour}获胜！</b>"},
    "end_attack": {
        EN: "{attacker} ({acard}) decapitated {target} ({tcard}){decl}.",
        ZH: "{attacker}（{acard}）斩首了 {target}（{tcard}）{decl}。",
    },
    "end_success": {EN: "Captain on captain: it worked.", ZH: "队长斩队长，行动成功。"},
    "end_fail": {EN: "It failed: {why}.", ZH: "行动失败：{why}。"},
    "why_wrong_proxy_declaration": {
        EN: "wrong virtual-player declaration",
        ZH: "代替虚拟玩家的宣告错误",
    },
    "why_wrong_bodyguard_declaration": {EN: "wrong bodyguard declaration", ZH: "保镖判断错误"},
    "why_attacker_not_captain": {EN: "the attacker is not a captain", ZH: "发起者不是队长"},
    "why_target_not_captain": {EN: "the target is not the other captain", ZH: "目标不是对方队长"},
    "end_cards": {EN: "Cards:", ZH: "全部人物牌："},
    "captain_tag": {EN: "👑 captain", ZH: "👑 队长"},
    "no_captain": {EN: "{colour} had no captain.", ZH: "{colour}没有队长。"},
    "set_aside_line": {EN: "Set aside: {cards}", ZH: "移除的牌：{cards}"},
    "observer_won": {
        EN: "👁 The Observer {name} predicted right and wins.",
        ZH: "👁 观察员 {name} 猜测正确，获胜。",
    },
    "observer_lost": {
        EN: "👁 The Observer {name} predicted wrong and loses.",
        ZH: "👁 观察员 {name} 猜测错误，失败。",
    },
    "observer_silent": {
        EN: "👁 The Observer {name} never predicted and loses.",
        ZH: "👁 观察员 {name} 始终未预测，失败。",
    },
    "neutral_left": {
        EN: "🚪 {name} (left) held the {card}: the card of a seat its player left has no "
        "effect, so it neither wins nor loses.",
        ZH: "🚪 {name}（已退出）持有{card}：玩家已退出的座位，其人物牌不起作用，既不获胜也不失败。",
    },
    "neutral_removed": {
        EN: "🚪 {name} (removed) held the {card}: a removed seat's card has no effect, so it "
        "neither wins nor loses.",
        ZH: "🚪 {name}（已移出）持有{card}：被移出座位的人物牌不起作用，既不获胜也不失败。",
    },
    "spy_won": {
        EN: "🕵 The Spy {name} named both captains and wins.",
        ZH: "🕵 密探 {name} 猜对双方队长，获胜。",
    },
    "spy_lost": {
        EN: "🕵 The Spy {name} guessed {red} for Red and {blue} for Blue, and loses.",
        ZH: "🕵 密探 {name} 猜测红方队长是 {red}、蓝方队长是 {blue}，失败。",
    },
    "spy_silent": {
        EN: "🕵 The Spy {name} made no guess and loses.",
        ZH: "🕵 密探 {name} 没有猜测，失败。",
    },
    "timeline": {EN: "Timeline:", ZH: "过程："},
    "timeline_cut": {
        EN: "… {n} earlier moves: 📄 Record has the whole game.",
        ZH: "……之前的 {n} 步从略：点击「📄 对局记录」查看完整过程。",
    },
    "cancelled": {EN: "🛑 The game was cancelled by {name}.", ZH: "🛑 {name} 取消了游戏。"},
    "cancelled_idle": {
        EN: "🛑 Nobody played for a whole round, so the game was cancelled.",
        ZH: "🛑 一整轮无人行动，游戏已取消。",
    },
    # commands and answers
    "help": {
        EN: "🎯 <b>Decapitation</b> (斩首行动), 4–12 players, 1–5 minutes.\n"
        "/newgame — open a lobby in this group\n/status — the state of play\n"
        "/cancel — end the game (host or admin)\n/rules — the rules\n"
        "/mycard — (in my private chat) your card and what you learned\n"
        "/language — switch English / 中文\n"
        "/forget — (in my private chat) erase what I keep about you\n"
        "/history — this group's last ten games, each with its record\n"
        "/nextgame — be told privately when the next game opens here\n"
        "/remove — remove a player from the lobby or game (host or admin)\n"
        "/stats — this group's statistics; in my private chat, your own\n"
        "/extend — give an open lobby 2 more minutes\n"
        "/leave — leave the game you play in (here or in my private chat); your seat plays on\n"
        "/practice — (in my private chat) play alone against bot seats, to learn",
        ZH: "🎯 <b>斩首行动</b>，4–12人，1–5分钟。\n/newgame — 在本群开局\n/status — 查看局势\n"
        "/cancel — 结束游戏（发起人或管理员）\n/rules — 游戏规则\n"
        "/mycard — （私聊中）查看你的人物牌和情报\n/language — 切换 English / 中文\n"
        "/forget — （私聊中）删除我保存的你的数据\n"
        "/history — 本群最近十局及其对局记录\n/nextgame — 本群开下一局时私聊通知你\n"
        "/remove — 将玩家移出房间或游戏（发起人或管理员）\n"
        "/stats — 本群战绩；私聊中查看你自己的战绩\n"
        "/extend — 房间延长2分钟\n"
        "/leave — 退出你正在玩的游戏（群里或私聊中）；你的座位继续\n"
        "/practice — （私聊中）一个人和机器人号位练习对局",
    },
    "rules": {
        EN: "<b>Rules</b>\nEveryone secretly holds a Red or Blue card (1–7 or X). On your turn either "
        "<b>scout</b> — look at another player's card, then speak (only then may you talk) — or "
        "<b>decapitate</b>: name a target and the game ends at once. All cards are revealed. If "
        "the attacker is their team's captain and the target is the other team's captain, the "
        "attacker's team wins; otherwise the other team wins.\n<b>Captain</b>: the lowest "
        "number; if the team holds the 4, the highest number instead; an X is never captain.\n"
        "Variants: virtual players, no decapitation in the first round, uncertain sides, "
        "Turncoat (X may swap when scouted), Bodyguards (declare a 3 beside the target), "
        "Observer (predicts the winner), Spy (guesses both captains).",
        ZH: "<b>游戏规则</b>\n每名玩家秘密持有一张红色或蓝色人物牌（1–7或X）。轮到你时选择一项：\n"
        "A侦查：查看另一名玩家的人物牌，然后可以发言（玩家只可以在这个时候发言，回合外禁止交流）；\n"
        "B斩首：宣布发起斩首行动，指定攻击目标，游戏进入结算阶段。\n"
        "所有玩家翻开人物牌。如果发起斩首行动的玩家为自己一方的队长，并且斩首的对象为对方的队长，"
        "该玩家的颜色赢得游戏；否则，对方的颜色赢得游戏。\n"
        "<b>队长</b>：编号最小的玩家为队长；如果队伍中包括4号角色，则改为编号最大的玩家为队长；"
        "X号角色不会成为队长。\n可选规则：虚拟玩家、第一轮禁止斩首、形势难料、变节者、保镖、观察员、密探。",
    },
    "status_none": {
        EN: "No game here. /newgame opens one.",
        ZH: "这里没有游戏。发送 /newgame 开局。",
    },
    "status_lobby": {
        EN: "📋 A lobby is open with {n} players ({min} to {max} can play):",
        ZH: "📋 房间已开，现有 {n} 名玩家（{min}–{max} 人可以开局）：",
    },
    "status_limits": {EN: "Time limits: {list}", ZH: "时限：{list}"},
    "limit_turn": {EN: "turn {s} s", ZH: "行动 {s} 秒"},
    "limit_speak": {EN: "speaking {s} s", ZH: "发言 {s} 秒"},
    "limit_turncoat": {EN: "Turncoat {s} s", ZH: "变节者 {s} 秒"},
    "limit_spy": {EN: "Spy {s} s", ZH: "密探 {s} 秒"},
    "status_game": {EN: "📋 <b>A game is on.</b> Seats:", ZH: "📋 <b>游戏进行中。</b>座位："},
    "status_turn": {
        EN: "▶️ {name}'s turn: scout or decapitate.",
        ZH: "▶️ 轮到 {name}：侦查或斩首。",
    },
    "status_turn_first": {
        EN: "▶️ {name}'s turn: scout (no decapitation in the first round).",
        ZH: "▶️ 轮到 {name}：侦查（第一轮禁止斩首）。",
    },
    "status_speak": {EN: "🗣 It is {name}'s speaking moment.", ZH: "🗣 现在是 {name} 的发言时间。"},
    "status_turn_you": {
        EN: "▶️ It is your turn: scout or decapitate.",
        ZH: "▶️ 轮到你了：侦查或斩首。",
    },
    "status_turn_first_you": {
        EN: "▶️ It is your turn: scout (no decapitation in the first round).",
        ZH: "▶️ 轮到你了：侦查（第一轮禁止斩首）。",
    },
    "status_speak_you": {EN: "🗣 It is your speaking moment.", ZH: "🗣 现在是你的发言时间。"},
    "status_scouted_you": {
        EN: "🔍 You have scouted; your speaking moment begins when this wait ends.",
        ZH: "🔍 你已侦查，等待结束后开始发言。",
    },
    "status_sealed_you": {
        EN: "🗡 You announced a decapitation; the target stays sealed until this wait ends.",
        ZH: "🗡 你宣布了斩首行动，斩首目标已锁定，等待结束后公开。",
    },
    "status_scouted": {
        EN: "🔍 {name} has scouted; their speaking moment begins when this wait ends.",
        ZH: "🔍 {name} 已侦查，等待结束后开始发言。",
    },
    "status_sealed": {
        EN: "🗡 {name} announced a decapitation; the target stays sealed until this wait ends.",
        ZH: "🗡 {name} 宣布了斩首行动，斩首目标已锁定，等待结束后公开。",
    },
    "status_left": {EN: "⏳ {s} s left.", ZH: "⏳ 还剩 {s} 秒。"},
    "status_so_far": {EN: "So far:", ZH: "目前为止："},
    "status_nothing": {EN: "Nobody has acted yet.", ZH: "还没有人行动。"},
    "group_only": {
        EN: "That command works in a group. Add me to one!",
        ZH: "这个命令要在群里使用。把我加进一个群吧！",
    },
    "private_only": {
        EN: "Send /mycard to me in a private chat, so nobody else sees it.",
        ZH: "请在私聊中发送 /mycard，以免被别人看到。",
    },
    "not_a_player": {EN: "You are not playing in this game.", ZH: "你不在这局游戏中。"},
    "not_your_turn": {EN: "It is not your decision now.", ZH: "现在还轮不到你。"},
    "too_late": {EN: "Too late: the game has moved on.", ZH: "太迟了：局势已变化。"},
    "stale_button": {EN: "That button is from an old game.", ZH: "这是旧游戏的按钮。"},
    "bad_button": {EN: "That button is not valid.", ZH: "无效的按钮。"},
    "try_again": {
        EN: "Sorry, that did not go through. Please try again.",
        ZH: "抱歉，操作没有成功，请再试一次。",
    },
    "cannot_reach": {
        EN: "⚠️ {names}: I can't send you private messages. Press “{button}” below, then Start "
        "in my chat, to get your card and buttons; until then your turns last at most {s} s.",
        ZH: "⚠️ {names}：我无法私聊你。请点击下方的「{button}」，再在私聊中按「开始」，才能收到你的人物牌和按钮；"
        "在此之前，你的回合最多只有 {s} 秒。",
    },
    "cannot_reach_blocked": {
        EN: "⚠️ {names}: I can't send you private messages, as my chat is blocked. Press "
        "“{button}” below, then Restart in my chat, to get your card and buttons back; until "
        "then your turns last at most {s} s.",
        ZH: "⚠️ {names}：你屏蔽了我，我无法私聊你。请点击下方的「{button}」，再在私聊中按「重新开始」（Restart），"
        "才能重新收到你的人物牌和按钮；在此之前，你的回合最多只有 {s} 秒。",
    },
    "welcome": {
        EN: "Hello! I host Decapitation (斩首行动) in groups. Add me to a group and send /newgame.",
        ZH: "你好！我可以在群里主持斩首行动。把我加进群并发送 /newgame。",
    },
    "cancel_none": {EN: "There is no game to cancel.", ZH: "没有可以取消的游戏。"},
    "anonymous_admin": {
        EN: "I can't tell who you are while you post as the group. Turn off “Remain anonymous” in your admin rights to host or play.",
        ZH: "你正以群组身份匿名发言，我无法识别你。请在管理员权限中关闭「匿名发言」后再开局或加入。",
    },
    "removed": {
        EN: "🛑 I was removed from {group}, so the game there is cancelled. Add me back and send /newgame to play again.",
        ZH: "🛑 我已被移出「{group}」，那里的游戏已取消。把我加回群里并发送 /newgame 即可重新开局。",
    },
    "language_set": {EN: "Language: English.", ZH: "语言：中文。"},
    "forget_playing": {
        EN: "You are in a game right now. Once it is over, /forget erases what I keep about you.",
        ZH: "你正在游戏中。游戏结束后，发送 /forget 即可删除我保存的你的数据。",
    },
    "forgotten": {
        EN: "Done: I no longer keep your name or the groups you played in. A finished game you "
        "were in is deleted a day after it ends; backups keep it at most 35 days.",
        ZH: "已完成：我不再保存你的名字和你玩过的群。你参加过的已结束的游戏会在结束一天后删除；"
        "备份最多保留35天。",
    },
    "mycard_none": {EN: "You are not in a running game.", ZH: "你不在进行中的游戏里。"},
    "mycard_learned": {EN: "What you know:", ZH: "你掌握的情报："},
    "seat_label": {EN: "{seat}. {name}", ZH: "{seat}号位 {name}"},
    # how parts of a message are joined: a list, clauses, a label and its value
    "sep_list": {EN: ", ", ZH: "、"},
    "sep_clause": {EN: "; ", ZH: "；"},
    "labelled": {EN: "{label}: {value}", ZH: "{label}：{value}"},
    "popup_seat": {EN: " (seat {seat})", ZH: "（{seat}号位）"},
    "popup_fact": {EN: "seat {seat}: {card}", ZH: "{seat}号位：{card}"},
    # lobby reach and countdown
    "lobby_hello": {
        EN: "You opened a game of Decapitation in {group}. Your card and your buttons will "
        "come to this chat.",
        ZH: "你在「{group}」开了一局斩首行动。你的人物牌和按钮会发到这里。",
    },
    "lobby_unreachable": {
        EN: "⚠️ I can't message {names} privately yet, so no card could reach them and the "
        "game can't start. Press “{button}” below, then Start in my chat.",
        ZH: "⚠️ 我还无法私聊 {names}，人物牌发不过去，游戏还不能开始。"
        "请点击下方的「{button}」，然后在私聊中按「开始」。",
    },
    "lobby_unreachable_blocked": {
        EN: "⚠️ {names} blocked me, so no card could reach them and the game can't start. "
        "Press “{button}” below, then Restart in my chat to unblock me.",
        ZH: "⚠️ {names} 屏蔽了我，人物牌发不过去，游戏还不能开始。"
        "请点击下方的「{button}」，然后在私聊中按「重新开始」（Restart）解除屏蔽。",
    },
    "unreachable_start": {
        EN: "I can't message {names} privately yet: press “{button}” under the lobby, "
        "then Start in my chat.",
        ZH: "我还无法私聊 {names}：请点击房间消息下方的「{button}」，然后在私聊中按「开始」。",
    },
    "unreachable_start_blocked": {
        EN: "{names} blocked me: press “{button}” under the lobby, then Restart in my chat to "
        "unblock me.",
        ZH: "{names} 屏蔽了我：请点击房间消息下方的「{button}」，然后在私聊中按「重新开始」"
        "（Restart）解除屏蔽。",
    },
    "back_lobby": {
        EN: "✅ {name} opened my chat: I can send their card now.",
        ZH: "✅ {name} 已打开私聊：我现在可以发人物牌了。",
    },
    "back_game": {
        EN: "✅ I can message {name} privately again.",
        ZH: "✅ 我又可以私聊 {name} 了。",
    },
    "reach_left": {
        EN: "🚪 {name} left the game: their seat plays on without them.",
        ZH: "🚪 {name} 已退出游戏：其座位继续按虚拟玩家进行。",
    },
    "reach_removed": {
        EN: "🚪 {name} was removed from the game: their seat plays on without them.",
        ZH: "🚪 {name} 已被移出游戏：其座位继续按虚拟玩家进行。",
    },
    "lobby_countdown_auto": {
        EN: "⏳ Starts by itself at {time} with {min} or more players. /extend waits {m} min more.",
        ZH: "⏳ 若有 {min} 人或以上，游戏将于 {time} 自动开始。发送 /extend 可延长 {m} 分钟。",
    },
    "lobby_countdown_close": {
        EN: "⏳ Closes at {time} unless the host presses Start. /extend waits {m} min more.",
        ZH: "⏳ 若发起人未点击「开始」，房间将于 {time} 关闭。发送 /extend 可延长 {m} 分钟。",
    },
    "lobby_remind_start": {
        EN: "⏳ The game starts by itself in {left} min with {n} players. /extend waits {m} min "
        "more.",
        ZH: "⏳ 游戏将在 {left} 分钟后以 {n} 人自动开始。发送 /extend 可延长 {m} 分钟。",
    },
    "lobby_remind_start_last": {
        EN: "⏳ The game starts by itself in {left} min with {n} players.",
        ZH: "⏳ 游戏将在 {left} 分钟后以 {n} 人自动开始。",
    },
    "lobby_remind_few_last": {
        EN: "⏳ This lobby closes in {left} min: {n} of the {min} players needed have joined. "
        "Join now.",
        ZH: "⏳ 房间将在 {left} 分钟后关闭：需要 {min} 人，现有 {n} 人。快来加入。",
    },
    "lobby_remind_host_last": {
        EN: "⏳ This lobby closes in {left} min unless the host presses Start.",
        ZH: "⏳ 若发起人未点击「开始」，房间将在 {left} 分钟后关闭。",
    },
    "lobby_remind_few": {
        EN: "⏳ This lobby closes in {left} min: {n} of the {min} players needed have joined. "
        "Join now, or /extend to wait {m} min more.",
        ZH: "⏳ 房间将在 {left} 分钟后关闭：需要 {min} 人，现有 {n} 人。"
        "快来加入，或发送 /extend 延长 {m} 分钟。",
    },
    "lobby_remind_host": {
        EN: "⏳ This lobby closes in {left} min unless the host presses Start. /extend waits "
        "{m} min more.",
        ZH: "⏳ 若发起人未点击「开始」，房间将在 {left} 分钟后关闭。发送 /extend 可延长 {m} 分钟。",
    },
    "lobby_remind_away": {
        EN: "{names}: press “{button}” under the lobby, then Start in my chat, or the game "
        "can't begin.",
        ZH: "{names}：请点击房间消息下方的「{button}」，然后在私聊中按「开始」，否则游戏无法开始。",
    },
    "lobby_remind_left_out": {
        EN: "{names}: press “{button}” under the lobby, then Start in my chat, or the game "
        "starts without you.",
        ZH: "{names}：请点击房间消息下方的「{button}」，然后在私聊中按「开始」，否则游戏将不等你开始。",
    },
    "lobby_remind_away_blocked": {
        EN: "{names}: press “{button}” under the lobby, then Restart in my chat to unblock me, "
        "or the game can't begin.",
        ZH: "{names}：请点击房间消息下方的「{button}」，然后在私聊中按「重新开始」（Restart）"
        "解除屏蔽，否则游戏无法开始。",
    },
    "lobby_remind_left_out_blocked": {
        EN: "{names}: press “{button}” under the lobby, then Restart in my chat to unblock me, "
        "or the game starts without you.",
        ZH: "{names}：请点击房间消息下方的「{button}」，然后在私聊中按「重新开始」（Restart）"
        "解除屏蔽，否则游戏将不等你开始。",
    },
    "left_out": {
        EN: "🚪 The game starts without {names}: I can't message them privately, so no card "
        "could reach them.",
        ZH: "🚪 游戏开始，{names} 未被发牌：我无法私聊他们，人物牌发不过去。",
    },
    "host_now": {EN: "👑 {name} is the host now.", ZH: "👑 现在由 {name} 担任发起人。"},
    "host_passed": {
        EN: "👑 {old} left: {new} is the host now.",
        ZH: "👑 {old} 已退出，现在由 {new} 担任发起人。",
    },
    "lobby_closed_few": {
        EN: "This lobby closed: {n} of the {min} players needed joined. /newgame opens a new one.",
        ZH: "房间已关闭：需要 {min} 人，只有 {n} 人加入。发送 /newgame 重新开局。",
    },
    "lobby_closed_away": {
        EN: "This lobby closed: I still can't message {names} privately. /newgame opens a new "
        "one.",
        ZH: "房间已关闭：我仍无法私聊 {names}。发送 /newgame 重新开局。",
    },
    "extended": {
        EN: "⏳ {name} gave the lobby {m} more min: it now ends at {time}.",
        ZH: "⏳ {name} 将房间延长了 {m} 分钟，现在将于 {time} 结束。",
    },
    "extend_max": {
        EN: "The lobby can't wait longer: a lobby stays open an hour at most.",
        ZH: "房间不能再延长了：一个房间最多开放一小时。",
    },
    "extend_none": {
        EN: "There is no lobby to extend. /newgame opens one.",
        ZH: "没有可以延长的房间。发送 /newgame 开局。",
    },
    "extend_who": {
        EN: "Only players in the lobby or a group admin may extend it.",
        ZH: "只有房间里的玩家或群管理员可以延长。",
    },
    "status_unreachable": {
        EN: "⚠️ Not reachable privately yet: {names}",
        ZH: "⚠️ 尚无法私聊：{names}",
    },
    "set_lobby_minutes": {EN: "Lobby countdown: {v} min", ZH: "房间倒计时：{v} 分钟"},
    "head_lobby_minutes": {EN: "⏳ Lobby countdown", ZH: "⏳ 房间倒计时"},
    "choice_minutes": {EN: "{v} min", ZH: "{v}分钟"},
    "clock_utc": {EN: "{h}:{m} UTC", ZH: "UTC {h}时{m}分"},
    "set_auto_start": {
        EN: "Auto-start when the countdown ends: {v}",
        ZH: "倒计时结束自动开始：{v}",
    },
}

# The end of a game (who won, how long it took), a cancelled game, and Play again.
TEXTS.update(
    {
        "end_winners": {EN: "🏆 Winners: {names}", ZH: "🏆 获胜者：{names}"},
        "winners_none": {EN: "no player at the table", ZH: "无人"},
        "winner_observer": {EN: "{name} (Observer)", ZH: "{name}（观察员）"},
        "winner_spy": {EN: "{name} (Spy)", ZH: "{name}（密探）"},
        "name_sep": {EN: ", ", ZH: "、"},
        "end_length": {
            EN: "⏱ {length}, turns: {turns}",
            ZH: "⏱ 用时 {length}，共 {turns} 回合",
        },
        "duration_m_s": {EN: "{m} min {s} s", ZH: "{m} 分 {s} 秒"},
        "duration_s": {EN: "{s} s", ZH: "{s} 秒"},
        "again_open": {EN: "A new game is already open.", ZH: "新的一局已经开了。"},
        "cancelled_lobby": {
            EN: "{text} /newgame opens a new one.",
            ZH: "{text}发送 /newgame 重新开局。",
        },
    }
)

TEXTS.update(
    {
        # records, /history and /nextgame
        "btn_record": {EN: "📄 Record", ZH: "📄 对局记录"},
        "btn_record_n": {EN: "📄 {n}", ZH: "📄 {n}"},
        "btn_next_game": {EN: "🔔 Next game", ZH: "🔔 下局提醒"},
        "btn_stop_waiting": {EN: "✖️ Cancel", ZH: "✖️ 取消提醒"},
        "record_caption": {
            EN: "📄 The game in {group} dealt {date}, move by move, as a file for programs "
            "that read game records.",
            ZH: "📄 「{group}」{date} 开局的对局，逐步记录，供读取对局记录的程序使用的文件。",
        },
        "record_title": {
            EN: "📄 <b>The game in {group} dealt {date}</b>",
            ZH: "📄 <b>「{group}」{date} 开局的对局</b>",
        },
        "record_cancelled": {
            EN: "🛑 The game was cancelled before its end.",
            ZH: "🛑 这局游戏在结束前被取消了。",
        },
        "record_sent": {
            EN: "📄 The record is in your private chat with me.",
            ZH: "📄 对局记录已私聊发给你。",
        },
        "record_gone": {
            EN: "That game's record is no longer kept.",
            ZH: "这局的对局记录已不再保存。",
        },
        "open_chat_first": {
            EN: "Open my private chat and press Start first; then I can send it to you.",
            ZH: "请先打开与我的私聊并点击「开始」，我才能发给你。",
        },
        "not_in_group": {
            EN: "That is for the members of the group.",
            ZH: "这只对该群的成员开放。",
        },
        "history_title": {EN: "📜 The last games here:", ZH: "📜 本群最近的对局："},
        "history_line": {
            EN: "{n}. {date} — {names} — {result}",
            ZH: "{n}. {date} — {names} — {result}",
        },
        "history_won": {EN: "{colour} won", ZH: "{colour}获胜"},
        "history_cancelled": {EN: "cancelled", ZH: "已取消"},
        "history_none": {
            EN: "No finished games here yet.",
            ZH: "本群还没有打完的对局。",
        },
        "history_hint": {
            EN: "Press a number to get that game's record privately.",
            ZH: "点击编号，对局记录会私聊发给你。",
        },
        "next_waiting": {
            EN: "🔔 I'll tell you here once, when the next game opens in {group}.",
            ZH: "🔔 「{group}」开下一局时，我会在这里通知你一次。",
        },
        "next_stopped": {
            EN: "🔕 You won't be told when the next game opens in {group}.",
            ZH: "🔕 「{group}」开下一局时不再通知你。",
        },
        "next_on": {
            EN: "🔔 You'll be told privately when the next game opens here.",
            ZH: "🔔 本群开下一局时会私聊通知你。",
        },
        "next_already": {
            EN: "🔔 You are on the list already: you'll be told privately when the next game "
            "opens here. To cancel, press ✖️ Cancel in my private message.",
            ZH: "🔔 你已在提醒名单上：本群开下一局时会私聊通知你。如需取消，请点击私聊消息中的"
            "「✖️ 取消提醒」。",
        },
        "next_off": {
            EN: "🔕 You won't be told about the next game here.",
            ZH: "🔕 已取消本群的下局提醒。",
        },
        "next_full": {
            EN: "The list for the next game is full.",
            ZH: "下局提醒的名单已满。",
        },
        "next_open_chat": {
            EN: "{name}, press the button and then Start: I'll tell you privately when the "
            "next game opens here.",
            ZH: "{name}，请点击按钮后按「开始」，本群开下一局时我会私聊通知你。",
        },
        "next_opened": {
            EN: "🎯 A new game is open in {group}. Press Join to take a seat.",
            ZH: "🎯 「{group}」开了新的一局，点击「加入」入座。",
        },
    }
)


# absent players
TEXTS.update(
    {
        "away_marked": {
            EN: "⏸ {name} missed two turns: their turns are skipped until they act again.",
            ZH: "⏸ {name} 连续两次超时，已标为暂离；回来之前，其回合都会直接跳过。",
        },
        "away_private": {
            EN: "⏸ You missed two turns in a row in {group}, so your turns are skipped now. "
            "Press I'm back (or send /mycard) to play again from your next turn.",
            ZH: "⏸ 你在「{group}」连续两次超时，现在轮到你时会直接跳过。"
            "点击「我回来了」（或发送 /mycard），从你的下一个回合起重新参与。",
        },
        "btn_back_in": {EN: "👋 I'm back", ZH: "👋 我回来了"},
        "back_private": {
            EN: "👋 Welcome back: your next turn in {group} waits for you.",
            ZH: "👋 欢迎回来：「{group}」中你的下一个回合会等你行动。",
        },
        "away_returned": {
            EN: "👋 {name} is back and plays again.",
            ZH: "👋 {name} 回来了，重新参与游戏。",
        },
        "passed_away_line": {
            EN: "⏭ {name} is away; the turn passes.",
            ZH: "⏭ {name} 暂离，跳过回合。",
        },
        "passed_removed_line": {
            EN: "⏭ {name} was removed; the turn passes.",
            ZH: "⏭ {name} 已被移出，跳过回合。",
        },
        "away_tag": {EN: " (away)", ZH: "（暂离）"},
        "removed_tag": {EN: " (removed)", ZH: "（已移出）"},
        "left_tag": {EN: " (left)", ZH: "（已退出）"},
        "passed_left_line": {
            EN: "⏭ {name} left the game; the turn passes.",
            ZH: "⏭ {name} 已退出游戏，跳过回合。",
        },
        "remove_pick": {
            EN: "🚪 Remove whom from the game? (host or admin) The seat stays: its turns pass "
            "at once, and its card is shown at the end with everyone's.",
            ZH: "🚪 将谁移出游戏？（发起人或管理员）其座位保留：轮到时直接跳过，人物牌在结算时与"
            "所有人一起公开。",
        },
        "remove_pick_lobby": {
            EN: "🚪 Remove whom from the lobby? (host or admin)",
            ZH: "🚪 将谁移出房间？（发起人或管理员）",
        },
        "btn_remove_none": {EN: "✖️ Nobody", ZH: "✖️ 不移出"},
        "remove_closed": {EN: "Nobody was removed.", ZH: "没有人被移出。"},
        "remove_none": {
            EN: "There is no lobby or game here to remove anyone from.",
            ZH: "这里没有可以移出玩家的房间或游戏。",
        },
        "removed_seat": {
            EN: "🚪 {by} removed {name} from the game. The seat's turns pass at once; its card "
            "is shown at the end.",
            ZH: "🚪 {by} 将 {name} 移出了游戏。轮到该座位时直接跳过，其人物牌在结算时公开。",
        },
        "removed_lobby": {
            EN: "🚪 {by} removed {name} from the lobby.",
            ZH: "🚪 {by} 将 {name} 移出了房间。",
        },
        "removed_private": {
            EN: "🚪 {by} removed you from the game in {group}. Your seat plays on without you; "
            "every card is shown at the end.",
            ZH: "🚪 {by} 将你移出了「{group}」的游戏。轮到你的座位时会直接跳过；所有人物牌在结算时公开。",
        },
        "removed_private_lobby": {
            EN: "🚪 {by} removed you from the lobby in {group}.",
            ZH: "🚪 {by} 将你移出了「{group}」的房间。",
        },
        "removed_self_seat": {
            EN: "🚪 {name} removed themselves from the game. The seat's turns pass at once; its "
            "card is shown at the end.",
            ZH: "🚪 {name} 将自己移出了游戏。轮到该座位时直接跳过，其人物牌在结算时公开。",
        },
        "removed_self_private": {
            EN: "🚪 You removed yourself from the game in {group}. Your seat plays on without "
            "you; every card is shown at the end.",
            ZH: "🚪 你将自己移出了「{group}」的游戏。轮到你的座位时会直接跳过；所有人物牌在结算时公开。",
        },
        "removed_self_lobby": {EN: "🚪 {name} left the lobby.", ZH: "🚪 {name} 退出了房间。"},
        "removed_self_private_lobby": {
            EN: "🚪 You left the lobby in {group}.",
            ZH: "🚪 你已退出「{group}」的房间。",
        },
        "already_removed": {
            EN: "That player is no longer in the game.",
            ZH: "该玩家已不在游戏中。",
        },
        "you_were_removed": {
            EN: "You were removed from this game.",
            ZH: "你已被移出这局游戏。",
        },
        "you_left": {
            EN: "You left this game.",
            ZH: "你已退出这局游戏。",
        },
        "cancelled_empty": {
            EN: "🛑 Nobody is left to play, so the game was cancelled.",
            ZH: "🛑 已没有可以行动的玩家，游戏已取消。",
        },
    }
)


# A private prompt closed when its wait ends, saying what happened.
TEXTS.update(
    {
        "closed_scout": {EN: "🔍 You scouted {target}.", ZH: "🔍 你查看了 {target} 的人物牌。"},
        "closed_decapitate": {
            EN: "🗡 You decapitated {target}{decl}.",
            ZH: "🗡 你斩首了 {target}{decl}。",
        },
        "closed_swap": {EN: "🔄 You swapped with {scout}.", ZH: "🔄 你与 {scout} 交换了人物牌。"},
        "closed_keep": {EN: "You kept your card.", ZH: "你没有交换，保留了你的人物牌。"},
        "closed_end_turn": {EN: "✅ You ended your turn.", ZH: "✅ 你结束了回合。"},
        "closed_predict": {
            EN: "👁 You revealed your card and predicted: {colour} wins.",
            ZH: "👁 你翻开了人物牌，宣告{colour}会赢得游戏。",
        },
        "closed_timeout_turn": {EN: "⌛ Time ran out: turn skipped.", ZH: "⌛ 超时：跳过回合。"},
        "closed_timeout_speak": {EN: "⌛ Speaking time is over.", ZH: "⌛ 发言时间结束。"},
        "closed_timeout_turncoat": {
            EN: "⌛ Time ran out: you kept your card.",
            ZH: "⌛ 超时：你没有交换，保留了你的人物牌。",
        },
        "closed_timeout_spy": {
            EN: "⌛ Time ran out: no guess was sealed.",
            ZH: "⌛ 超时：你没有猜测。",
        },
        "closed_cancelled": {EN: "🛑 The game was cancelled.", ZH: "🛑 游戏已取消。"},
        "closed_over": {EN: "🏁 The game is over.", ZH: "🏁 游戏已结束。"},
        "closed_removed": {
            EN: "🚪 You were removed from the game.",
            ZH: "🚪 你已被移出本局游戏。",
        },
        "closed_left": {EN: "🚪 You left the game.", ZH: "🚪 你已退出本局游戏。"},
    }
)


# /leave: a seated player leaves a running game themselves, after a confirmation.
TEXTS.update(
    {
        "leave_ask": {
            EN: "🚪 Leave the game in {group}? Your seat plays on as a virtual seat: its turns "
            "pass at once, its card is shown at the end, and you cannot come back to this game.",
            ZH: "🚪 确定退出「{group}」的游戏吗？你的座位将作为虚拟玩家继续：轮到时直接跳过，"
            "人物牌在结算时公开；本局你无法再回来。",
        },
        "btn_leave_game": {EN: "🚪 Leave", ZH: "🚪 退出"},
        "btn_stay": {EN: "Stay", ZH: "留下"},
        "left_seat": {
            EN: "🚪 {name} left the game; seat {seat} plays on as a virtual seat.",
            ZH: "🚪 {name} 退出了游戏；{seat}号位作为虚拟玩家继续。",
        },
        "left_private": {
            EN: "🚪 You left the game in {group}. Your seat plays on as a virtual seat; every "
            "card is shown at the end.",
            ZH: "🚪 你退出了「{group}」的游戏。你的座位作为虚拟玩家继续；所有人物牌在结算时公开。",
        },
        "leave_stayed": {EN: "You stay in the game.", ZH: "你留在游戏中。"},
        "leave_expired": {
            EN: "⌛ This question has expired: the game moved on. Send /leave again to leave.",
            ZH: "⌛ 此确认已失效：局势已变化。如仍要退出，请再次发送 /leave。",
        },
        "leave_not_yours": {
            EN: "Only the player who sent /leave can answer this.",
            ZH: "只有发送 /leave 的玩家可以回答。",
        },
        "leave_lobby": {
            EN: "The game has not begun: press Leave on the lobby message to leave it.",
            ZH: "游戏还没开始：要退出，请点击房间消息上的「退出」。",
        },
        "leave_none": {
            EN: "You hold no seat in a game in play here.",
            ZH: "你在这里没有进行中的游戏座位。",
        },
    }
)


# Acting from the group's turn message: what someone else pressing its buttons is told.
TEXTS.update(
    {
        "turn_of": {EN: "It is {name}'s turn (seat {seat}).", ZH: "现在轮到{seat}号位 {name}。"},
    }
)


# statistics: /stats in a group (its finished games, its leaderboard) and in a private chat
TEXTS.update(
    {
        "stats_title": {EN: "📊 <b>Statistics of {group}</b>", ZH: "📊 <b>「{group}」的战绩</b>"},
        "stats_none": {
            EN: "📊 No game has been finished in this group yet.",
            ZH: "📊 本群还没有打完的对局。",
        },
        "stats_games": {EN: "Games finished: {n}", ZH: "已完成：{n} 局"},
        "stats_wins": {
            EN: "Won by Red: {red}, by Blue: {blue}",
            ZH: "获胜：红方 {red} 局，蓝方 {blue} 局",
        },
        "stats_decapitations": {
            EN: "Decapitations tried: {tried}, worked: {worked}",
            ZH: "斩首：{tried} 次，成功 {worked} 次",
        },
        "stats_average": {
            EN: "Average game: {length}, turns: {turns}",
            ZH: "平均每局：{length}，{turns} 回合",
        },
        "stats_roles": {EN: "By role: {roles}", ZH: "按角色：{roles}"},
        "stats_role": {
            EN: "{role} won {won} of {played}",
            ZH: "{role} {played} 局胜 {won} 局",
        },
        "role_captain": {EN: "captain", ZH: "队长"},
        "role_observer": {EN: "Observer", ZH: "观察员"},
        "role_spy": {EN: "Spy", ZH: "密探"},
        "role_turncoat": {EN: "Turncoat", ZH: "变节者"},
        "stats_leaders": {EN: "🏅 Leaderboard:", ZH: "🏅 排行榜："},
        "stats_leader": {
            EN: "{rank}. {name} — won {wins} of {games} ({rate}%), decapitations worked: {worked}",
            ZH: "{rank}. {name} — {games} 局胜 {wins} 局（{rate}%），斩首成功 {worked} 次",
        },
        "stats_more": {EN: "… and {n} more", ZH: "……另有 {n} 人"},
        "stats_own_title": {EN: "📊 <b>Your statistics</b>", ZH: "📊 <b>你的战绩</b>"},
        "stats_own_none": {
            EN: "📊 You have not finished a game yet.",
            ZH: "📊 你还没有打完过一局。",
        },
        "stats_own_games": {
            EN: "Games finished: {n}, in groups: {groups}",
            ZH: "已完成：{n} 局（{groups} 个群）",
        },
        "stats_own_wins": {EN: "Won: {wins} ({rate}%)", ZH: "获胜：{wins} 局（{rate}%）"},
        "stats_own_colours": {
            EN: "As Red: won {rw} of {rp}; as Blue: won {bw} of {bp}",
            ZH: "红方：{rp} 局胜 {rw} 局；蓝方：{bp} 局胜 {bw} 局",
        },
        "stats_own_decapitations": {
            EN: "Your decapitations tried: {tried}, worked: {worked}",
            ZH: "你的斩首：{tried} 次，成功 {worked} 次",
        },
    }
)


# a whole evening: commands that come after their moment
TEXTS.update(
    {
        "extend_started": {
            EN: "The game has already begun: there is no lobby to extend.",
            ZH: "游戏已经开始，没有可以延长的房间。",
        },
    }
)


# the table view: its buttons, and the words of a finished game's replay
TEXTS.update(
    {
        "btn_table": {EN: "🗺 Table", ZH: "🗺 牌桌"},
        "btn_replay": {EN: "▶ Replay", ZH: "▶ 回放"},
        "btn_replay_n": {EN: "▶ {n}", ZH: "▶ {n}"},
        "replay_decapitate": {
            EN: "🗡 {name} decapitates {target}{decl}.",
            ZH: "🗡 {name} 对 {target} 发起斩首{decl}。",
        },
        "replay_kept": {EN: "🤐 {name} keeps their card.", ZH: "🤐 {name} 没有交换。"},
        "replay_spy_guess": {
            EN: "🕵 {name} guesses: Red captain {red}, Blue captain {blue}.",
            ZH: "🕵 {name} 猜测：红方队长 {red}，蓝方队长 {blue}。",
        },
        "replay_spy_silent": {EN: "🕵 {name} did not guess.", ZH: "🕵 {name} 没有猜测。"},
        "replay_removed": {
            EN: "🚪 {name} was removed from the game; the seat plays on as a virtual one.",
            ZH: "🚪 {name} 被移出了游戏，该座位此后按虚拟玩家处理。",
        },
        "replay_left": {
            EN: "🚪 {name} left the game; the seat plays on as a virtual one.",
            ZH: "🚪 {name} 退出了游戏，该座位此后按虚拟玩家处理。",
        },
        "game_unreadable": {
            EN: "⚠️ This group's game could not be read, so it was closed. "
            "Start a new one with /newgame.",
            ZH: "⚠️ 本群的游戏无法读取，已被关闭。发送 /newgame 开始新的一局。",
        },
    }
)


def t(lang: str, key: str, **kw: object) -> str:
    """The text `key` in `lang` (English when missing), formatted with `kw`."""
    entry = TEXTS[key]
    return entry.get(lang, entry[EN]).format(**kw)


# the seats the bot plays itself
TEXTS.update(
    {
        "head_bot_seats": {EN: "🤖 Bot seats", ZH: "🤖 机器人号位"},
        "set_bot_strong": {EN: "🤖 Bot seats play strong: {v}", ZH: "🤖 机器人高手模式：{v}"},
        "bot_level_learning": {EN: "learning", ZH: "新手"},
        "bot_level_strong": {EN: "strong", ZH: "高手"},
        "variant_bot_seats": {EN: "bot seats ×{n} ({level})", ZH: "机器人号位×{n}（{level}）"},
        "lobby_need_bots": {
            EN: "With {bots} bot seats, needs {min} to {max} players to start.",
            ZH: "加上 {bots} 个机器人号位，需要 {min} 到 {max} 名玩家才能开始。",
        },
        "need_players_bots": {
            EN: "With {bots} bot seats, Start needs at least {least} players and 4 to 12 seats "
            "in all (now {n} players).",
            ZH: "有 {bots} 个机器人号位时，需要至少 {least} 名玩家，且共 4 到 12 个号位（现在 {n} 人）。",
        },
        "bot_seat_stays": {
            EN: "🤖 A bot seat plays to the end: it cannot be removed.",
            ZH: "🤖 机器人号位会一直玩到结束，不能移除。",
        },
        "claim_seat": {EN: '{name}: "{seat} is {card}."', ZH: "{name}：“{seat}号位是{card}。”"},
        "claim_self": {EN: '{name}: "I am {card}."', ZH: "{name}：“我是{card}。”"},
        "reveal_bots": {EN: "🤖 <b>The bot seats</b>:", ZH: "🤖 <b>机器人号位</b>："},
        "reveal_bot": {EN: "{name} knew {known}; {did}.", ZH: "{name}知道{known}；{did}。"},
        "bot_knew_none": {EN: "only its own card", ZH: "只有自己的人物牌"},
        "bot_knew": {EN: "seat {seat} was {card}", ZH: "{seat}号位是{card}"},
        "bot_did_scout": {
            EN: "last it scouted seat {target}, a seat it could not tell",
            ZH: "最后查看了它还不知道的{target}号位",
        },
        "bot_did_decapitate": {
            EN: "it decapitated seat {target}, {pct}% sure that was the enemy captain",
            ZH: "它斩首了{target}号位，有{pct}%的把握那是敌方队长",
        },
        "bot_did_whim": {
            EN: "it decapitated seat {target} on a whim",
            ZH: "它一时兴起斩首了{target}号位",
        },
        "bot_did_end_turn": {
            EN: "last it ended its speaking moment",
            ZH: "最后结束了自己的发言",
        },
        "bot_did_swap": {EN: "as the Turncoat it swapped", ZH: "作为变节者它交换了人物牌"},
        "bot_did_keep": {EN: "as the Turncoat it kept its card", ZH: "作为变节者它保留了人物牌"},
        "bot_did_spy_guess": {
            EN: "as the Spy it named seats {red} and {blue} the captains",
            ZH: "作为密探它猜{red}号位和{blue}号位是队长",
        },
        "bot_did_other": {EN: "it made no move of note", ZH: "它没有特别的举动"},
    }
)

# The rematch Play again opens: I'm in, its countdown, and how it dealt or closed.
TEXTS.update(
    {
        "btn_im_in": {EN: "✋ I'm in", ZH: "✋ 我来"},
        "rematch_in": {EN: "🔁 In for the next game: {names}", ZH: "🔁 下一局已加入：{names}"},
        "rematch_waiting": {EN: "Waiting for: {names}", ZH: "等待：{names}"},
        "rematch_nobody": {EN: "nobody yet", ZH: "暂无"},
        "rematch_countdown": {
            EN: "⏳ Deals itself at {time} with those in, if they make {min} seats or more; "
            "at once when everyone who played is in. /extend waits {m} min more.",
            ZH: "⏳ 将于 {time} 为已加入者自动发牌（至少 {min} 个座位）；上一局的玩家全部加入"
            "则立即发牌。发送 /extend 可延长 {m} 分钟。",
        },
        "rematch_all_in": {
            EN: "✅ Everyone who played is in: dealing now.",
            ZH: "✅ 上一局的玩家已全部加入：立即发牌。",
        },
        "rematch_dealt": {
            EN: "🔁 The next game dealt itself: {names}.",
            ZH: "🔁 下一局已自动发牌：{names}。",
        },
        "rematch_dealt_left": {
            EN: "Not dealt (no I'm in): {names}.",
            ZH: "未发牌（未点击「我来」）：{names}。",
        },
        "rematch_closed_few": {
            EN: "🔁 Not enough players for the next game ({n} of the {min} seats needed were "
            "in): the lobby closed. /newgame opens a new one.",
            ZH: "🔁 人数不足，下一局未开始（需要 {min} 个座位，只有 {n} 个已加入）：房间已关闭。"
            "发送 /newgame 重新开局。",
        },
        "rematch_you_are_in": {EN: "You're in.", ZH: "你已加入。"},
        "rematch_already_in": {EN: "You're in already.", ZH: "你已经加入了。"},
        "floor_open": {
            EN: "🗣 The floor is open: say what you like, nothing is deleted now.",
            ZH: "🗣 现在可以自由发言，消息不再被删除。",
        },
        "aftermath_title": {EN: "🔎 Who knew what:", ZH: "🔎 谁知道什么："},
        "am_scouted": {
            EN: "turn {turn}: seat {seat} {card}",
            ZH: "第{turn}回合：{seat}号位{card}",
        },
        "am_bodyguard": {EN: " (bodyguard)", ZH: "（保镖）"},
        "am_swapped": {
            EN: "turn {turn}: swapped the X with seat {seat}, given {card}",
            ZH: "第{turn}回合：变节，与{seat}号位交换，得到{card}",
        },
        "am_took_x": {
            EN: "turn {turn}: handed seat {seat}'s X",
            ZH: "第{turn}回合：被{seat}号位的变节者换走人物牌",
        },
        "am_kept": {
            EN: "turn {turn}: kept the X seat {seat} saw",
            ZH: "第{turn}回合：未变节，{seat}号位看到了X",
        },
        "am_predicted": {
            EN: "turn {turn}: foretold {colour} as the Observer",
            ZH: "第{turn}回合：作为观察员预言{colour}获胜",
        },
        "am_guessed": {
            EN: "turn {turn}: as the Spy, named seats {red} and {blue} captains",
            ZH: "第{turn}回合：作为密探，猜{red}号位和{blue}号位为队长",
        },
        "am_nothing": {EN: "scouted nobody", ZH: "未侦查"},
        "am_knowable": {
            EN: "Pooling every scout, the table could have named both captains after turn {turn}.",
            ZH: "汇总所有侦查，全桌在第{turn}回合后即可确定两位队长。",
        },
        "am_never": {
            EN: "Pooling every scout, the table could never have named both captains.",
            ZH: "汇总所有侦查，全桌始终无法确定两位队长。",
        },
        "rematch_join": {
            EN: "Press Join to play: I'm in is for those who played.",
            ZH: "请点击「加入」参加：「我来」是给上一局玩家的。",
        },
    }
)


def card_name(lang: str, card: str) -> str:
    """A card's name as the players say it: 红4 / Red 4, 观察员 / Observer."""
    names = CARD_NAMES.get(lang, CARD_NAMES[EN])
    if card in names:
        return names[card]
    return names[card[0]].format(n=card[1:])


def duration(lang: str, seconds: int) -> str:
    """A length of time as read: "24 s" under a minute, "3 min 5 s" from one."""
    m, s = divmod(seconds, 60)
    return t(lang, "duration_m_s", m=m, s=s) if m else t(lang, "duration_s", s=s)


def colour_name(lang: str, colour: str) -> str:
    """Red / Blue, or 红方 / 蓝方."""
    return COLOR_NAMES.get(lang, COLOR_NAMES[EN])[colour]


def language_for(code: str | None) -> str:
    """The bot's language for a Telegram language_code: Chinese for zh*, else English."""
    return ZH if (code or "").lower().startswith("zh") else EN


# a practice game: one person against bot seats, in the bot's private chat
TEXTS.update(
    {
        "practice_title": {EN: "Practice", ZH: "练习局"},
        "practice_lobby": {
            EN: "🎓 Practice: you against bot seats, here in our chat. Pick how many, their "
            "level and the variants in Settings, then press Start.",
            ZH: "🎓 练习局：你和机器人号位在这个私聊里对局。在「设置」中选择机器人号位的数量、"
            "水平和可选规则，然后点击「开始」。",
        },
        "practice_ready": {
            EN: "Ready: press Start when you are.",
            ZH: "已就绪：准备好后点击「开始」。",
        },
        "practice_countdown": {
            EN: "⏳ Waits for your Start until {time}.",
            ZH: "⏳ 等你点击「开始」，直到 {time}。",
        },
        "practice_settings_title": {
            EN: "⚙️ <b>Settings</b> (kept for your next practice)",
            ZH: "⚙️ <b>设置</b>（下次练习局沿用）",
        },
        "practice_expired": {
            EN: "This practice closed without a game. /practice opens a new one.",
            ZH: "这个练习局已关闭。发送 /practice 重新开一局。",
        },
        "practice_cancelled_lobby": {
            EN: "{text} /practice opens a new one.",
            ZH: "{text}发送 /practice 重新开一局。",
        },
        "practice_speak_line": {EN: "🗣 {name} may speak now.", ZH: "🗣 {name} 现在可以发言。"},
        "practice_speak": {
            EN: "Say what you like here (the bot seats do not read it), then press Done.",
            ZH: "现在可以在这里发言（机器人号位不会读取），然后点击「结束」。",
        },
        "practice_speak_group": {
            EN: "Say what you like here (the bot seats do not read it), then press Done on the "
            "turn message.",
            ZH: "现在可以在这里发言（机器人号位不会读取），然后点击回合消息上的「结束」。",
        },
        "practice_alone": {
            EN: "A practice game is played alone against bot seats: /practice in my chat opens "
            "your own.",
            ZH: "练习局只能一个人和机器人号位对局：在私聊中发送 /practice 开你自己的练习局。",
        },
        "practice_running": {
            EN: "Your practice game is still on: here it is. /cancel ends it.",
            ZH: "你的练习局还在进行：就是这一局。发送 /cancel 可以结束它。",
        },
        "practice_in_private": {
            EN: 'Practice games are played alone against bot seats, in my private chat: <a href="{url}">start one there</a>.',
            ZH: '练习局是一个人和机器人号位对局，在私聊中进行：<a href="{url}">点这里开始</a>。',
        },
    }
)
# A group's wording and the practice's in its place (one chat, nobody else to talk to).
PRACTICE_WORDING = {
    "lobby_ready": "practice_ready",
    "lobby_countdown_close": "practice_countdown",
    "settings_title": "practice_settings_title",
    "lobby_expired": "practice_expired",
    "cancelled_lobby": "practice_cancelled_lobby",
    "speak_line": "practice_speak_line",
    "prompt_speak": "practice_speak",
    "prompt_speak_group": "practice_speak_group",
}
