# The table picture and the score sheet of the spinner games (Donkey, Telephone, Muggins).
picture-ends = ends
picture-target = { $name } reaches { $score } — game over
sheet-play = in play
picture-sortir = Round { $round }: sortir, { $name } wins it
# The Bykovo tournament's standings after a round: the limit bars and the next round.
sheet-limit = limit
sheet-next = next
sheet-plays = plays
sheet-sits = sits out
# The General's sheet: its columns and the mark of a General made this round.
sheet-generals = Generals
sheet-wins = rounds won
sheet-general = General
