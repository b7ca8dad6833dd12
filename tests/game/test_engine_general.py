"""«Генерал» (docs/RULES.md §8): one test per rule, on crafted deals and states — 1-1 leads,
two ends, no bazaar, a fish is replayed, a General on 0-0 / 6-6 as the last tile, the queue
of waiting teams, the clock's end (`time_up`) and its places, leavers, options and JSON."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from itertools import pairwise

import pytest

from bot.game import (
    IllegalMoveError,
    Phase,
    Play,
    RuleError,
    abandon,
    apply,
    leave,
    legal_moves,
    new_game,
    next_round,
    parse_rules,
)
from bot.game.engine import next_resting, time_up
from bot.game.events import (
    Event,
    GameEnded,
    Knocked,
    RoundEnded,
    RoundStarted,
    TilePlayed,
    TilesDrawn,
)
from bot.game.formats.general import GENERAL_PLAYERS
from bot.game.moves import Draw
from bot.game.rules import DrawMode, NextLead, RuleSet, Spinner
from bot.game.scoring import Tally
from bot.game.serial import (
    NEXT_ROUND,
    TIME_UP,
    encode,
    leave_entry,
    replay,
    state_from_json,
    state_to_json,
)
from bot.game.shuffle import shuffled
from bot.game.state import GameState
from tests.helpers import play, plays, random_game, redealt, round_ended, seats, tile

GENERAL = parse_rules("general")


def general(players: int = 4) -> RuleSet:
    return parse_rules("general", players=players)


def playing(state: GameState) -> list[int]:
    """The seats at the table this round, clockwise from seat 0."""
    return [s for s in range(state.rules.players) if not state.sits_out(s)]


def sides_at_table(state: GameState) -> set[int]:
    return {state.rules.side_of(s) for s in playing(state)}


def between_rounds(players: int = 4, tally: Tally | None = None, seed: int = 1) -> GameState:
    """A match between rounds with the tally `tally` (its queue decides who plays next)."""
    state, _ = new_game(general(players), seats(players), seed)
    return state._replace(phase=Phase.ROUND_OVER, tally=tally or state.tally)


def start(players: int = 4, seed: int = 1) -> GameState:
    """The first round of a match, dealt: teams 0 and 1 at the table."""
    return new_game(general(players), seats(players), seed)[0]


def with_hands(state: GameState, hands: dict[int, Sequence[str]], lead: str = "1-1") -> GameState:
    """The round under way, dealt again: `hands` by seat (the seats at the table), nothing
    left over; the holder of `lead` leads with it."""
    assert set(hands) == set(playing(state))
    return redealt(state, hands, lead)


def in_turn(state: GameState, first: int) -> list[int]:
    """The seats at the table in turn order from `first`."""
    seated = playing(state)
    at = seated.index(first)
    return seated[at:] + seated[:at]


# `winner` leads 1-1; the next three follow; `winner` goes out with its second tile. The
# second seat's 1-x decides the open end the last tile goes on (ends x and 3 by then).
OUT_ON = {
    "0-0": ("0-1", "0-0"),
    "6-6": ("1-6", "6-6"),
    "plain": ("1-6", "4-6"),  # out on the 6 end with 4-6, not a double
}


def out_round(state: GameState, winner: int, last: str = "plain") -> tuple[GameState, RoundEnded]:
    """Play the round under way so that `winner` goes out with `last` ("0-0", "6-6" or a
    plain tile)."""
    a, b, c, d = in_turn(state, winner)
    second, final = OUT_ON[last]
    hands = {a: ["1-1", final], b: [second, "5-5"], c: ["1-2", "4-4"], d: ["2-3", "3-3"]}
    state = with_hands(state, hands)
    state, events = plays(state, ("1-1", 0), (second, 0), ("1-2", 1), ("2-3", 1), (final, 0))
    round_end = round_ended(events)
    assert (round_end.reason, round_end.seat) == ("out", winner)
    assert state.phase is Phase.ROUND_OVER
    return state, round_end


def fish_round(state: GameState, leader: int) -> tuple[GameState, RoundEnded]:
    """`leader` leads 1-1, the next seat plays 1-2 and nobody can go on: a full circle of
    knocks, the next seat is the fisherman."""
    a, b, c, d = in_turn(state, leader)
    hands = {a: ["1-1", "5-5"], b: ["1-2", "6-6"], c: ["4-4", "3-3"], d: ["0-0", "3-4"]}
    state, events = plays(with_hands(state, hands), ("1-1", 0), ("1-2", 0))
    round_end = round_ended(events)
    assert (round_end.reason, round_end.seat) == ("fish", b)
    return state, round_end


def random_match(
    rules: RuleSet, seed: int, choice: int, rounds: int
) -> Iterator[tuple[GameState, object, GameState, tuple[Event, ...]]]:
    """`rounds` rounds of random legal moves, then the time is up. Yields `(before, log
    entry, after, events)`; the first has no `before` and no entry."""
    rng = random.Random(choice)
    state, events = new_game(rules, seats(rules.players), seed)
    yield state, None, state, events
    done = 0
    while True:
        if state.phase is Phase.ROUND_OVER:
            done += 1
            if done == rounds:
                after, events = time_up(state)
                yield state, TIME_UP, after, events
                return
            after, events = next_round(state)
            yield state, NEXT_ROUND, after, events
        else:
            move = rng.choice(legal_moves(state))
            after, events = apply(state, move)
            yield state, encode(move), after, events
        state = after


# -- the preset -------------------------------------------------------------------------------


def test_the_preset_general():
    assert GENERAL.scoring == "general"
    assert (GENERAL.teams, GENERAL.team_size, GENERAL.hand, GENERAL.at_table) == (True, 2, 7, 4)
    assert GENERAL.own.minutes == 30
    assert GENERAL.fewest_players == GENERAL.at_table == 4


@pytest.mark.parametrize("players", [2, 3, 5, 7, 9, 10])
def test_players_must_be_4_6_or_8(players):
    assert players not in GENERAL_PLAYERS
    with pytest.raises(RuleError):
        general(players)
    with pytest.raises(RuleError):
        parse_rules(f"general players={players}")


@pytest.mark.parametrize("players", GENERAL_PLAYERS)
def test_4_6_or_8_players_make_2_3_or_4_teams_of_two(players):
    rules = general(players)
    assert rules.sides == players // 2
    assert [rules.side_of(s) for s in range(players)] == [s % rules.sides for s in range(players)]


@pytest.mark.parametrize("text", ["general teams=no", "general team_size=3 players=6"])
def test_general_is_played_by_teams_of_two(text):
    with pytest.raises(RuleError):
        parse_rules(text)


def test_minutes_range_from_1_to_120():
    assert parse_rules("general minutes=1").own.minutes == 1
    assert parse_rules("general minutes=120").own.minutes == 120
    assert parse_rules("general minutes=60 players=8").own.minutes == 60
    for bad in ("0", "121", "-5", "x"):
        with pytest.raises(RuleError) as error:
            parse_rules(f"general minutes={bad}")
        assert error.value.args


@pytest.mark.parametrize("preset", ["goat", "goat_teams", "sea_goat", "bykovo", "room", "classic"])
def test_minutes_are_refused_for_other_presets(preset):
    with pytest.raises(RuleError, match="minutes"):
        parse_rules(f"{preset} minutes=5")


def test_minutes_are_refused_when_the_scoring_is_changed_away_from_general():
    with pytest.raises(RuleError, match="minutes"):
        parse_rules("general scoring=goat teams=no minutes=5")


# -- a round -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", GENERAL_PLAYERS)
def test_1_1_leads_every_round(players):
    rules = general(players)
    assert rules.next_lead is NextLead.FIRST_RULE
    one = tile(rules, "1-1")
    rounds = 0
    for _, _, after, events in random_match(rules, seed=players, choice=5, rounds=6):
        for event in events:
            if isinstance(event, RoundStarted):
                rounds += 1
                assert event.lead_tile == one
                assert after.hands[event.leader] >> one & 1
                assert after.to_move == event.leader
                assert legal_moves(after) == [Play(one, 0)]
            if isinstance(event, TilePlayed) and len(after.history) == 1:
                assert event.tile == one
    assert rounds == 6


def test_1_1_leads_though_another_seat_went_out():
    state, _ = out_round(start(), winner=1)
    state, (started,) = next_round(state)
    assert started.lead_tile == tile(GENERAL, "1-1")
    assert state.hands[started.leader] >> started.lead_tile & 1


def test_two_ends_only_no_spinner():
    assert GENERAL.spinner is Spinner.NONE
    state = with_hands(
        start(),
        {0: ["1-1", "5-5"], 1: ["1-2", "5-6"], 2: ["2-2", "4-4"], 3: ["0-0", "0-3"]},
    )
    state, _ = play(state, "1-1", 0)
    assert state.ends == (1, 1)  # the lead double opens two ends, not four
    assert {m.end for m in legal_moves(state)} == {0, 1}
    state, _ = play(state, "1-2", 0)
    state, events = play(state, "2-2", 0)
    assert state.ends == (2, 1)  # a double in the line opens nothing either
    # nothing else fits the two ends: four knocks and the round is a fish
    assert [e.seat for e in events if isinstance(e, Knocked)] == [3, 0, 1, 2]
    assert round_ended(events).reason == "fish"


@pytest.mark.parametrize("players", GENERAL_PLAYERS)
def test_no_bazaar_seven_tiles_each_at_the_table(players):
    rules = general(players)
    assert rules.draw is DrawMode.NONE
    state, (started,) = new_game(rules, seats(players), seed=3)
    assert state.bazaar == ()
    sizes = state.hand_sizes()
    assert [s for s, n in enumerate(sizes) if not n] == list(started.resting)
    assert sorted(sizes) == [0] * (players - 4) + [7] * 4


def test_no_bazaar_a_seat_that_cannot_play_knocks():
    state = with_hands(
        start(),
        {0: ["1-1", "5-5"], 1: ["1-2", "6-6"], 2: ["4-4", "3-3"], 3: ["0-0", "1-3"]},
    )
    state, events = play(state, "1-1", 0)
    state, events = play(state, "1-2", 0)  # seat 2 has nothing: it knocks, seat 3 plays
    assert Knocked(2, (2, 1)) in events
    assert not any(isinstance(e, TilesDrawn) for e in events)
    assert state.to_move == 3
    assert Draw() not in legal_moves(state)
    with pytest.raises(IllegalMoveError):
        apply(state, Draw())


@pytest.mark.parametrize("players", GENERAL_PLAYERS)
def test_a_fish_is_replayed_nothing_recorded_same_teams_new_deal(players):
    state = start(players)
    before = state.tally
    teams, resting = sides_at_table(state), state.resting
    state, round_end = fish_round(state, leader=playing(state)[1])
    assert state.tally == before
    assert not any(r.round_points for r in round_end.results)
    assert next_resting(state) == resting
    state, (started,) = next_round(state)
    assert started.round_no == state.round_no == 2
    assert sides_at_table(state) == teams and state.resting == started.resting == resting
    assert sorted(state.hand_sizes()) == [0] * (players - 4) + [7] * 4
    fresh, _ = new_game(general(players), seats(players), seed=1)
    assert state.hands != fresh.hands  # dealt again, from the next round's key
    assert started.lead_tile == tile(GENERAL, "1-1")


@pytest.mark.parametrize("players", GENERAL_PLAYERS)
@pytest.mark.parametrize("last", ["0-0", "6-6"])
def test_out_on_0_0_or_6_6_is_a_general(players, last):
    state = start(players)
    winner = playing(state)[1]
    side = GENERAL.with_players(players).side_of(winner)
    state, round_end = out_round(state, winner, last)
    sides = players // 2
    assert state.tally.scores == tuple(int(s == side) for s in range(sides))
    assert state.tally.wins == tuple(int(s == side) for s in range(sides))
    first = {r.side: r for r in reversed(round_end.results)}
    assert first[side].round_points == 1 and first[side].score_after == 1


@pytest.mark.parametrize("early", ["0-0", "6-6"])
def test_0_0_or_6_6_played_earlier_then_out_with_another_tile_is_no_general(early):
    state = start()
    double = {"0-0": ("0-1", "0-5", "4-5"), "6-6": ("1-6", "5-6", "4-5")}[early]
    second, final, third = double
    hands = {
        0: ["1-1", early, final],
        1: [second, "3-4", "2-5"],
        2: ["1-2", "4-4", "2-6" if early == "0-0" else "0-2"],
        3: ["2-3", third, "0-3" if early == "0-0" else "3-6"],
    }
    state = with_hands(state, hands)
    state, events = plays(
        state,
        ("1-1", 0),
        (second, 0),
        ("1-2", 1),
        ("2-3", 1),
        (early, 0),
        ("3-4", 1),
        ("4-4", 1),
        (third, 1),
        (final, 0),
    )
    round_end = round_ended(events)
    assert (round_end.reason, round_end.seat) == ("out", 0)
    assert early in [GENERAL.tiles.name(t) for t in tiles_played(state)]
    assert state.tally.scores == (0, 0)
    assert state.tally.wins == (1, 0)


def tiles_played(state: GameState) -> list[int]:
    return [e.tile for e in state.history if isinstance(e, TilePlayed)]


def test_the_partner_going_out_wins_the_round_for_the_side():
    state, _ = out_round(start(), winner=2, last="6-6")
    assert state.tally.scores == (1, 0) and state.tally.wins == (1, 0)


def test_rounds_won_are_counted():
    state = start()
    for winner, last, wins, generals in [
        (1, "plain", (0, 1), (0, 0)),
        (3, "plain", (0, 2), (0, 0)),
        (0, "0-0", (1, 2), (1, 0)),
        (2, "plain", (2, 2), (1, 0)),
        (1, "6-6", (2, 3), (1, 1)),
    ]:
        state, _ = out_round(state, winner, last)
        assert (state.tally.wins, state.tally.scores) == (wins, generals)
        state, _ = next_round(state)
    assert state.round_no == 6


# -- the queue -------------------------------------------------------------------------------


def test_two_teams_nobody_waits():
    state = start(4)
    assert state.tally.queue == () and state.resting == ()
    for winner, last in [(0, "plain"), (1, "6-6"), (2, "0-0"), (3, "plain")]:
        state, _ = out_round(state, winner, last)
        assert state.tally.queue == ()
        assert next_resting(state) == ()
        state, (started,) = next_round(state)
        assert started.resting == () and state.resting == ()
        assert playing(state) == [0, 1, 2, 3]


def test_three_teams_the_loser_goes_to_the_back_the_next_comes_in():
    state = start(6)
    assert state.tally.queue == (2,)
    assert state.resting == (2, 5) and sides_at_table(state) == {0, 1}
    state, _ = out_round(state, winner=0)  # team 0 beats team 1
    assert state.tally.queue == (1,)
    assert next_resting(state) == (1, 4)
    state, (started,) = next_round(state)
    assert started.resting == (1, 4) and sides_at_table(state) == {0, 2}
    state, _ = out_round(state, winner=2)  # team 2 beats team 0
    assert state.tally.queue == (0,)
    state, _ = next_round(state)
    assert sides_at_table(state) == {1, 2}
    assert state.tally.wins == (1, 0, 1)


def test_four_teams_the_loser_goes_to_the_back_the_next_comes_in():
    state = start(8)
    assert state.tally.queue == (2, 3) and sides_at_table(state) == {0, 1}
    assert state.resting == (2, 3, 6, 7)
    state, _ = out_round(state, winner=5)  # team 1 beats team 0
    assert state.tally.queue == (3, 0)
    state, _ = next_round(state)
    assert sides_at_table(state) == {1, 2} and state.resting == (0, 3, 4, 7)
    state, _ = out_round(state, winner=2)  # team 2 beats team 1
    assert state.tally.queue == (0, 1)
    state, _ = next_round(state)
    assert sides_at_table(state) == {2, 3}


@pytest.mark.parametrize("last", ["0-0", "6-6"])
def test_after_a_general_the_winning_team_gives_way_three_teams(last):
    state = start(6)
    state, _ = out_round(state, winner=1, last=last)  # team 1's General
    assert state.tally.queue == (1,)
    assert state.tally.scores == (0, 1, 0)
    state, (started,) = next_round(state)
    assert started.resting == (1, 4) and sides_at_table(state) == {0, 2}


def test_after_a_general_the_winning_team_gives_way_four_teams():
    state = start(8)
    state, _ = out_round(state, winner=0, last="0-0")
    assert state.tally.queue == (3, 0)
    state, _ = next_round(state)
    assert sides_at_table(state) == {1, 2}
    state, _ = out_round(state, winner=1, last="plain")  # team 1 beats team 2
    assert state.tally.queue == (0, 2)
    state, _ = next_round(state)
    assert sides_at_table(state) == {1, 3}
    assert (state.tally.scores, state.tally.wins) == ((1, 0, 0, 0), (1, 1, 0, 0))


def test_a_fish_keeps_the_queue():
    state = start(8)
    state, _ = fish_round(state, leader=0)
    assert state.tally.queue == (2, 3)
    state, _ = next_round(state)
    assert sides_at_table(state) == {0, 1}


@pytest.mark.parametrize("players", [6, 8])
def test_partners_alternate_at_the_table_for_every_pairing(players):
    rules = general(players)
    sides = rules.sides
    pairs = [(a, b) for a in range(sides) for b in range(a + 1, sides)]
    for a, b in pairs:
        queue = tuple(s for s in range(sides) if s not in (a, b))
        tally = between_rounds(players).tally._replace(queue=queue)
        state, (started,) = next_round(between_rounds(players, tally))
        seated = playing(state)
        assert {rules.side_of(s) for s in seated} == {a, b}
        order = in_turn(state, started.leader)
        assert [rules.side_of(s) for s in order] in ([a, b, a, b], [b, a, b, a])
        # and in play: every turn passes to the other team
        turns = []
        while state.phase is Phase.PLAYING:
            turns.append(state.to_move)
            state, events = apply(state, legal_moves(state)[0])
            turns += [e.seat for e in events if isinstance(e, Knocked)]
        movers = [rules.side_of(s) for s in turns]
        assert all(x != y for x, y in pairwise(movers))


@pytest.mark.parametrize("players", [6, 8])
def test_every_pairing_is_reached_through_the_queue(players):
    """Over a random match the queue brings every team to the table."""
    rules = general(players)
    seen = set()
    for _, _, after, events in random_match(rules, seed=2, choice=3, rounds=25):
        if events and isinstance(events[0], RoundStarted):
            seen |= sides_at_table(after)
            waiting = {rules.side_of(s) for s in after.resting}
            assert waiting == set(after.tally.queue)
    assert seen == set(range(rules.sides))


# -- the end of the match ----------------------------------------------------------------------


def test_the_match_never_ends_by_itself():
    state, _ = new_game(general(6), seats(6), seed=4)
    rng = random.Random(1)
    for _ in range(30):
        while state.phase is Phase.PLAYING:
            state, _ = apply(state, rng.choice(legal_moves(state)))
        assert state.phase is Phase.ROUND_OVER and state.outcome is None
        state, _ = next_round(state)


def test_time_up_only_between_rounds():
    state, _ = new_game(GENERAL, seats(4), seed=2)
    with pytest.raises(IllegalMoveError) as error:
        time_up(state)  # the round is under way
    assert error.value.reason == "no_time_up"
    state, _ = out_round(state, winner=0)
    over, (outcome,) = time_up(state)
    assert over.phase is Phase.GAME_OVER and over.outcome == outcome
    assert isinstance(outcome, GameEnded) and outcome.reason == "time"
    assert legal_moves(over) == []
    with pytest.raises(IllegalMoveError):
        time_up(over)
    with pytest.raises(IllegalMoveError):
        next_round(over)


@pytest.mark.parametrize("preset", ["goat", "bykovo"])
def test_time_up_is_only_for_general(preset):
    rules = parse_rules(preset, players=4)
    for step in random_game(rules, seed=1, choice_seed=1):
        if step.after.phase is Phase.ROUND_OVER:
            with pytest.raises(IllegalMoveError):
                time_up(step.after)
            return
    raise AssertionError("no round ended")


def places_of(outcome: GameEnded) -> dict[int, int]:
    """Side → place."""
    by_side: dict[int, int] = {}
    for p in outcome.places:
        assert by_side.setdefault(p.side, p.place) == p.place  # partners share their place
    return by_side


def test_places_by_generals_then_rounds_won():
    tally = between_rounds(8).tally._replace(scores=(1, 3, 0, 1), wins=(4, 3, 9, 6))
    state = between_rounds(8, tally)
    _, (outcome,) = time_up(state)
    assert places_of(outcome) == {1: 1, 3: 2, 0: 3, 2: 4}
    assert [p.side for p in outcome.places] == [1, 1, 3, 3, 0, 0, 2, 2]
    assert {p.seat for p in outcome.places} == set(range(8))
    assert [p.score for p in outcome.places] == [3, 3, 1, 1, 1, 1, 0, 0]
    assert not any(p.goat or p.rating_points for p in outcome.places)


def test_equal_generals_and_wins_are_drawn_by_a_seeded_lot_no_shared_places():
    tally = between_rounds(8).tally._replace(scores=(2, 0, 2, 2), wins=(5, 9, 5, 5))
    orders = set()
    for seed in range(40):
        state = between_rounds(8, tally, seed=seed)
        _, (outcome,) = time_up(state)
        assert time_up(state)[1] == (outcome,)  # deterministic
        places = places_of(outcome)
        assert sorted(places.values()) == [1, 2, 3, 4]  # no shared places
        assert places[1] == 4
        lot = shuffled(range(4), f"{state.lots}:lot")  # the seed's digest (edition 3)
        drawn = sorted((0, 2, 3), key=lot.index)
        assert [places[s] for s in drawn] == [1, 2, 3]
        orders.add(tuple(drawn))
    assert len(orders) > 2  # the lot, not the seat order


def test_a_fresh_match_ends_without_shared_places():
    state, _ = fish_round(start(6), leader=0)
    _, (outcome,) = time_up(state)
    assert sorted(places_of(outcome).values()) == [1, 2, 3]


def test_leavers_sides_are_last_whatever_their_generals():
    tally = between_rounds(8).tally._replace(scores=(5, 1, 0, 3), wins=(6, 2, 1, 4))
    state = between_rounds(8, tally)
    state = leave(state, 4)  # team 0, the best, then team 3
    state = leave(state, 3)
    _, (outcome,) = time_up(state)
    assert places_of(outcome) == {1: 1, 2: 2, 3: 3, 0: 4}
    assert outcome.leaver == 4
    assert not any(p.goat or p.rating_points for p in outcome.places)


def test_a_leaver_is_played_by_the_computer_and_the_match_goes_on():
    state = start(6)
    state = leave(state, 1)
    state, _ = out_round(state, winner=1, last="0-0")  # the computer plays seat 1
    assert state.tally.scores == (0, 1, 0) and state.phase is Phase.ROUND_OVER
    _, (outcome,) = time_up(state)
    assert places_of(outcome)[1] == 3


def test_abandon_ends_the_match_at_once_leaver_last():
    tally = between_rounds(6).tally._replace(scores=(1, 2, 0), wins=(3, 2, 1))
    state = between_rounds(6, tally)._replace(phase=Phase.PLAYING)
    over, (outcome,) = abandon(state, 4)  # team 1, the most Generals
    assert over.phase is Phase.GAME_OVER and over.outcome == outcome
    assert (outcome.reason, outcome.leaver) == ("timeout", 4)
    assert places_of(outcome) == {0: 1, 2: 2, 1: 3}
    assert not any(p.goat or p.rating_points for p in outcome.places)
    with pytest.raises(IllegalMoveError):
        abandon(over, 0)
    with pytest.raises(IllegalMoveError):
        time_up(over)


def test_a_resting_seat_may_abandon():
    state = start(6)
    assert 5 in state.resting
    _, (outcome,) = abandon(state, 5)
    assert places_of(outcome)[2] == 3


# -- JSON and replay ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", GENERAL_PLAYERS)
def test_replay_with_time_up_gives_the_live_state(players):
    rules = general(players)
    log, state = [], None
    for _, entry, after, _ in random_match(rules, seed=players, choice=9, rounds=5):
        if entry is not None:
            log.append(entry)
        state = after
        data = json.loads(json.dumps(state_to_json(after)))
        assert state_from_json(data) == after
    assert log[-1] == TIME_UP == {"type": "TimeUp"}
    assert state.phase is Phase.GAME_OVER and state.outcome.reason == "time"
    log = json.loads(json.dumps(log))
    assert replay(rules, seats(players), players, log) == state
    data = state_to_json(state)
    assert data["tally"]["wins"] == list(state.tally.wins)
    assert data["tally"]["queue"] == list(state.tally.queue)
    assert data["rules"]["minutes"] == 30


def test_replay_with_a_leaver_and_time_up():
    rules, log = general(6), []
    state, _ = new_game(rules, seats(6), 13)
    rounds = 0
    while rounds < 3:
        if state.phase is Phase.ROUND_OVER:
            rounds += 1
            if rounds == 3:
                break
            state, _ = next_round(state)
            log.append(NEXT_ROUND)
            continue
        if rounds == 1 and not state.left:
            log.append(leave_entry(state.to_move))
            state = leave(state, state.to_move)
        move = legal_moves(state)[0]
        state, _ = apply(state, move)
        log.append(encode(move))
    state, _ = time_up(state)
    log.append(TIME_UP)
    assert replay(rules, seats(6), 13, json.loads(json.dumps(log))) == state
    assert state.outcome.places[-1].seat in (state.left[0], (state.left[0] + 3) % 6)


def test_the_round_in_json_keeps_the_queue_and_the_waiting_seats():
    state, _ = out_round(start(8), winner=1)
    state, _ = next_round(state)
    loaded = state_from_json(json.loads(json.dumps(state_to_json(state))))
    assert loaded == state
    assert loaded.tally.queue == (3, 0) and loaded.resting == state.resting == (0, 3, 4, 7)


@pytest.mark.parametrize("text", ["goat", "goat_teams", "bykovo", "room", "telephone"])
def test_old_json_without_wins_queue_and_minutes_still_loads(text):
    rules = parse_rules(text, players=4)
    checked = 0
    for step in random_game(rules, seed=6, choice_seed=6):
        if step.move is None or step.after.phase is not Phase.PLAYING:
            data = json.loads(json.dumps(state_to_json(step.after)))
            del data["tally"]["wins"]
            del data["tally"]["queue"]
            del data["rules"]["minutes"]
            loaded = state_from_json(data)
            assert loaded == step.after
            assert loaded.tally.wins == () and loaded.tally.queue == ()
            checked += 1
        if checked > 3:
            break
    assert checked
