# Russian: the default language, in the words of the seeds («базар», «рыба», «козёл»).

## buttons
join = 🎲 Сесть за стол
open-table-app = 📱 За стол
leave = Выйти
start = ▶ Начать
settings = ⚙ Настройки
cancel = ✖ Отменить
done = ✔ Готово
back = ↩ Назад
close = ✖ Закрыть
end-left = ⬅ { $value }
end-right = { $value } ➡
end-yes = Да, закончить
end-no = Нет, играем
add-computer = 🤖 +{ $level }
add-to-group = ➕ Добавить в группу
open-bot = Открыть бота
to-game = → к игре
draw = 🎒 Взять из базара
pass = Пас
double-pair = Два дубля: { $tiles }
page-prev = ◀ Назад
page-next = Дальше ▶

## short answers
not-your-turn = Сейчас не ваш ход.
stale = Эта кнопка устарела: ход уже сделан.
not-a-player = Вы не играете в этой партии.
no-such-game = Эта игра уже закончилась.
not-creator = Это может только тот, кто создал игру.
not-creator-or-admin = Это может создатель игры или администратор чата.
admins-only = Это может только администратор чата.
lobby-full = За столом нет свободных мест.
not-seated = Вас нет за этим столом.
groups-only = Эта команда работает в группе: добавьте меня в чат и напишите /newgame.
unknown-button = Эта кнопка ничего не делает.
game-started = Игра уже началась.
game-started-seated = Игра началась, вы за столом: ваши кости — в этом чате.
pick-end = Куда поставить?
need-a-human = За столом должен быть хотя бы один человек.
computers-off = Компьютерные игроки выключены в настройках чата.
does-not-fit = Эта кость сейчас не подходит.
already-running = Здесь уже есть игра — вот она.
joined = Вы за столом! Кости придут сюда, когда игра начнётся.
joined-table = Стол: { $link }
left-table = Вы вышли из-за стола.
dealing = Раздаю!
cancelled = Игра отменена.
removed-from-group = Игра отменена: бота удалили из группы.
endgame-ask = Закончить игру? Партия не пойдёт в рейтинг чата.
endgame-keep = Играем дальше.
endgame-over = Эта игра уже окончена.
ended-by = { $name } останавливает игру. Она не идёт в рейтинг чата.
no-open-game = Здесь сейчас нет игры. Начните её командой /newgame.
no-games-yet = В этом чате ещё не было законченных игр.
no-rating-yet = Рейтинг считается по партиям без компьютеров: сыграйте первую такую партию (/newgame).
no-rating-anywhere = Вы ещё не играли рейтинговых партий: рейтинг считается по партиям без компьютеров.
something-wrong = Что-то пошло не так, попробуйте ещё раз.
game-started-players = Игра началась! Играют: { $names }.
game-over-private = Игра окончена. Спасибо за игру!
game-over-you = Игра окончена — { $game }: вы на { $place }-м месте из { $total }, { $score } { $score ->
        [one] очко
        [few] очка
       *[many] очков
    }{ $goat }. Спасибо за игру!
game-over-you-goat = { " " }— козёл 🐐
game-over-you-generals = Игра окончена — { $game }: ваша команда на { $place }-м месте из { $total }, генералов: { $generals }. Спасибо за игру!
cannot-start = Пока нельзя начать. { $reason }
waiting-for = Сначала откройте личный чат с ботом (кнопка «Сесть за стол»): { $names }
unreachable = { $name }, я не могу написать вам в личный чат. Откройте его: { $url }

