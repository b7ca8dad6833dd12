"""`Format`: one game of the family as one unit.

A format answers everything that differs between the games: who plays and how many sit
down, the hand size, who waits, what a hand is worth, what a move scores, how a round is
settled, when the game ends and the places. The engine keeps the mechanics every game
shares (deal, lead, attach, bazaar, knock) and asks the format the rest; the texts, the
pictures and the lobby ask it what its sheet shows and which lengths it offers.

A format reads its options from the `Rules` it is given; it keeps no state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

from bot.game.events import EndReason, PublicEvent, RoundEnd, RoundEnded
from bot.game.kinds import DrawMode, RuleError
from bot.game.scoring import RoundScores, Tally, fresh_tally, reached
from bot.game.table import Spread
from bot.game.tiles import TileSet
from bot.game.values import check_type

TABLE_PLAYERS = 4
Presets = Mapping[str, Mapping[str, Any]]
"""Named rule sets: the options that differ from `Rules`'s defaults."""
Fixed = Mapping[str, tuple[object, ...]]
"""Shared options and the only values a game plays them with, its presets' first."""
Standing = tuple[int, int, bool, int]
"""`(side, place, goat, rating_points)`, best first."""


def option(default: Any, *, after: str = "", within: tuple[int, int] | None = None) -> Any:
    """A game's own option: its default; `after`, the shared option it is listed after in
    the rules' JSON and summary (none: last); `within`, a whole number's range."""
    return field(default=default, metadata={"after": after, "range": within})


@dataclass(frozen=True, slots=True)
class Options:
    """A game's own options (a format's `options`: a subclass with a field each, its
    default the default, made by `option`): checked on creation, `RuleError` if bad.
    A game with none has this record."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            check_type(f.name, value, f.default)
            low, high = f.metadata["range"] or (value, value)
            if not low <= value <= high:
                raise RuleError(
                    f"{f.name}={value}: must be from {low} to {high}",
                    f.name,
                    str(value),
                    f"{low}–{high}",
                )


NO_OPTIONS = Options()
Own = TypeVar("Own", bound=Options)


def own(rules: Rules, kind: type[Own]) -> Own:
    """The options of its own `rules` hold for the game whose record is `kind`."""
    options = rules.own
    if not isinstance(options, kind):
        raise TypeError(f"{type(options).__name__} are not {kind.__name__}")
    return options


class Rules(Protocol):
    """The rules as a format reads them (`bot.game.rules.RuleSet`, which asks the format
    back): the formats import nothing that imports them."""

    @property
    def players(self) -> int: ...
    @property
    def teams(self) -> bool: ...
    @property
    def team_size(self) -> int: ...
    @property
    def max_pip(self) -> int: ...
    @property
    def target(self) -> int: ...
    @property
    def lone_zero(self) -> int: ...
    @property
    def draw(self) -> DrawMode: ...
    @property
    def own(self) -> Options: ...
    @property
    def tiles(self) -> TileSet: ...
    @property
    def hand(self) -> int: ...
    @property
    def goal(self) -> int: ...
    @property
    def sides(self) -> int: ...
    @property
    def at_table(self) -> int: ...
    def side_of(self, seat: int) -> int: ...


class Progress(Protocol):
    """A game's state as a format reads it (`bot.game.state.GameState`)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def round_no(self) -> int: ...
    @property
    def hands(self) -> tuple[int, ...]: ...
    @property
    def ends(self) -> tuple[int, ...]: ...
    @property
    def on_table(self) -> int: ...
    @property
    def history(self) -> tuple[PublicEvent, ...]: ...
    @property
    def tally(self) -> Tally: ...
    @property
    def last_round(self) -> RoundEnded | None: ...
    @property
    def left(self) -> tuple[int, ...]: ...
    @property
    def spread(self) -> Spread: ...
    @property
    def resting(self) -> tuple[int, ...]: ...
    @property
    def lots(self) -> int: ...
    def is_out(self, seat: int) -> bool: ...
    def sits_out(self, seat: int) -> bool: ...


