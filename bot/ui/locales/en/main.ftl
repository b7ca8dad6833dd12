# English.

## buttons
join = 🎲 Take a seat
open-table-app = 📱 Open the table
leave = Leave
start = ▶ Start
settings = ⚙ Settings
cancel = ✖ Cancel
done = ✔ Done
back = ↩ Back
close = ✖ Close
end-left = ⬅ { $value }
end-right = { $value } ➡
end-yes = Yes, end it
end-no = No, play on
add-computer = 🤖 +{ $level }
add-to-group = ➕ Add to a group
open-bot = Open the bot
to-game = → to the game
draw = 🎒 Draw from the bazaar
pass = Pass
double-pair = Two doubles: { $tiles }
page-prev = ◀ Back
page-next = Next ▶

## short answers
not-your-turn = It is not your turn.
stale = This button is out of date: the move has been made.
not-a-player = You are not playing in this game.
no-such-game = This game is over.
not-creator = Only the player who created the game can do this.
not-creator-or-admin = Only the game's creator or a chat admin can do this.
admins-only = Only a chat admin can do this.
lobby-full = There are no free seats at the table.
not-seated = You are not at this table.
groups-only = This command works in a group: add me to a chat and send /newgame there.
unknown-button = This button does nothing.
game-started = The game has already started.
game-started-seated = The game has started and you are at the table: your tiles are in this chat.
pick-end = Which end?
need-a-human = At least one person must sit at the table.
computers-off = Computer players are switched off in this chat's settings.
does-not-fit = This tile does not fit now.
already-running = There is a game here already — here it is.
joined = You are at the table! Your tiles will come here when the game starts.
joined-table = Table: { $link }
left-table = You left the table.
dealing = Dealing!
cancelled = The game was cancelled.
removed-from-group = The game was cancelled: the bot was removed from the group.
endgame-ask = End the game? It will not count for the chat's rating.
endgame-keep = Playing on.
endgame-over = This game is already over.
ended-by = { $name } ended the game. It does not count for the chat's rating.
no-open-game = There is no game here now. Start one with /newgame.
no-games-yet = No game has been finished in this chat yet.
no-rating-yet = The rating counts games without computers: play the first such game (/newgame).
no-rating-anywhere = You have not played a rated game yet: the rating counts games without computers.
something-wrong = Something went wrong, please try again.
game-started-players = The game has started! Playing: { $names }.
game-over-private = The game is over. Thanks for playing!
game-over-you = The game is over — { $game }: you are number { $place } of { $total } with { $score } { $score ->
        [one] point
       *[other] points
    }{ $goat }. Thanks for playing!
game-over-you-goat = { " " }— the goat 🐐
game-over-you-generals = The game is over — { $game }: your team is number { $place } of { $total } with { $generals } Generals. Thanks for playing!
cannot-start = Cannot start yet. { $reason }
waiting-for = First open a private chat with the bot (the «Take a seat» button): { $names }
unreachable = { $name }, I cannot write to you in private. Open the chat: { $url }

## illegal moves
illegal-not_in_hand = You do not have this tile.
illegal-does_not_fit = This tile does not fit there.
illegal-must_lead = The first move is the double named in the message.
illegal-bad_end = The first tile opens the line.
illegal-must_play = You have a tile that fits — play it.
illegal-cannot_draw = You cannot draw from the bazaar any more.
illegal-no_pass = You cannot pass.
illegal-no_doubles = Those doubles do not go on those ends together.
illegal-cannot_close = Only a double, and not the first tile, can be played closed.
illegal-no_time_up = A General match's time only runs out between its rounds.
illegal-no_rest = Only the first round, before any move, can be reseated.
illegal-bad_rest = As many must sit out as there are extra people.
illegal-no_deal = Only a round nobody has moved in can be dealt again.
illegal-bad_deal = That deal is not for this game's tiles and seats.
illegal-not_your_turn = It is not your turn.
illegal-unknown_move = There is no such move.
illegal-round_over = The round is over.
illegal-not_round_over = The round is still on.
illegal-game_over = The game is over.
illegal-out = This player is out of the game already: their place stands.
illegal-left = This player has already left the game.

