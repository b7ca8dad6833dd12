"""The Bykovo club rules and the «вприсядку» micro-tournament (docs/RULES.md §4): one test
per rule of §4.1 (a round) and §4.2 (the tournament), on crafted deals and states."""

from __future__ import annotations

import json

import pytest

from bot.game import (
    IllegalMoveError,
    Pass,
    Phase,
    Play,
    apply,
    leave,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
)
from bot.game.deal import _redeal_reason
from bot.game.engine import PASS_CIRCLES, next_resting, rest_first
from bot.game.events import (
    Event,
    GameEnded,
    Knocked,
    Passed,
    RoundEnded,
    RoundStarted,
    TilePlayed,
    WentOut,
)
from bot.game.formats.bykovo import BYKOVO_LIMITS
from bot.game.moves import Draw
from bot.game.rules import DrawMode, RuleSet
from bot.game.serial import (
    NEXT_ROUND,
    encode,
    leave_entry,
    replay,
    rest_entry,
    state_from_json,
    state_to_json,
)
from bot.game.shuffle import shuffled
from bot.game.state import GameState
from tests.helpers import (
    crafted,
    hand_value,
    mask,
    play,
    plays,
    random_game,
    redealt,
    round_ended,
    seats,
    tile,
)

BYKOVO = parse_rules("bykovo")


def bykovo(players: int = 4) -> RuleSet:
    return parse_rules("bykovo", players=players)


def table(
    hands: list[list[str]],
    players: int = 4,
    scores: tuple[int, ...] | None = None,
    before: tuple[int, ...] | None = None,
    seed: int = 1,
    lead: str | None = "0-0",
) -> GameState:
    """A round with chosen hands for seats 0–3 (seats 4… sit it out): the holder of `lead`
    leads with it (None: seat 0 leads with any tile)."""
    state, _ = new_game(bykovo(players), seats(players), seed)
    tally = state.tally
    if scores is not None:
        tally = tally._replace(scores=scores, before=before or scores)
    state = redealt(state, dict(enumerate(hands)), lead)
    return state._replace(resting=tuple(range(len(hands), players)), tally=tally)


def points(round_end: RoundEnded) -> tuple[int, ...]:
    return tuple(r.round_points for r in round_end.results)


# The fish of the tests below: after 0-0 and 0-1 (ends 1 and 0) nobody can play.
FISH_HANDS = [["0-0", "2-2"], ["0-1", "5-6", "6-6"], ["4-4"], ["3-3"]]


def fish(state: GameState) -> tuple[GameState, tuple[Event, ...]]:
    return plays(state, ("0-0", 0), ("0-1", 0))


def fish_round(
    players: int = 4,
    scores: tuple[int, ...] | None = None,
    before: tuple[int, ...] | None = None,
    hands: list[list[str]] | None = None,
) -> tuple[GameState, tuple[Event, ...]]:
    """Seat 1 closes the round and wins; seat 0 adds 4 (2-2), seat 2 adds 8 (4-4), seat 3
    adds 6 (3-3)."""
    return fish(table(hands or FISH_HANDS, players, scores, before))


# -- §4.1 a round ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_every_round_is_led_by_the_holder_of_0_0_with_0_0(players):
    rules = bykovo(players)
    zero = tile(rules, "0-0")
    rounds = 0
    for step in random_game(rules, seed=players, choice_seed=11):
        for event in step.events:
            if isinstance(event, RoundStarted):
                rounds += 1
                state = step.after
                assert event.lead_tile == zero
                assert state.hands[event.leader] >> zero & 1
                assert state.to_move == event.leader
                assert legal_moves(state) == [Play(zero, 0)]
            if isinstance(event, TilePlayed) and len(step.after.history) == 1:
                assert event.tile == zero
    assert rounds > 1


def test_the_lead_may_not_be_passed_nor_another_tile():
    state = table(FISH_HANDS)
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Pass())
    assert error.value.reason == "no_pass"
    with pytest.raises(IllegalMoveError) as error:
        apply(state, Play(tile(BYKOVO, "2-2"), 0))
    assert error.value.reason == "must_lead"


