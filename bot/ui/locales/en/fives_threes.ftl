# Fives and Threes (docs/RULES.md §11).

preset-fives_threes = Fives and Threes: the British pub game; ends that divide by 3 or 5 score S/3 and S/5, no boneyard, to 61, highest wins
preset-name-fives_threes = Fives and Threes
won-fives_threes = { $exact ->
        [yes] the first to land on exactly { $goal } wins; a move past it scores nothing
       *[no] the first to reach { $goal } wins at once; more is better, no goats
    }
option-exact-yes = land exactly
option-exact-no = may pass it

rules-fives_threes =
    🍺 Fives and Threes: 2–4 players, each for themselves, or four as two pairs. Points are good here.
    • 7 tiles each for two, 5 for three or four. The rest stay aside: no boneyard, no redeal.
    • The first round is led by a seat drawn by lot; each later round by the seat after the last round's leader. The lead may be any tile.
    • Two ends only, no spinner. A double lies crosswise and counts both halves at an end; the first tile counts both its halves (5-5 makes 10).
    • After every tile the open ends add up to S: S/3 if 3 divides it, S/5 if 5 does, both if both (15 → 5 + 3 = 8).
    • No tile to play: you knock. Going out scores 1 more. A full circle of knocks blocks the round: nobody scores more; hands are never counted.
    • The first to reach 61 wins at once. With exact=yes you must land on 61 exactly: a move that would pass it scores nothing.