## rules and options
rule-error-players = These rules do not suit this number of players
rule-error-preset = I do not know the rule set «{ $value }»
rule-error-preset-near = { $text }. Did you mean «{ $name }»: /newgame { $preset }
rule-error-value = The option { $key }={ $value } does not fit
rule-error-key = I do not understand the option { $key }
rule-error-valid = { $text }. Possible: { $valid }
rule-error-end = { $text }.
rule-error-number = { $text }: a whole number is needed.
rule-error-not-played = { $game } is not played with { $key }={ $value }. Possible: { $valid }.
rule-error-not-its = { $game } has no option { $key }
rule-error-options = { $text }. The options of { $game }: { $options }.
option-target = to { $value }
option-fish-one = fish on one
option-fish-all = fish on all
option-max_pip-6 = double-6
option-max_pip-9 = double-9
option-max_pip-12 = double-12
option-teams-no = each for themselves
option-teams-yes = teams
option-auto_draw-yes = bazaar: auto
option-auto_draw-no = bazaar: by hand
preset-goat = Goat: 2–4 players to 101, remembered points, fish on one
preset-goat_teams = Goat 2×2: partners sit opposite and score together
preset-sea_goat = Sea Goat: the winner records 25 or more, to 125, bald goat
preset-classic = Classic draw: the player who goes out collects the others' pips, to 100
preset-room = Game room: 2–10 players, double-9 or 12, your own pips count, out at 100, the last one in wins
preset-donkey = Donkey: Goat on a spinner — the first double opens four ends, up to four doubles at once, doubles may be closed
preset-telephone = Telephone: the first double is the house with four ends; ends making a multiple of 5 score sum/5, to 72, highest wins
preset-muggins = Muggins (All Fives): ends making a multiple of 5 score the sum, the first double is a spinner, to 200 (250 for two), highest wins
preset-general = General: two teams of two, a queue of teams, 1-1 goes first, a fish is replayed, out on 0-0 or 6-6 is a General; a match against the clock
preset-bykovo = Bykovo tournament ("vprisyadku"): 4–7 people, four play each round (0-0 leads, no bazaar, passing allowed), hands add up, the limit (100 for four … 50 for seven) puts you out, the last three place
rules-for-chat = Rules for /newgame: { $rules }
rules-for-lobby = Rules: { $rules }
rules-for-game = Rules: { $rules }
rules-seats = Players: { $players }, { $hand } tiles each.
rules-won = How to win: { $won }
games-title = Games (after /newgame, the name in brackets):
game-line = • { $name } ({ $preset }): { $won }
game-won = { $name }: { $won }
won-goat = whoever reaches { $goal } or more is the goat; fewer points are better
won-sea_goat = the first to reach { $goal } wins, the others are goats; a bald goat wins at once
won-classic = the first to reach { $goal } wins, the others are goats
won-room = reaching { $goal } puts you out; the last one in wins
won-telephone = the first to reach { $goal } wins at once; more is better, no goats
won-muggins = the first to reach { $goal } wins at once; more is better, no goats
won-bykovo = reaching the limit of { $goal } puts you out; the last three share the places, fewer points are better
won-general = a { $minutes }-minute match: the team with the most Generals wins, then the most rounds won
option-target-places = limit { $value }
option-target-out = limit { $value }

## computer players
computer-easy = novice
computer-normal = amateur
computer-hard = master
computer-name = 🤖 { $level } { $number }

## the lobby
lobby-title = 🁫 Gathering a table
lobby-rules = Rules: { $rules }
lobby-players = Players: { $names }
lobby-nobody = nobody yet
lobby-team = Team { $number }: { $names }
lobby-teams-need = Teams of { $size } by order of joining: start with { $counts } players.
lobby-picks = Picked: { $picks }
team-missing = There is no team { $team }: this table makes { $teams } teams.
team-full = Team { $team } already has { $size } players: pick another one.
no-teams = This table plays without teams.
team-button = 👥 { $number }
team-picked = You are in team { $number }.
team-unpicked = Your team follows the order of joining.
lobby-waiting = Open a private chat with the bot with the «Take a seat» button: { $names }
lobby-no-computers = Computer players are switched off in this chat (/settings).
lobby-press-join = Press «Take a seat» to play.
lobby-idle-hint = If nothing happens for { $minutes } minutes the table closes; /extend — wait longer.
lobby-idle = The table is closed: nothing happened for { $minutes } minutes. A new one: /newgame.
extended = The table will wait { $minutes } minutes longer.
no-open-lobby = Nobody is gathering a table here now. Start one: /newgame.
kick-who = Whom? Reply /kick to the player's message or send /kick and their name.
kick-not-seated = There is no such player at the table.
kick-yourself = To leave yourself, use /leave.
kicked = { $name } was removed from the table.
next-game-ping = A table is being gathered in «{ $chat }»: { $link }
next-game-ping-plain = A table is being gathered in «{ $chat }» — have a look at the group.

