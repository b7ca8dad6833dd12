"""Property tests: whole games of random legal moves over every preset and some option mixes.

Each example plays one game from a random seed, picking moves at random among
`legal_moves`, and checks RULES §10 (conservation, only legal moves, serialisable,
replayable), §1.6 (fish), §1.8 (hidden hands) and the §2 score sheet at every step.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.game import (
    Draw,
    IllegalMoveError,
    Pass,
    Phase,
    Play,
    PlayDoubles,
    apply,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
    seat_view,
)
from bot.game.engine import PASS_CIRCLES, rest_first, time_up
from bot.game.events import (
    EndReason,
    GameEnded,
    Knocked,
    Passed,
    RoundEnd,
    RoundEnded,
    RoundStarted,
    Scored,
    TilePlayed,
    TilesDrawn,
    WentOut,
)
from bot.game.formats.general import GENERAL_PLAYERS
from bot.game.rules import DrawMode, FishMode, RuleSet, Spinner
from bot.game.scoring import Tally
from bot.game.serial import (
    NEXT_ROUND,
    TIME_UP,
    abandon_entry,
    encode,
    leave_entry,
    replay,
    rest_entry,
    state_from_json,
    state_to_json,
    step,
)
from bot.game.shuffle import shuffled
from bot.game.state import GameState
from bot.game.table import fitting, is_blocked
from bot.game.tiles import tiles_of
from tests.helpers import MAX_STEPS, fives, hand_value, random_game, seats

CONFIGS = [
    ("goat", 2),
    ("goat", 3),
    ("goat", 4),
    ("goat_teams", 4),
    ("sea_goat", 2),
    ("sea_goat teams=yes", 4),
    ("classic", 2),
    ("classic", 3),
    ("classic", 4),
    ("goat auto_draw=no", 2),
    ("goat auto_draw=no", 3),
    ("goat draw=one keep=1", 2),
    ("goat draw=one keep=1", 3),
    ("goat draw=none voluntary_pass=yes", 2),
    ("goat draw=none voluntary_pass=yes", 4),
    ("goat fish=all", 3),
    ("goat_teams fish=all", 4),
    ("goat open_threshold=0 target=60", 3),
    ("sea_goat auto_draw=no", 2),
    ("classic draw=one", 3),
    ("room", 2),
    ("room", 6),
    ("room", 10),
    ("room max_pip=6", 4),
    ("room set=12", 3),
    ("room set=12", 10),
    ("room teams=yes", 6),
    ("room teams=yes team_size=5", 10),
    ("room set=12 teams=yes team_size=3", 9),
    ("donkey", 2),
    ("donkey", 3),
    ("donkey", 4),
    ("donkey teams=yes", 4),
    ("telephone", 2),
    ("telephone", 4),
    ("telephone doubles=4", 3),
    ("telephone teams=yes", 4),
    ("muggins", 2),
    ("muggins", 3),
    ("muggins keep=2", 2),
    ("muggins teams=yes", 4),
    ("bykovo", 4),
    ("bykovo", 5),
    ("bykovo", 6),
    ("bykovo", 7),
]
RULES = {(text, n): parse_rules(text, players=n) for text, n in CONFIGS}


def blocks_only_on_a_closed_line(rules: RuleSet) -> bool:
    """A line (no spinner, no closed doubles), drawn until playable, nothing kept, no
    voluntary pass: fish needs equal ends (§1.6)."""
    return (
        rules.draw is DrawMode.UNTIL_PLAYABLE
        and not rules.keep
        and not rules.voluntary_pass
        and rules.spinner is Spinner.NONE
        and not rules.closed_doubles
    )


configs = st.sampled_from(CONFIGS)
goat_configs = st.sampled_from([c for c in CONFIGS if RULES[c].scoring == "goat"])
race_configs = st.sampled_from([c for c in CONFIGS if RULES[c].format.scores_in_play])
collect_configs = st.sampled_from(
    [c for c in CONFIGS if RULES[c].scoring in {"sea_goat", "classic"}]
)
seeds = st.integers(0, 2**32)
PROPERTY = settings(max_examples=100, deadline=None, database=None)
HEAVY = settings(max_examples=40, deadline=None, database=None)  # JSON at every step
PASS = Pass()


# -- invariants ----------------------------------------------------------------------------


def check_conservation(state: GameState) -> None:
    """Hands + bazaar + table = the whole set, no duplicates (§10)."""
    tiles = state.rules.tiles
    seen = 0
    count = 0
    for hand in state.hands:
        assert not seen & hand
        seen |= hand
        count += hand.bit_count()
    bazaar = tiles.mask(state.bazaar)
    assert len(set(state.bazaar)) == len(state.bazaar)
    assert not seen & bazaar
    assert not seen & state.on_table
    assert not bazaar & state.on_table
    count += len(state.bazaar) + state.on_table.bit_count()
    assert seen | bazaar | state.on_table == tiles.all_mask
    assert count == tiles.size
    table = state.table
    laid = [] if table.first is None else [table.first, *(t for arm in table.arms for t in arm)]
    assert len(laid) == len(set(laid))
    assert tiles.mask(laid) == state.on_table
    if laid:
        assert table.ends == state.ends
    else:
        assert state.ends == ()
    assert state.fits == fitting(tiles, state.ends)


def check_phase(state: GameState) -> None:
    if state.phase is Phase.PLAYING:
        assert 0 <= state.to_move < state.rules.players
        assert legal_moves(state), "the seat to move has nothing to do"
        assert state.outcome is None
    else:
        assert legal_moves(state) == []
        assert state.last_round is not None
        assert (state.outcome is not None) is (state.phase is Phase.GAME_OVER)


def random_move(rules: RuleSet, rng: random.Random):
    size = rules.tiles.size
    kind = rng.randrange(10)
    if kind == 0:
        return Draw()
    if kind == 1:
        return Pass()
    if kind == 2:
        doubles = [t for t in range(size) if rules.tiles.is_double(t)]
        count = rng.randrange(1, 5)
        closed = tuple(rng.random() < 0.3 for _ in range(count)) if rng.random() < 0.5 else ()
        return PlayDoubles(
            tuple(rng.sample(doubles, count)), tuple(rng.sample(range(-1, 5), count)), closed
        )
    return Play(rng.randrange(-1, size + 1), rng.randrange(-1, 5), rng.random() < 0.2)


def snapshot(state: GameState) -> str:
    return json.dumps(state_to_json(state), sort_keys=True)


# -- properties -----------------------------------------------------------------------------


@PROPERTY
@given(configs, seeds, seeds)
def test_random_play_terminates_and_conserves_the_set(config, seed, choice):
    rules = RULES[config]
    rounds = moves = 0
    for s in random_game(rules, seed, choice):
        check_conservation(s.after)
        check_phase(s.after)
        if s.move is None:
            rounds += 1
            (started,) = s.events
            assert isinstance(started, RoundStarted)
            assert started.round_no == rounds == s.after.round_no
            playing = [not s.after.sits_out(seat) for seat in range(rules.players)]
            still = sum(not s.after.is_out(seat) for seat in range(rules.players))
            assert sum(playing) == min(rules.at_table, still)
            size = rules.hand_for(sum(playing))
            assert s.after.hand_sizes() == tuple(size if p else 0 for p in playing)
        else:
            moves += 1
            assert s.after.round_no == s.before.round_no
    assert s.after.phase is Phase.GAME_OVER
    assert rounds <= 500
    # with voluntary passes up to PASS_CIRCLES circles of passes follow each tile
    passes = rules.players * PASS_CIRCLES if rules.voluntary_pass else 2
    assert moves <= rounds * rules.tiles.size * (passes + 1)


@HEAVY
@given(configs, seeds, seeds)
def test_random_illegal_moves_are_rejected_and_change_nothing(config, seed, choice):
    rules = RULES[config]
    rng = random.Random(choice)
    tried = 0
    for s in random_game(rules, seed, choice):
        state = s.after
        legal = legal_moves(state)
        for _ in range(2):
            move = random_move(rules, rng)
            if move in legal:
                after, events = apply(state, move)
                assert events
                assert after != state
                continue
            saved = snapshot(state)
            try:
                apply(state, move)
            except IllegalMoveError as error:
                assert error.reason
                tried += 1
            else:
                raise AssertionError(f"{move} was accepted but is not among {legal}")
            assert snapshot(state) == saved
    assert tried


@PROPERTY
@given(configs, seeds, seeds, st.booleans())
def test_replay_of_the_json_log_gives_the_live_state(config, seed, choice, leave):
    rules = RULES[config]
    log = []
    rng = random.Random(choice)
    state = None
    for s in random_game(rules, seed, choice):
        if s.before is not s.after:
            log.append(NEXT_ROUND if s.move is None else encode(s.move))
        state = s.after
        if leave and s.after.phase is not Phase.GAME_OVER and rng.random() < 0.01:
            # a seat still in the game (between rounds the one to move may be out: the room)
            still_in = [x for x in range(rules.players) if not s.after.is_out(x)]
            log.append(
                abandon_entry(s.after.to_move if s.after.to_move in still_in else still_in[0])
            )
            state = step(state, log[-1])
            break
    log = json.loads(json.dumps(log))
    assert replay(rules, seats(rules.players), seed, log) == state
    if leave and state.outcome.reason == "timeout":
        assert state.outcome.leaver is not None
        places = {p.seat: p for p in state.outcome.places}
        no_goats = rules.scoring in {"room", "bykovo"} or rules.format.scores_in_play
        assert places[state.outcome.leaver].goat is not no_goats
        assert places[state.outcome.leaver].place == max(p.place for p in places.values())
        assert places[state.outcome.leaver].rating_points == 0


@HEAVY
@given(configs, seeds, seeds)
def test_state_json_round_trip_at_every_step(config, seed, choice):
    rules = RULES[config]
    for s in random_game(rules, seed, choice):
        data = json.loads(json.dumps(state_to_json(s.after)))
        back = state_from_json(data)
        assert back == s.after
        if back.last_round is not None:  # reasons come back as their enums
            assert type(back.last_round.reason) is RoundEnd
        if back.outcome is not None:
            assert type(back.outcome.reason) is EndReason


@PROPERTY
@given(configs, seeds, seeds)
def test_fish_only_on_a_closed_line_unless_the_bazaar_is_held_back(config, seed, choice):
    """§1.6: with ordinary drawing a round blocks only with equal ends and all plain tiles of
    that suit out, and the fisherman placed the last tile. On a line with different ends the
    tiles not on the table always hold one that fits. A spinner game's layout is such a line
    until a double lies; after that it blocks only when no hand holds a tile that fits and
    the bazaar cannot help (§5)."""
    rules = RULES[config]
    doubles = rules.tiles.doubles_mask
    closes_a_line = rules.tiles.plain_suit_masks if rules.format.line_fish else rules.dead_ends
    for s in random_game(rules, seed, choice):
        state = s.after
        line = len(state.ends) == 2 and min(state.ends) >= 0
        if state.phase is Phase.PLAYING and line and len(set(state.ends)) == 2:
            assert state.rules.tiles.all_mask & ~state.on_table & state.fits
            if not state.drawable() and blocks_only_on_a_closed_line(rules):
                assert any(hand & state.fits for hand in state.hands)
        if state.phase is Phase.PLAYING and state.ends and not state.on_table & doubles:
            assert not is_blocked(closes_a_line, state.ends, state.on_table)  # no play on
        for event in s.events:
            if isinstance(event, RoundEnded) and event.reason == "fish":
                assert event.seat == state.last_player
                assert state.next_leader == event.seat
                if blocks_only_on_a_closed_line(rules):
                    assert state.ends[0] == state.ends[1]
                    assert is_blocked(rules.dead_ends, state.ends, state.on_table)
                line_closed = not state.on_table & doubles and is_blocked(
                    closes_a_line, state.ends, state.on_table
                )  # a line before its spinner (§1.6)
                if rules.spinner is not Spinner.NONE and not line_closed:  # §5: nobody moves
                    assert not any(hand & state.fits for hand in state.hands)
                    off_table = rules.tiles.all_mask & ~state.on_table
                    assert not state.drawable() or not off_table & state.fits
            if isinstance(event, RoundEnded) and event.reason == "out":
                assert not state.hands[event.seat]
                assert state.next_leader == event.seat


def side_values(rules: RuleSet, hands: tuple[int, ...]) -> list[int]:
    values = [0] * rules.sides
    for seat, hand in enumerate(hands):
        values[rules.side_of(seat)] += hand_value(rules, hand)
    return values


def check_goat_round(rules: RuleSet, before: Tally, ended: RoundEnded, after: Tally) -> None:
    """The §2.4/§2.5 score sheet, recomputed from the hands."""
    values = side_values(rules, tuple(rules.tiles.mask(r.hand) for r in ended.results))
    first = {r.side: r for r in reversed(ended.results)}
    sides = range(rules.sides)
    for s in sides:
        assert after.scores[s] >= before.scores[s]
        assert after.opened[s] or not before.opened[s]
        assert after.remembered[s] == 0 or not after.opened[s]
        assert after.scores[s] == 0 or after.opened[s]
        assert (
            first[s].hand_value
            + sum(r.hand_value for r in ended.results if r.side == s and r is not first[s])
            == values[s]
        )
    if ended.eggs:
        assert ended.reason == "fish"
        assert rules.own.fish is FishMode.ONE
        assert after == before._replace(carry=before.carry + sum(values))
        return
    if ended.reason == "out":
        out = rules.side_of(ended.seat)
        losers = [s for s in sides if s != out]
        points = {s: values[s] for s in losers}
    elif rules.own.fish is FishMode.ALL:
        losers = list(sides)
        points = {s: values[s] for s in losers}
    else:
        top = max(values)
        assert values.count(top) == 1
        losers = [values.index(top)]
        points = {losers[0]: sum(values)}
    takers = [s for s in sides if first[s].took_carry]
    if takers:
        assert before.carry
        (taker,) = takers
        assert taker in losers
        assert all(points[taker] > points[s] for s in losers if s != taker)
        points[taker] += before.carry
        assert after.carry == 0
    else:
        assert after.carry == before.carry
    for s in sides:
        assert first[s].round_points == points.get(s, 0)
        score, remembered = before.scores[s], before.remembered[s]
        if s not in losers:
            remembered = 0
        elif before.opened[s]:
            score += points[s]
        elif rules.own.open_threshold and points[s] < rules.own.open_threshold:
            remembered += points[s]
        else:
            score, remembered = score + points[s] + remembered, 0
        assert (after.scores[s], after.remembered[s]) == (score, remembered)
        assert first[s].score_after == score
        assert first[s].remembered_after == remembered


@PROPERTY
@given(goat_configs, seeds, seeds)
def test_goat_scores_never_decrease_and_remembered_follows_the_rules(config, seed, choice):
    rules = RULES[config]
    ended_rounds = 0
    for s in random_game(rules, seed, choice):
        for event in s.events:
            if isinstance(event, RoundEnded):
                ended_rounds += 1
                check_goat_round(rules, s.before.tally, event, s.after.tally)
                over = any(score >= rules.target for score in s.after.tally.scores)
                assert (s.after.phase is Phase.GAME_OVER) is over
    assert ended_rounds


@PROPERTY
@given(race_configs, seeds, seeds)
def test_race_points_come_from_fives_and_the_first_to_reach_the_target_wins(config, seed, choice):
    """Телефон and Muggins (§6, §7): every point scored in play is the ends' sum worth its
    fives; scores never fall; the game ends as soon as one side reaches the target, that
    side alone, and it places first."""
    rules = RULES[config]
    for s in random_game(rules, seed, choice):
        before, after = s.before.tally.scores, s.after.tally.scores
        assert all(b >= a for a, b in zip(before, after, strict=True))
        for event in s.events:
            if isinstance(event, Scored):
                assert event.points == fives(rules, event.ends_sum) > 0
                assert event.side == rules.side_of(event.seat)
            if isinstance(event, RoundEnded):
                for r in event.results:
                    assert r.score_before + r.play_points + r.round_points == r.score_after
            if isinstance(event, GameEnded):
                reached = [side for side, score in enumerate(after) if score >= rules.goal]
                assert len(reached) == 1
                assert event.places[0].side == reached[0] and event.places[0].place == 1
                assert not any(p.goat or p.rating_points for p in event.places)
        over = any(score >= rules.goal for score in after)
        assert (s.after.phase is Phase.GAME_OVER) is over


@PROPERTY
@given(collect_configs, seeds, seeds)
def test_collect_scores_one_winner_per_round(config, seed, choice):
    """Sea Goat and classic: at most one side gains per round; Sea Goat with write-off never
    has two sides holding points."""
    rules = RULES[config]
    for s in random_game(rules, seed, choice):
        before, after = s.before.tally.scores, s.after.tally.scores
        gained = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if b > a]
        assert len(gained) <= 1
        if rules.scoring == "sea_goat":
            assert sum(1 for score in after if score) <= 1
            for g in gained:
                assert after[g] - before[g] >= rules.own.record_min
        else:
            assert all(b >= a for a, b in zip(before, after, strict=True))


@PROPERTY
@given(configs, seeds, seeds)
def test_seat_view_reveals_no_other_hand(config, seed, choice):
    rules = RULES[config]
    rng = random.Random(choice)
    for s in random_game(rules, seed, choice):
        state = s.after
        for seat in range(rules.players):
            view = seat_view(state, seat)
            assert view.hand == state.hands[seat]
            assert view.hand_sizes == state.hand_sizes()
            assert view.bazaar_size == len(state.bazaar)
            assert not any(isinstance(e, TilesDrawn) and e.tiles for e in view.history)
            if state.phase is Phase.PLAYING and seat == state.to_move:
                assert view.legal_moves() == legal_moves(state)
            else:
                assert view.legal_moves() == []
            # the same view whatever the hidden tiles are: other hands and the bazaar
            hidden = [t for o, h in enumerate(state.hands) if o != seat for t in tiles_of(h)]
            hidden += state.bazaar
            rng.shuffle(hidden)
            hands, at = [], 0
            for o, hand in enumerate(state.hands):
                if o == seat:
                    hands.append(hand)
                else:
                    n = hand.bit_count()
                    hands.append(rules.tiles.mask(hidden[at : at + n]))
                    at += n
            other = state._replace(hands=tuple(hands), bazaar=tuple(hidden[at:]))
            assert seat_view(other, seat) == view


# -- Bykovo (§4): 4–7 players, random voluntary passes, rests and leavers -----------------

bykovo_players = st.integers(4, 7)
pass_rates = st.sampled_from([0.0, 0.2, 0.5, 0.9])


def check_replay(
    rules: RuleSet, seed: int, steps: Iterable[tuple[GameState, Any, GameState, Any]]
) -> list[Any]:
    """Replaying the log entries of `steps` (`(before, entry, after, events)`, through JSON)
    gives the last state, which survives its own JSON round trip; the log."""
    log, state = [], None
    for _, entry, after, _ in steps:
        if entry is not None:
            log.append(entry)
        state = after
    log = json.loads(json.dumps(log))
    assert replay(rules, seats(rules.players), seed, log) == state
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    return log


def bykovo_log(players: int, seed: int, choice: int, pass_rate: float, shake: bool):
    """A Bykovo game of random legal moves, a voluntary pass at `pass_rate` where one is
    legal; with `shake`, the first round's resting seats are chosen (a `Rest` entry) and
    now and then a player leaves. Yields `(before, entry, after, events)`."""
    rules = parse_rules("bykovo", players=players)
    rng = random.Random(choice)
    state, events = new_game(rules, seats(players), seed)
    yield None, None, state, events
    if shake and players > 4:
        entry = rest_entry(rng.sample(range(players), players - 4))
        after, events = rest_first(state, entry["seats"])
        yield state, entry, after, events
        state = after
    for _ in range(MAX_STEPS):
        if state.phase is Phase.GAME_OVER:
            return
        if state.phase is Phase.ROUND_OVER:
            after, events = next_round(state)
            yield state, NEXT_ROUND, after, events
        elif (
            shake
            and rng.random() < 0.005
            and not state.is_out(state.to_move)
            and (state.to_move not in state.left)
        ):
            entry = leave_entry(state.to_move)
            after, events = step(state, entry), ()
            yield state, entry, after, events
        else:
            legal = legal_moves(state)
            move = PASS if PASS in legal and rng.random() < pass_rate else rng.choice(legal)
            after, events = apply(state, move)
            yield state, encode(move), after, events
        state = after
    raise AssertionError(f"game not over after {MAX_STEPS} moves")


def check_bykovo_round(before: GameState, ended: RoundEnded, after: GameState) -> None:
    """§4.1 and §4.2 recomputed from the round's history and hands."""
    rules, history = before.rules, before.history
    playing = [s for s in range(rules.players) if not before.sits_out(s)]
    assert len(playing) == rules.at_table
    assert sorted(ended.order) == playing
    assert ended.order[0] == ended.seat
    values = {r.seat: r.hand_value for r in ended.results}
    gone = [e.seat for e in history if isinstance(e, WentOut)]
    if ended.reason == "out":
        assert gone[:1] in ([], [ended.seat])
        # the first out wins; the others out in the finished circle follow in turn
        emptied = [*dict.fromkeys([*gone, *(s for s in playing if not after.hands[s])])]
        assert emptied[0] == ended.seat
        assert ended.order[: len(emptied)] == tuple(emptied)
        ranked = ended.order[len(emptied) :]
    else:
        assert not gone
        assert ended.seat == after.last_player
        plays = [e for e in history if isinstance(e, TilePlayed)]
        idle = [*after.history[len(after.history) - after.idle :]] if after.idle else []
        if ended.reason == "sortir":
            assert after.idle >= rules.at_table * PASS_CIRCLES
            assert any(isinstance(e, Passed) for e in idle)
        elif not is_blocked(rules.dead_ends, after.ends, after.on_table):
            assert ended.reason == "fish" and plays
            assert all(isinstance(e, Knocked) for e in idle[-rules.at_table :])
        ranked = ended.order[1:]
    assert [values[s] for s in ranked] == sorted(values[s] for s in ranked)
    assert set(ended.lots) == {s for s in ranked if sum(values[o] == values[s] for o in ranked) > 1}
    tally, new = before.tally, after.tally
    for s in range(rules.players):
        added = values[s] if s in playing and s != ended.seat else 0
        assert new.scores[s] == tally.scores[s] + added
        assert new.before[s] == (tally.scores[s] if s in playing else tally.before[s])
        out = tally.out[s] or new.scores[s] >= rules.goal or s in before.left
        assert bool(new.out[s]) is bool(out)
        assert (s in ended.out) is (out and not tally.out[s])
    still = [s for s in range(rules.players) if not new.out[s]]
    assert (after.phase is Phase.GAME_OVER) is (len(still) < rules.at_table)


