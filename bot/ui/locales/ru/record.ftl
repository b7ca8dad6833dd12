# Every game a record: /history, replays, /export, shared deals (docs/RECORD.md)
command-history = последние игры чата, повторы раундов
command-export = все записи игр чата файлом (для админов)
command-deal = как разные столы сыграли одну раздачу
command-deal-private = как разные столы сыграли одну раздачу
history-title = 📜 Последние игры в «{ $chat }»:
history-line = №{ $number } · { $date } · { $game } · { $result }
history-empty = В этом чате ещё нет законченных игр.
history-unfinished = не доиграна
history-winner = 🏆 { $names }
history-goat = 🐐 { $names }
history-game-title = 📜 Игра №{ $game } · { $name } · { $date }
history-seats = За столом: { $names }
history-round = Р{ $round } { $how } · 🃏 { $code }: { $scores }
history-actions = 🎞 — повтор раунда в личку · 📄 — запись игры · 🃏 код — /newgame deal=КОД
history-record-button = 📄 Запись
history-back-button = ⬅ Все игры
history-record-caption = 📄 Игра №{ $game } — запись партии: все раздачи и ходы (файл JSON)
history-sent-private = Отправил вам в личку.
replay-button = 🎞 Повтор
replay-preparing = 🎞 Готовлю повтор — пришлю в личку.
replay-open-private = Повтор приходит в личку: откройте чат со мной («Начать») и нажмите ещё раз.
replay-caption = 🎞 Игра №{ $game }, раунд { $round } · 🃏 { $code }
replay-frame = Раунд { $round } · ход { $move } из { $moves }
replay-not-over = Этот раунд ещё не закончен: повтор будет после него.
round-deal-code = 🃏 Раздача { $code }: сыграть её в другом чате — /newgame deal={ $code }
export-caption = 📦 Записи игр чата: { $games } (файл JSON Lines, по игре в строке)
export-part-caption = 📦 Записи игр чата, часть { $part } из { $parts }
export-empty = Выгружать нечего: в этом чате ещё нет законченных игр.
deal-usage = Напишите код раздачи, например: /deal K7QF2M
deal-unknown = Раздачи с кодом { $code } нет (или её раунд ещё не сыгран).
deal-title = 🃏 Раздача { $code } · { $name } · столов: { $tables }
deal-table = { $number }. { $chat } { $how } · за раунд: { $result }
deal-how-fish = 🐟 рыба, рыбак — { $name }
deal-how-out = 🏁 { $name } выходит
deal-this-chat = этот чат:
deal-other-chat = другой стол:
deal-seats = Раздача { $code } — для { $players } игроков: сядьте столько же и начните снова.
deal-format = Раздача { $code } — из игры «{ $name }»: начните её через /newgame deal={ $code }.
deal-lobby = 🃏 Первый раунд — раздача { $code }.
deal-own-game = Раздача { $code } — из игры «{ $name }»: играем её и по её правилам, остальное из команды не действует.
settings-deals = Имена этого чата в /deal: { $state }
settings-deals-button = 🃏 Имена в /deal: { $state }
review-button = 🔍 Разбор
review-preparing = 🔍 Смотрю ваши ходы — пришлю сюда.
review-busy = 🔍 Разбор уже готовится — пришлю, как будет готов.
review-again = 🔍 Разбор готов — присылаю ещё раз.
review-not-yours = Разбор — только своих ходов в законченной игре.
review-none = 🔍 Разбор игры №{ $game }: сильный компьютер не нашёл хода, где сыграл бы заметно лучше (просмотрено решений: { $looked } из { $total }).
review-slip = Раунд { $round }, ход { $move }: вы — { $played }, сильный компьютер — { $better }. { $change }
review-pass = пас
review-summary = 🔍 Разбор игры №{ $game }: { $count ->
        [one] вот ход, который сильный компьютер сыграл бы иначе.
       *[other] вот { $count } самых дорогих хода, которые сильный компьютер сыграл бы иначе.
    } Его кость обведена золотом, под картинкой — что изменил бы его ход, в среднем по раскладам, которые могли быть у других. Просмотрено решений: { $looked } из { $total }.
review-points = С его ходом вы набрали бы в этом раунде в среднем на { $points } { $points ->
        [one] очко
        [few] очка
       *[other] очков
    } { $more ->
        [yes] больше
       *[no] меньше
    }.
review-winning = Шанс выиграть партию в этом раунде был бы на { $percent }% { $more ->
        [yes] выше
       *[no] ниже
    }.
review-losing = Шанс проиграть партию в этом раунде был бы на { $percent }% { $more ->
        [yes] выше
       *[no] ниже
    }.
review-small = По его оценке разница невелика: ни очки в этом раунде, ни исход партии почти не меняются.