## the table and the hands
partners = { $first } & { $second }
event-played = { $name }: { $tile }
event-played-left = { $name }: { $tile } on the left
event-played-right = { $name }: { $tile } on the right
event-doubles = { $name }: { $count ->
    [2] two doubles
    [3] three doubles
   *[other] four doubles
 } { $tiles }
event-played-west = { $name }: { $tile } west
event-played-east = { $name }: { $tile } east
event-played-up = { $name }: { $tile } up
event-played-down = { $name }: { $tile } down
event-closed = { $tile } closed
event-scored = ends { $sum } → +{ $points }
event-drawn = { $name } draws from the bazaar: { $number }
event-knocked = { $name } knocks
event-passed = { $name }: pass
event-redeal = Redeal ×{ $number }: someone had too many doubles or one suit
caption-round = { $game } · round { $round } · bazaar: { $bazaar }
caption-round-no-bazaar = { $game } · round { $round }
caption-to-move = To move: { $name }
hand-title = Your tiles · round { $round }
hand-drawn = From the bazaar: { $tiles }
hand-wait = Wait for your turn — the table is in the group.
hand-lead = Your move! You lead with { $tile }.
hand-lead-any = Your move! You lead: any tile will do.
hand-turn = Your move! Ends: { $ends }.
hand-playable = ✅ — the tiles that fit.
hand-ends = { $first } and { $second }
timed-out = ⏰ { $name }: time is up, the computer moved.
away = { $name } is away: the computer moves for this player until they press any of their buttons.
turn-warning = ⏰ { $seconds } seconds left — then the computer moves for you.
welcome-back = Welcome back! You move yourself again.
left-game = You have left this game: the computer plays for you.
hand-out = You are out of this game: your score reached the limit. Watch the table in the group — the last one in wins.
hand-left = You have left this game. The computer plays your seat to the end; you are settled by the timeout rule: last, the goat, game points +0.
left-game-note = 🚪 { $name } left the table: the computer plays their seat to the end, settled by the timeout rule.
option-turn_timeout = ⏰ { $value } s
option-turn_timeout-0 = ⏰ untimed
option-minutes = ⏱ { $value } min
option-target-0-bykovo = limit by participants

## pictures
picture-round = Round { $round }
picture-eggs = Round { $round }: fish, eggs 🥚 { $carry }
picture-fish = Round { $round }: fish, blocked by { $name }
picture-out = Round { $round }: { $name } went out
picture-bazaar = bazaar
sheet-player = player
sheet-previous = before
sheet-round = round
sheet-total = total
sheet-fish = fish 🐟
sheet-goat = goat
sheet-eggs = the eggs go on to the next round
sheet-out = out

## the table app's page
app-your-turn = Your move!
app-watching = You are watching: the players' hands stay hidden until the round ends.
app-pick-end = Where does it go? Tap an end on the table.
app-sheet = Score
app-hands = Hands
app-empty-seat = free
app-lost = Connection lost — reconnecting…
app-replay-sent = 🎞 Making the replay of round { $round } — sending it to your private chat with the bot.
app-review-sent = 🔍 Looking at your moves — sending the review to your private chat with the bot.
app-review-again = 🔍 Your review is ready — sending it again to your private chat with the bot.
app-review-busy = 🔍 Your review is being made — it comes to your private chat with the bot when it is ready.
app-options = ⚙ Game rules

