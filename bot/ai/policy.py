"""Fast move policies on plain values: random, «heaviest tile first», and the normal
heuristic built on the pressure principles of seed 000 (В. Ильичев, «Наука и жизнь»).

The normal heuristic scores every legal move by the table it leaves (the true open ends,
spinner arms and closed doubles included: `placement`) and plays the best.

Козёл and its line games (and Осёл, scored as Козёл):

* shed heavy tiles and doubles early (the «минимализм» of Козёл; doubles are ballast), and
  several doubles at once where the rules allow it;
* block: prefer ends the next opponent is unlikely to match (its known voids and the
  hypergeometric chance over the unseen tiles) — «не позволяйте противнику продолжать
  давление», «прокатить соперника»; a closed double (Осёл) blocks its arm for good;
* support the partners in team play: avoid ends they are unlikely to match;
* pressure: keep tiles that fit the ends you leave (a suit you hold many of);
* keep suit variety in the hand (the defensive strategy);
* do not open a fresh suit unless you hold three or more of it (principle 7);
* make or avoid a fish by comparing the hand totals (principle 4) — closing the last open
  arms too.

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

The point-scoring games (Телефон, Muggins, Fives and Threes: `race_scores`, each with its
game's `RaceWeights`) count in fives (5 on the ends):

* take points now: what the move scores for the side, at its score (with `exact` a move
  past the target scores nothing);
* do not leave the next player an easy score (its expected best reply);
* keep a follow-up that scores, and tiles that fit;
* block harder when ahead;
* shed heavy tiles as the round's end nears (Телефон, Muggins: the winner takes the
  others' pips; Fives and Threes never counts a hand);
* Fives and Threes: a move that wins the race at once first of all, and going out on the
  end that scores most.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from bot.ai.knobs import KNOBS, Heuristic, TileCost
from bot.ai.knowledge import allowed_tiles
from bot.ai.weights import DEFAULT, RaceWeights, Weights
from bot.game.events import DoublesPlayed, TilePlayed, WentOut
from bot.game.moves import Draw, Move, Pass, Play, PlayDoubles
from bot.game.rules import RuleSet, Spinner
from bot.game.table import Spread, attach, ends_sum, fitting, is_blocked, lead
from bot.game.tiles import tiles_of
from bot.game.view import SeatView

WIN = 1e9  # the score of a move that empties the hand
AHEAD_CAP = 3.0  # the most the block's weight grows by when ahead (`RaceWeights.ahead`)
SURE = WIN / 2  # Bykovo: a move that wins the round for sure, short of going out
LOCK_PLACE = 10.0  # Bykovo: the round's first place, in pips, on top of the hand it saves
NO_REASON = -100.0  # Bykovo: a pass without a reason


class Position(NamedTuple):
    """What the normal heuristic looks at: one seat's hand and what is public."""

    rules: RuleSet
    seat: int
    hand: int
    ends: tuple[int, ...]
    spread: Spread
    on_table: int
    sizes: Sequence[int]  # tiles per seat
    voids: Sequence[int]  # per seat, the suits it is known to lack
    scores: Sequence[int]  # per side, the score so far
    last: int | None = None  # who placed the last tile (Bykovo: the winner of a block)
    gone: bool = False  # Bykovo: someone went out, the circle is being finished
    wins: Sequence[int] = ()  # «Генерал»: per side, the rounds won so far


def last_placer(history: Iterable[object]) -> int | None:
    """The seat that put the last tile down this round, from its public events."""
    last = None
    for event in history:
        if isinstance(event, TilePlayed | DoublesPlayed):
            last = event.seat
    return last


def view_position(view: SeatView, voids: Sequence[int]) -> Position:
    """The position of the view's seat."""
    return Position(
        rules=view.rules,
        seat=view.seat,
        hand=view.hand,
        ends=view.ends,
        spread=view.spread,
        on_table=view.on_table,
        sizes=view.hand_sizes,
        voids=voids,
        scores=view.tally.scores,
        last=last_placer(view.history),
        gone=any(isinstance(e, WentOut) for e in view.history),
        wins=view.tally.wins,
    )


def random_move(moves: Sequence[Move], rng: random.Random) -> Move:
    """The easy level: any legal move."""
    return moves[rng.randrange(len(moves))]


def heaviest_move(rules: RuleSet, moves: Sequence[Move]) -> Move:
    """The «heaviest tile first» baseline: the biggest tile, else draw, else pass."""
    values = rules.tiles.values

    def weight(move: Move) -> int:
        if isinstance(move, Play):
            return values[move.tile]
        if isinstance(move, PlayDoubles):
            return sum(values[t] for t in move.tiles)
        return -1 if isinstance(move, Draw) else -2

    return max(moves, key=weight)


