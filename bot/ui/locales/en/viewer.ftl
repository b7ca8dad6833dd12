# The playground's record viewer (bot/playground/viewer.py, web/static/viewer.js): its own
# words; moves and round ends in the table's words (main.ftl's event-… and round-…).
viewer-title = 📼 Record viewer
viewer-file = Open a file…
viewer-empty = Open a record: a file («Open a file…» above), or «▶ open in viewer» beside a game's .json or .jsonl in a chat (/history → a game → «📄 Record»; /export).
viewer-several = This file holds several games: pick one.
viewer-rounds = rounds: { $rounds }
viewer-round = Round
viewer-open = ▶ open in viewer
viewer-first = the deal (Home)
viewer-prev = back (←)
viewer-next = on (→)
viewer-last = the round's end (End)
viewer-close = close (Esc)
viewer-table = the table
viewer-not-json = { $name }: not JSON ({ $error })
viewer-no-game = { $name } holds no game.
viewer-no-answer = The playground did not answer: { $error }
viewer-no-picture = The picture did not load: open the record again (the playground keeps it only while it runs).
viewer-step-deal = deal · { $moves } { $moves ->
        [one] move
       *[other] moves
    }
viewer-step = move { $move } of { $moves }
viewer-deal = The deal: { $name } moves first
viewer-deal-lead = The deal: { $name } leads with { $tile }
viewer-leads = { $name } leads { $tile }
viewer-draws = { $name } draws from the bazaar
viewer-leaves = { $name } leaves: a computer plays on
viewer-abandons = { $name } leaves: the game ends
viewer-time-up = ⏰ Time is up
viewer-edition = From here on: rules edition { $edition }
viewer-target = Round { $round }: { $name } reached the target.
viewer-ended = Round { $round } is over.
viewer-eggs = eggs 🥚
viewer-review = ⚠ Review ({ $name }): better { $better } · cost { $cost }
