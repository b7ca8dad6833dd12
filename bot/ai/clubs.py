"""The club formats' own reasoning for the normal heuristic.

Bykovo (§4), where whoever placed the last tile wins a fish or a «сортир» and a voluntary
pass is allowed (`bykovo_pass`):

* lock the table: a play after which no other hand can hold a tile that fits wins the
  round (everyone else knocks), whatever the hand still holds;
* pass only for a reason: the seat placed the last tile and nobody else can play the
  ends as they are (passing wins by «сортир»), or the next seat is about to go out and
  lacks the ends' suits while a play would open one it may hold (holding); never after
  someone went out, never when someone else placed the last tile and nothing else fits
  (the pass would hand them the round), and not to block alone — a pass loses a turn
  against every other seat, and the hand left is the seat's score.

«Генерал» (§8), where going out with 0-0 or 6-6 as the last tile makes a General (the
match's score) and rounds won break ties:

* when the seat's team trails (on Generals, then rounds won: `trails`), keep such a double
  for last while it can still be played — an end shows its suit, or another tile of the
  suit is still to come (`general_kept`); a kept double that can no longer be played would
  cost the round;
* level or ahead, play for the round (but never bury the double): holding it back loses
  more rounds than its Generals win matches (bench/arena.py --only general_normal_vs_blind,
  8 000 matches of 12 rounds: keeping it always won 49.3 % of the matches, keeping it only
  when trailing 51.4–51.9 %).
"""

from __future__ import annotations

from bot.ai.knobs import KNOBS, Heuristic
from bot.ai.knowledge import allowed_tiles
from bot.ai.position import WIN, Position, next_in_play, p_none, p_stuck, tile_costs
from bot.ai.weights import DEFAULT, Weights
from bot.game.rules import RuleSet
from bot.game.table import fitting
from bot.game.tiles import tiles_of

SURE = WIN / 2  # Bykovo: a move that wins the round for sure, short of going out


LOCK_PLACE = 10.0  # Bykovo: the round's first place, in pips, on top of the hand it saves


NO_REASON = -100.0  # Bykovo: a pass without a reason


def general_doubles(rules: RuleSet) -> int:
    """«Генерал»: the doubles that make a General as the last tile — 0-0 and the top
    double (§8); none in the other games."""
    if KNOBS[rules.format].heuristic is not Heuristic.GENERAL:
        return 0
    tiles = rules.tiles
    return 1 << tiles.tile(0, 0) | 1 << tiles.tile(tiles.max_pip, tiles.max_pip)


def trails(position: Position) -> bool:
    """«Генерал»: another team is ahead of the seat's on Generals, then rounds won."""
    side = position.rules.side_of(position.seat)
    standing = list(zip(position.scores, position.wins, strict=True))
    return any(other > standing[side] for other in standing)


def general_kept(rules: RuleSet, kept: int, ends: tuple[int, ...], down: int) -> int:
    """«Генерал»: +1 when one of the `kept` doubles can still be played after the move —
    an end shows its suit, or a tile of its suit is not down yet — else -1 (stuck in the
    hand, it keeps the seat from going out)."""
    tiles = rules.tiles
    for double in tiles_of(kept):
        suit = tiles.pips[double][0]
        if suit in ends or tiles.suit_masks[suit] & ~down & ~(1 << double):
            return 1
    return -1


def bykovo_pass(position: Position, w: Weights = DEFAULT) -> float:
    """A voluntary pass in Bykovo (§4.1), scored against the plays of `goat_scores`.

    Only with a reason: the seat placed the last tile and nobody else can play the ends as
    they are (everyone knocks and the «сортир» is the seat's: `SURE`, weighed by that
    chance otherwise), or the next seat can go out next turn, lacks the ends' suits now and
    would not after a play (holding: the block counts more, as much as a play's shed would
    have). Without one the pass scores `NO_REASON`: after someone went out the circle just
    ends, and when someone else placed the last tile a pass only hands them the round."""
    rules, seat, hand, ends, _, on_table, sizes, voids = position[:8]
    if position.gone or not ends:
        return NO_REASON
    tiles = rules.tiles
    fits = fitting(tiles, ends)
    stuck = p_stuck(position, fits)
    if position.last == seat:
        if stuck >= 1.0:
            return SURE
        costs = tile_costs(rules)
        win = stuck * w.lock * (sum(costs[t] for t in tiles_of(hand)) + LOCK_PLACE)
    elif stuck >= 1.0:
        return NO_REASON
    else:
        win = 0.0
    suits = sum(1 for m in tiles.suit_masks if hand & m)
    kept = w.follow * min(2, (hand & fits).bit_count()) + w.variety * suits + w.pass_ + win
    nxt = next_in_play(seat, sizes)
    if sizes[nxt] == 1:
        unseen = tiles.all_mask & ~hand & ~on_table
        pool = unseen & allowed_tiles(tiles, voids[nxt])
        if p_none(pool.bit_count(), (pool & fits).bit_count(), 1) >= 1.0:
            return w.block * (1 + w.hold) + kept
    return kept if win else NO_REASON
