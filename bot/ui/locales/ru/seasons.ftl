## rating seasons: /rating, /season, the season's end, /settings, /stats
season-name = Сезон { $number }
season-name-period = Сезон { $number } · { $period }
season-month = { $month ->
    [1] январь
    [2] февраль
    [3] март
    [4] апрель
    [5] май
    [6] июнь
    [7] июль
    [8] август
    [9] сентябрь
    [10] октябрь
    [11] ноябрь
   *[12] декабрь
} { $year }
season-quarter = { $quarter }-й квартал { $year }
season-title = «{ $chat }» · { $season } — места { $first }–{ $last } из { $total }
season-columns = рейтинг (за сезон) · игры · победы · козлы
season-row = { $rank }. { $name } — { $rating }{ $provisional } ({ $change }) · { $games } · { $wins } · { $goats }
season-you = Вы: { $rank }. { $name } — { $rating }{ $provisional } ({ $change }) · { $games } · { $wins } · { $goats }
season-empty = «{ $chat }» · { $season }: рейтинговых партий в этом сезоне ещё не было.
season-until = Сезон идёт по { $date } включительно.
season-hint = Рейтинг за всё время: /rating all · прошлые сезоны: /season N
season-unknown = Сезона { $number } нет: сыграно сезонов — { $count }.
season-usage = /season N — таблица сезона N (/rating — нынешний).
season-prev-button = ◀ Сезон { $number }
season-next-button = Сезон { $number } ▶
season-all-button = За всё время
season-now-button = Этот сезон
season-picture-title = { $chat } · { $season }
season-champion = 🏆 Чемпион — { $name }
season-column-games = игры
season-column-wins = победы
season-column-goats = козлы
season-column-change = ±
season-over = 🏁 { $season } окончен, чемпион — { $name }! Новый сезон уже идёт: /rating, этот — /season { $number }.
season-length-month = месяц
season-length-quarter = квартал
season-length-none = без сезонов
settings-seasons = Сезоны рейтинга: { $length }; часовой пояс: { $zone }
settings-season-button = 📅 Сезон: { $length }
settings-zone-button = 🕒 { $zone }
stats-season = { $season }: рейтинг { $rating }{ $provisional } ({ $change }), игр { $games }, побед { $wins }, козлов { $goats }
stats-season-none = { $season }: рейтинговых партий ещё не было.
stats-all-time = За всё время: рейтинг { $rating }{ $provisional }, игр { $games }, побед { $wins }, козлов { $goats }
command-season = таблица сезона: /season N