def check_bykovo_rest(before: GameState, started: RoundStarted, after: GameState) -> None:
    """§4.2: who sat out plays next, then the worst placed of the last round; equal hands
    are a tie there, decided by the higher score (then by lot)."""
    rules = before.rules
    still = [s for s in range(rules.players) if not before.is_out(s)]
    assert len(started.resting) == len(still) - rules.at_table
    assert set(started.resting) <= set(still)
    playing = [s for s in still if s not in started.resting]
    assert sum(1 for h in after.hands if h) == rules.at_table
    assert all(after.hands[s] for s in playing)
    assert after.hands[after.to_move] & 1 and after.lead_tile == 0  # 0-0 leads
    if before.last_round is not None:
        back = [s for s in still if s in before.resting]
        assert set(back) <= set(playing)
        ended = before.last_round
        hands = {r.seat: r.hand_value for r in ended.results}

        def worse(seat: int) -> tuple[int, int]:
            tied = [o for o in ended.lots if hands[o] == hands[seat]] if seat in ended.lots else []
            place = min(ended.order.index(o) for o in tied or [seat])
            return (place, before.tally.scores[seat])

        rest_of = [s for s in playing if s not in back]
        assert all(worse(p) >= worse(r) for p in rest_of for r in started.resting)


@PROPERTY
@given(bykovo_players, seeds, seeds, pass_rates, st.booleans())
def test_bykovo_rounds_places_scores_and_rests_follow_the_rules(
    players, seed, choice, pass_rate, shake
):
    rounds = 0
    for before, _, after, events in bykovo_log(players, seed, choice, pass_rate, shake):
        check_conservation(after)
        check_phase(after)
        assert after.bazaar == ()
        for event in events:
            if isinstance(event, RoundStarted):
                rounds += 1
                if before is not None:
                    check_bykovo_rest(before, event, after)
            if isinstance(event, RoundEnded):
                check_bykovo_round(before, event, after)
            if isinstance(event, GameEnded):
                outcome = event
    assert after.phase is Phase.GAME_OVER
    assert rounds <= 200
    places = [p.seat for p in outcome.places]
    assert sorted(places) == list(range(players))
    assert places[-len(after.left) or len(places) :] == list(reversed(after.left))
    still = [s for s in places if not after.tally.out[s]]
    assert places[: len(still)] == still