## illegal moves
illegal-not_in_hand = Этой кости у вас нет.
illegal-does_not_fit = Эта кость сюда не подходит.
illegal-must_lead = Первый ход — с дубля, который назван в сообщении.
illegal-bad_end = Первая кость открывает линию.
illegal-must_play = У вас есть подходящая кость — ходите ею.
illegal-cannot_draw = Из базара брать больше нельзя.
illegal-no_pass = Пасовать нельзя.
illegal-no_doubles = Эти дубли на эти концы вместе не встают.
illegal-cannot_close = Закрыть можно только дубль, и не первый камень.
illegal-no_time_up = Время матча кончается только между раундами «Генерала».
illegal-no_rest = Пересадить можно только первый раунд, до первого хода.
illegal-bad_rest = Сидеть должно столько, сколько лишних за столом.
illegal-no_deal = Сдать заново можно только раунд, в котором ещё никто не ходил.
illegal-bad_deal = Эта раздача не для костей и мест этой игры.
illegal-not_your_turn = Сейчас не ваш ход.
illegal-unknown_move = Такого хода нет.
illegal-round_over = Раунд уже окончен.
illegal-not_round_over = Раунд ещё идёт.
illegal-game_over = Игра уже окончена.
illegal-out = Этот игрок уже выбыл из игры: его место в итоге не изменится.
illegal-left = Этот игрок уже вышел из игры.

## rules and options
rule-error-players = Для этих правил не подходит столько игроков
rule-error-preset = Не знаю набор правил «{ $value }»
rule-error-preset-near = { $text }. Может быть, «{ $name }»: /newgame { $preset }
rule-error-value = Не подходит опция { $key }={ $value }
rule-error-key = Не понимаю опцию { $key }
rule-error-valid = { $text }. Можно: { $valid }
rule-error-end = { $text }.
rule-error-number = { $text }: нужно целое число.
rule-error-not-played = В «{ $game }» так не играют: { $key }={ $value }. Можно: { $valid }.
rule-error-not-its = В «{ $game }» нет опции { $key }
rule-error-options = { $text }. Опции игры «{ $game }»: { $options }.
option-target = до { $value }
option-fish-one = рыба на одного
option-fish-all = рыба на всех
option-max_pip-6 = дубль 6
option-max_pip-9 = дубль 9
option-max_pip-12 = дубль 12
option-teams-no = каждый за себя
option-teams-yes = командами
option-auto_draw-yes = базар: сам
option-auto_draw-no = базар: вручную
preset-goat = Козёл: 2–4 игрока, до 101, запомненные очки, рыба на одного
preset-goat_teams = Козёл 2×2, двое на двое: партнёры сидят напротив, очки на пару
preset-sea_goat = Морской козёл: победитель пишет от 25, до 125, лысый козёл
preset-classic = Классика, классическое домино: вышедший забирает очки соперников, до 100
preset-room = Игровая комната: 2–10 игроков, «дубль 9» или 12, пишешь свои очки, в 100 выбываешь, побеждает последний
preset-donkey = Осёл: Козёл с домом — первый дубль открывает четыре конца, до четырёх дублей за ход, дубль можно закрыть
preset-telephone = Телефон: первый дубль — дом на четыре стороны; концы кратны 5 — пишешь сумму/5, до 72, побеждает больший счёт
preset-muggins = Маггинс: концы кратны 5 — пишешь сумму, первый дубль открывает четыре стороны, до 200 (вдвоём 250), побеждает больший счёт
preset-general = Генерал: две команды по двое, очередь команд, 1-1 ходит первым, рыба переигрывается, вышел на 0-0 или 6-6 — генерал; матч по времени
preset-bykovo = Вприсядку, турнир по-быковски: 4–7 человек, за столом четверо (ходит 0-0, без базара, пас можно), очки копятся, лимит (100 на четверых … 50 на семерых) выбивает, последние трое делят места
rules-for-chat = Правила для /newgame: { $rules }
rules-for-lobby = Правила: { $rules }
rules-for-game = Правила: { $rules }
rules-seats = Игроков: { $players }, по { $hand } костей.
rules-won = Как выиграть: { $won }
games-title = Игры (после /newgame — имя в скобках):
game-line = • { $name } ({ $preset }): { $won }
game-won = { $name }: { $won }
won-goat = кто наберёт { $goal } и больше — козёл; меньше очков — лучше
won-sea_goat = кто первым наберёт { $goal } — победил, остальные козлы; лысый козёл выигрывает сразу
won-classic = кто первым наберёт { $goal } — победил, остальные козлы
won-room = набрал { $goal } — выбыл; побеждает последний, кто остался в игре
won-telephone = кто первым наберёт { $goal } — победил сразу; больше — лучше, козлов нет
won-muggins = кто первым наберёт { $goal } — победил сразу; больше — лучше, козлов нет
won-bykovo = набрал лимит { $goal } — выбыл; места делят последние трое, меньше очков — лучше
won-general = матч { $minutes } мин; побеждает команда с большим числом генералов, потом выигранных раундов
option-target-places = лимит { $value }
option-target-out = лимит { $value }

