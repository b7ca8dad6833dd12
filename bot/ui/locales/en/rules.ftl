# The rules of each preset for /rules: plain text for the group, the preset's defaults.
# See docs/RULES.md (§2 Goat, §2.8 teams, §3 Sea Goat, §9 classic).

rules-goat =
    🐐 Goat: 2–4 players, each for themselves.
    • 7 tiles each, the rest is the bazaar (no bazaar with 4). Redeal if a hand has 5 doubles or 6 tiles of one suit.
    • Round 1 opens with 1-1 (if nobody has it: 2-2, 3-3 … 6-6, 0-0). Later the player who went out, or the fisherman, leads with any tile.
    • You must play if you can. If not, the bot draws for you from the bazaar until a tile fits; with the bazaar empty you knock.
    • A round ends when someone goes out, or with a fish: both ends show one suit and all its tiles are on the table.
    • Losers score the pips in hand (a lone 0-0 = 10). Until your account opens, under 13 is remembered; 13 or more opens it, remembered points included. Going out clears yours.
    • Fish on one: the biggest hand takes all the points. A tie is eggs: the points go to the biggest loser of the next round.
    • Whoever reaches 101 is the goat.

rules-goat_teams =
    🐐 Goat 2×2: 4 players, partners sit opposite and share a score.
    • 7 tiles each, no bazaar. Redeal if a hand has 5 doubles or 6 tiles of one suit.
    • Round 1 opens with 1-1. Later the player who went out, or the fisherman, leads with any tile.
    • You must play if you can; if not, you knock and the turn passes.
    • A round ends when someone goes out (their pair wins), or with a fish: both ends show one suit and all its tiles are on the table.
    • The losing pair scores both partners' pips (a lone 0-0 = 10). Until a pair's account opens, under 13 is remembered; the winning pair's remembered points are cleared.
    • Fish on one: the pair holding more takes all the points. A tie is eggs: the points go to the losing pair of the next round.
    • The pair that reaches 101 are the goats.

rules-sea_goat =
    ⚓ Sea Goat: 2 players, or 2×2 (/newgame sea_goat teams=yes players=4). Here points are good.
    • 7 tiles each, the rest is the bazaar. Round 1 opens with 1-1 (else 2-2 … 6-6, 0-0); later the player who went out, or the fisherman, leads.
    • You must play if you can; if not, the bot draws until a tile fits; with the bazaar empty you knock. Two doubles, one on each end, may go in one move.
    • Whoever goes out records the opponents' pips if they come to 25 or more. A lone 0-0 = 25, a lone 6-6 = 50, 0-0 with 6-6 = 75.
    • Only one side may hold points: if another side wins with 25+, all points are written off and it records nothing.
    • Fish: the smaller hand wins. A tie is eggs, taken by the next winner.
    • Bald goat: going out with 0-0 wins the game at once. So does going out with 6-6 while an opponent holds 25+.
    • Whoever reaches 125 wins; the others are goats.

rules-classic =
    🁫 Classic dominoes: 2–4 players, each for themselves.
    • 7 tiles each for 2 players, 5 each for 3–4; the rest is the bazaar. No redeals.
    • Every round opens with the highest double: 6-6, else 5-5 … 0-0; if nobody has a double, the highest tile (6-5 …).
    • You must play if you can; if not, the bot draws for you until a tile fits; with the bazaar empty you knock.
    • A round ends when someone goes out, or with a fish: nobody can move.
    • Whoever goes out records all the pips left in the opponents' hands (0-0 = 0).
    • Fish: the smallest hand wins and records all hands minus its own. A tie is a draw, nobody records.
    • The first to reach 100 wins; the others are goats.