@PROPERTY
@given(bykovo_players, seeds, seeds, pass_rates, st.booleans())
def test_bykovo_replay_of_the_log_with_rests_and_leavers_gives_the_live_state(
    players, seed, choice, pass_rate, shake
):
    rules = parse_rules("bykovo", players=players)
    check_replay(rules, seed, bykovo_log(players, seed, choice, pass_rate, shake))


@HEAVY
@given(bykovo_players, seeds, seeds, pass_rates)
def test_bykovo_illegal_moves_change_nothing(players, seed, choice, pass_rate):
    rules = parse_rules("bykovo", players=players)
    rng = random.Random(choice)
    tried = 0
    for _, _, state, _ in bykovo_log(players, seed, choice, pass_rate, False):
        legal = legal_moves(state)
        move = random_move(rules, rng)
        if move in legal:
            continue
        saved = snapshot(state)
        try:
            apply(state, move)
        except IllegalMoveError:
            tried += 1
        else:
            raise AssertionError(f"{move} was accepted but is not among {legal}")
        assert snapshot(state) == saved
    assert tried


# -- «Генерал» (§8): 4, 6 or 8 players, rounds until the time is up, leavers ---------------

general_players = st.sampled_from(GENERAL_PLAYERS)
general_rounds = st.integers(1, 8)