## computer players
computer-easy = новичок
computer-normal = любитель
computer-hard = мастер
computer-name = 🤖 { $level } { $number }

## the lobby
lobby-title = 🁫 Собираем стол
lobby-rules = Правила: { $rules }
lobby-players = Игроки: { $names }
lobby-nobody = пока никого
lobby-team = Команда { $number }: { $names }
lobby-teams-need = Команды по { $size } по порядку посадки: начать можно, когда за столом { $counts }.
lobby-picks = Выбрали: { $picks }
team-missing = Команды { $team } нет: за этим столом { $teams } { $teams ->
        [one] команда
        [few] команды
       *[many] команд
    }.
team-full = В команде { $team } уже { $size } { $size ->
        [one] игрок
        [few] игрока
       *[many] игроков
    }: выберите другую.
no-teams = За этим столом играют без команд.
team-button = 👥 { $number }
team-picked = Вы в команде { $number }.
team-unpicked = Ваша команда — по порядку посадки.
lobby-waiting = Откройте личный чат с ботом кнопкой «Сесть за стол»: { $names }
lobby-no-computers = Компьютерные игроки в этом чате выключены (/settings).
lobby-press-join = Нажмите «Сесть за стол», чтобы играть.
lobby-idle-hint = Если { $minutes } минут ничего не происходит, стол закрывается; /extend — подождать ещё.
lobby-idle = Стол закрыт: { $minutes } минут ничего не происходило. Новый — /newgame.
extended = Стол подождёт на { $minutes } минут дольше.
no-open-lobby = Здесь сейчас никто не собирает стол. Начните: /newgame.
kick-who = Кого убрать? Ответьте /kick на сообщение игрока или напишите /kick и его имя.
kick-not-seated = Такого игрока за столом нет.
kick-yourself = Чтобы выйти самому, есть /leave.
kicked = Убрали из-за стола: { $name }.
next-game-ping = В «{ $chat }» собирают стол: { $link }
next-game-ping-plain = В «{ $chat }» собирают стол — загляните в группу.

## the table and the hands
partners = { $first } и { $second }
event-played = { $name }: { $tile }
event-played-left = { $name }: { $tile } слева
event-played-right = { $name }: { $tile } справа
event-doubles = { $name }: { $count ->
    [2] два дубля
    [3] три дубля
   *[other] четыре дубля
 } { $tiles }
event-played-west = { $name }: { $tile } влево
event-played-east = { $name }: { $tile } вправо
event-played-up = { $name }: { $tile } вверх
event-played-down = { $name }: { $tile } вниз
event-closed = { $tile } закрыто
event-scored = концы { $sum } → +{ $points }
event-drawn = { $name } берёт из базара: { $number }
event-knocked = { $name } стучит
event-passed = { $name }: пас
event-redeal = Пересдача ×{ $number }: у кого-то было много дублей или одной масти
caption-round = { $game } · раунд { $round } · базар: { $bazaar }
caption-round-no-bazaar = { $game } · раунд { $round }
caption-to-move = Ходит: { $name }
hand-title = Ваши кости · раунд { $round }
hand-drawn = Из базара пришли: { $tiles }
hand-wait = Ждите своего хода — стол в группе.
hand-lead = Ваш ход! Вы заходите с { $tile }.
hand-lead-any = Ваш ход! Вы заходите: подходит любая кость.
hand-turn = Ваш ход! Концы: { $ends }.
hand-playable = ✅ — кости, которые подходят.
hand-ends = { $first } и { $second }
timed-out = ⏰ { $name }: время вышло, сходил компьютер.
away = { $name } не у стола: за этого игрока ходит компьютер, пока тот не нажмёт любую свою кнопку.
turn-warning = ⏰ Осталось { $seconds } секунд — потом за вас сходит компьютер.
welcome-back = С возвращением! Вы снова ходите сами.
left-game = Вы вышли из этой партии: за вас играет компьютер.
hand-out = Вы выбыли из этой партии: набрали предельный счёт. Следите за столом в группе — побеждает последний, кто останется.
hand-left = Вы вышли из этой партии. До конца за вас играет компьютер; итог для вас — по правилу таймаута: последнее место, козёл, очки партии +0.
left-game-note = 🚪 { $name } уходит из-за стола: до конца партии на этом месте ходит компьютер, итог — по правилу таймаута.
option-turn_timeout = ⏰ { $value } с
option-turn_timeout-0 = ⏰ без часов
option-minutes = ⏱ { $value } мин
option-target-0-bykovo = лимит по числу игроков

