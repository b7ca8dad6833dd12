"""`RuleSet`: every house-rule option of the family in one validated, immutable object.

RULES.md §1–§3 and §9. What differs between the games is their format's
(`bot.game.formats`), and so are the presets, the combinations people play;
`parse_rules` reads the text a group types after `/newgame` (`sea_goat target=125`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from bot.game.formats import FORMATS, Format, game_of
from bot.game.formats.base import NO_OPTIONS, TABLE_PLAYERS, Options
from bot.game.formats.goat import FishMode
from bot.game.kinds import DrawMode, FirstLead, NextLead, RuleError, Spinner
from bot.game.tiles import TileSet, tile_set
from bot.game.values import check_type, coerce, show_value

__all__ = [
    "PRESETS",
    "DrawMode",
    "FirstLead",
    "FishMode",
    "NextLead",
    "Preset",
    "RuleError",
    "RuleSet",
    "Spinner",
]


EDITIONS = {
    1: "the first rules the bot played",
    2: "a spinner layout is a fish only when no tile can ever be attached (§1.6, §5)",
    3: "lots are drawn from a digest of the seed, which a game's record may show",
    4: "a spinner game's layout is a line, closed by its plain tiles, until a double lies (§1.6)",
}
"""How the bot has played the rules: a game keeps the edition it was stored with, so its
log replays to the states it was played to (an older running game is brought up to date
between two moves, with a `Rules` entry in its log)."""
EDITION = max(EDITIONS)
SPINNER_FISH = 2
LINE_BEFORE_SPINNER = 4
FIRST_EDITION = min(EDITIONS)
OWN_OPTIONS: dict[str, Format] = {
    f.name: fmt for fmt in FORMATS.values() for f in fields(fmt.options)
}
"""The options that belong to one format alone (`Format.options`), by name."""
MAX_TEAMS = 5
LIMITS = {
    "target": (0, 10_000),
    "turn_timeout": (0, 3_600),
    "redeal_doubles": (0, 13),
    "redeal_suit": (0, 13),
    "keep": (0, 91),
    "lone_zero": (0, 1_000),
    "team_size": (2, 5),
    "doubles": (1, 4),
}
"""The range of every shared numeric option (`max_pip`, `players` and `hand_size` are
checked against the set; a game's own say theirs): a number typed by a user never reaches a
clock or the database unbounded."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One game's rules: the options every game shares, and `own`, its game's own ones
    (`Format.options`). Validated on creation: a bad value raises `RuleError`. Built from
    flat options by `of`, changed by `changed`."""

    preset: str = "goat"
    scoring: str = "goat"  # the game: its format's id
    players: int = 4
    teams: bool = False
    team_size: int = 2  # players per team with teams=yes (the room: 2–5)
    max_pip: int = 6
    hand_size: int | None = None  # None: 7, or 5 with 3–4 players in classic (§9)
    redeal_doubles: int = 5  # redeal when a hand holds this many doubles (0: never)
    redeal_suit: int = 6  # … or this many tiles of one suit (0: never)
    first_lead: FirstLead = FirstLead.ONE_ONE
    next_lead: NextLead = NextLead.WINNER
    draw: DrawMode = DrawMode.UNTIL_PLAYABLE
    keep: int = 0  # bazaar tiles that can never be drawn
    auto_draw: bool = True  # draw for the player, showing them what came
    voluntary_pass: bool = False
    lone_zero: int = 10  # value of a hand that is the single 0-0
    target: int = 101
    double_pair: bool = False  # Sea Goat: two doubles on both ends in one move
    spinner: Spinner = Spinner.NONE  # the first open double opens four arms (§5–§7)
    doubles: int = 1  # the most doubles one move may put down, one per open end (§5, §6)
    closed_doubles: bool = False  # Осёл: a double may be played face down, ending its arm
    turn_timeout: int = 60  # seconds a person has for a move (0: untimed); the bot keeps time
    own: Options = NO_OPTIONS  # the game's own options (its defaults, if not given)
    edition: int = EDITION  # how the bot played these rules (`EDITIONS`); not a user's option
    format: Format = field(init=False, repr=False, compare=False)
    tiles: TileSet = field(init=False, repr=False, compare=False)
    dead_ends: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """By pip value: the tiles that, all on the table, leave an end showing it dead for good
    (`table.is_blocked`): a line's plain tiles (§1.6), a spinner layout's whole suit."""
    line_dead_ends: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """`dead_ends` while no double lies on the table (`dead_ends_on`)."""
    most_doubles: int = field(init=False, repr=False, compare=False)
    """The most doubles one move may put down (Sea Goat's pair is two)."""
    seat_sides: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Each seat's scoring side (`side_of`)."""
    plain_line: bool = field(init=False, repr=False, compare=False)
    """A line without a spinner where no circle is finished: the engine's hot path
    (`engine._on_line`)."""
    hashed: int = field(init=False, repr=False, compare=False)
    """The hash of the options, once: the computers' tables are keyed by the rules."""

    def __hash__(self) -> int:
        return self.hashed

    def __reduce__(self) -> tuple[type[RuleSet], tuple[object, ...]]:
        """Pickled by its options, so that another process makes the hash (and every
        derived field) again."""
        return RuleSet, tuple(getattr(self, f.name) for f in fields(self) if f.init)

    def __post_init__(self) -> None:
        for f in _SHARED:
            check_type(f.name, getattr(self, f.name), f.default)
        fmt = game_of(self.scoring)
        object.__setattr__(self, "format", fmt)
        if type(self.own) is not fmt.options:
            if self.own != NO_OPTIONS:
                raise RuleError(
                    f"{type(self.own).__name__} belong to another game than {self.scoring}",
                    "scoring",
                    self.scoring,
                )
            object.__setattr__(self, "own", fmt.options())
        self._validate()
        tiles = tile_set(self.max_pip)
        object.__setattr__(self, "tiles", tiles)
        dead_ends = self._dead_ends(tiles)
        object.__setattr__(self, "dead_ends", dead_ends)
        line = self.edition >= LINE_BEFORE_SPINNER and self.format.line_fish
        object.__setattr__(self, "line_dead_ends", tiles.plain_suit_masks if line else dead_ends)
        object.__setattr__(self, "most_doubles", max(self.doubles, 2 if self.double_pair else 1))
        object.__setattr__(self, "seat_sides", tuple(map(self.side_of, range(self.players))))
        plain = self.spinner is Spinner.NONE and not fmt.finishes_circle
        object.__setattr__(self, "plain_line", plain)
        options = tuple(getattr(self, f.name) for f in fields(self) if f.compare)
        object.__setattr__(self, "hashed", hash(options))

    def _dead_ends(self, tiles: TileSet) -> tuple[int, ...]:
        if not self.format.line_fish:  # a tile past the set: never all on the table
            return (1 << tiles.size,) * (tiles.max_pip + 1)
        whole = self.spinner is not Spinner.NONE and self.edition >= SPINNER_FISH
        return tiles.suit_masks if whole else tiles.plain_suit_masks

    def dead_ends_on(self, on_table: int) -> tuple[int, ...]:
        """`dead_ends` for a table holding `on_table`. From edition 4 a spinner game's layout
        is a two-ended line, closed by its plain tiles, until a double lies (§1.6): the first
        open double is the spinner and a closed one closes its end, so no other sign is
        needed."""
        return self.dead_ends if on_table & self.tiles.doubles_mask else self.line_dead_ends

    def _validate(self) -> None:
        if self.edition not in EDITIONS:
            raise RuleError(
                f"edition={self.edition}: this version plays {', '.join(map(str, EDITIONS))}",
                "edition",
                str(self.edition),
            )
        self.format.validate(self)
        self._validate_seats()
        self._validate_ranges()
        if self.target == 0 and not self.format.by_players:
            raise RuleError(
                f"target=0 (by the number of players): {self.scoring} plays to a target",
                "target",
                "0",
                f"1–{LIMITS['target'][1]}",
            )

    def _validate_seats(self) -> None:
        """Players and teams within what the format seats."""
        least, most = self.fewest_players, self.most_players
        if not least <= self.players <= most:
            raise RuleError(
                f"players={self.players}: must be from {least} to {most}",
                "players",
                str(self.players),
                f"{least}–{most}",
            )
        if (
            self.teams
            and self.most_players <= TABLE_PLAYERS
            and (self.players, self.team_size) != (TABLE_PLAYERS, 2)
        ):
            raise RuleError(
                f"teams need exactly 4 players (2×2), not {self.players}",
                "teams",
                str(self.players),
                "4",
            )
        if self.teams and (
            self.players % self.team_size or not 2 <= self.players // self.team_size <= MAX_TEAMS
        ):
            raise RuleError(
                f"{self.players} players do not make 2–{MAX_TEAMS} teams of {self.team_size}",
                "team_size",
                str(self.team_size),
                ", ".join(
                    str(size)
                    for size in range(2, 6)
                    if not self.players % size and 2 <= self.players // size <= MAX_TEAMS
                )
                or "—",
            )

    def _validate_ranges(self) -> None:
        """The set, the hands and the bazaar fit together, and every number is in range."""
        if not 6 <= self.max_pip <= 12:
            raise RuleError(
                f"max_pip={self.max_pip}: must be from 6 to 12",
                "max_pip",
                str(self.max_pip),
                "6–12",
            )
        size = len(tile_set(self.max_pip).pips)
        if self.hand < 1:
            raise RuleError(
                f"hand_size={self.hand}: must be at least 1", "hand_size", str(self.hand)
            )
        seated = self.at_table
        if self.hand * seated > size:
            raise RuleError(
                f"hand_size={self.hand}: {seated} hands of {self.hand} need more than the "
                f"{size} tiles of double-{self.max_pip}",
                "hand_size",
                str(self.hand),
                f"1–{size // seated}",
            )
        for name, (low, high) in LIMITS.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise RuleError(
                    f"{name}={value}: must be from {low} to {high}",
                    name,
                    str(value),
                    f"{low}–{high}",
                )
        if self.keep > size - self.hand * seated:
            raise RuleError(
                f"keep={self.keep}: the bazaar has only {size - self.hand * seated} tiles",
                "keep",
                str(self.keep),
            )

    @property
    def most_players(self) -> int:
        """The most players these rules seat (the room: by set; the club formats: 7 or 8)."""
        return self.format.most_players(self)

    @property
    def fewest_players(self) -> int:
        return self.format.fewest_players(self)

    @property
    def at_table(self) -> int:
        """How many play a round: four in Bykovo and «Генерал» (the others wait)."""
        return self.format.at_table(self)

    @property
    def hand(self) -> int:
        """Tiles dealt to each player at the full table."""
        return self.hand_for(self.players)

    def hand_for(self, players: int) -> int:
        """Tiles dealt to each of `players` (fewer than `players` once the room puts some out)."""
        if self.hand_size is not None:
            return self.hand_size
        return self.format.hand_for(self, players)

    @property
    def goal(self) -> int:
        """The score that ends the game (Bykovo: that eliminates); `target=0`: by the
        players (Muggins §7, Bykovo §4.2)."""
        return self.format.goal(self)

    @property
    def sides(self) -> int:
        """Scoring sides: teams, or one per player."""
        return self.players // self.team_size if self.teams else self.players

    def side_of(self, seat: int) -> int:
        """Teams alternate round the table (§1.2): with 2 teams seats 0, 2 and 1, 3."""
        return seat % self.sides if self.teams else seat

    def with_players(self, players: int) -> RuleSet:
        """The same rules for another number of players."""
        return replace(self, players=players)

    def current(self) -> RuleSet:
        """The same rules as the bot plays them now (`EDITION`)."""
        return self if self.edition == EDITION else replace(self, edition=EDITION)

    def options(self) -> dict[str, Any]:
        """Every option as a plain JSON value, flat (the preset's name included): the shared
        ones and every game's own (the other games' at their defaults), in `LISTED` order."""
        values = KEYS | {f.name: getattr(self, f.name) for f in _SHARED}
        values |= {f.name: getattr(self.own, f.name) for f in fields(self.own)}
        return {name: values[name] for name in LISTED}

    def changed(self, changes: Mapping[str, Any]) -> RuleSet:
        """These rules with `changes` (flat options, the game's own among them)."""
        return RuleSet.of({**self.options(), **changes})

    def summary(self) -> str:
        """The preset and every option that differs from it, e.g. `sea_goat target=150`."""
        base = PRESETS[self.preset].rules if self.preset in PRESETS else RuleSet()
        changed = [
            f"{name}={show_value(value)}"
            for name, value in self.options().items()
            if name in KEYS and value != base.options()[name]
        ]
        return " ".join([self.preset, *changed])

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> RuleSet:
        """Rules from flat options: `scoring` names the game, whose own options go to `own`;
        another game's own option is refused unless at its default."""
        scoring = options.get("scoring", "goat")
        fmt = FORMATS.get(scoring)
        shared = {name: value for name, value in options.items() if name not in OWN_OPTIONS}
        if fmt is None:  # refused by name
            return cls(**shared)
        mine: dict[str, Any] = {}
        for name, value in options.items():
            owner = OWN_OPTIONS.get(name)
            if owner is fmt:
                mine[name] = value
            elif owner is not None and value != KEYS[name]:
                raise RuleError(f"{name} belong to {owner.id} scoring", "scoring", scoring)
        return cls(**shared, own=fmt.options(**mine))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> RuleSet:
        """The inverse of `options()` (JSON values in, validated rules out); options stored
        before editions are the first edition's. Each set is made once: every read of a
        stored game reads its rules."""
        return _stored(json.dumps(options, default=str))


_SHARED: list[Field[Any]] = [f for f in fields(RuleSet) if f.init and f.name != "own"]
KEYS: dict[str, Any] = {
    f.name: f.default for f in _SHARED if f.name not in {"preset", "edition"}
} | {f.name: f.default for fmt in FORMATS.values() for f in fields(fmt.options)}
"""The options a user may set, with their defaults: the shared ones and every game's own."""
OPTIONS: dict[str, Any] = {"preset": "goat", "edition": EDITION, **KEYS}
"""Every option a stored rule set holds, with its default."""


def _listed() -> tuple[str, ...]:
    """The shared options in order, each game's own after the one it names (`option`)."""
    names = [f.name for f in _SHARED]
    for fmt in FORMATS.values():
        for f in fields(fmt.options):
            after = f.metadata["after"]
            at = names.index(after) + 1 if after else names.index("edition")
            while names[at] in OWN_OPTIONS:
                at += 1
            names.insert(at, f.name)
    return tuple(names)


LISTED = _listed()
"""The options' order in the rules' JSON and summary (as before a game owned its options)."""


@lru_cache(maxsize=256)
def _stored(options: str) -> RuleSet:
    """`RuleSet.from_options` of the options in JSON `options`."""
    given: dict[str, Any] = json.loads(options)
    known = {name: coerce(name, v, OPTIONS[name]) for name, v in given.items() if name in OPTIONS}
    known.setdefault("edition", FIRST_EDITION)
    return RuleSet.of(known)


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set (its description is in the translation catalogs)."""

    name: str
    rules: RuleSet


PRESETS: dict[str, Preset] = {
    name: Preset(name, RuleSet.of({"preset": name, "scoring": f.id, **options}))
    for f in FORMATS.values()
    for name, options in f.presets.items()
}