def general_log(players: int, seed: int, choice: int, rounds: int, shake: bool):
    """A «Генерал» match of random legal moves whose time is up after `rounds` rounds (a
    `TimeUp` entry); with `shake`, now and then a player leaves, or abandons the match.
    Yields `(before, entry, after, events)`."""
    rules = parse_rules("general", players=players)
    rng = random.Random(choice)
    state, events = new_game(rules, seats(players), seed)
    yield None, None, state, events
    ended = 0
    for _ in range(MAX_STEPS):
        if state.phase is Phase.GAME_OVER:
            return
        if state.phase is Phase.ROUND_OVER:
            ended += 1
            entry = TIME_UP if ended >= rounds else NEXT_ROUND
            after, events = time_up(state) if entry is TIME_UP else next_round(state)
        elif shake and rng.random() < 0.01 and len(state.left) < players:
            seat = rng.choice([s for s in range(players) if s not in state.left])
            if rng.random() < 0.2:
                entry = abandon_entry(seat)
                after = step(state, entry)
                events = (after.outcome,)
            else:
                entry = leave_entry(seat)
                after, events = step(state, entry), ()
        else:
            move = rng.choice(legal_moves(state))
            entry = encode(move)
            after, events = apply(state, move)
        yield state, entry, after, events
        state = after
    raise AssertionError(f"match not over after {MAX_STEPS} steps")