def test_a_hand_of_5_doubles_is_redealt_and_a_long_suit_is_not():
    assert _redeal_reason(BYKOVO, mask(BYKOVO, ["0-0", "1-1", "2-2", "3-3", "4-4", "0-1"]))
    assert not _redeal_reason(BYKOVO, mask(BYKOVO, ["0-0", "1-1", "2-2", "3-3", "0-1", "0-2"]))
    assert not _redeal_reason(BYKOVO, mask(BYKOVO, ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6"]))
    redealt = 0
    for seed in range(60):
        state, (started,) = new_game(BYKOVO, seats(4), seed)
        assert set(started.redeals) <= {"doubles"}
        redealt += bool(started.redeals)
        for hand in state.hands:
            assert (hand & BYKOVO.tiles.doubles_mask).bit_count() < 5
    assert redealt  # some deal of the 60 had a hand of 5 doubles


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_seven_tiles_each_and_no_bazaar(players):
    rules = bykovo(players)
    assert rules.draw is DrawMode.NONE
    state, (started,) = new_game(rules, seats(players), seed=3)
    assert state.bazaar == ()
    assert sorted(state.hand_sizes()) == [0] * (players - 4) + [7] * 4
    assert [s for s, size in enumerate(state.hand_sizes()) if not size] == list(started.resting)
    state, _ = play(table(FISH_HANDS), "0-0", 0)
    with pytest.raises(IllegalMoveError):
        apply(state, Draw())
    assert Draw() not in legal_moves(state)


def test_a_voluntary_pass_is_legal_although_a_tile_fits():
    state, _ = play(table(FISH_HANDS), "0-0", 0)
    assert state.to_move == 1
    assert legal_moves(state) == [
        Play(tile(BYKOVO, "0-1"), 0),
        Play(tile(BYKOVO, "0-1"), 1),
        Pass(),
    ]
    after, events = apply(state, Pass())
    # seats 2, 3 and 0 cannot play and knock; seat 1 has the turn again
    assert events == (Passed(1), Knocked(2, (0, 0)), Knocked(3, (0, 0)), Knocked(0, (0, 0)))
    assert after.phase is Phase.PLAYING
    assert after.to_move == 1
    assert after.hands == state.hands


# Seat 0 leads, so seat 3 closes each circle. Seat 1 goes out first, seat 2 after it in the
# same circle, seat 3 cannot play: the round ends there.
CIRCLE_HANDS = [["0-0", "5-5", "6-6"], ["0-1", "1-4"], ["0-2", "3-4"], ["2-3", "1-1"]]


def test_after_the_first_out_the_circle_is_finished_and_a_second_player_goes_out():
    state = table(CIRCLE_HANDS)
    state, events = plays(state, ("0-0", 0), ("0-1", 0), ("0-2", 1), ("2-3", 1))
    assert events[-1] == Knocked(0, (1, 3))
    state, events = play(state, "1-4", 0)
    assert WentOut(1, 3) in events
    assert state.phase is Phase.PLAYING
    assert state.to_move == 2  # the circle goes on to the seat before the leader
    state, events = play(state, "3-4", 1)
    assert events[1:] == (WentOut(2, 3), Knocked(3, (4, 4)), round_ended(events))
    round_end = round_ended(events)
    assert (round_end.reason, round_end.seat) == ("out", 1)
    assert round_end.order == (1, 2, 3, 0)  # the winner, then the second out, then by hand
    assert round_end.lots == ()
    assert points(round_end) == (22, 0, 0, 2)
    assert state.tally.scores == (22, 0, 0, 2)


def test_the_circle_finished_after_an_out_skips_the_players_out_and_ends_with_the_last_seat():
    """The last seat's play ends the round too, even when it does not go out."""
    hands = [["0-0", "5-5", "6-6"], ["0-1", "1-4"], ["0-2", "3-4"], ["2-3", "4-6", "1-1"]]
    state, _ = plays(table(hands), ("0-0", 0), ("0-1", 0), ("0-2", 1), ("2-3", 1))
    state, events = plays(state, ("1-4", 0), ("3-4", 1))
    assert state.to_move == 3
    state, events = play(state, "4-6", 0)
    round_end = round_ended(events)
    assert (round_end.reason, round_end.seat, round_end.order) == ("out", 1, (1, 2, 3, 0))
    assert points(round_end) == (22, 0, 0, 2)


def test_the_seat_before_the_leader_going_out_second_places_after_the_others_out():
    """Seat 3 ends the circle by going out too: it went out last of three, and places above
    seat 0, whose lone 0-0 counts 0 as well — by turn, not by lot."""
    hands = [["1-1", "0-0"], ["1-2", "3-6"], ["1-4", "3-5"], ["2-6", "4-5"]]
    for seed in range(1, 6):
        state = table(hands, seed=seed, lead=None)  # 0-0 held back: a crafted deal
        state, _ = plays(state, ("1-1", 0), ("1-2", 0), ("1-4", 1), ("2-6", 0), ("3-6", 0))
        state, events = plays(state, ("3-5", 0), ("4-5", 0))
        round_end = round_ended(events)
        assert (round_end.reason, round_end.seat) == ("out", 1)
        assert [e.seat for e in state.history if isinstance(e, WentOut)] == [1, 2]
        assert round_end.order == (1, 2, 3, 0)
        assert round_end.lots == ()


def test_the_winner_in_the_seat_before_the_leader_ends_the_round_at_once():
    hands = [["0-0", "5-6"], ["0-1", "4-4"], ["0-2", "4-6"], ["2-3", "3-5"]]
    state, _ = plays(table(hands), ("0-0", 0), ("0-1", 0), ("0-2", 1), ("2-3", 1))
    state, events = play(state, "3-5", 1)  # seats 0–2 knocked; seat 3 goes out
    round_end = round_ended(events)
    assert not any(isinstance(e, WentOut) for e in events)
    assert (round_end.reason, round_end.seat) == ("out", 3)
    assert state.phase is Phase.ROUND_OVER  # seat 0's 5-6 would have fitted the 5
    assert round_end.order == (3, 1, 2, 0)  # 4-4 = 8, 4-6 = 10, 5-6 = 11
    assert points(round_end) == (11, 8, 10, 0)


def test_one_circle_of_forced_knocks_is_a_fish_won_by_the_last_placer_whatever_his_hand():
    state, events = fish_round()
    assert events[1:5] == (
        Knocked(2, (1, 0)),
        Knocked(3, (1, 0)),
        Knocked(0, (1, 0)),
        Knocked(1, (1, 0)),
    )
    round_end = round_ended(events)
    assert (round_end.reason, round_end.seat) == ("fish", 1)
    assert round_end.results[1].hand_value == 23  # the highest hand, and yet the winner
    assert round_end.order == (1, 0, 3, 2)
    assert points(round_end) == (4, 0, 8, 6)
    assert state.tally.scores == (4, 0, 8, 6)


# Seat 2 could play 1-4 but passes; the others cannot play.
PASS_HANDS = [["0-0", "2-2"], ["0-1", "5-6", "6-6"], ["4-4", "1-4"], ["3-3"]]


def test_a_circle_with_a_voluntary_pass_goes_on_and_three_circles_of_passes_are_a_sortir():
    state, _ = plays(table(PASS_HANDS), ("0-0", 0), ("0-1", 0))
    assert state.to_move == 2
    for circle in range(1, PASS_CIRCLES):
        state, events = apply(state, Pass())
        assert events == (Passed(2), Knocked(3, (1, 0)), Knocked(0, (1, 0)), Knocked(1, (1, 0)))
        assert state.phase is Phase.PLAYING
        assert (state.to_move, state.idle) == (2, 4 * circle)
    state, events = apply(state, Pass())
    round_end = round_ended(events)
    assert state.idle == 4 * PASS_CIRCLES
    assert (round_end.reason, round_end.seat) == ("sortir", 1)  # the last to place a tile
    assert round_end.order == (1, 0, 3, 2)  # 2-2 = 4, 3-3 = 6, 4-4 + 1-4 = 13
    assert points(round_end) == (4, 0, 13, 6)


def test_a_play_starts_the_count_of_pass_circles_again():
    state, _ = plays(table(PASS_HANDS), ("0-0", 0), ("0-1", 0))
    for _ in range(PASS_CIRCLES - 1):
        state, _ = apply(state, Pass())
    state, events = play(state, "1-4", 0)  # ends 4 and 0: nobody else fits, seat 2 leads on
    assert state.phase is Phase.PLAYING
    assert events[1:] == (Knocked(3, (4, 0)), Knocked(0, (4, 0)), Knocked(1, (4, 0)))
    assert state.idle == 3
    state, events = apply(state, Pass())  # the 4-4 fits: seat 2's pass is voluntary
    assert events[0] == Passed(2)
    assert state.phase is Phase.PLAYING


def test_goat_with_voluntary_passes_stops_after_three_circles_of_passes_around_a_bazaar():
    rules = parse_rules("goat voluntary_pass=yes players=2")
    state = crafted(rules, [["1-1", "1-3", "1-4"], ["1-2", "1-5"]])
    assert len(state.bazaar) == 23
    state, _ = apply(state, Play(tile(rules, "1-1"), 0))
    for turn in range(2 * PASS_CIRCLES):
        assert state.phase is Phase.PLAYING, f"the round ended after {turn} passes"
        state, events = apply(state, Pass())
    round_end = round_ended(events)
    assert (round_end.reason, round_end.seat) == ("fish", 0)  # not «сортир»: that is Bykovo's
    assert len(state.bazaar) == 23


def test_round_places_go_by_ascending_hand_value_with_no_0_0_exception():
    """0-0 alone counts 0 (in «Козёл» 10): it places above 0-1, which places above 6-6."""
    assert BYKOVO.lone_zero == 0
    assert hand_value(BYKOVO, mask(BYKOVO, ["0-0"])) == 0
    assert hand_value(BYKOVO, mask(BYKOVO, ["6-6"])) == 12
    assert hand_value(BYKOVO, mask(BYKOVO, ["0-1"])) == 1
    hands = [["1-1", "2-5"], ["1-3", "6-6"], ["1-4", "0-1"], ["3-5", "0-0"]]
    state = table(hands, lead=None)  # 0-0 held back: a crafted deal
    state, _ = plays(state, ("1-1", 0), ("1-3", 0), ("1-4", 1), ("3-5", 0))
    state, events = play(state, "2-5", 0)  # out; seats 1, 2 and 3 knock to end the circle
    round_end = round_ended(events)
    assert round_end.order == (0, 3, 2, 1)
    assert points(round_end) == (0, 12, 1, 0)


# Seat 0's 0-0 + 3-3 and seat 3's 2-4 both count 6.
TIED_HANDS = [["0-0", "3-3"], ["0-1", "5-6", "6-6"], ["4-4"], ["2-4"]]


def test_equal_hands_are_ordered_by_a_seeded_lot_and_listed():
    orders = set()
    for seed in range(1, 9):
        state = table(TIED_HANDS)._replace(seed=seed)
        _, events = fish(state)
        again = round_ended(fish(state)[1])
        round_end = round_ended(events)
        assert round_end == again  # the same seed, the same lot
        first, second = round_end.order[1:3]
        assert {first, second} == {0, 3}
        assert round_end.order[::3] == (1, 2)
        assert round_end.lots == (first, second)
        orders.add(round_end.order)
    assert len(orders) == 2  # the lot goes both ways
    assert round_ended(fish(table(TIED_HANDS)._replace(seed=1))[1]).order == (1, 0, 3, 2)


def test_without_equal_hands_nothing_is_drawn_by_lot():
    assert round_ended(fish_round()[1]).lots == ()


# -- §4.2 sitting out ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6, 7])
def test_the_first_round_sits_out_by_lot(players):
    rules = bykovo(players)
    drawn = set()
    for seed in range(12):
        state, (started,) = new_game(rules, seats(players), seed)
        lot = shuffled(range(players), f"{state.lots}:1:rest")  # the seed's digest (edition 3)
        assert started.resting == state.resting == tuple(sorted(lot[: players - 4]))
        assert new_game(rules, seats(players), seed)[0] == state
        drawn.add(started.resting)
    assert len(drawn) > 3


def test_the_rating_leaders_sit_out_the_first_round_when_asked():
    rules = bykovo(6)
    state, _ = new_game(rules, seats(6), seed=4)
    rested, (started,) = rest_first(state, [5, 2])
    assert rested.resting == started.resting == (2, 5)
    assert rested.round_no == started.round_no == 1
    assert rested.hands[2] == rested.hands[5] == 0
    assert rested.hand_sizes().count(7) == 4
    assert rested.hands[rested.to_move] >> tile(rules, "0-0") & 1
    with pytest.raises(IllegalMoveError) as error:
        rest_first(state, [2])
    assert error.value.reason == "bad_rest"
    with pytest.raises(IllegalMoveError) as error:
        rest_first(state, [2, 6])
    assert error.value.reason == "bad_rest"
    moved, _ = apply(rested, legal_moves(rested)[0])
    with pytest.raises(IllegalMoveError) as error:
        rest_first(moved, [0, 1])
    assert error.value.reason == "no_rest"
    goat, _ = new_game(parse_rules("goat"), seats(4), seed=4)
    with pytest.raises(IllegalMoveError):
        rest_first(goat, [])


@pytest.mark.parametrize(
    ("players", "resting"),
    [(5, (1,)), (6, (0, 1)), (7, (0, 1, 3))],
)
def test_who_sat_out_plays_next_and_the_worst_placed_take_the_other_seats(players, resting):
    """The fish round's places are 1, 0, 3, 2; seats 4… sat it out."""
    state, events = fish_round(players)
    assert round_ended(events).order == (1, 0, 3, 2)
    assert next_resting(state) == resting
    after, (started,) = next_round(state)
    assert after.resting == started.resting == resting
    for seat in range(4, players):
        assert after.hands[seat]


def test_tied_claims_to_a_seat_go_to_the_one_behind_on_score_then_by_lot():
    """The round's places are always drawn apart (equal hands by lot), so claims tie only
    where the last round's places are unknown — here, with none recorded."""
    state, _ = fish_round(6, scores=(10, 30, 20, 30, 0, 0))
    unplaced = state._replace(last_round=state.last_round._replace(order=()))
    # 14, 30, 28, 36 now: seats 4 and 5 sat out and play, then the higher scores 36 and 30
    assert next_resting(unplaced) == (0, 2)
    state, _ = fish_round(6, scores=(26, 30, 22, 24, 0, 0))  # 30, 30, 30, 30 after the round
    unplaced = state._replace(last_round=state.last_round._replace(order=()))
    drawn = set()
    for seed in range(10):
        seeded = unplaced._replace(seed=seed)
        lot = shuffled(range(6), f"{seeded.lots}:2:rest")
        resting = next_resting(seeded)
        expected = sorted(range(4), key=lot.index)[2:]
        assert resting == tuple(sorted(expected))
        assert next_resting(seeded) == resting
        drawn.add(resting)
    assert len(drawn) > 1


def test_an_eliminated_player_neither_plays_nor_sits_out():
    state, events = fish_round(6, scores=(0, 0, 52, 0, 0, 0))  # seat 2 reaches 60
    assert round_ended(events).out == (2,)
    after, (started,) = next_round(state)
    assert started.resting == (1,)  # 4 and 5 come back, then 3 and 0, the worst placed left
    assert after.hands[2] == 0
    assert 2 not in after.resting


# -- §4.2 the tournament score ----------------------------------------------------------------


@pytest.mark.parametrize(("players", "limit"), sorted(BYKOVO_LIMITS.items()))
def test_the_limit_by_the_number_of_players_eliminates_on_reaching_it(players, limit):
    rules = bykovo(players)
    assert rules.goal == limit == {4: 100, 5: 75, 6: 60, 7: 50}[players]
    scores = (0, 0, limit - 8, limit - 7, *(0,) * (players - 4))  # +8 and +6 in the fish
    state, events = fish_round(players, scores)
    round_end = round_ended(events)
    assert state.tally.scores[2:4] == (limit, limit - 1)
    assert round_end.out == (2,)
    assert state.is_out(2) and not state.is_out(3)
    if players == 4:  # three are left: the tournament is over
        assert state.phase is Phase.GAME_OVER
        assert state.outcome.reason == "last_in"
        assert state.outcome.places[-1].seat == 2
    else:
        assert state.phase is Phase.ROUND_OVER
        after, _ = next_round(state)
        assert after.hands[2] == 0
        assert len(after.resting) == players - 5


def test_the_winner_adds_nothing_and_the_others_add_their_hands():
    state, events = fish_round(scores=(10, 20, 30, 40))
    assert state.tally.scores == (14, 20, 38, 46)
    assert state.tally.before == (10, 20, 30, 40)
    assert [r.score_before for r in round_ended(events).results] == [10, 20, 30, 40]


def test_simultaneous_eliminations_place_the_lower_total_higher():
    state, _ = fish_round(scores=(0, 0, 95, 94))  # seat 2: 103, seat 3: 100
    assert state.phase is Phase.GAME_OVER
    assert [(p.seat, p.place, p.score) for p in state.outcome.places] == [
        (1, 1, 0),
        (0, 2, 4),
        (3, 3, 100),
        (2, 4, 103),
    ]


def test_simultaneous_eliminations_on_equal_totals_place_the_one_behind_before_higher():
    state, _ = fish_round(scores=(0, 0, 92, 94))  # both reach 100; seat 3 was behind
    assert state.tally.before[2:] == (92, 94)
    assert [(p.seat, p.place) for p in state.outcome.places] == [(1, 1), (0, 2), (3, 3), (2, 4)]


def test_an_earlier_elimination_places_below_a_later_one():
    state, _ = fish_round(5, scores=(0, 0, 70, 0, 0))  # seat 2 out in the first wave
    assert state.tally.out == (0, 0, 1, 0, 0)
    state = state._replace(tally=state.tally._replace(scores=(0, 0, 78, 69, 0)))
    # the next round's fish again, with seat 2's place taken by seat 4
    hands = [["0-0", "2-2"], ["0-1", "5-6", "6-6"], ["3-3"], ["4-4"]]
    rules = state.rules
    masks = (*(mask(rules, h) for h in hands[:2]), 0, mask(rules, hands[2]), mask(rules, hands[3]))
    nxt, _ = next_round(state)
    nxt = nxt._replace(hands=masks, resting=(), to_move=0, lead_tile=tile(rules, "0-0"))
    over, _ = fish(nxt)  # seat 3 adds 6: 75, out in the second wave; 3 are left
    assert over.tally.out == (0, 0, 1, 2, 0)
    assert [p.seat for p in over.outcome.places][-2:] == [3, 2]


def test_the_tournament_ends_with_three_left_placed_by_score_then_dynamics():
    """Five players, limit 75: seats 2 and 3 are out at once, 0, 1 and 4 are left; 0 and 4
    both have 34, and 4 was behind before its last round (32 against 30)."""
    state, events = fish_round(5, scores=(30, 10, 70, 69, 34), before=(0, 0, 0, 0, 32))
    assert round_ended(events).out == (2, 3)
    assert state.tally.scores == (34, 10, 78, 75, 34)
    assert state.tally.before == (30, 10, 70, 69, 32)
    assert state.phase is Phase.GAME_OVER
    outcome = state.outcome
    assert isinstance(outcome, GameEnded)
    assert outcome.reason == "last_in"
    assert outcome.leaver is None
    assert [(p.seat, p.place, p.score) for p in outcome.places] == [
        (1, 1, 10),
        (4, 2, 34),
        (0, 3, 34),
        (3, 4, 75),
        (2, 5, 78),
    ]


def test_equal_scores_and_dynamics_share_a_place():
    state, _ = fish_round(5, scores=(30, 10, 70, 69, 34), before=(0, 0, 0, 0, 30))
    assert [(p.seat, p.place) for p in state.outcome.places][:3] == [(1, 1), (0, 2), (4, 2)]


def test_a_player_who_leaves_is_eliminated_at_the_round_end_and_placed_last():
    state = table(FISH_HANDS)
    state = leave(state, 1)
    assert state.phase is Phase.PLAYING and not state.is_out(1)
    state, events = fish(state)  # seat 1 still plays, and wins the round
    round_end = round_ended(events)
    assert round_end.seat == 1 and round_end.out == (1,)
    assert state.phase is Phase.GAME_OVER  # three are left
    assert state.outcome.leaver == 1
    assert [(p.seat, p.place) for p in state.outcome.places] == [(0, 1), (3, 2), (2, 3), (1, 4)]


def test_a_leaver_among_five_is_out_and_the_four_left_all_play():
    state = leave(table(FISH_HANDS, players=5), 1)
    state, events = fish(state)
    assert round_ended(events).out == (1,)
    assert state.phase is Phase.ROUND_OVER
    after, (started,) = next_round(state)
    assert started.resting == () and after.hands[1] == 0
    with pytest.raises(IllegalMoveError):
        leave(after, 1)


def test_a_resting_player_who_leaves_is_out_at_the_end_of_that_round():
    state = leave(table(FISH_HANDS, players=6), 5)
    state, events = fish(state)
    assert round_ended(events).out == (5,)
    assert state.tally.scores[5] == 0


# -- serial --------------------------------------------------------------------------------


def test_state_json_round_trip_keeps_resting_went_out_and_the_round_places():
    state = table(CIRCLE_HANDS, players=6)
    state, _ = plays(state, ("0-0", 0), ("0-1", 0), ("0-2", 1), ("2-3", 1), ("1-4", 0))
    assert any(isinstance(e, WentOut) for e in state.history)
    for current in (state, play(state, "3-4", 1)[0]):
        data = json.loads(json.dumps(state_to_json(current)))
        assert data["resting"] == [4, 5]
        assert state_from_json(data) == current
    over = play(state, "3-4", 1)[0]
    assert state_from_json(json.loads(json.dumps(state_to_json(over)))).last_round.order == (
        1,
        2,
        3,
        0,
    )


def test_replay_with_a_rest_entry_gives_the_live_state():
    rules = bykovo(6)
    state, _ = new_game(rules, seats(6), seed=21)
    log = [rest_entry([4, 1])]
    state, _ = rest_first(state, [4, 1])
    rounds = 0
    while state.phase is not Phase.GAME_OVER and rounds < 3:
        if state.phase is Phase.ROUND_OVER:
            state, _ = next_round(state)
            log.append(NEXT_ROUND)
            rounds += 1
            continue
        if rounds == 1 and not state.left:
            state = leave(state, state.to_move)
            log.append(leave_entry(state.to_move))
        move = legal_moves(state)[0]
        state, _ = apply(state, move)
        log.append(encode(move))
    log = json.loads(json.dumps(log))
    assert replay(rules, seats(6), 21, log) == state
    assert replay(rules, seats(6), 21, log[:1]).resting == (1, 4)


def _old(data: dict) -> dict:
    """The JSON as it was written before Bykovo: no resting, no `before`, no round places."""
    del data["resting"]
    del data["tally"]["before"]
    if data["last_round"]:
        del data["last_round"]["order"]
        del data["last_round"]["lots"]
    return data


@pytest.mark.parametrize("text", ["goat", "room", "goat voluntary_pass=yes draw=none"])
def test_old_state_json_without_resting_and_before_still_loads(text):
    rules = parse_rules(text, players=4)
    checked = 0
    for step in random_game(rules, seed=8, choice_seed=8):
        if step.move is None or step.after.phase is not Phase.PLAYING or checked > 3:
            data = _old(json.loads(json.dumps(state_to_json(step.after))))
            loaded = state_from_json(data)
            assert loaded == step.after
            assert loaded.resting == () and loaded.tally.before == ()
            checked += 1
    assert checked


def test_the_bykovo_preset_and_its_alias():
    rules = parse_rules("tournament players=7")
    assert rules == bykovo(7)
    assert rules.scoring == "bykovo"
    assert (rules.at_table, rules.goal, rules.voluntary_pass) == (4, 50, True)