rules-room =
    🎪 The game room: 2–10 players with double-6, double-9 (the default) or double-12 (/newgame room set=12); teams of 2–5 with teams=yes.
    • Tiles each: double-6 — 7 (up to 4 players); double-9 — 7 for 2–4, 6 for 5–7, 5 for 8–10; double-12 — 7 for 2–6, 6 for 7–10. The rest is the bazaar.
    • Every round opens with the highest double in anyone's hand (12-12, 11-11 … as the set goes); with no double in any hand, the highest tile.
    • You must play if you can. If not, the bot draws one tile for you: if it fits you play it, if not you keep it and the turn passes. With the bazaar empty you pass.
    • A round ends when someone goes out, or when nobody can move.
    • Everyone else scores the pips in their own hand; 0-0 is always worth 10. When nobody can move, every hand scores.
    • Teams: the player who goes out scores nothing for the team; the tiles left with their partners count against every other team, on top of its own.
    • Reaching 100 puts you out of the game. The last one in wins; the others place in the order they went out.

rules-donkey =
    🫏 Donkey: Goat on a spinner, 2–4 players, each for themselves.
    • 7 tiles each, the rest is the bazaar. Round 1 opens with 1-1; later the player who went out, or the fisherman, leads with any tile.
    • The first open double is the spinner: tiles go on all four of its sides.
    • Several doubles may go down in one move, one per open end. A double may be played closed (face down): nothing goes beyond it.
    • Before the first open double, closing both ends with two doubles ends the round at once, counted as a fish. So does closing every end.
    • Scoring as in Goat: under 13 is remembered, 13 or more opens the account; whoever reaches 101 is the donkey.

rules-telephone =
    ☎ Telephone: 2–4 players (or 2×2). Here points are good.
    • 7 tiles each, the rest is the bazaar. Round 1 opens with 1-1; later the player who went out, or the fisherman, leads with any tile.
    • The first double is the house: tiles go on all four of its sides.
    • After your move, if the open ends add up to a multiple of 5 you score the sum / 5. A double at an end counts both halves; a bare side of the house counts nothing (a house alone counts both halves).
    • Whoever goes out scores the others' pips / 5, rounded up. Blocked: the smallest hand scores the differences / 5 (nobody on a tie).
    • Whoever reaches 72 first wins, at once, even in the middle of a round.

rules-muggins =
    5️⃣ Muggins (All Fives): 2–4 players (or 2×2). Here points are good.
    • 7 tiles each with 2 players, 5 with 3–4; the rest is the bazaar. The first leader is drawn by lot and leads any tile; later the winner leads.
    • The first double is the spinner: its other two sides open once both long sides hold a tile.
    • After your move, if the open ends add up to a multiple of 5 you score the sum. A double at an end counts both halves.
    • Whoever goes out scores the opponents' pips rounded to the nearest 5 (1–2 → 0, 3–7 → 5 …). Blocked: the smallest hand scores the differences, rounded the same way.
    • Whoever reaches 200 first (250 with 2 players) wins, at once, even in the middle of a round.

rules-bykovo =
    🪑 The Bykovo tournament ("vprisyadku"): 4–7 people, seated by lot for the whole tournament. Lower is better.
    • Four play each round, the others sit out. In the first round the chat's rating leaders sit out (by lot without ratings); then those who sat out come back first, and the other seats go to the worst placed of the last round.
    • 7 tiles each, no bazaar; a hand with 5 doubles is redealt. Every round opens with 0-0. You may pass at any turn.
    • Whoever goes out wins, but the circle is played on up to the seat before the round's leader; others may go out too.
    • Fish (everyone knocks) or "sortir" (three circles of passes): the round goes to whoever placed the last tile.
    • Everyone but the winner adds the pips in their hand (0-0 = 0). Limit: 100 for four, 75 for five, 60 for six, 50 for seven — reach it and you are out. Play goes on until three remain.

rules-general =
    🎖 General: two teams of two at the table (partners opposite), the other teams wait their turn — 4, 6 or 8 people in all.
    • 7 tiles each, no bazaar; 1-1 always goes first; tiles go on two ends only.
    • A team that goes out wins the round. Going out with 0-0 or 6-6 as the last tile makes a General: the team gets one.
    • A fish does not count: the round is dealt again, nothing is written.
    • The losing team gives its place to the next team waiting; a team that made a General gives its own place instead.
    • The match is played against the clock (minutes=30 or 60): when time is up the round under way is played out. Places by Generals, then rounds won, then lot.