def check_general_start(before: GameState | None, started: RoundStarted, after: GameState):
    """1-1 leads; the two teams not in the queue sit at the table, partners across; seven
    tiles each, no bazaar; a fish keeps the teams."""
    rules = after.rules
    queue = after.tally.queue
    assert len(queue) == rules.sides - 2
    assert started.resting == after.resting
    assert set(after.resting) == {s for s in range(rules.players) if rules.side_of(s) in queue}
    seated = [s for s in range(rules.players) if s not in after.resting]
    assert len(seated) == 4
    assert [rules.side_of(s) for s in seated[:2]] == [rules.side_of(s) for s in seated[2:]]
    assert rules.side_of(seated[0]) != rules.side_of(seated[1])
    assert after.hand_sizes() == tuple(7 if s in seated else 0 for s in range(rules.players))
    assert after.bazaar == ()
    one = rules.tiles.tile(1, 1)
    assert started.lead_tile == one and after.hands[started.leader] >> one & 1
    assert legal_moves(after) == [Play(one, 0)]
    if before is not None:
        assert started.round_no == before.round_no + 1
        if before.last_round.reason == "fish":
            assert after.resting == before.resting


def check_general_round(before: GameState, ended: RoundEnded, after: GameState) -> None:
    """A fish changes nothing; going out wins a round, with 0-0 or 6-6 as the last tile a
    General too; the loser — after a General the winner — goes to the back of the queue."""
    rules = before.rules
    tally, new = before.tally, after.tally
    seated = [s for s in range(rules.players) if not before.sits_out(s)]
    assert all(not before.hands[s] for s in before.resting)
    assert ended.seat in seated
    if ended.reason == "fish":
        assert new == tally
        assert not any(r.round_points for r in ended.results)
        assert is_blocked(rules.dead_ends, after.ends, after.on_table) or after.idle >= 4
        return
    assert ended.reason == "out" and not after.hands[ended.seat]
    last = [e for e in after.history if isinstance(e, TilePlayed)][-1]
    assert last.seat == ended.seat
    general = rules.tiles.pips[last.tile] in {(0, 0), (6, 6)}
    side = rules.side_of(ended.seat)
    other = next(rules.side_of(s) for s in seated if rules.side_of(s) != side)
    sides = range(rules.sides)
    assert new.wins == tuple(w + (s == side) for s, w in zip(sides, tally.wins, strict=True))
    assert new.scores == tuple(
        g + (general and s == side) for s, g in zip(sides, tally.scores, strict=True)
    )
    if tally.queue:
        assert new.queue == (*tally.queue[1:], side if general else other)
    else:
        assert new.queue == ()