class Sheet(StrEnum):
    """What a format's score sheet shows, and so what decides it."""

    POINTS = "points"  # previous / round / total, remembered points (Козёл, classic)
    RACE = "race"  # points in play and for the round, up to the target (Телефон, Muggins)
    OUT = "out"  # totals up to the limit and who is out (the room)
    PLACES = "places"  # the round's places and the totals up to the limit (Bykovo)
    GENERALS = "generals"  # Generals and rounds won per team («Генерал»)


class Length(StrEnum):
    """The option that says how long a game is."""

    TARGET = "target"
    MINUTES = "minutes"


class RoundFacts(NamedTuple):
    """How a round ended, for its settlement."""

    state: Progress  # the round as it ended
    reason: RoundEnd
    seat: int  # went out, or closed the fish
    placed: int  # the tiles the last move put down
    values: tuple[int, ...]  # per seat: the hand's value
    side_values: tuple[int, ...]  # per side: its hands together


class RoundOutcome(NamedTuple):
    """How a round came out: its scores, and (Bykovo) its places and the seats whose order
    the lot drew."""

    settlement: RoundScores
    order: tuple[int, ...] = ()
    lots: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ComputerSettings:
    """A game's computers as plain data; `bot.ai.knobs` reads it once into its `Knobs` (the
    names are its enums' values, `None` its default)."""

    valuation: str  # how hard values a finished round
    heuristic: str = "shed"  # what normal plays for
    race_weights: tuple[tuple[str, float], ...] = ()  # the race heuristic's weights it changes
    point: int = 5  # a point of the race on the race heuristic's scale (in the ends' pips)
    costs: str = "pips"  # what a tile left in a hand costs the normal level
    budget_s: float | None = None  # the hard level's default thinking time per move
    trust: float | None = None  # the search's lead over the normal move, in standard errors
    weighted: bool = True  # worlds weighted by how well they explain the other seats' plays
    rests: bool = False  # a seat dealt nothing sits the round out in the worlds (§4.2)
    easy_pass: float = 1.0  # the easy level's chance to keep a voluntary pass (1: no lot)


