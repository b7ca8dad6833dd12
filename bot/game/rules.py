"""`RuleSet`: every house-rule option of the family in one validated, immutable object.

RULES.md §1–§3 and §9. Presets name the combinations people play; `parse_rules` reads the
text a group types after `/newgame` (`sea_goat target=125`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from bot.game.tiles import TileSet, tile_set


class Scoring(StrEnum):
    """How a round is scored and who loses the game."""

    GOAT = "goat"  # points are bad; remembered points; goats at the target (§2)
    SEA_GOAT = "sea_goat"  # the winner records ≥ 25; write-off; bald goat (§3)
    CLASSIC = "classic"  # the winner collects the others' pips (§9)
    ROOM = "room"  # each scores their own pips; the limit puts a side out (§9, game room)
    TELEPHONE = "telephone"  # ends that make a multiple of 5 score sum/5; highest wins (§6)
    MUGGINS = "muggins"  # ends that make a multiple of 5 score the sum; highest wins (§7)
    BYKOVO = "bykovo"  # 4 of 4–7 play a round; hands add up; the limit eliminates (§4)
    GENERAL = "general"  # two teams of a queue play; out on 0-0 / 6-6 is a General (§8)


class Spinner(StrEnum):
    """Whether the first open double opens four arms (§5–§7)."""

    NONE = "none"  # a line: two ends only
    FOUR = "four"  # all four sides at once (Осёл, Телефон)
    SIDES = "sides"  # its two other sides once both long sides hold a tile (All Fives)


class FirstLead(StrEnum):
    """Who leads the first round, and with which tile."""

    ONE_ONE = "one_one"  # 1-1, 2-2 … 6-6, 0-0, then the highest tile (§2.2)
    HIGHEST_DOUBLE = "highest_double"  # 6-6, 5-5 … 0-0, then the highest tile (§9)
    ZERO_ZERO = "zero_zero"  # 0-0 first, then as one_one (§4.1)
    LOT = "lot"  # a seat drawn by lot leads with any tile (§7)


class NextLead(StrEnum):
    """Who leads the later rounds."""

    WINNER = "winner"  # the player who went out, or the fisherman, with any tile (§1.7)
    FIRST_RULE = "first_rule"  # the first-lead rule again


class DrawMode(StrEnum):
    """What a player who cannot play does with the bazaar (§1.5)."""

    UNTIL_PLAYABLE = "until_playable"
    ONE = "one"
    NONE = "none"


class FishMode(StrEnum):
    """Who scores a fish in «Козёл» (§2.5)."""

    ALL = "all"  # «рыба на всех»
    ONE = "one"  # «рыба на одного»


class RuleError(ValueError):
    """A bad option value or combination; `key` names the option, `valid` the choices."""

    def __init__(
        self, message: str, key: str = "", value: str = "", valid: str = "", number: bool = False
    ) -> None:
        super().__init__(message)
        self.key = key
        self.value = value
        self.valid = valid  # option values, numbers, ranges: no words of any language
        self.number = number  # the option takes a whole number


EDITIONS = {
    1: "the first rules the bot played",
    2: "a spinner layout is a fish only when no tile can ever be attached (§1.6, §5)",
}
"""How the bot has played the rules: a game keeps the edition it was stored with, so its
log replays to the states it was played to (an older running game is brought up to date
between two moves, with a `Rules` entry in its log)."""
EDITION = max(EDITIONS)
SPINNER_FISH = 2
FIRST_EDITION = min(EDITIONS)
GOAT_ONLY = frozenset({"open_threshold", "fish"})
SEA_GOAT_ONLY = frozenset({"record_min", "bald_goat", "write_off"})
GENERAL_ONLY = frozenset({"minutes"})
TABLE_PLAYERS = 4
ROOM_SETS = (6, 9, 12)
ROOM_HANDS = {
    6: ((4, 7),),
    9: ((4, 7), (7, 6), (10, 5)),
    12: ((6, 7), (10, 6)),
}
"""The game room's hand size by set: `(up to this many players, tiles each)`, first match."""
MAX_TEAMS = 5
MUGGINS_TWO, MUGGINS_MORE = 250, 200
BYKOVO_LIMITS = {4: 100, 5: 75, 6: 60, 7: 50}
"""The micro-tournament's limit by the number of participants (§4.2)."""
GENERAL_PLAYERS = (4, 6, 8)
"""«Генерал»: two, three or four teams of two, two of them at the table (§8)."""
LIMITS = {
    "target": (0, 10_000),
    "turn_timeout": (0, 3_600),
    "redeal_doubles": (0, 13),
    "redeal_suit": (0, 13),
    "keep": (0, 91),
    "open_threshold": (0, 1_000),
    "lone_zero": (0, 1_000),
    "record_min": (0, 1_000),
    "team_size": (2, 5),
    "doubles": (1, 4),
    "minutes": (1, 120),
}
"""The range of every numeric option (`max_pip`, `players` and `hand_size` are checked
against the set): a number typed by a user never reaches a clock or the database unbounded."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One game's rules. Validated on creation: a bad value raises `RuleError`."""

    preset: str = "goat"
    scoring: Scoring = Scoring.GOAT
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
    open_threshold: int = 13  # 0: every loser scores at once
    lone_zero: int = 10  # value of a hand that is the single 0-0
    fish: FishMode = FishMode.ONE
    target: int = 101
    record_min: int = 25  # Sea Goat: smallest sum the winner may record
    double_pair: bool = False  # Sea Goat: two doubles on both ends in one move
    spinner: Spinner = Spinner.NONE  # the first open double opens four arms (§5–§7)
    doubles: int = 1  # the most doubles one move may put down, one per open end (§5, §6)
    closed_doubles: bool = False  # Осёл: a double may be played face down, ending its arm
    bald_goat: bool = False  # Sea Goat: going out with 0-0 (or 6-6) wins the game
    write_off: bool = False  # Sea Goat: a new winner wipes the other side's points
    turn_timeout: int = 60  # seconds a person has for a move (0: untimed); the bot keeps time
    minutes: int = 30  # «Генерал»: the match's length; the round under way when it ends is played
    edition: int = EDITION  # how the bot played these rules (`EDITIONS`); not a user's option
    tiles: TileSet = field(init=False, repr=False, compare=False)
    dead_ends: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """By pip value: the tiles that, all on the table, leave an end showing it dead for good
    (`table.is_blocked`): a line's plain tiles (§1.6), a spinner layout's whole suit."""

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.init:
                _check_type(f.name, getattr(self, f.name), f.default)
        self._validate()
        tiles = tile_set(self.max_pip)
        object.__setattr__(self, "tiles", tiles)
        whole = self.spinner is not Spinner.NONE and self.edition >= SPINNER_FISH
        object.__setattr__(self, "dead_ends", tiles.suit_masks if whole else tiles.plain_suit_masks)

    def _validate(self) -> None:
        if self.edition not in EDITIONS:
            raise RuleError(
                f"edition={self.edition}: this version plays {', '.join(map(str, EDITIONS))}",
                "edition",
                str(self.edition),
            )
        room = self.scoring is Scoring.ROOM
        if room and self.max_pip not in ROOM_SETS:
            raise RuleError(
                f"max_pip={self.max_pip}: the room plays double-6, double-9 or double-12",
                "max_pip",
                str(self.max_pip),
                ", ".join(map(str, ROOM_SETS)),
            )
        least, most = self.fewest_players, self.most_players
        if not least <= self.players <= most:
            raise RuleError(
                f"players={self.players}: must be from {least} to {most}",
                "players",
                str(self.players),
                f"{least}–{most}",
            )
        general = self.scoring is Scoring.GENERAL
        if general and (not self.teams or self.team_size != 2):
            raise RuleError("«Генерал» is played by teams of two", "teams", str(self.teams), "yes")
        if general and self.players not in GENERAL_PLAYERS:
            raise RuleError(
                f"players={self.players}: «Генерал» takes 4, 6 or 8",
                "players",
                str(self.players),
                ", ".join(map(str, GENERAL_PLAYERS)),
            )
        if (
            self.teams
            and not (room or general)
            and (self.players, self.team_size)
            != (
                TABLE_PLAYERS,
                2,
            )
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
        if self.scoring is Scoring.SEA_GOAT and not (self.players == 2 or self.teams):
            raise RuleError(
                f"sea_goat is played by 2 players or by 4 in teams, not {self.players} alone",
                "players",
                str(self.players),
                "2, 4 (teams=yes)",
            )
        if self.scoring is Scoring.BYKOVO and self.teams:
            raise RuleError("the Bykovo tournament is played alone", "teams", "yes", "no")
        if self.target == 0 and self.scoring not in {Scoring.MUGGINS, Scoring.BYKOVO}:
            raise RuleError(
                "target=0 (by the number of players) is Muggins' and Bykovo's own",
                "target",
                "0",
                f"1–{LIMITS['target'][1]}",
            )
        if self.scoring is not Scoring.SEA_GOAT and (self.bald_goat or self.write_off):
            raise RuleError(
                "bald_goat and write_off belong to sea_goat scoring", "scoring", self.scoring
            )

    @property
    def most_players(self) -> int:
        """The most players these rules seat: up to 10 in the room (by set), 7 in the
        Bykovo tournament, else 4."""
        if self.scoring is Scoring.ROOM:
            return ROOM_HANDS[self.max_pip][-1][0]
        if self.scoring is Scoring.BYKOVO:
            return max(BYKOVO_LIMITS)
        if self.scoring is Scoring.GENERAL:
            return max(GENERAL_PLAYERS)
        return TABLE_PLAYERS

    @property
    def fewest_players(self) -> int:
        """Bykovo's and «Генерал»'s rounds are always four (§4.1, §8); the rest start at two."""
        return TABLE_PLAYERS if self.queued else 2

    @property
    def queued(self) -> bool:
        """Whether more may take part than play a round: four play, the others wait (§4, §8)."""
        return self.scoring in {Scoring.BYKOVO, Scoring.GENERAL}

    @property
    def at_table(self) -> int:
        """How many play a round: four in Bykovo and «Генерал» (the others wait)."""
        return min(self.players, TABLE_PLAYERS) if self.queued else self.players

    @property
    def hand(self) -> int:
        """Tiles dealt to each player at the full table."""
        return self.hand_for(self.players)

    def hand_for(self, players: int) -> int:
        """Tiles dealt to each of `players` (fewer than `players` once the room puts some out)."""
        if self.hand_size is not None:
            return self.hand_size
        if self.scoring is Scoring.ROOM:
            return next(size for most, size in ROOM_HANDS[self.max_pip] if players <= most)
        five = self.scoring in {Scoring.CLASSIC, Scoring.MUGGINS}
        return 5 if five and players > 2 else 7

    @property
    def goal(self) -> int:
        """The score that ends the game (Bykovo: that eliminates); `target=0`: Muggins' 250
        for two, else 200 (§7), Bykovo's limit by the participants (§4.2)."""
        if self.target:
            return self.target
        if self.scoring is Scoring.BYKOVO:
            return BYKOVO_LIMITS[self.players]
        return MUGGINS_TWO if self.players == 2 else MUGGINS_MORE

    @property
    def most_doubles(self) -> int:
        """The most doubles one move may put down (Sea Goat's pair is two)."""
        return max(self.doubles, 2 if self.double_pair else 1)

    @property
    def race(self) -> bool:
        """Points scored in play and highest wins: no goat, the places alone count (§6, §7)."""
        return self.scoring in {Scoring.TELEPHONE, Scoring.MUGGINS}

    @property
    def sides(self) -> int:
        """Scoring sides: teams, or one per player."""
        return self.players // self.team_size if self.teams else self.players

    def side_of(self, seat: int) -> int:
        """Teams alternate round the table (§1.2): with 2 teams seats 0, 2 and 1, 3."""
        return seat % self.sides if self.teams else seat

    @property
    def low_wins(self) -> bool:
        """Whether points are bad (Козёл, the room, Bykovo) rather than good."""
        return self.scoring in {Scoring.GOAT, Scoring.ROOM, Scoring.BYKOVO}

    def with_players(self, players: int) -> RuleSet:
        """The same rules for another number of players."""
        return replace(self, players=players)

    def current(self) -> RuleSet:
        """The same rules as the bot plays them now (`EDITION`)."""
        return self if self.edition == EDITION else replace(self, edition=EDITION)

    def options(self) -> dict[str, Any]:
        """The options as plain JSON values (the preset's name included)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init}

    def summary(self) -> str:
        """The preset and every option that differs from it, e.g. `sea_goat target=150`."""
        base = PRESETS[self.preset].rules if self.preset in PRESETS else RuleSet()
        changed = [
            f"{name}={_show(value)}"
            for name, value in self.options().items()
            if name in _KEYS and value != getattr(base, name)
        ]
        return " ".join([self.preset, *changed])

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> RuleSet:
        """The inverse of `options()` (JSON values in, validated rules out); options stored
        before editions are the first edition's."""
        known = {
            f.name: _coerce(f.name, options[f.name], f.default)
            for f in _INIT_FIELDS
            if f.name in options
        }
        known.setdefault("edition", FIRST_EDITION)
        return cls(**known)


_INIT_FIELDS = [f for f in fields(RuleSet) if f.init]
_KEYS = {f.name: f for f in _INIT_FIELDS if f.name not in {"preset", "edition"}}
"""The options a user may set."""


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _check_type(name: str, value: object, default: object) -> None:
    expected: tuple[type, ...]
    if isinstance(default, StrEnum):
        expected = (type(default),)
    elif default is None:
        expected = (int, type(None))
    else:
        expected = (type(default),)
    if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
        raise RuleError(f"{name}={value!r} has the wrong type", name, repr(value))


_TRUE = {"yes", "y", "true", "on", "1", "да"}
_FALSE = {"no", "n", "false", "off", "0", "нет"}


def _coerce(name: str, raw: object, default: object) -> Any:
    """A JSON or typed value as the option's type; `RuleError` naming the valid values."""
    text = str(raw).strip().lower() if not isinstance(raw, bool) else ("yes" if raw else "no")
    if isinstance(default, StrEnum):
        enum = type(default)
        try:
            return enum(text)
        except ValueError:
            valid = ", ".join(e.value for e in enum)
            raise RuleError(f"{name}={raw}: choose one of {valid}", name, str(raw), valid) from None
    if isinstance(default, bool):
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RuleError(f"{name}={raw}: say yes or no", name, str(raw), "yes, no")
    if isinstance(default, str):
        return str(raw)
    if default is None and text in {"auto", "none", ""}:
        return None
    try:
        return int(text)
    except ValueError:
        raise RuleError(
            f"{name}={raw}: expected a whole number", name, str(raw), number=True
        ) from None


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set (its description is in the translation catalogs)."""

    name: str
    rules: RuleSet


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "goat",
            RuleSet(),
        ),
        Preset(
            "goat_teams",
            RuleSet(preset="goat_teams", teams=True),
        ),
        Preset(
            "sea_goat",
            RuleSet(
                preset="sea_goat",
                scoring=Scoring.SEA_GOAT,
                players=2,
                lone_zero=25,
                target=125,
                double_pair=True,
                bald_goat=True,
                write_off=True,
            ),
        ),
        Preset(
            "classic",
            RuleSet(
                preset="classic",
                scoring=Scoring.CLASSIC,
                first_lead=FirstLead.HIGHEST_DOUBLE,
                next_lead=NextLead.FIRST_RULE,
                redeal_doubles=0,
                redeal_suit=0,
                lone_zero=0,
                target=100,
            ),
        ),
        Preset(
            "room",
            RuleSet(
                preset="room",
                scoring=Scoring.ROOM,
                max_pip=9,
                first_lead=FirstLead.HIGHEST_DOUBLE,
                next_lead=NextLead.FIRST_RULE,
                draw=DrawMode.ONE,
                redeal_doubles=0,
                redeal_suit=0,
                target=100,
            ),
        ),
        Preset(
            "donkey",
            RuleSet(preset="donkey", spinner=Spinner.FOUR, doubles=4, closed_doubles=True),
        ),
        Preset(
            "telephone",
            RuleSet(
                preset="telephone",
                scoring=Scoring.TELEPHONE,
                spinner=Spinner.FOUR,
                redeal_doubles=0,
                redeal_suit=0,
                lone_zero=0,
                target=72,
            ),
        ),
        Preset(
            "muggins",
            RuleSet(
                preset="muggins",
                scoring=Scoring.MUGGINS,
                spinner=Spinner.SIDES,
                first_lead=FirstLead.LOT,
                redeal_doubles=0,
                redeal_suit=0,
                lone_zero=0,
                target=0,
            ),
        ),
        Preset(
            "bykovo",
            RuleSet(
                preset="bykovo",
                scoring=Scoring.BYKOVO,
                first_lead=FirstLead.ZERO_ZERO,
                next_lead=NextLead.FIRST_RULE,
                draw=DrawMode.NONE,
                voluntary_pass=True,
                redeal_suit=0,
                lone_zero=0,  # no 0-0 exception: a hand counts its pips (§4.1)
                target=0,
            ),
        ),
        Preset(
            "general",
            RuleSet(
                preset="general",
                scoring=Scoring.GENERAL,
                teams=True,
                next_lead=NextLead.FIRST_RULE,
                draw=DrawMode.NONE,
                redeal_doubles=0,
                redeal_suit=0,
                lone_zero=0,
            ),
        ),
    )
}
PRESET_ALIASES = {"tournament": "bykovo"}
"""Other names typed for a preset."""
ALIASES = {"set": "max_pip"}
"""Other names typed for an option."""


def parse_rules(text: str, players: int | None = None) -> RuleSet:
    """Rules from `/newgame` text: an optional preset name, then `key=value` pairs."""
    words = text.replace(",", " ").split()
    preset = PRESETS["goat"]
    if words and "=" not in words[0]:
        name = words.pop(0).lower()
        name = PRESET_ALIASES.get(name, name)
        if name not in PRESETS:
            valid = ", ".join(PRESETS)
            raise RuleError(
                f"unknown preset {name!r}: choose one of {valid}", "preset", name, valid
            )
        preset = PRESETS[name]
    changes: dict[str, Any] = {}
    if players is not None:
        changes["players"] = players
    typed: dict[str, str] = {}
    for word in words:
        key, eq, raw = word.partition("=")
        key = ALIASES.get(key.lower(), key.lower())
        if not eq or key not in _KEYS:
            valid = ", ".join(_KEYS)
            raise RuleError(f"unknown option {word!r}: options are {valid}", key, raw, valid)
        changes[key] = _coerce(key, raw, _KEYS[key].default)
        typed[key] = raw
    scoring = changes.get("scoring", preset.rules.scoring)
    for key, raw in typed.items():
        if (
            (key in GOAT_ONLY and scoring is not Scoring.GOAT)
            or (key in SEA_GOAT_ONLY and scoring is not Scoring.SEA_GOAT)
            or (key in GENERAL_ONLY and scoring is not Scoring.GENERAL)
        ):
            raise RuleError(f"{key} does not apply to {scoring} scoring", key, raw)
    return replace(preset.rules, **changes)