def placement(
    rules: RuleSet, ends: tuple[int, ...], spread: Spread, move: Play | PlayDoubles
) -> tuple[int, tuple[int, ...], Spread]:
    """The tiles `move` puts down, and the open ends and spread it leaves."""
    tiles = rules.tiles
    if isinstance(move, Play):
        if not ends:
            return (1 << move.tile, *lead(tiles, rules.spinner, move.tile))
        laid = attach(tiles, rules.spinner, ends, spread, move.tile, move.end, move.closed)
        if laid is None:
            raise ValueError(f"{tiles.name(move.tile)} does not fit arm {move.end}")
        return (1 << move.tile, *laid)
    faces = move.closed or (False,) * len(move.tiles)
    for tile, end, closed in zip(move.tiles, move.ends, faces, strict=True):
        laid = attach(tiles, rules.spinner, ends, spread, tile, end, closed)
        if laid is None:
            raise ValueError(f"{tiles.name(tile)} does not fit arm {end}")
        ends, spread = laid
    return tiles.mask(move.tiles), ends, spread


@cache
def p_none(pool: int, fitting: int, held: int) -> float:
    """The chance that `held` tiles dealt from `pool` miss all `fitting` ones."""
    if held > pool - fitting:
        return 0.0
    p = 1.0
    for i in range(held):
        p *= (pool - fitting - i) / (pool - i)
    return p


@cache
def tile_costs(rules: RuleSet) -> tuple[int, ...]:
    """What each tile costs left in a hand: its pips, or (the room) its value as a hand of
    its own, 10 for 0-0."""
    if KNOBS[rules.scoring].costs is TileCost.ALONE:
        return tuple(rules.format.hand_value(rules, 1 << t) for t in range(rules.tiles.size))
    return rules.tiles.values


def next_in_play(seat: int, sizes: Sequence[int]) -> int:
    """The next seat clockwise that holds tiles (the room's out seats hold none)."""
    nxt = seat
    while True:
        nxt = nxt + 1 if nxt + 1 < len(sizes) else 0
        if sizes[nxt] or nxt == seat:
            return nxt


def partners(rules: RuleSet, seat: int, sizes: Sequence[int]) -> list[int]:
    """The other seats of the seat's side that still hold tiles."""
    side = rules.side_of(seat)
    return [s for s in range(rules.players) if s != seat and sizes[s] and rules.side_of(s) == side]


def normal_move(position: Position, moves: Sequence[Move]) -> Move:
    """The normal heuristic's move for the position's seat."""
    if len(moves) == 1:
        return moves[0]
    return best(moves, normal_scores(position, moves))


def best(moves: Sequence[Move], scores: Sequence[float]) -> Move:
    """The move with the highest score (the first of equal ones)."""
    return moves[max(range(len(moves)), key=scores.__getitem__)]


def normal_scores(position: Position, moves: Sequence[Move]) -> list[float]:
    """The normal heuristic's score of each move (higher is better; `WIN` goes out)."""
    knobs = KNOBS[position.rules.scoring]
    if knobs.heuristic is Heuristic.RACE:
        return race_scores(position, moves, knobs.race_weights)
    return goat_scores(position, moves)