## round and game results
round-eggs = Round { $round }: fish, eggs! 🥚 { $carry } carried on.
round-fish = Round { $round }: fish 🐟, blocked by { $name }.
round-out = Round { $round }: { $name } went out.
round-hand = { $name }: { $tiles } = { $value }
round-hands-uncounted = Left in the hands (hands never count in this game):
round-hand-left = { $name }: { $tiles }
round-sheet-points = Score (before → round → after):
round-sheet-out = Score (before → round → after), limit { $goal } — reaching it puts you out:
round-sheet-race = Score (before → in play → round → after), playing to { $goal }:
round-line-race = { $name }: { $before } → { $play } → { $points } → { $after }
round-target = Round { $round }: { $name } reaches { $score } — game over!
round-line = { $name }: { $before } → { $points } → { $after }{ $marks }
round-side-out = 🚪 { $name } { $members ->
        [one] has
       *[other] have
    } { $score } and { $members ->
        [one] is
       *[other] are
    } out of the game.
game-over-last-in = The game is over: { $name } is the last one in and wins!
game-over-timeout = The game is over: { $name } left the table.
game-over-bald = The game is over: bald goat!
game-over-left = { $name } left the table during the game: by the timeout rule the goat, game points +0.
game-over-left-race = { $name } left the table during the game: last place.
game-over-race = Game over: { $name } — { $score }, the highest, wins!
game-place-race = { $place }. { $name } — { $score }
game-over = The game is over!
game-place = { $place }. { $name } — { $score }{ $mark }, game points +{ $points }
game-unrated-computers = 🤖 A game with a computer: not counted for the chat's rating.
game-place-goat = { " " }🐐 goat
score-after = Score after round { $round }:
score-part-generals = { $name }: Generals { $generals }, rounds won { $wins }

## ratings and stats
rating-title = Rating of «{ $chat }» — places { $first }–{ $last } of { $total }
rating-columns = rating · games · wins · goats · game points
rating-row = { $rank }. { $name } — { $rating }{ $provisional } · { $games } · { $wins } · { $goats } · { $points }
rating-you = You: { $rank }. { $name } — { $rating }{ $provisional } · { $games } · { $wins } · { $goats } · { $points }
rating-provisional-mark = *
rating-provisional-note = * — provisional rating: fewer than { $games } games.
rating-race-note = * In the races ({ $games }) the highest score wins: no goats and no game points there; the rating counts places.
rating-private-title = Your rating by chat:
rating-private-row = «{ $chat }»: { $rating }{ $provisional } · games: { $games } · game points: { $points }
stats-title = Stats: { $name }{ $where }
stats-where-chat = { " " }in «{ $chat }»
stats-none = { $name } has not finished a game yet{ $where }.
stats-body =
    Games: { $games }, wins: { $wins }, goats: { $goats }
    Fish: { $fish }, bald goats: { $bald }
    Best win streak: { $streak }
    Favourite rules: { $preset }
stats-no-value = —
stats-by-game = By game:
stats-line-points = • { $name }: games { $games }, wins { $wins }, points per round { $per_round } ({ $better ->
        [higher] more is better
       *[lower] fewer is better
    })
stats-line-race = • { $name }: games { $games }, wins { $wins }, points per round { $per_round } (more is better)
stats-line-out = • { $name }: games { $games }, wins { $wins }, points per round { $per_round } (fewer is better)
stats-line-places = • { $name }: tournaments { $games }, wins { $wins }, in the top three { $podiums }
stats-line-generals = • { $name }: matches { $games }, wins { $wins }, Generals { $generals }

## chat settings and languages
settings-title = ⚙ Settings of «{ $chat }»
settings-rules = Rules for /newgame: { $rules }
settings-dropped = Taken out of the rules: { $options } — { $game } is not played so.
settings-language = Group language: { $language }
settings-computers = Computer players: { $state }
settings-on = allowed
settings-off = not allowed
settings-hint = Choose what to change. Only admins can do this.
settings-saved = Saved.
settings-closed = ⚙ Settings closed.
settings-computers-button = 🤖 Computers: { $state }
language-name = English
language-pick = Choose the language of this chat:
language-set = I speak English now.
language-telegram = As in Telegram
next-game-saved = Fine! I will write to you in private when a table is gathered here.
next-game-already = You are on the list already: I will write when a table is gathered here.
next-game-open-bot = First open a private chat with me: { $url }