## pictures
picture-round = Раунд { $round }
picture-eggs = Раунд { $round }: рыба, яйца 🥚 { $carry }
picture-fish = Раунд { $round }: рыба, рыбак { $name }
picture-out = Раунд { $round }: { $name } выходит
picture-bazaar = базар
sheet-player = игрок
sheet-previous = было
sheet-round = раунд
sheet-total = итого
sheet-fish = рыба 🐟
sheet-goat = козёл
sheet-eggs = яйца переходят в следующий раунд
sheet-out = выбыл

## the table app's page
app-your-turn = Ваш ход!
app-watching = Вы смотрите: руки игроков не видны до конца раунда.
app-pick-end = Куда поставить? Нажмите конец на столе.
app-sheet = Счёт
app-hands = На руках
app-empty-seat = свободно
app-lost = Нет связи — переподключаемся…
app-replay-sent = 🎞 Готовлю повтор раунда { $round } — отправлю вам в личный чат с ботом.
app-review-sent = 🔍 Смотрю ваши ходы — разбор отправлю вам в личный чат с ботом.
app-review-again = 🔍 Разбор готов — отправляю ещё раз в личный чат с ботом.
app-review-busy = 🔍 Разбор уже готовится — отправлю в личный чат с ботом, как будет готов.
app-options = ⚙ Правила игры

## round and game results
round-eggs = Раунд { $round }: рыба, яйца! 🥚 { $carry } переходят дальше.
round-fish = Раунд { $round }: рыба 🐟, рыбак — { $name }.
round-out = Раунд { $round }: { $name } выходит — на руках пусто.
round-hand = { $name }: { $tiles } = { $value }
round-hands-uncounted = На руках осталось (в этой игре руки не считаются):
round-hand-left = { $name }: { $tiles }
round-sheet-points = Счёт (было → раунд → стало):
round-sheet-out = Счёт (было → раунд → стало), лимит { $goal } — набравший выбывает:
round-sheet-race = Счёт (было → за ходы → за раунд → стало), играем до { $goal }:
round-line-race = { $name }: { $before } → { $play } → { $points } → { $after }
round-target = Раунд { $round }: { $name } набирает { $score } — игра окончена!
round-line = { $name }: { $before } → { $points } → { $after }{ $marks }
round-side-out = 🚪 { $name } — { $score }, { $members ->
        [one] выбывает
       *[other] выбывают
    } из игры.
game-over-last-in = Игра окончена: { $name } — последний в игре и побеждает!
game-over-timeout = Игра окончена: стол покинут — { $name }.
game-over-bald = Игра окончена: лысый козёл!
game-over-left = Стол покинут во время партии — { $name }: по правилу таймаута козёл, очки партии +0.
game-over-left-race = Стол покинут во время партии — { $name }: последнее место.
game-over-race = Игра окончена: { $name } — { $score }, больше всех, победа!
game-place-race = { $place }. { $name } — { $score }
game-over = Игра окончена!
game-place = { $place }. { $name } — { $score }{ $mark }, очки партии +{ $points }
game-unrated-computers = 🤖 Партия с компьютером: в рейтинг чата не идёт.
game-place-goat = { " " }🐐 козёл
score-after = Счёт после раунда { $round }:
score-part-generals = { $name }: генералов { $generals }, побед { $wins }

