# English: the hand's questions in the spinner games (Donkey, Telephone, Muggins) and the
# move of several doubles built step by step.

## buttons
hand-open = open
hand-closed = 🂠 closed
hand-more = ➕ Another double
hand-done = ✔ Done
hand-cancel = ✖ Cancel
hand-doubles = ⧉ Several doubles

## short answers
hand-pick-face = Open or closed?
hand-pick-double = Which double joins?
hand-ready = Another double — or «Done».

## the hand message's question while its buttons ask it
hand-ask-end = Where does { $tile } go? The buttons are the ends and their numbers.
hand-ask-first-double = Several doubles in one move: press the double you put down first.
hand-ask-double = Which double joins? Press it.
hand-ask-face = { $tile }: open or closed?
hand-ask-ready = Add another — «{ hand-more }», make the move — «{ hand-done }».
hand-ask-last = Every double is placed: make the move — «{ hand-done }».

## the hand message while a move is built
hand-building = Move: { $move }
hand-placed = { $tile } { $arm }
hand-placed-closed = { $tile } { $arm } closed
hand-placed-house = { $tile } { $arm } — the spinner
hand-pending = { $tile } …

## the lobby's target buttons
option-target-0 = auto: 200, two players 250
