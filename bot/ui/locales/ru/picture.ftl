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
# «Генерал»'s sheet: its columns and the mark of a General made this round.
sheet-generals = генералы
sheet-wins = победы
sheet-general = генерал