def goat_scores(position: Position, moves: Sequence[Move], w: Weights = DEFAULT) -> list[float]:
    """Козёл's scores: shed, block, follow, keep variety, fish when it pays."""
    rules, seat, hand, ends, spread, on_table, sizes, voids = position[:8]
    tiles = rules.tiles
    locks = KNOBS[rules.scoring].heuristic is Heuristic.LOCK
    suit_masks = tiles.suit_masks
    costs = tile_costs(rules)
    unseen = tiles.all_mask & ~hand & ~on_table
    nxt = next_in_play(seat, sizes)
    nxt_pool = unseen & allowed_tiles(tiles, voids[nxt])
    nxt_count, nxt_held = nxt_pool.bit_count(), sizes[nxt]
    mates = [
        (unseen & allowed_tiles(tiles, voids[m]), sizes[m]) for m in partners(rules, seat, sizes)
    ]
    hand_suits = sum(1 for m in suit_masks if hand & m)
    generals = general_doubles(rules)
    chasing = bool(generals) and trails(position)  # else play for the round, burying nothing
    scores: list[float] = []
    for move in moves:
        if isinstance(move, Pass):
            scores.append(bykovo_pass(position, w) if locks else w.pass_)
            continue
        if not isinstance(move, Play | PlayDoubles):
            scores.append(0.0)
            continue
        placed, new, _ = placement(rules, ends, spread, move)
        rest = hand & ~placed
        if not rest:
            scores.append(WIN)
            continue
        if locks and ends and not position.gone:
            stuck = p_stuck(position, fitting(tiles, new), placed)
            if stuck >= 1.0:  # nobody else can play: the round is this seat's
                scores.append(SURE)
                continue
            bonus = stuck * w.lock * (sum(costs[t] for t in tiles_of(rest)) + LOCK_PLACE)
        else:
            bonus = 0.0
        if isinstance(move, PlayDoubles) and rules.spinner is Spinner.NONE:  # Sea Goat's pair
            scores.append(w.pips * sum(costs[t] for t in move.tiles) + 2 * w.double + w.block)
            continue
        score = bonus
        if generals & rest:
            kept = general_kept(rules, rest & generals, new, on_table | placed)
            if chasing or kept < 0:
                score += w.general * kept
        for t in tiles_of(placed):
            score += w.pips * costs[t]
        score += w.double * (placed & tiles.doubles_mask).bit_count()
        if ends and not locks and is_blocked(rules.dead_ends, new, on_table | placed):
            score += w.fish * _fish_margin(rules, seat, rest, unseen, sizes)
            scores.append(score)
            continue
        fits = fitting(tiles, new)
        score += w.block * p_none(nxt_count, (nxt_pool & fits).bit_count(), nxt_held)
        for pool, held in mates:
            score -= (
                w.partner / len(mates) * p_none(pool.bit_count(), (pool & fits).bit_count(), held)
            )
        score += w.follow * min(2, (rest & fits).bit_count())
        lost = sum(1 for m in suit_masks if placed & m and not rest & m)
        score += w.variety * (hand_suits - lost)
        if isinstance(move, Play) and ends:
            exposed = new[move.end]
            if (
                exposed >= 0
                and not on_table & suit_masks[exposed]
                and (rest & suit_masks[exposed]).bit_count() < 3
            ):
                score -= w.fresh
        scores.append(score)
    return scores


class Replies(NamedTuple):
    """Per tile, the most fives a reply with it scores; `scoring`: the tiles that score."""

    best: tuple[int, ...]
    scoring: int

    def of(self, mask: int) -> list[int]:
        """What each scoring tile of `mask` scores."""
        best = self.best
        return [best[t] for t in tiles_of(mask & self.scoring)]


@lru_cache(maxsize=1 << 16)
def reply_fives(rules: RuleSet, ends: tuple[int, ...], spread: Spread, score: int) -> Replies:
    """Per tile, the most fives attaching it to one of these open ends would score for a
    side at `score` (`stake`)."""
    tiles = rules.tiles
    best = [0] * tiles.size
    scoring = 0
    for arm, value in enumerate(ends):
        if value < 0:
            continue
        for t in tiles_of(tiles.suit_masks[value]):
            laid = attach(tiles, rules.spinner, ends, spread, t, arm)
            if laid is not None:
                got = fives_of(rules, score, ends_sum(tiles, laid[0], laid[1], None))
                if got > best[t]:
                    best[t] = got
                    scoring |= 1 << t
    return Replies(tuple(best), scoring)


def fives_of(rules: RuleSet, score: int, total: int, out: bool = False) -> int:
    """What a move scores, counted in fives, for a side at `score` when the open ends add up
    to `total` (`out`: the mover's last tile)."""
    return rules.format.move_points(rules, score, total, out) * KNOBS[rules.scoring].point


def stake(rules: RuleSet, score: int) -> int:
    """The score a side's move points depend on: its own with `exact` (a move past the
    target scores nothing), else 0, which keeps `reply_fives`' cache small."""
    return score if rules.exact else 0


def in_fives(rules: RuleSet, points: int) -> float:
    """A score of the point-scoring games counted in fives (`Knobs.point` a point)."""
    return float(points * KNOBS[rules.scoring].point)


def expected_best(points: list[int], share: float) -> float:
    """The expected best of `points` a hand holds, each tile held with chance `share`."""
    expected, missed = 0.0, 1.0
    for p in sorted(points, reverse=True):
        expected += missed * share * p
        missed *= 1 - share
    return expected