## ratings and stats
rating-title = Рейтинг «{ $chat }» — места { $first }–{ $last } из { $total }
rating-columns = рейтинг · игры · победы · козлы · очки партий
rating-row = { $rank }. { $name } — { $rating }{ $provisional } · { $games } · { $wins } · { $goats } · { $points }
rating-you = Вы: { $rank }. { $name } — { $rating }{ $provisional } · { $games } · { $wins } · { $goats } · { $points }
rating-provisional-mark = *
rating-provisional-note = * — рейтинг предварительный: меньше { $games } игр.
rating-race-note = * В играх на счёт ({ $games }) побеждает больший счёт: козлов и очков партии там нет, рейтинг считает места.
rating-private-title = Ваш рейтинг по чатам:
rating-private-row = «{ $chat }»: { $rating }{ $provisional } · игр: { $games } · очков партий: { $points }
stats-title = Статистика: { $name }{ $where }
stats-where-chat = { " " }в «{ $chat }»
stats-none = { $name }: ещё ни одной доигранной партии{ $where }.
stats-body =
    Игры: { $games }, победы: { $wins }, козлы: { $goats }
    Рыб: { $fish }, лысых козлов: { $bald }
    Лучшая серия побед: { $streak }
    Любимые правила: { $preset }
stats-no-value = —
stats-by-game = По играм:
stats-line-points = • { $name }: игр { $games }, побед { $wins }, очков за раунд { $per_round } ({ $better ->
        [higher] больше — лучше
       *[lower] меньше — лучше
    })
stats-line-race = • { $name }: игр { $games }, побед { $wins }, очков за раунд { $per_round } (больше — лучше)
stats-line-out = • { $name }: игр { $games }, побед { $wins }, очков за раунд { $per_round } (меньше — лучше)
stats-line-places = • { $name }: турниров { $games }, побед { $wins }, в тройке { $podiums }
stats-line-generals = • { $name }: матчей { $games }, побед { $wins }, генералов { $generals }

## chat settings and languages
settings-title = ⚙ Настройки чата «{ $chat }»
settings-rules = Правила для /newgame: { $rules }
settings-dropped = Убрано из правил: { $options } — так «{ $game }» не играют.
settings-language = Язык группы: { $language }
settings-computers = Компьютерные игроки: { $state }
settings-on = можно
settings-off = нельзя
settings-hint = Выберите, что поменять. Это могут только администраторы.
settings-saved = Сохранено.
settings-closed = ⚙ Настройки закрыты.
settings-computers-button = 🤖 Компьютеры: { $state }
language-name = Русский
language-pick = Выберите язык личного чата:
language-set = Теперь я говорю по-русски.
language-telegram = Как в Telegram
next-game-saved = Хорошо! Напишу вам в личный чат, когда здесь начнут собирать стол.
next-game-already = Вы уже в списке: напишу, когда здесь соберут стол.
next-game-open-bot = Сначала откройте личный чат со мной: { $url }

## help and commands
answered-privately = 💬 { $command } в «{ $chat }»: там идёт игра и занимает все сообщения, какие Telegram сейчас позволяет группе, поэтому ответ здесь.
help-private =
    Я веду партии в домино «Козёл» в групповых чатах.

    1. Добавьте меня в группу.
    2. Там напишите /newgame (например: /newgame sea_goat target=150).
    3. Игроки жмут «Сесть за стол» — я пришлю каждому его кости сюда, в личный чат.

    Команды в группе: /newgame, /score, /rating, /season, /stats, /history, /deal, /export, /rules, /settings, /nextgame, /extend, /kick, /endgame, /leave, /help.
    Здесь: /rating — ваш рейтинг во всех чатах, /stats, /deal КОД — общая раздача, /language — язык.
