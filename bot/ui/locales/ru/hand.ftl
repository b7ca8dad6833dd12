# Russian: the hand's questions in the spinner games (Осёл, Телефон, Маггинс) and the move
# of several doubles built step by step.

## buttons
hand-open = открыто
hand-closed = 🂠 закрыто
hand-more = ➕ Ещё дубль
hand-done = ✔ Готово
hand-cancel = ✖ Отмена
hand-doubles = ⧉ Несколько дублей

## short answers
hand-pick-face = Открыто или закрыто?
hand-pick-double = Какой дубль добавить?
hand-ready = Ещё дубль — или «Готово».

## the hand message's question while its buttons ask it
hand-ask-end = Куда поставить { $tile }? На кнопках — концы и их числа.
hand-ask-first-double = Несколько дублей за один ход: нажмите дубль, который кладёте первым.
hand-ask-double = Какой дубль добавить? Нажмите его.
hand-ask-face = { $tile }: открыто или закрыто?
hand-ask-ready = Добавить ещё — «{ hand-more }», сходить — «{ hand-done }».
hand-ask-last = Все дубли на месте: сходить — «{ hand-done }».

## the hand message while a move is built
hand-building = Ход: { $move }
hand-placed = { $tile } { $arm }
hand-placed-closed = { $tile } { $arm } закрыто
hand-placed-house = { $tile } { $arm } — дом
hand-pending = { $tile } …

## the lobby's target buttons
option-target-0 = авто: 200, вдвоём 250