def check_general_end(state: GameState, outcome: GameEnded) -> None:
    """Places by Generals, then rounds won, then the seed's lot; leavers' sides last (the
    first to leave last of all); no shared places, no goats, no rating points."""
    rules, tally = state.rules, state.tally
    assert outcome.reason in {"time", "timeout"}
    leavers = list(dict.fromkeys(rules.side_of(s) for s in state.left))
    lot = shuffled(range(rules.sides), f"{state.lots}:lot")
    staying = sorted(
        (s for s in range(rules.sides) if s not in leavers),
        key=lambda s: (-tally.scores[s], -tally.wins[s], lot.index(s)),
    )
    expected = [*staying, *reversed(leavers)]
    assert [p.side for p in outcome.places[::2]] == expected
    for p in outcome.places:
        assert p.place == expected.index(p.side) + 1
        assert rules.side_of(p.seat) == p.side
        assert p.score == tally.scores[p.side]
        assert not p.goat and not p.rating_points
    assert sorted(p.seat for p in outcome.places) == list(range(rules.players))


@PROPERTY
@given(general_players, seeds, seeds, general_rounds, st.booleans())
def test_general_rounds_queue_and_places_follow_the_rules(players, seed, choice, rounds, shake):
    started = ended = moves = 0
    outcome = None
    for before, entry, after, events in general_log(players, seed, choice, rounds, shake):
        check_conservation(after)
        if after.outcome is not None and after.outcome.reason == "timeout":
            assert legal_moves(after) == []  # abandoned, maybe before a round ended
        else:
            check_phase(after)
        if entry is not None and entry["type"] in {"Play", "Draw", "Pass", "PlayDoubles"}:
            assert entry["type"] == "Play"  # no bazaar, no passing
            moves += 1
            assert moves <= 28  # every move puts a tile down: the round ends
        for event in events:
            if isinstance(event, RoundStarted):
                started += 1
                moves = 0
                check_general_start(before, event, after)
            if isinstance(event, RoundEnded):
                ended += 1
                check_general_round(before, event, after)
            if isinstance(event, GameEnded):
                outcome = event
        if after.phase is Phase.ROUND_OVER:
            assert after.outcome is None  # the match never ends by itself
    assert after.phase is Phase.GAME_OVER
    assert outcome == after.outcome
    check_general_end(after, outcome)
    if outcome.reason == "time":
        assert ended == started == rounds
    else:
        assert outcome.leaver == after.left[0]