help-group =
    /newgame [набор правил] [опции] — собрать стол (наборы — ниже)
    /score — счёт партии
    /rating — рейтинг чата в этом сезоне (по партиям без компьютеров), /rating all — за всё время
    /season N — таблица сезона N
    /stats — ваша статистика (ответом на сообщение — чужая)
    /history — последние игры: счёт по раундам, 🎞 повторы раундов в личку, записи игр
    /deal КОД — как разные столы сыграли одну раздачу; /newgame deal=КОД — сыграть её
    /export — все записи игр чата файлом JSON Lines (администраторы)
    /rules — правила текущей игры
    /settings — настройки чата (администраторы)
    /nextgame — позвать меня в личку, когда начнут следующую игру
    /extend — подождать игроков ещё { $minutes } минут
    /kick — убрать игрока (ответом на его сообщение или по имени); в игре его место занимает компьютер
    /endgame — закончить игру
    /leave — выйти из игры (ваше место займёт компьютер)
command-newgame = новая игра
command-score = счёт партии
command-rating = рейтинг чата
command-stats = статистика игрока
command-rules = правила текущей игры
command-settings = настройки чата
command-nextgame = сообщить о следующей игре
command-endgame = закончить игру
command-leave = выйти из игры
command-extend = подождать игроков ещё
command-kick = убрать игрока из-за стола
command-help = помощь
command-start = что умеет бот
command-rating-private = мой рейтинг во всех чатах
command-stats-private = моя статистика
command-language = язык личного чата

## rules menus
preset-button = 🎲 Набор: { $name } ▸
preset-name-goat = Козёл
preset-name-goat_teams = Козёл 2×2
preset-name-sea_goat = Морской козёл
preset-name-classic = Классика
preset-name-room = Игровая комната
preset-name-donkey = Осёл
preset-name-telephone = Телефон
preset-name-muggins = Маггинс
preset-name-general = Генерал
preset-name-bykovo = Вприсядку
presets-pick = Выберите набор правил:
outdated-button = Эта кнопка устарела — пользуйтесь свежим сообщением.
table-ended-cancelled = ⛔ Игра отменена.
table-ended-ended = ⛔ Игра остановлена командой /endgame, без рейтинга.
join-not-member = Сесть за этот стол могут только участники группы.
join-link-outdated = Эта ссылка устарела: нажмите «🎲 Сесть за стол» в группе ещё раз.
kick-which = За столом двое с таким именем — кого убрать?
kick-seat = { $name } (место { $seat })

## the Bykovo tournament «вприсядку» (§4)
event-went-out = { $name } выходит — круг доигрывается до { $last }
event-resting = Сидят в этом раунде: { $names }
round-sortir = Раунд { $round }: сортир — три круга пасов; раунд забирает { $name }, чья кость легла последней.
round-fish-places = Раунд { $round }: рыба 🐟 — раунд забирает { $name }, чья кость легла последней.
round-places = Места в раунде: { $places }
round-lots = 🎲 — равные очки, порядок решил жребий.
round-sheet-places = Турнирный счёт (было → раунд → стало), лимит { $goal }:
round-next = Следующий раунд сидят: { $names }
game-over-places = Турнир окончен: { $name } — { $score }, меньше всех, победа!
hand-resting = Этот раунд вы сидите — смотрите стол в группе. Позовём, когда будете играть.
hand-out-bykovo = Вы выбыли из турнира: набрали лимит. Следите за столом в группе — места разыграют последние трое.
plays-again = Вы снова за столом: этот раунд играете — кости в этом чате.

## «Генерал» (§8)
round-general-won = Раунд { $round }: выигрывают { $name }.
round-general-made = 🎖 Генерал — { $name }: последней костью лёг дубль!
round-general-fish = Раунд { $round }: рыба 🐟 — не считается, раунд переигрывается.
general-standing = { $name }: 🎖 { $generals } · побед { $wins }
general-waiting = Ждут своей очереди: { $names }
general-next = Следующий раунд: { $first } против { $second }
clock-left = ⏱ До конца матча { $minutes } мин
clock-over = ⏱ Время вышло — доигрываем раунд
game-over-generals = Время вышло, матч окончен! Побеждают { $name }.
game-place-generals = { $place }. { $name } — 🎖 { $generals } · побед { $wins }
hand-queued = Ваша команда ждёт своей очереди — смотрите стол в группе. Позовём, когда сядете.

again-button = 🔁 Ещё партию
again-created = Новый стол с теми же правилами — садитесь!
again-already = Здесь уже есть игра — вот она.
again-not-finished = Эта партия ещё не закончена.
