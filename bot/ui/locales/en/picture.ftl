# The table picture and the score sheet of the spinner games (Donkey, Telephone, Muggins).
picture-ends = ends
picture-target = { $name } reaches { $score } — game over
sheet-play = in play
