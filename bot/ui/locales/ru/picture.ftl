# The table picture and the score sheet of the spinner games (Осёл, Телефон, Muggins).
picture-ends = концы
picture-target = { $name } набирает { $score } — игра окончена
sheet-play = в игре
picture-sortir = Раунд { $round }: сортир, раунд за { $name }
# The Bykovo tournament's standings after a round: the limit bars and the next round.
sheet-limit = лимит
sheet-next = дальше
sheet-plays = играет
sheet-sits = сидит
