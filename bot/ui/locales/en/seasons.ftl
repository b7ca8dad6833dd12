## rating seasons: /rating, /season, the season's end, /settings, /stats
season-name = Season { $number }
season-name-period = Season { $number } · { $period }
season-month = { $month ->
    [1] January
    [2] February
    [3] March
    [4] April
    [5] May
    [6] June
    [7] July
    [8] August
    [9] September
    [10] October
    [11] November
   *[12] December
} { $year }
season-quarter = Q{ $quarter } { $year }
season-title = “{ $chat }” · { $season } — places { $first }–{ $last } of { $total }
season-columns = rating (this season) · games · wins · goats
season-row = { $rank }. { $name } — { $rating }{ $provisional } ({ $change }) · { $games } · { $wins } · { $goats }
season-you = You: { $rank }. { $name } — { $rating }{ $provisional } ({ $change }) · { $games } · { $wins } · { $goats }
season-empty = “{ $chat }” · { $season }: no rated games this season yet.
season-until = The season runs until { $date } inclusive.
season-hint = All-time rating: /rating all · past seasons: /season N
season-unknown = There is no season { $number }: seasons so far — { $count }.
season-usage = /season N — the table of season N (/rating — this one).
season-prev-button = ◀ Season { $number }
season-next-button = Season { $number } ▶
season-all-button = All time
season-now-button = This season
season-picture-title = { $chat } · { $season }
season-champion = 🏆 Champion — { $name }
season-column-games = games
season-column-wins = wins
season-column-goats = goats
season-column-change = ±
season-over = 🏁 { $season } is over, the champion is { $name }! The new season is on: /rating, this one: /season { $number }.
season-length-month = a month
season-length-quarter = a quarter
season-length-none = no seasons
settings-seasons = Rating seasons: { $length }; time zone: { $zone }
settings-season-button = 📅 Season: { $length }
settings-zone-button = 🕒 { $zone }
stats-season = { $season }: rating { $rating }{ $provisional } ({ $change }), games { $games }, wins { $wins }, goats { $goats }
stats-season-none = { $season }: no rated games yet.
stats-all-time = All time: rating { $rating }{ $provisional }, games { $games }, wins { $wins }, goats { $goats }
command-season = a season's table: /season N
