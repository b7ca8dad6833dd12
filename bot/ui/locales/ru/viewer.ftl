# The playground's record viewer (bot/playground/viewer.py, web/static/viewer.js): its own
# words; moves and round ends in the table's words (main.ftl's event-… and round-…).
viewer-title = 📼 Просмотр записи
viewer-file = Открыть файл…
viewer-empty = Откройте запись: файл («Открыть файл…» выше) или «▶ открыть в просмотре» рядом с .json или .jsonl игры в чате (/history → игра → «📄 Запись»; /export).
viewer-several = В этом файле несколько игр: выберите одну.
viewer-rounds = раундов: { $rounds }
viewer-round = Раунд
viewer-open = ▶ открыть в просмотре
viewer-first = раздача (Home)
viewer-prev = назад (←)
viewer-next = вперёд (→)
viewer-last = конец раунда (End)
viewer-close = закрыть (Esc)
viewer-table = стол
viewer-not-json = { $name }: это не JSON ({ $error })
viewer-no-game = В { $name } нет ни одной игры.
viewer-no-answer = Песочница не ответила: { $error }
viewer-no-picture = Картинка не загрузилась: откройте запись снова (песочница хранит её, пока работает).
viewer-step-deal = раздача · { $moves } { $moves ->
        [one] ход
        [few] хода
       *[other] ходов
    }
viewer-step = ход { $move } из { $moves }
viewer-deal = Раздача: первым ходит { $name }
viewer-deal-lead = Раздача: { $name } заходит с { $tile }
viewer-leads = { $name } заходит с { $tile }
viewer-draws = { $name } берёт из базара
viewer-leaves = { $name } уходит: дальше за него ходит компьютер
viewer-abandons = { $name } уходит: игра окончена
viewer-time-up = ⏰ Время вышло
viewer-edition = Дальше — правила редакции { $edition }
viewer-target = Раунд { $round }: { $name } набирает нужный счёт.
viewer-ended = Раунд { $round } окончен.
viewer-eggs = яйца 🥚
viewer-review = ⚠ Разбор ({ $name }): лучше { $better } · цена { $cost }