def race_scores(position: Position, moves: Sequence[Move], w: RaceWeights) -> list[float]:
    """The races' scores, in fives: points now (the race won at once: `reach`), the next
    seat's threat, the follow-up, blocking (harder when ahead) and shedding pips; going out
    first, by its points (`out`)."""
    rules, seat, hand, ends, spread, on_table, sizes, voids, tally = position[:9]
    tiles = rules.tiles
    costs = tile_costs(rules)
    unseen = tiles.all_mask & ~hand & ~on_table
    nxt = next_in_play(seat, sizes)
    nxt_pool = unseen & allowed_tiles(tiles, voids[nxt])
    nxt_count, nxt_held = nxt_pool.bit_count(), sizes[nxt]
    share = min(1.0, nxt_held / max(1, nxt_count))
    rival = -1.0 if rules.side_of(nxt) == rules.side_of(seat) else 1.0
    side = rules.side_of(seat)
    mine, theirs = stake(rules, tally[side]), stake(rules, tally[rules.side_of(nxt)])
    needs = (rules.goal - tally[side]) * KNOBS[rules.scoring].point  # in fives, to win
    lead_by = tally[side] - max(s for i, s in enumerate(tally) if i != side)
    block = w.block * (1 + min(AHEAD_CAP, max(0.0, w.ahead * in_fives(rules, lead_by))))
    others = [n for s, n in enumerate(sizes) if n and rules.side_of(s) != side]
    scores: list[float] = []
    for move in moves:
        if isinstance(move, Pass):
            scores.append(w.pass_)
            continue
        if not isinstance(move, Play | PlayDoubles):
            scores.append(0.0)
            continue
        placed, new, new_spread = placement(rules, ends, spread, move)
        rest = hand & ~placed
        lone = placed.bit_length() - 1 if not ends and placed.bit_count() == 1 else None
        now = fives_of(rules, mine, ends_sum(tiles, new, new_spread, lone), not rest)
        won = w.reach if now >= needs else 0.0
        if not rest:
            scores.append(WIN + w.out * now + won)
            continue
        score = now + won
        left = rest.bit_count()
        race = left / (left + min(others, default=left))
        shed = sum(costs[t] for t in tiles_of(placed))
        score += w.pips * shed * (0.5 + race)
        score += w.double * (placed & tiles.doubles_mask).bit_count()
        if ends and is_blocked(rules.dead_ends, new, on_table | placed):
            score += w.fish * _fish_margin(rules, seat, rest, unseen, sizes)
            scores.append(score)
            continue
        replies = reply_fives(rules, new, new_spread, theirs)
        score -= rival * w.threat * expected_best(replies.of(nxt_pool), share)
        if theirs != mine:
            replies = reply_fives(rules, new, new_spread, mine)
        score += w.again * max(replies.of(rest), default=0)
        fits = fitting(tiles, new)
        score += rival * block * p_none(nxt_count, (nxt_pool & fits).bit_count(), nxt_held)
        score += w.follow * min(2, (rest & fits).bit_count())
        scores.append(score)
    return scores


def _fish_margin(rules: RuleSet, seat: int, rest: int, unseen: int, sizes: Sequence[int]) -> float:
    """How many points the other sides still in are expected to hold above this seat's side."""
    per_tile = rules.format.hand_value(rules, unseen) / max(1, unseen.bit_count())
    side = rules.side_of(seat)
    totals: dict[int, float] = {}
    for s, size in enumerate(sizes):
        if size:
            held = rules.format.hand_value(rules, rest) if s == seat else size * per_tile
            totals[rules.side_of(s)] = totals.get(rules.side_of(s), 0.0) + held
    others = [v for s, v in totals.items() if s != side]
    return sum(others) / max(1, len(others)) - totals[side]


def p_stuck(position: Position, fits: int, placed: int = 0) -> float:
    """The chance that no other seat still in the round holds a tile in `fits` once the
    seat has put `placed` down: 1 when every such tile is on the table or in the seat's
    hand; 0 when every unseen tile is in a hand (no bazaar hides any) and one of them fits;
    else the chance that each hand misses them, from its known voids."""
    rules, seat, hand, _, _, on_table, sizes, voids = position[:8]
    tiles = rules.tiles
    unseen = tiles.all_mask & ~hand & ~on_table & ~placed
    if not unseen & fits:
        return 1.0
    others = [s for s, size in enumerate(sizes) if size and s != seat]
    if sum(sizes[s] for s in others) >= unseen.bit_count():
        return 0.0
    p = 1.0
    for s in others:
        pool = unseen & allowed_tiles(tiles, voids[s])
        p *= p_none(pool.bit_count(), (pool & fits).bit_count(), sizes[s])
    return p


@cache
def general_doubles(rules: RuleSet) -> int:
    """«Генерал»: the doubles that make a General as the last tile — 0-0 and the top
    double (§8); none in the other games."""
    if KNOBS[rules.scoring].heuristic is not Heuristic.GENERAL:
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