class Format:
    """A game of the family: one instance each, kept in `bot.game.formats.FORMATS` by its `id`.

    The class attributes say what the game is; the methods do what differs. The defaults
    are a line game for 2–4 players with 7 tiles each, played to `target`."""

    id: str
    """The game's name in the rules (`scoring=`), the records and the catalogs' keys."""
    options: type[Options] = Options
    """Its own options: a record of their names, types, defaults and ranges."""
    presets: ClassVar[Presets]
    computers: ClassVar[ComputerSettings]
    """How its computers play (`bot.ai.knobs`)."""
    sheet = Sheet.POINTS
    length = Length.TARGET
    lengths: ClassVar[tuple[int, ...]] = ()
    """The lengths the lobby offers as buttons, the short one first (0: by the players)."""
    fixed: ClassVar[Fixed] = {}
    """The shared options its rules fix: another value makes a game nobody plays, so a
    person may not choose it (a stored game keeps what it was stored with)."""
    choices: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()
    """The lobby's buttons for the options that shape this format, beyond its length."""
    by_players = False  # `target=0` sets the goal by the number of players
    higher_wins = False  # points are good, not bad (statistics compare within a kind)
    scores_in_play = False  # the open ends score after every move (`move_points`)
    eliminating = False  # a side may go out of the game (`Tally.out`)
    finishes_circle = False  # the circle is played out after the first goes out (Bykovo)
    seats_by_lot = False  # the seats are drawn, the rating leaders rest first (Bykovo)
    timed = False  # the match ends on its clock (`clock_minutes`), not at a target
    line_fish = True  # a line whose ends can take no tile is a fish at once (§1.6)
    hands_count = True  # the hands left count at a round's end (shown with their value)

    # -- who plays ------------------------------------------------------------------------

    def fewest_players(self, rules: Rules) -> int:
        return 2

    def most_players(self, rules: Rules) -> int:
        return TABLE_PLAYERS

    def at_table(self, rules: Rules) -> int:
        """How many play a round (the others wait)."""
        return rules.players

    def hand_for(self, rules: Rules, players: int) -> int:
        """Tiles dealt to each of `players` without `hand_size`."""
        return 7

    def goal(self, rules: Rules) -> int:
        """The score that ends the game (or puts a side out)."""
        return rules.target

    def validate(self, rules: Rules) -> None:
        """Raise `RuleError` for a combination this format does not play."""

    def match_minutes(self, rules: Rules) -> int:
        """How long the match lasts on its clock, where `timed`."""
        raise NotImplementedError

    def next_leader(self, state: Progress, seat: int) -> int:
        """Who leads the next round (unless `next_lead=first_rule`), once `seat` ended this
        one: who went out, or who closed the fish (§1.7)."""
        return seat

    def next_resting(self, state: Progress) -> tuple[int, ...]:
        """The seats that sit the next round out."""
        return ()

    # -- scoring --------------------------------------------------------------------------

    def fresh_tally(self, rules: Rules) -> Tally:
        return fresh_tally(rules.sides)

    def hand_value(self, rules: Rules, hand: int) -> int:
        """A hand's value at the round's end (§2.3): its pips, a lone 0-0 `lone_zero`."""
        if hand == 1:  # 0-0 is tile 0
            return rules.lone_zero
        return rules.tiles.pip_sum(hand)

    def by_stake(self, rules: Rules) -> bool:
        """Whether what a move scores depends on its side's score (`move_points`' `score`)."""
        return False

    def move_points(self, rules: Rules, score: int, total: int, out: bool) -> int:
        """What a move scores for a side at `score` when the open ends add up to `total`
        (`out`: it was the mover's last tile); only where `scores_in_play`."""
        return 0

    def settle(
        self, rules: Rules, values: Sequence[int], out_side: int | None, tally: Tally
    ) -> RoundScores:
        """Score a round: `values` per side; `out_side` went out, or None for a fish."""
        raise NotImplementedError

    def settle_round(self, facts: RoundFacts) -> RoundOutcome:
        """The round's settlement from everything known about its end."""
        rules = facts.state.rules
        out_side = rules.side_of(facts.seat) if facts.reason is RoundEnd.OUT else None
        return RoundOutcome(self.settle(rules, facts.side_values, out_side, facts.state.tally))

    def is_bald(self, rules: Rules, placed: int, values: Sequence[int], seat: int) -> bool:
        """Whether going out with `placed` wins the game at once (Sea Goat's bald goat)."""
        return False

    def ending(
        self, rules: Rules, tally: Tally, bald: int | None
    ) -> tuple[EndReason | None, tuple[int, ...]]:
        """Whether the game ends after a round, why, and its goats; the default: a race
        that a side has won once it reaches the goal."""
        return reached(tally, rules.goal), ()

    def standings(
        self,
        rules: Rules,
        tally: Tally,
        goats: Sequence[int],
        leaver_sides: Sequence[int],
        lots: int,
    ) -> list[Standing]:
        """`(side, place, goat, rating_points)` best first; sides with a leaver last."""
        raise NotImplementedError


class Club(Format):
    """A club format (Bykovo, «Генерал»): four play a round, the others wait their turn."""

    def fewest_players(self, rules: Rules) -> int:
        return TABLE_PLAYERS

    def at_table(self, rules: Rules) -> int:
        return min(rules.players, TABLE_PLAYERS)


def leaver_key(leaver_sides: Sequence[int], side: int) -> int:
    """0 for a side that stayed; the first to leave sorts last."""
    return len(leaver_sides) - leaver_sides.index(side) if side in leaver_sides else 0