@PROPERTY
@given(general_players, seeds, seeds, general_rounds, st.booleans())
def test_general_replay_of_the_log_with_time_up_gives_the_live_state(
    players, seed, choice, rounds, shake
):
    rules = parse_rules("general", players=players)
    log = check_replay(rules, seed, general_log(players, seed, choice, rounds, shake))
    assert log[-1]["type"] in {"TimeUp", "Abandon"}


@HEAVY
@given(general_players, seeds, seeds, general_rounds)
def test_general_state_json_round_trip_at_every_step(players, seed, choice, rounds):
    for _, _, after, _ in general_log(players, seed, choice, rounds, True):
        assert state_from_json(json.loads(json.dumps(state_to_json(after)))) == after


@HEAVY
@given(general_players, seeds, seeds, general_rounds)
def test_general_illegal_moves_and_early_time_up_change_nothing(players, seed, choice, rounds):
    rules = parse_rules("general", players=players)
    rng = random.Random(choice)
    tried = 0
    for _, _, state, _ in general_log(players, seed, choice, rounds, False):
        saved = snapshot(state)
        if state.phase is not Phase.ROUND_OVER:
            try:
                time_up(state)
            except IllegalMoveError as error:
                assert error.reason == "no_time_up"
            else:
                raise AssertionError(f"time_up accepted in {state.phase}")
        legal = legal_moves(state)
        move = random_move(rules, rng)
        if move not in legal:
            try:
                apply(state, move)
            except IllegalMoveError:
                tried += 1
            else:
                raise AssertionError(f"{move} was accepted but is not among {legal}")
        assert snapshot(state) == saved
    assert tried
