# Every game a record: /history, replays, /export, shared deals (docs/RECORD.md)
command-history = the chat's last games, round replays
command-export = all the chat's game records as a file (admins)
command-deal = how different tables played one deal
command-deal-private = how different tables played one deal
history-title = 📜 The last games in “{ $chat }”:
history-line = { $number }. { $date } · { $game } · { $result }
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
history-record-caption = 📄 Game #{ $game } — its record (format: docs/RECORD.md)
history-sent-private = Sent to you in private.
replay-button = 🎞 Replay
replay-preparing = 🎞 Making the replay — it comes in private.
replay-open-private = Replays come in private: open a chat with me (“Start”) and press again.
replay-caption = 🎞 Game #{ $game }, round { $round } · 🃏 { $code }
replay-frame = Round { $round } · move { $move } of { $moves }
replay-not-over = This round is not over yet: its replay comes after it.
round-deal-code = 🃏 Deal { $code }: play it in another chat — /newgame deal={ $code }
export-caption = 📦 The chat's game records: { $games } (one game a line, format docs/RECORD.md)
export-part-caption = 📦 The chat's game records, part { $part } of { $parts }
export-empty = Nothing to export: no finished games in this chat yet.
deal-usage = Write the deal's code, e.g.: /deal K7QF2M
deal-unknown = There is no deal { $code } (or its round has not been played yet).
deal-title = 🃏 Deal { $code } · { $name } · tables: { $tables }
deal-table = { $number }. { $chat } { $how } { $result }
deal-this-chat = this chat:
deal-other-chat = another table:
deal-seats = Deal { $code } is for { $players } players: seat as many and start again.
deal-format = Deal { $code } comes from a game of “{ $name }”: start it with /newgame deal={ $code }.
deal-lobby = 🃏 The first round is deal { $code }.
settings-deals = This chat's names in /deal: { $state }
settings-deals-button = 🃏 Names in /deal: { $state }
review-button = 🔍 Review
review-preparing = 🔍 Looking at your moves — it comes here.
review-not-yours = A review is of your own moves in a finished game.
review-none = 🔍 Review of game #{ $game }: the hard computer found no move it would have played clearly better (decisions looked at: { $looked } of { $total }).
review-slip = Round { $round }, move { $move }: you — { $played }, the hard computer — { $better }. By its estimate that cost { $cost }.
review-pass = pass
review-summary = 🔍 Review of game #{ $game }: { $count ->
        [one] here is the move the hard computer would have played otherwise.
       *[other] here are the { $count } costliest moves the hard computer would have played otherwise.
    } { $scale } Decisions looked at: { $looked } of { $total }.
review-scale-points = The cost is in points by its estimate; the game's outcome weighs about 100.
review-scale-race = The cost is in fives by its estimate; the game's outcome weighs about 30.
review-scale-chance = The cost is in the chance to win the game.
review-cost-points = ≈ { $points } { $points ->
        [one] point
       *[other] points
    }
review-cost-race = ≈ { $points } { $points ->
        [one] five
       *[other] fives
    }
review-cost-chance = ≈ { $percent }% chance to win