## help and commands
answered-privately = 💬 { $command } in “{ $chat }”: a game is on there and takes all the messages Telegram allows the group just now, so the answer is here.
help-private =
    I run games of dominoes «Goat» («Козёл») in group chats.

    1. Add me to a group.
    2. Send /newgame there (for example: /newgame sea_goat target=150).
    3. Players press «Take a seat» — I send each their tiles here, to the private chat.

    Group commands: /newgame, /score, /rating, /season, /stats, /history, /deal, /export, /rules, /settings, /nextgame, /extend, /kick, /endgame, /leave, /help.
    Here: /rating — your rating in every chat, /stats, /deal CODE — a shared deal, /language — the language.
help-group =
    /newgame [rule set] [options] — gather a table (rule sets below)
    /score — the game's score
    /rating — the chat's rating this season (games without computers), /rating all — all time
    /season N — the table of season N
    /stats — your stats (as a reply — someone else's)
    /history — the last games: the score by rounds, 🎞 round replays in private, game records
    /deal CODE — how different tables played one deal; /newgame deal=CODE — play it
    /export — every game record of the chat as a JSON Lines file (admins)
    /rules — the current game's rules
    /settings — chat settings (admins)
    /nextgame — tell me in private when the next game starts
    /extend — wait { $minutes } more minutes for players
    /kick — remove a player (as a reply to their message, or by name); in a game the computer takes the seat
    /endgame — end the game
    /leave — leave the game (the computer takes your seat)
command-newgame = new game
command-score = the game's score
command-rating = the chat's rating
command-stats = a player's stats
command-rules = the current game's rules
command-settings = chat settings
command-nextgame = tell me about the next game
command-endgame = end the game
command-leave = leave the game
command-extend = wait longer for players
command-kick = remove a player from the table
command-help = help
command-start = what the bot does
command-rating-private = my rating in every chat
command-stats-private = my stats
command-language = this chat's language

## rules menus
preset-button = 🎲 Rules: { $name } ▸
preset-name-goat = Goat
preset-name-goat_teams = Goat 2×2
preset-name-sea_goat = Sea Goat
preset-name-classic = Classic
preset-name-room = Game room
preset-name-donkey = Donkey
preset-name-telephone = Telephone
preset-name-muggins = Muggins
preset-name-general = General
preset-name-bykovo = Bykovo tournament
presets-pick = Pick the rules:
outdated-button = This button is out of date — use the newest message.
table-ended-cancelled = ⛔ The game was cancelled.
table-ended-ended = ⛔ The game was stopped with /endgame, unrated.
join-not-member = Only members of the group can sit at this table.
join-link-outdated = This link is out of date: press «🎲 Take a seat» in the group again.
kick-which = Two players have that name — which one?
kick-seat = { $name } (seat { $seat })

## the Bykovo tournament ("vprisyadku", §4)
event-went-out = { $name } goes out — the circle is played on up to { $last }
event-resting = Sitting this round out: { $names }
round-sortir = Round { $round }: "sortir" — three circles of passes; { $name } placed the last tile and wins the round.
round-fish-places = Round { $round }: fish 🐟 — { $name } placed the last tile and wins the round.
round-places = Places this round: { $places }
round-lots = 🎲 — equal points, the order was drawn by lot.
round-sheet-places = Tournament score (before → round → now), limit { $goal }:
round-next = Sitting out next round: { $names }
game-over-places = The tournament is over: { $name } — { $score }, the lowest, wins!
hand-resting = You sit this round out — watch the table in the group. We will call you when you play.
hand-out-bykovo = You are out of the tournament: you reached the limit. Watch the table in the group — the last three play for the places.
plays-again = You are back at the table: you play this round — your tiles are in this chat.

## "General" (§8)
round-general-won = Round { $round }: { $name } win.
round-general-made = 🎖 General — { $name }: the last tile was a double!
round-general-fish = Round { $round }: fish 🐟 — it does not count, the round is played again.
general-standing = { $name }: 🎖 { $generals } · rounds won { $wins }
general-waiting = Waiting their turn: { $names }
general-next = Next round: { $first } against { $second }
clock-left = ⏱ { $minutes } min left in the match
clock-over = ⏱ Time is up — this round is played out
game-over-generals = Time is up, the match is over! { $name } win.
game-place-generals = { $place }. { $name } — 🎖 { $generals } · rounds won { $wins }
hand-queued = Your team is waiting its turn — watch the table in the group. We will call you when you sit down.

again-button = 🔁 Play again
again-created = A new table with the same rules — take your seats!
again-already = There is a game here already — here it is.
again-not-finished = This game is not over yet.
