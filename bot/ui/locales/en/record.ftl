# Every game a record: /history, replays, /export, shared deals (docs/RECORD.md)
command-history = the chat's last games, round replays
command-export = all the chat's game records as a file (admins)
command-deal = how different tables played one deal
command-deal-private = how different tables played one deal
history-title = 📜 The last games in “{ $chat }”:
history-line = #{ $number } · { $date } · { $game } · { $result }
history-empty = No finished games in this chat yet.
history-unfinished = not finished
history-winner = 🏆 { $names }
history-goat = 🐐 { $names }
history-game-title = 📜 Game #{ $game } · { $name } · { $date }
history-seats = At the table: { $names }
history-round = R{ $round } { $how } · 🃏 { $code }: { $scores }
history-actions = 🎞 — a round's replay in private · 📄 — the game's record · 🃏 code — /newgame deal=CODE
history-record-button = 📄 Record
history-back-button = ⬅ All games
history-record-caption = 📄 Game #{ $game } — its record: every deal and move (a JSON file)
history-sent-private = Sent to you in private.
replay-button = 🎞 Replay
replay-preparing = 🎞 Making the replay — it comes in private.
replay-open-private = Replays come in private: open a chat with me (“Start”) and press again.
replay-caption = 🎞 Game #{ $game }, round { $round } · 🃏 { $code }
replay-frame = Round { $round } · move { $move } of { $moves }
replay-not-over = This round is not over yet: its replay comes after it.
round-deal-code = 🃏 Deal { $code }: play it in another chat — /newgame deal={ $code }
export-caption = 📦 The chat's game records: { $games } (a JSON Lines file, one game a line)
export-part-caption = 📦 The chat's game records, part { $part } of { $parts }
export-empty = Nothing to export: no finished games in this chat yet.
deal-usage = Write the deal's code, e.g.: /deal K7QF2M
deal-unknown = There is no deal { $code } (or its round has not been played yet).
deal-title = 🃏 Deal { $code } · { $name } · tables: { $tables }
deal-table = { $number }. { $chat } { $how } · the round scored: { $result }
deal-how-fish = 🐟 fish, blocked by { $name }
deal-how-out = 🏁 { $name } goes out
deal-this-chat = this chat:
deal-other-chat = another table:
deal-seats = Deal { $code } is for { $players } players: seat as many and start again.
deal-format = Deal { $code } comes from a game of “{ $name }”: start it with /newgame deal={ $code }.
deal-lobby = 🃏 The first round is deal { $code }.
deal-own-game = The deal { $code } comes from “{ $name }”: we play that game by its rules; the rest of the command does not apply.
settings-deals = This chat's names in /deal: { $state }
settings-deals-button = 🃏 Names in /deal: { $state }
review-button = 🔍 Review
review-preparing = 🔍 Looking at your moves — it comes here.
review-busy = 🔍 Your review is being made — it comes here when it is ready.
review-again = 🔍 Your review is ready — sending it again.
review-not-yours = A review is of your own moves in a finished game.
review-none = 🔍 Review of game #{ $game }: the hard computer found no move it would have played clearly better (decisions looked at: { $looked } of { $total }).
review-slip = Round { $round }, move { $move }: you — { $played }, the hard computer — { $better }. { $change }
review-pass = pass
review-summary = 🔍 Review of game #{ $game }: { $count ->
        [one] here is the move the hard computer would have played otherwise.
       *[other] here are the { $count } costliest moves the hard computer would have played otherwise.
    } Its tile is framed in gold; under each picture, what its move would have changed, on average over the hands the others might have held. Decisions looked at: { $looked } of { $total }.
review-points = With its move you would have scored { $points } { $points ->
        [one] point
       *[other] points
    } { $more ->
        [yes] more
       *[no] fewer
    } this round on average.
review-winning = The chance to win the game in this round would have been { $percent }% { $more ->
        [yes] higher
       *[no] lower
    }.
review-losing = The chance to lose the game in this round would have been { $percent }% { $more ->
        [yes] higher
       *[no] lower
    }.
review-small = By its estimate the difference is small: neither this round's points nor the game's outcome change much.
