# The table picture and the score sheet of the spinner games (Осёл, Телефон, Muggins).
picture-ends = концы
picture-target = { $name } набирает { $score } — игра окончена
sheet-play = в игре
